#include "results/table_totals.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "results/cell_view.h"
#include "results/results.h"
#include "results/run_summary.h"

namespace kvz {

namespace {

// A table's (or a level's) files measured one way: the cells' table, level, store profile, cache
// and threads.
using TableKey = std::tuple<std::string, int, std::string, std::string, int>;
// One file on one host measured one way: a block set, told apart by host and CPU model too.
using FileKey = std::tuple<std::string, std::string, std::string, std::string, std::string, uint64_t, std::string, int,
                           std::string>;

FileKey file_of(const CellKey& k) {
  return {k.source, k.host, k.cpu, k.record_mode, k.layout, k.block_size, k.cache, k.threads, k.profile};
}

// The table of a cell's file: the corpora entry of its source (and host, in a fleet merge).
const CorpusInfo* corpus_of(const RunResults& run, const CellKey& k) {
  for (const auto& c : run.meta.corpora)
    if (c.name == k.source && !c.table.empty() && (c.host.empty() || c.host == k.host)) return &c;
  return nullptr;
}

double seconds(const CellResult& c, double mbps) {
  return mbps > 0 ? static_cast<double>(c.input_bytes) / (mbps * 1e6) : 0.0;
}

// What one file adds: its size, its data blocks, and the factor from its measured blocks to all
// of its data blocks (1 when it was read whole).
struct FileBytes {
  uint64_t file = 0, data = 0;
  double scale = 1;
};

FileBytes file_bytes(const CorpusInfo& corpus, const CellResult& current) {
  FileBytes f;
  const uint64_t measured = *current.on_disk_bytes;
  f.data = corpus.data_bytes ? corpus.data_bytes : measured;
  f.file = std::max(corpus.bytes, f.data);  // a result without the files' sizes: the data blocks
  f.scale = measured ? static_cast<double>(f.data) / static_cast<double>(measured) : 1.0;
  return f;
}

}  // namespace

// Outside the anonymous namespace: Impl derives from it (a base of internal linkage would give
// Impl, which the header declares, a subobject no other unit could name).
struct TableTotalsState {
  const RunResults& run;
  bool by_level = false;
  std::map<TableKey, TableTotal> totals;
  std::vector<TableKey> order;
  std::map<TableKey, std::map<std::string, TableCandidate>> rows;
  std::map<TableKey, std::map<std::string, size_t>> row_files;  // sources each row was measured on
  std::map<TableKey, size_t> sources;
  std::map<TableKey, std::set<std::string>> currents, hosts, cpus;

  void add_file(const CellResult& current, const std::vector<const CellResult*>& cells) {
    const CorpusInfo* corpus = corpus_of(run, current.key);
    if (!corpus || (by_level && corpus->level < 0)) return;
    const int level = by_level ? corpus->level : -1;
    const TableKey key{corpus->table, level, current.key.profile, current.key.cache, current.key.threads};
    if (!totals.count(key)) order.push_back(key);
    TableTotal& t = totals[key];
    t.table = corpus->table;
    t.level = level;
    t.profile = current.key.profile;
    const FileBytes f = file_bytes(*corpus, current);
    t.files += std::max<uint64_t>(corpus->files, 1);
    ++sources[key];
    t.current_bytes += f.file;
    t.data_bytes += f.data;
    t.input_bytes += static_cast<uint64_t>(std::llround(f.scale * static_cast<double>(current.input_bytes)));
    t.threads = current.key.threads;
    const std::string cpu = current.key.cpu.empty() ? run.meta.cpu_model : current.key.cpu;
    t.current_compress_seconds[cpu] += f.scale * seconds(current, current.compress_median());
    t.current_decompress_seconds[cpu] += f.scale * seconds(current, current.decompress_median());
    currents[key].insert(cell_label(run, current));
    const std::string host = !current.key.host.empty() ? current.key.host
                             : !corpus->host.empty()   ? corpus->host
                                                       : run.meta.hostname;
    hosts[key].insert(host);
    t.bytes_by_host[host] += f.file;
    cpus[key].insert(cpu);
    for (const CellResult* c : cells) add_row(key, *c, cpu, f);
  }

  void add_row(const TableKey& key, const CellResult& c, const std::string& cpu, const FileBytes& f) {
    if (c.current || c.reference || c.status != CellStatus::Ok) return;
    const std::string label = cell_label(run, c);
    TableCandidate& row = rows[key][label];
    row.label = label;
    row.bytes += f.file - f.data + static_cast<uint64_t>(std::llround(f.scale * static_cast<double>(c.stored_bytes)));
    row.compress_seconds[cpu] += f.scale * seconds(c, c.compress_median());
    row.decompress_seconds[cpu] += f.scale * seconds(c, c.decompress_median());
    ++row_files[key][label];
  }

