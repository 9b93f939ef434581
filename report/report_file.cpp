// `kvzbench report FILE` at any size (report/report_file.h): a first pass over the file pools
// every cell as the answers read them and indexes its block sets (each cell's place in the file,
// the set's input bytes and reference speeds); a run small enough is then shown whole, and a
// larger one in part: the cells of the block sets shown and of the first failed cells are read
// again from their places, every store file's cells once more for the totals per table, and the
// CSV streams the whole file a second time.
#include "report/report_file.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "judgement/analysis.h"
#include "report/columns.h"
#include "results/cell_view.h"
#include "results/results.h"
#include "results/results_stream.h"
#include "results/run_summary.h"
#include "results/table_totals.h"
#include "util/files.h"
#include "util/output_target.h"

namespace kvz {

namespace {

// The median speeds of a block set's reference row (memcpy): what "relative to memcpy" divides by.
struct ReferenceSpeeds {
  double compress = 0, decompress = 0;
};

// A block set as the first pass saw it.
struct SetInfo {
  std::vector<CellPlace> places;  // its cells, in file order
  uint64_t input_bytes = 0;       // the most any of its cells measured: the set's data
  std::optional<ReferenceSpeeds> reference;
  bool store_file = false;  // a store file's own blocks, with the file's current row
};

// The CSV streamed to its file a row per cell as the cells come, relative speeds against each
// set's reference row (what CellView reads of it: its median speeds).
class CsvRows {
 public:
  explicit CsvRows(const std::string& path) : out_(path), columns_(columns_for(kCsv)) {
    reference_.reference = true;
    reference_.compress_mbps = reference_.decompress_mbps = {0.0};
  }
  bool open(std::string& error) {
    text_ = csv_header(columns_);
    return out_.open(error);
  }
  void add(const RunResults& run, const CellResult& c, const std::optional<ReferenceSpeeds>& speeds) {
    if (speeds) reference_.compress_mbps[0] = speeds->compress, reference_.decompress_mbps[0] = speeds->decompress;
    text_ += csv_row(columns_, CellView{run, c, speeds ? &reference_ : nullptr, 0});
    if (text_.size() >= (1u << 20)) {
      written_ = written_ && out_.write(text_, error_);
      text_.clear();
    }
  }
  bool commit(std::string& error) {
    if (written_ && out_.write(text_, error_) && out_.commit(error_)) return true;
    error = error_;
    return false;
  }

 private:
  StreamedFileWriter out_;
  std::vector<const Column*> columns_;
  CellResult reference_;
  std::string text_, error_;
  bool written_ = true;
};

// What the first pass keeps: the run's metadata, every cell pooled, the block sets indexed, and
// the cells themselves while they are few; and the CSV, written as the cells come while each
// came after its block set's reference row (kvzbench writes that row first in each set).
struct FileIndex {
  RunResults run;  // meta; and every cell while `whole`
  bool whole = true;
  size_t cells = 0, failed = 0;
  std::map<BlockSetKey, uint32_t> set_of;
  std::vector<SetInfo> sets;  // in the order their first cells come
  std::vector<CellPlace> failed_places;
  std::optional<ReferenceSpeeds> any_reference;  // the run's first reference row: a set without one uses it
  std::shared_ptr<PooledCells> pooled;           // none when only the CSV is written
  std::unique_ptr<CsvRows> csv;                  // dropped at a cell before its set's reference row

  void add(CellResult& c, CellPlace place, const ReportScale& scale) {
    if (pooled) pooled->add(run, c);
    const auto [it, added] = set_of.emplace(block_set_of(c.key), static_cast<uint32_t>(sets.size()));
    if (added) sets.emplace_back();
    SetInfo& set = sets[it->second];
    set.places.push_back(place);
    set.input_bytes = std::max(set.input_bytes, c.input_bytes);
    const bool ok = c.status == CellStatus::Ok;
    // As reference_of (cell_view.h) finds it: the set's first OK reference row with speeds.
    if (c.reference && ok && !c.compress_mbps.empty()) {
      const ReferenceSpeeds speeds{c.compress_median(), c.decompress_median()};
      if (!set.reference) set.reference = speeds;
      if (!any_reference) any_reference = speeds;
    }
    if (csv && set.reference)
      csv->add(run, c, set.reference);
    else
      csv = nullptr;  // the set's reference row may come later: a second pass writes the CSV
    set.store_file = set.store_file || (c.current && c.on_disk_bytes && ok);
    if (!ok && failed++ < scale.shown_failed) failed_places.push_back(place);
    if (++cells > scale.whole_cells && whole) {
      whole = false;
      run.cells = {};
    }
    if (whole) run.cells.push_back(std::move(c));
  }

