// The answer in the Markdown (results.md, `report --md`), first after the run's line: what it
// stands on, a table per workload group with each pick's figures, its whole tie chain and the
// line that applies it in the run's store, then the marks explained (report/answer.h).
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "report/answer.h"
#include "report/markup.h"
#include "report/writers.h"
#include "results/results.h"
#include "util/text.h"

namespace kvz {

namespace {

// A line in a code span: whole, on one line, so it copies as it is. Its names are data (a table
// named with a backtick): the span's fence is one backtick longer than the longest run inside it
// (CommonMark), a '|' that would end the table cell is escaped (GitHub renders "\|" in a cell's
// code span as '|'), and a control character shows as an escape (util/text.h one_line).
std::string code_span(const std::string& line) {
  std::string text;
  size_t run = 0, longest = 0;
  for (const char c : one_line(line)) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    text += c == '|' ? std::string("\\|") : std::string(1, c);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " : "") + text + (pad ? " " : "") + fence;
}

void write_group(std::ostream& o, const GroupRecommendations& g, const std::string& store) {
  // Names (groups, tables, hosts) are data: escaped for Markdown (report/markup.h).
  o << "**" << markdown_escape(g.group)
    << "**\n\n| workload | choice | stored ratio | compress MB/s | decompress MB/s | worst block µs |"
    << (store.empty() ? "" : " " + store + " configuration |") << " rule |\n";
  o << "|---|---|---:|---:|---:|---:|" << (store.empty() ? "" : "---|") << "---|\n";
  for (const auto& p : g.picks) {
    o << "| " << markdown_escape(p.workload) << " | " << markdown_escape(p.choice_text()) << " | ";
    if (p.choice)
      o << fmt::format("{:.3f} | {:.1f} | {:.1f} | {:.1f} |", p.choice->stored_ratio, p.choice->compress_mbps,
                       p.choice->decompress_mbps, p.choice->worst_block_us);
    else
      o << " |  |  |  |";
    if (!store.empty())
      o << " " << (p.config ? (p.config->writable ? code_span(p.config->line) : markdown_escape(p.config->line)) : "")
        << " |";
    o << " " << markdown_escape(p.rule) << " |\n";
  }
  o << "\n";
}

}  // namespace

void write_answer_markdown(std::ostream& o, const RunResults& r, const RecommendOptions& opt) {
  const auto groups = run_answer(r, opt);
  o << "### The answer\n\n";
  for (const auto& line : answer_header_lines(r)) o << markdown_escape(line) << "  \n";
  o << "\nThe pick per workload, its figures (stored ratio, median MB/s, the worst block's intrinsic cost) and, "
       "under a store profile, the line that applies it in that store's syntax.\n\n";
  const std::string store = answer_store(r);
  MarksSeen seen = marks_of_run(r);
  for (const auto& g : groups) {
    write_group(o, g, store);
    for (const auto& p : g.picks) seen.tie = seen.tie || !p.ties.empty();
  }
  const auto marks = marks_used(seen);
  if (marks.empty()) return;
  o << "Marks:\n\n";
  for (const auto& m : marks) o << "- `" << m.mark << "`: " << m.meaning << "\n";
  o << "\n";
}

}  // namespace kvz
