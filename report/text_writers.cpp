// CSV (one row per cell, stable columns documented in report/README.md) and the Markdown summary.
#include <cmath>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "judgement/file_baseline.h"
#include "report/columns.h"
#include "report/markup.h"
#include "report/report_file.h"
#include "report/table_totals_writers.h"
#include "report/writers.h"
#include "results/results.h"
#include "util/bytes.h"
#include "util/files.h"
#include "util/stats.h"

namespace kvz {

bool write_text_file(const std::string& path, const std::string& text, std::string& error) {
  return write_file_atomically(path, text, error);
}

bool write_csv(const std::string& path, const RunResults& r, std::string& error) {
  const auto columns = columns_for(kCsv);
  std::string out = csv_header(columns);
  for (const auto& cell : r.cells) out += csv_row(columns, view_of(r, cell));
  return write_text_file(path, out, error);
}

namespace {

// A store file's own blocks: the file's codec and bytes, then every other row as a switch from it.
void write_file_baselines(std::ostringstream& o, const RunResults& r) {
  std::set<BlockSetKey> done;
  for (const auto& c : r.cells) {
    if (!c.current || !done.insert(block_set_of(c.key)).second) continue;
    const auto b = file_baseline(r, c);
    if (!b) continue;
    o << fmt::format("\n### {} as stored: switching from its {}\n\n", markdown_escape(source_label(c.key)),
                     markdown_escape(b->label));
    o << "Times are the row's over the file's codec's (×2.00 takes twice as long); worst block: intrinsic, "
         "compress/decompress.\n\n| codec | stored bytes | vs the file | compress time | decompress time | worst "
         "block µs |\n|---|---:|---:|---:|---:|---:|\n";
    o << fmt::format(
        "| {} (the file's) | {} | {} |  |  | {:.1f}/{:.1f} |\n", markdown_escape(b->label), b->current->stored_bytes,
        b->predicted_delta == 0 ? "exact: " + std::to_string(b->on_disk) + " B on disk"
                                : fmt::format("{:+} B against {} B on disk", b->predicted_delta, b->on_disk),
        b->current->compress_latency.intrinsic.worst_block_ns / 1e3,
        b->current->decompress_latency.intrinsic.worst_block_ns / 1e3);
    for (const auto& s : b->switches)
      o << fmt::format(
          "| {} | {} | {} | ×{:.2f} | ×{:.2f} | {:.1f}/{:.1f} |\n", markdown_escape(s.label), s.cell->stored_bytes,
          s.saving_pct >= 0 ? fmt::format("saves {:.1f} %", s.saving_pct) : fmt::format("{:.1f} % more", -s.saving_pct),
          s.compress_time_x, s.decompress_time_x, s.worst_block_us[0], s.worst_block_us[1]);
  }
}

// The run in one line, its command line, and the failed cells.
void write_run_header(std::ostringstream& o, const RunResults& r) {
  const auto& m = r.meta;
  const auto md = [](std::string_view text) { return markdown_escape(text); };  // names are data
  o << "## kvzbench results\n\n";
  o << fmt::format("kvzbench {} (rev {}), {} {}, on {} ({} cores), {} repetitions, timer {} (overhead {:.1f} ns){}\n\n",
                   md(m.kvzbench_version), md(m.git_revision), md(m.compiler), md(m.build_type), md(m.cpu_model),
                   m.cores, m.repetitions, md(m.timer), m.timer_overhead_ns, m.interrupted ? ", **interrupted**" : "");
  if (!m.command_line.empty()) o << "Command: " << md(m.command_line) << "\n\n";
  size_t failed = 0;
  for (const auto& c : r.cells) failed += c.status != CellStatus::Ok;
  if (!failed) return;
  o << "### Failed cells (" << failed << ")\n\n";
  for (const auto& c : r.cells)
    if (c.status != CellStatus::Ok) o << "- " << md(c.key.id()) << ": " << md(c.failure) << "\n";
  o << "\n";
}

// The column table's Markdown columns, a row per OK cell.
void write_cell_table(std::ostringstream& o, const RunResults& r) {
  o << "### Cells\n\nMB/s are decimal (10^6 bytes/s of uncompressed data), medians over repetitions.\n\n";
  const auto columns = columns_for(kMarkdown);
  const CellResult* sample = nullptr;  // numbers align right, as the first OK row has them
  for (const auto& c : r.cells)
    if (!sample && c.status == CellStatus::Ok) sample = &c;
  std::string header = "|", rule = "|";
  for (const Column* c : columns) {
    header += fmt::format(" {} |", markdown_escape(c->title));
    const bool number = sample && !c->byte_size && c->value(view_of(r, *sample)).is_number();
    rule += number ? "---:|" : "---|";
  }
  o << header << "\n" << rule << "\n";
  for (const auto& c : r.cells) {
    if (c.status != CellStatus::Ok) continue;
    const CellView view = view_of(r, c);
    o << "|";
    for (const Column* col : columns) o << " " << markdown_escape(display_text(*col, view)) << " |";
    o << "\n";
  }
}

// The cost model's every row, per group (--workload).
void write_costs(std::ostringstream& o, const RunResults& r, const Workload& workload,
                 const std::vector<Device>& devices) {
  o << "### Monthly cost (" << workload_text(workload) << ")\n\n";
  for (const auto& g : cost_model(r, workload, devices)) {
    o << "**" << markdown_escape(g.group)
      << "**\n\n| rank | codec | total $ | storage $ | stored GB | CPU $ | cores "
         "|\n|---:|---|---:|---:|---:|---:|---:|\n";
    for (size_t i = 0; i < g.rows.size(); ++i) {
      const CostRow& c = g.rows[i];
      o << fmt::format("| {} | {} | {:.2f} | {:.2f} | {:.0f} | {:.2f} | {:.2f} |\n", i + 1, markdown_escape(c.label),
                       c.total_usd, c.storage_usd, c.stored_gb, c.cpu_usd, c.cores);
    }
    o << "\n";
  }
}

// With store profiles: what each store would write, per codec.
void write_store_table(std::ostringstream& o, const RunResults& r) {
  const auto stores = store_table(r);
  if (stores.empty()) return;
  o << "### Store profiles\n\nStored bytes are the data blocks (and a dictionary kept in the file); whole "
       "file adds the index, properties, metaindex and footer (RocksDB and LevelDB), \"—\" where not "
       "modelled.\n\n| store | codec | stored bytes | whole file bytes | stored ratio | compress MB/s | "
       "decompress MB/s | worst call us | checked |\n";
  o << "|---|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& s : stores)
    o << fmt::format("| {} | {} | {} | {} | {:.3f} | {:.1f} | {:.1f} | {:.1f} | {} |\n", markdown_escape(s.profile),
                     markdown_escape(s.label), s.stored_bytes, s.file_bytes ? std::to_string(s.file_bytes) : "—",
                     s.stored_ratio, s.compress_mbps, s.decompress_mbps, s.worst_us,
                     s.caveat.empty() ? "yes" : "no: " + markdown_escape(s.caveat));
  o << "\n";
}

}  // namespace

std::string markdown_summary(const RunResults& r, const ReportOptions& opt) {
  std::ostringstream o;
  write_fleet_answer_markdown(o, r);  // a fleet survey opens on its answer
  write_run_header(o, r);
  if (r.summary) o << summary_text(r) << "\n\n";  // a run shown in part says what is shown
  write_answer_markdown(o, r, opt.recommend);     // the answer first, then the tables
  write_cell_table(o, r);
  write_file_baselines(o, r);
  write_table_totals_markdown(o, r);
  if (opt.workload) {
    write_costs(o, r, *opt.workload, opt.devices);
    write_level_plans_markdown(o, r, *opt.workload);
  }
  write_store_table(o, r);
  return o.str();
}

bool write_markdown(const std::string& path, const RunResults& r, const ReportOptions& opt, std::string& error) {
  return write_text_file(path, markdown_summary(r, opt), error);
}

bool write_markdown(const std::string& path, const RunResults& r, std::string& error) {
  return write_markdown(path, r, ReportOptions{}, error);
}

}  // namespace kvz