  std::optional<ReferenceSpeeds> reference_of(const CellKey& key) const {
    const auto it = set_of.find(block_set_of(key));
    return it != set_of.end() && sets[it->second].reference ? sets[it->second].reference : any_reference;
  }
};

// Calls `progress` with the share of the cells' part of the file read (the Google Benchmark rows
// before it are only scanned), at most four times a second.
class Progress {
 public:
  Progress(const std::string& path, const ReadProgress& progress) : progress_(progress) {
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(path, ec);
    bytes_ = ec || !progress_ ? 0 : static_cast<double>(bytes);
  }
  void at(CellPlace place) {
    if (cells_++ == 0) first_ = static_cast<double>(place.offset);
    if (bytes_ <= first_ || cells_ % 1024 != 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    progress_(std::min(1.0, (static_cast<double>(place.offset) - first_) / (bytes_ - first_)));
  }

 private:
  const ReadProgress& progress_;
  double bytes_ = 0, first_ = 0;  // the file's size, where its first cell starts
  size_t cells_ = 0;
  std::chrono::steady_clock::time_point last_{};
};

bool index_file(const std::string& path, const ReportScale& scale, FileIndex& index, std::string& error,
                const ReadProgress& progress) {
  Progress shown(path, progress);
  ResultsStream stream;
  stream.on_head = [&](const RunResults& head) {
    index.run.schema_version = head.schema_version;
    index.run.meta = head.meta;
  };
  stream.on_cell = [&](CellResult& c, const std::string&, CellPlace place) {
    shown.at(place);
    index.add(c, place, scale);
  };
  return stream_results(path, stream, error);
}

// The block sets shown: the most input bytes first (the earlier set on a tie), while both limits hold.
std::vector<uint32_t> shown_sets(const FileIndex& index, const ReportScale& scale) {
  std::vector<uint32_t> order(index.sets.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return index.sets[a].input_bytes > index.sets[b].input_bytes; });
  std::vector<uint32_t> shown;
  size_t cells = 0;
  for (const uint32_t s : order) {
    const size_t n = index.sets[s].places.size();
    if (shown.size() == scale.shown_block_sets || cells + n > scale.whole_cells) break;
    shown.push_back(s);
    cells += n;
  }
  return shown;
}

// The totals per table over every store file: each file's cells read again, a file at a time.
bool total_tables(const std::string& path, const FileIndex& index, std::vector<TableTotal>& totals,
                  std::string& error) {
  const auto& corpora = index.run.meta.corpora;
  if (std::none_of(corpora.begin(), corpora.end(), [](const CorpusInfo& c) { return !c.table.empty(); })) return true;
  std::vector<CellPlace> places;
  std::vector<size_t> file_cells;  // per store file, in order
  for (const auto& set : index.sets) {
    if (!set.store_file) continue;
    places.insert(places.end(), set.places.begin(), set.places.end());
    file_cells.push_back(set.places.size());
  }
  TableTotalsBuilder builder(index.run);
  std::vector<CellResult> file;
  size_t next = 0;
  const bool ok = read_cells_at(
      path, places,
      [&](CellResult& c) {
        file.push_back(std::move(c));
        if (file.size() < file_cells[next]) return;
        std::vector<const CellResult*> cells;
        for (const auto& f : file) cells.push_back(&f);
        builder.add_file(cells);
        file.clear();
        ++next;
      },
      error);
  if (ok) totals = builder.finish();
  return ok;
}

// The run shown: the cells of the sets shown and the first failed cells, in file order, with
// the summary of every cell.
bool read_shown(const std::string& path, const FileIndex& index, const ReportScale& scale, RunResults& shown,
                std::string& error) {
  const std::vector<uint32_t> sets = shown_sets(index, scale);
  auto summary = std::make_shared<RunSummary>();
  std::vector<CellPlace> places = index.failed_places;
  for (const uint32_t s : sets) {
    places.insert(places.end(), index.sets[s].places.begin(), index.sets[s].places.end());
    summary->shown_cells += index.sets[s].places.size();
  }
  std::sort(places.begin(), places.end(), [](const CellPlace& a, const CellPlace& b) { return a.offset < b.offset; });
  places.erase(std::unique(places.begin(), places.end(),
                           [](const CellPlace& a, const CellPlace& b) { return a.offset == b.offset; }),
               places.end());
  shown.schema_version = index.run.schema_version;
  shown.meta = index.run.meta;
  if (!read_cells_at(
          path, places, [&](CellResult& c) { shown.cells.push_back(std::move(c)); }, error) ||
      !total_tables(path, index, summary->table_totals, error))
    return false;
  summary->cells = index.cells;
  summary->block_sets = index.sets.size();
  summary->failed = index.failed;
  summary->shown_block_sets = sets.size();
  summary->shown_by = "the most input bytes";
  summary->pooled = index.pooled;
  shown.summary = summary;
  return true;
}

bool write_shown(const ReportOutputs& out, const RunResults& run, const ReportOptions& opt, std::string& error) {
  if (!out.html.empty() && !write_html(out.html, {run}, opt, error)) return false;
  return out.md.empty() || write_markdown(out.md, run, opt, error);
}

// The CSV of a file whose cells do not each follow their set's reference row: the file streamed
// again, once every set's reference is known.
bool stream_csv(const std::string& path, const std::string& csv_path, const FileIndex& index, std::string& error,
                const ReadProgress& progress) {
  CsvRows csv(csv_path);
  if (!csv.open(error)) return false;
  Progress shown(path, progress);
  ResultsStream stream;
  stream.on_cell = [&](CellResult& c, const std::string&, CellPlace place) {
    shown.at(place);
    csv.add(index.run, c, index.reference_of(c.key));
  };
  return stream_results(path, stream, error) && csv.commit(error);
}

}  // namespace

bool report_file(const std::string& path, const ReportOutputs& out, const ReportOptions& opt, std::string& error,
                 const ReportScale& scale, const ReadProgress& progress) {
  FileIndex index;
  if (!out.html.empty() || !out.md.empty()) index.pooled = std::make_shared<PooledCells>();
  // The CSV is written as the first pass reads where it can still be taken back (a regular file,
  // renamed into place at the end); a pipe or a terminal gets it once the file is read.
  if (!out.csv.empty() && classify_output(out.csv).kind == OutputKind::kReplace) {
    index.csv = std::make_unique<CsvRows>(out.csv);
    if (!index.csv->open(error)) return false;
  }
  if (!index_file(path, scale, index, error, progress)) return false;
  if (index.whole)
    return write_shown(out, index.run, opt, error) && (out.csv.empty() || write_csv(out.csv, index.run, error));
  // In part the file is read again (the cells shown, a second CSV pass): a pipe cannot be.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    error = path + ": not a regular file, and a result of " + std::to_string(index.cells) +
            " cells is read twice: save it to a file first";
    return false;
  }
  if (!out.html.empty() || !out.md.empty()) {
    RunResults shown;
    if (!read_shown(path, index, scale, shown, error) || !write_shown(out, shown, opt, error)) return false;
  }
  if (out.csv.empty()) return true;
  return index.csv ? index.csv->commit(error) : stream_csv(path, out.csv, index, error, progress);
}

std::string summary_text(const RunResults& run) {
  if (!run.summary) return "";
  const RunSummary& s = *run.summary;
  size_t failed_held = 0;
  for (const auto& c : run.cells) failed_held += c.status != CellStatus::Ok;
  std::string text = fmt::format(
      "This result has {} cells in {} block sets, too many to show each: the answer (the recommendations, costs and "
      "plans), the store table and the totals per table are over every cell; the cell table and charts show the {} "
      "block sets with {} ({} cells)",
      s.cells, s.block_sets, s.shown_block_sets, s.shown_by, s.shown_cells);
  if (s.failed) text += fmt::format(", and {} of the {} failed cells", failed_held, s.failed);
  return text + ". The CSV (kvzbench report FILE --csv cells.csv) has every cell.";
}

}  // namespace kvz
