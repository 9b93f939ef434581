// The answer on the console, first in what `kvzbench run` prints: what it stands on (the answer
// header), the pick per workload group with the line that applies it, and the marks explained
// (report/answer.h computes all three, for every output).
#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "report/answer.h"
#include "report/console.h"
#include "report/table_totals_writers.h"
#include "util/text.h"

namespace kvz {

namespace {

// `text` cut after each `separator`, which stays at the end of its piece; a ':' of "::" (C++'s
// leveldb::kSnappyCompression) is no place to cut.
std::vector<std::string> split_after(std::string_view text, char separator) {
  std::vector<std::string> pieces;
  size_t start = 0;
  auto doubled = [&](size_t i) {
    return separator == ':' && ((i + 1 < text.size() && text[i + 1] == ':') || (i > 0 && text[i - 1] == ':'));
  };
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == separator && !doubled(i)) {
      pieces.emplace_back(text.substr(start, i + 1 - start));
      start = i + 1;
    }
  if (start < text.size()) pieces.emplace_back(text.substr(start));
  return pieces;
}

// Where a configuration line may break: after each ';' (between options); a piece still wider
// than `room` after its commas, then its list items (RocksDB's compression_per_level=a:b:c),
// then its spaces. RocksDB 7.8's parser trims the white space around each option, value and
// list item (tests/stores/config_line_test.cpp), CQL and the HBase shell ignore it.
void add_pieces(std::string_view text, const char* separators, size_t room, std::vector<std::string>& out) {
  if (!*separators || display_width(text) <= room) {
    out.emplace_back(text);
    return;
  }
  for (const auto& piece : split_after(text, *separators)) add_pieces(piece, separators + 1, room, out);
}

std::vector<std::string> config_pieces(std::string_view line, size_t room) {
  std::vector<std::string> out;
  for (const auto& option : split_after(line, ';')) add_pieces(option, ",: ", room, out);
  return out;
}

std::string trim_right(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

std::string wrap_config_line(std::string_view lead, std::string_view line, size_t width) {
  const size_t indent = std::min(display_width(lead), width / 3);
  const size_t room = width > indent ? width - indent : 1;
  std::string out, current(lead);
  bool fresh = true;  // nothing of the line on `current` yet
  for (std::string piece : config_pieces(line, room)) {
    if (!fresh && display_width(current) + display_width(piece) > width) {
      out += trim_right(current) + "\n";
      current = std::string(indent, ' ');
      piece.erase(0, piece.find_first_not_of(' '));
    }
    current += piece;
    fresh = false;
  }
  return out + trim_right(current);
}

namespace {

// The figures beside a pick: stored ratio, compress / decompress MB/s, worst block.
std::string figures_text(const Candidate& c) {
  return fmt::format("{:7.3f}  {:8.1f} / {:8.1f}  {:9.1f} us", c.stored_ratio, c.compress_mbps, c.decompress_mbps,
                     c.worst_block_us);
}

constexpr size_t kWorkloadColumn = 19;  // "  cold data        ": where a pick's name starts

// The choice and its ties in `room` columns: ties that do not fit become "+N tied" (the
// Markdown and HTML list them all). Sets `cut` when some were cut.
std::string short_choice(const Recommendation& pick, size_t room, bool& cut) {
  std::string text = pick.choice_text();
  if (display_width(text) <= room) return text;
  text = pick.choice->label;
  size_t shown = 0;
  for (const auto& t : pick.ties) {
    const std::string more = fmt::format(" +{} tied", pick.ties.size() - shown - 1);
    if (display_width(text) + 3 + display_width(t.label) + display_width(more) > room) break;
    text += " ≈ " + t.label;
    ++shown;
  }
  cut = cut || shown < pick.ties.size();
  return shown < pick.ties.size() ? fmt::format("{} +{} tied", text, pick.ties.size() - shown) : text;
}

// What the console did that the legend under the answer explains.
struct Printed {
  MarksSeen marks;
  bool wrapped_line = false;  // a configuration line took more than one line
};

// One pick: workload, choice, figures (on a line of their own when the width leaves no room
// for an 18-column choice), then the store's line, wrapped at ';'.
void print_pick(std::ostream& out, const Recommendation& pick, size_t width, Printed& printed) {
  if (!pick.choice) {
    // The rule's whole text, wrapped: a slow machine meets none of them, and it still fits.
    out << wrap_words(fmt::format("  {:<16} none:", pick.workload), pick.rule, width) << "\n";
    return;
  }
  MarksSeen& seen = printed.marks;
  const std::string figures = figures_text(*pick.choice);
  const size_t figures_width = display_width(figures) + 1;
  bool cut = false;
  std::string choice;
  bool one_line = width >= kWorkloadColumn + 18 + figures_width;
  if (one_line) {
    choice = short_choice(pick, width - kWorkloadColumn - figures_width, cut);
    one_line = display_width(choice) <= width - kWorkloadColumn - figures_width;  // "+N tied" may not fit
  }
  if (!one_line) {
    cut = false;
    choice = short_choice(pick, width - std::min(width, kWorkloadColumn), cut);
  }
  seen.cut_tie = seen.cut_tie || cut;
  seen.tie = seen.tie || !pick.ties.empty();
  // Short choices padded to 18 columns, so the figures of most picks line up.
  const std::string pad(18 - std::min<size_t>(18, display_width(choice)), ' ');
  if (one_line)
    out << fmt::format("  {:<16} {}{} {}\n", pick.workload, choice, pad, figures);
  else
    out << fmt::format("  {:<16} {}\n{}{}\n", pick.workload, choice, std::string(kWorkloadColumn, ' '), figures);
  if (pick.config && pick.config->writable) {
    const std::string line = wrap_config_line(fmt::format("    {}: ", pick.config->store), pick.config->line, width);
    printed.wrapped_line = printed.wrapped_line || line.find('\n') != std::string::npos;
    out << line << "\n";
  }
  // Why this pick, in figures (judgement/workload_rules.h), and what the store's code would need.
  out << wrap_words("    why:", pick.summary, width) << "\n";
  if (!pick.code_change.empty()) out << wrap_words("    code change:", pick.code_change, width) << "\n";
}

void print_groups(std::ostream& out, const std::vector<GroupRecommendations>& groups, size_t width, Printed& printed) {
  for (const auto& g : groups) {
    out << "\n"
        << wrap_words(fmt::format("recommendations, {}", g.group),
                      fmt::format("(stored ratio, c/d MB/s by {}, worst block):",
                                  g.candidates.empty() ? "" : g.candidates.front().basis),
                      width)
        << "\n";
    for (const auto& pick : g.picks) print_pick(out, pick, width, printed);
  }
}

// How to copy a line the console wrapped.
constexpr const char* kCopyNote =
    "A configuration line wraps between its options (after ';' or ','): copied as it stands it still "
    "works, since RocksDB, CQL and the HBase shell ignore the line breaks and spaces between options; "
    "results.md and report.html hold each on one line.";

}  // namespace

void print_answer_header(std::ostream& out, const RunResults& results, size_t width) {
  for (const auto& line : answer_header_lines(results)) out << wrap_text(line, width) << "\n";
}

void print_recommendations(std::ostream& out, const RunResults& results, size_t width) {
  Printed printed;
  print_groups(out, run_answer(results, RecommendOptions{}), width, printed);
}

void print_marks(std::ostream& out, const MarksSeen& seen, size_t width) {
  const auto marks = marks_used(seen);
  if (marks.empty()) return;
  out << "\nmarks:\n";
  for (const auto& m : marks) out << wrap_words(fmt::format("  {:<12}", m.mark), m.meaning, width) << "\n";
}

void print_answer(std::ostream& out, const RunResults& results, size_t width) {
  print_answer_header(out, results, width);
  print_fleet_answer(out, results, width);
  Printed printed;
  printed.marks = marks_of_run(results);
  print_groups(out, run_answer(results, RecommendOptions{}), width, printed);
  if (printed.wrapped_line) out << "\n" << wrap_text(kCopyNote, width) << "\n";
  print_marks(out, printed.marks, width);
}

}  // namespace kvz