  std::vector<TableTotal> finish() {
    std::vector<TableTotal> out;
    for (const auto& key : order) {
      TableTotal t = totals[key];
      t.current = join(currents[key], " + ");
      t.hosts.assign(hosts[key].begin(), hosts[key].end());
      t.cpus.assign(cpus[key].begin(), cpus[key].end());
      for (auto& [label, row] : rows[key]) {
        if (row_files[key][label] != sources[key]) continue;
        row.saving_pct = t.current_bytes
                             ? 100.0 * (1.0 - static_cast<double>(row.bytes) / static_cast<double>(t.current_bytes))
                             : 0.0;
        t.candidates.push_back(row);
      }
      std::stable_sort(t.candidates.begin(), t.candidates.end(),
                       [](const TableCandidate& a, const TableCandidate& b) { return a.bytes < b.bytes; });
      out.push_back(std::move(t));
    }
    return out;
  }

  static std::string join(const std::set<std::string>& items, const char* sep) {
    std::string s;
    for (const auto& i : items) s += (s.empty() ? "" : sep) + i;
    return s;
  }
};

struct TableTotalsBuilder::Impl : TableTotalsState {};

TableTotalsBuilder::TableTotalsBuilder(const RunResults& run, bool by_level)
    : impl_(std::make_unique<Impl>(Impl{{run, by_level, {}, {}, {}, {}, {}, {}, {}, {}}})) {}
TableTotalsBuilder::~TableTotalsBuilder() = default;

void TableTotalsBuilder::add_file(const std::vector<const CellResult*>& cells) {
  for (const CellResult* c : cells)
    if (c->current && c->on_disk_bytes && c->status == CellStatus::Ok) impl_->add_file(*c, cells);
}

std::vector<TableTotal> TableTotalsBuilder::finish() { return impl_->finish(); }

namespace {

std::vector<TableTotal> totals_of(const RunResults& run, bool by_level) {
  std::map<FileKey, std::vector<const CellResult*>> files;
  std::vector<FileKey> order;
  for (const auto& c : run.cells) {
    auto& cells = files[file_of(c.key)];
    if (cells.empty()) order.push_back(file_of(c.key));
    cells.push_back(&c);
  }
  TableTotalsBuilder b(run, by_level);
  for (const auto& f : order) b.add_file(files[f]);
  return b.finish();
}

}  // namespace

std::vector<TableTotal> table_totals(const RunResults& run) {
  if (run.summary) return run.summary->table_totals;  // a run shown in part: every file's, not the held ones'
  return totals_of(run, false);
}

std::vector<TableTotal> level_totals(const RunResults& run) { return totals_of(run, true); }

std::string data_share_text(const TableTotal& t) {
  return t.current_bytes
             ? fmt::format("{:.1f} %", 100.0 * static_cast<double>(t.data_bytes) / static_cast<double>(t.current_bytes))
             : std::string("-");
}

bool is_fleet(const RunResults& run) {
  std::set<std::string> hosts;
  for (const auto& c : run.cells)
    if (!c.key.host.empty()) hosts.insert(c.key.host);
  for (const auto& c : run.meta.corpora)
    if (!c.host.empty()) hosts.insert(c.host);
  return hosts.size() > 1;
}

const TableCandidate* largest_saving(const TableTotal& t) {
  return t.candidates.empty() ? nullptr : &t.candidates.front();
}

std::string time_factor_text(const SecondsByCpu& candidate, const SecondsByCpu& current) {
  std::string s;
  for (const auto& [cpu, base] : current) {
    const auto it = candidate.find(cpu);
    const bool known = base > 0 && it != candidate.end() && it->second > 0;
    if (!s.empty()) s += ", ";
    s += known ? fmt::format("× {:.1f}", it->second / base) : std::string("× ?");
    if (current.size() > 1) s += " on " + cpu;
  }
  return s.empty() ? "× ?" : s;
}

std::string decimal_bytes(uint64_t n) {
  static constexpr const char* kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
  double v = static_cast<double>(n);
  size_t unit = 0;
  while (v >= 1000 && unit + 1 < std::size(kUnits)) v /= 1000, ++unit;
  return unit == 0 ? fmt::format("{} B", n) : fmt::format("{:.{}f} {}", v, v < 10 ? 2 : v < 100 ? 1 : 0, kUnits[unit]);
}

std::string table_answer_text(const TableTotal& t) {
  const std::string where = fmt::format("{} file{} on {} host{}", t.files, t.files == 1 ? "" : "s", t.hosts.size(),
                                        t.hosts.size() == 1 ? "" : "s");
  const TableCandidate* best = largest_saving(t);
  if (!best)
    return fmt::format("{} holds {} on disk in {}; no other codec measured on every file", t.current,
                       decimal_bytes(t.current_bytes), where);
  const int64_t saved = static_cast<int64_t>(t.current_bytes) - static_cast<int64_t>(best->bytes);
  const std::string verb =
      saved >= 0 ? fmt::format("saves {:.1f} %, {} of {}", best->saving_pct,
                               decimal_bytes(static_cast<uint64_t>(saved)), decimal_bytes(t.current_bytes))
                 : fmt::format("the fewest bytes still {:.1f} % more than {}", -best->saving_pct,
                               decimal_bytes(t.current_bytes));
  return fmt::format("{} → {} {} across {}; compress time {}, decompress time {}", t.current, best->label, verb, where,
                     time_factor_text(best->compress_seconds, t.current_compress_seconds),
                     time_factor_text(best->decompress_seconds, t.current_decompress_seconds));
}

}  // namespace kvz
