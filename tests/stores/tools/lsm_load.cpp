// kvz_lsm_load: loads a source's records, exactly as `kvzbench run SOURCE -r MODE --max-bytes N`
// reads them (blockgen/pipeline.h load_sources), into a fresh RocksDB 7.8 opened with an options
// line verbatim, in the order judgement/level_model.h assumes (blockgen/load_order.h), and prints
// what each level holds once compaction has settled. bench/scripts/lsm_real.sh compares it with
// the plan kvzbench printed for the same line (issue 38 item 2).
//
//   kvz_lsm_load --source PATH --mode MODE --max-bytes N --order shuffled|ascending
//                --line 'ROCKSDB OPTIONS' --dir DIR [--repeats 3] [--rate MBPS] [--keep]
//
// Each load i (0..repeats-1) writes into DIR/load<i> (removed first): Put per record, WAL off,
// at full speed (no waiting between writes: RocksDB's own write stalls pace the load), or with
// --rate at MBPS MB (10^6 B) of keys and values a second, as the workload's write= says (never
// ahead of the rate, and a writer held up by a stall does not catch up after it), then
// Flush, then waits until no flush or compaction runs or is pending (a compaction pending while
// none has started for 5 s is one the picker declines, as universal compaction may; at most
// 10 minutes, then the levels are read as they stand with a note on stderr). Standard output,
// TSV with a header line, one line per level per load (every level of num_levels):
//   load level files file_bytes data_bytes raw_bytes kept_bytes codecs comp_sec write_sec
// file_bytes: the level's SST file sizes (SstFileMetaData::size, the files' bytes on disk);
// data_bytes: TableProperties::data_size; raw_bytes: raw_key_size + raw_value_size (RocksDB's
// count: keys with their 8-byte internal suffix); kept_bytes: the file bytes of files whose
// largest_seqno > 0 (records that keep their sequence numbers; a bottommost compaction zeroes
// them); codecs: the files' compression names, sorted, joined by '+' ("-" for an empty level);
// comp_sec: the seconds compactions into the level took (RocksDB's own count, the "rocksdb.cfstats"
// map's compaction.L<k>.CompSec; L0's are the flushes'); write_sec: the seconds the load's writes
// took (the same on each of its lines), so the compaction thread's busy share while writing is
// the levels' comp_sec below L0 over it.
// Progress and notes on stderr. Bad arguments: one line on stderr, exit 2; a RocksDB error: exit 1.
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/metadata.h>
#include <rocksdb/table_properties.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "blockgen/load_order.h"
#include "blockgen/pipeline.h"
#include "tests/stores/rocksdb_activity.h"
#include "util/bytes.h"
#include "util/text.h"

namespace fs = std::filesystem;

namespace {

using kvz::real_lsm::busy;

struct Args {
  std::string source, mode, max_bytes, order, line, dir;
  int repeats = 3;
  double rate_mbps = 0;  // 0: full speed
  bool keep = false;
};

constexpr const char* kUsage =
    "usage: kvz_lsm_load --source PATH --mode MODE --max-bytes N --order shuffled|ascending --line 'OPTIONS' "
    "--dir DIR [--repeats N] [--rate MBPS] [--keep]";

int bad(const std::string& why) {
  std::cerr << "kvz_lsm_load: " << why << " (" << kUsage << ")\n";
  return 2;
}

// False with `error` on an unknown option, a missing value or a missing required option.
bool parse_args(int argc, char** argv, Args& a, std::string& error) {
  const std::map<std::string, std::string*> values = {{"--source", &a.source},       {"--mode", &a.mode},
                                                      {"--max-bytes", &a.max_bytes}, {"--order", &a.order},
                                                      {"--line", &a.line},           {"--dir", &a.dir}};
  std::string repeats = "3", rate = "0";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--keep") {
      a.keep = true;
      continue;
    }
    const auto v = values.find(arg);
    if (v == values.end() && arg != "--repeats" && arg != "--rate") {
      error = "unknown argument '" + arg + "'";
      return false;
    }
    if (i + 1 >= argc) {
      error = arg + " needs a value";
      return false;
    }
    (v != values.end() ? *v->second : arg == "--rate" ? rate : repeats) = argv[++i];
  }
  for (const auto& [name, value] : values)
    if (value->empty()) {
      error = name + " is required";
      return false;
    }
  if (!kvz::parse_int(repeats, a.repeats) || a.repeats < 1 || a.repeats > 100) {
    error = "--repeats '" + repeats + "': a whole number 1..100";
    return false;
  }
  if (!kvz::parse_double(rate, a.rate_mbps) || !(a.rate_mbps >= 0) || a.rate_mbps > 1e6) {
    error = "--rate '" + rate + "': MB/s, 0 (full speed) .. 1000000";
    return false;
  }
  if (a.order != "shuffled" && a.order != "ascending") {
    error = "--order '" + a.order + "': shuffled or ascending";
    return false;
  }
  return true;
}

// Waits until nothing runs and nothing is pending; a compaction still pending after 5 s with
// nothing running is one the picker declines. False when 10 minutes were not enough.
bool settle(rocksdb::DB& db, std::string& note) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto quiet_since = clock::now();
  bool was_quiet = false;
  while (clock::now() - start < std::chrono::minutes(10)) {
    bool pending = false;
    const bool running = busy(db, pending);
    if (!running && !pending) return true;
    if (running) {
      was_quiet = false;
    } else if (!was_quiet) {
      was_quiet = true;
      quiet_since = clock::now();
    } else if (clock::now() - quiet_since > std::chrono::seconds(5)) {
      note = "a compaction stays pending with none started for 5 s (the picker declines it)";
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  note = "gave up waiting for compactions after 10 minutes: levels read as they stand";
  return false;
}

struct Level {
  uint64_t files = 0, file_bytes = 0, data_bytes = 0, raw_bytes = 0, kept_bytes = 0;
  std::set<std::string> codecs;
  double comp_sec = 0;
};

// Each level's compaction seconds, from RocksDB's cfstats map (compaction.L<k>.CompSec).
void read_compaction_seconds(rocksdb::DB& db, std::map<int, Level>& levels) {
  std::map<std::string, std::string> stats;
  if (!db.GetMapProperty(rocksdb::DB::Properties::kCFStats, &stats)) return;
  for (auto& [level, l] : levels) {
    const auto it = stats.find(fmt::format("compaction.L{}.CompSec", level));
    if (it != stats.end() && !kvz::parse_double(it->second, l.comp_sec)) l.comp_sec = 0;
  }
}

// Every level's files and bytes; false with `error` when a file has no table properties.
bool read_levels(rocksdb::DB& db, std::map<int, Level>& out, std::string& error) {
  rocksdb::ColumnFamilyMetaData meta;
  db.GetColumnFamilyMetaData(&meta);
  rocksdb::TablePropertiesCollection props;
  const rocksdb::Status s = db.GetPropertiesOfAllTables(&props);
  if (!s.ok()) {
    error = s.ToString();
    return false;
  }
  for (const auto& level : meta.levels) {
    Level& l = out[level.level];
    for (const auto& f : level.files) {
      auto p = props.find(f.db_path + f.name);
      if (p == props.end()) p = props.find(f.db_path + "/" + f.name);
      if (p == props.end()) {
        error = "no table properties for " + f.db_path + f.name;
        return false;
      }
      const rocksdb::TableProperties& tp = *p->second;
      ++l.files;
      l.file_bytes += f.size;
      l.data_bytes += tp.data_size;
      l.raw_bytes += tp.raw_key_size + tp.raw_value_size;
      if (f.largest_seqno > 0) l.kept_bytes += f.size;
      l.codecs.insert(tp.compression_name);
    }
  }
  return true;
}

std::string join(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : "+") + n;
  return out.empty() ? "-" : out;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Holds writes to a rate: every 64 KiB written, waits until the rate allows them; a writer
// behind the rate (held up by a stall) starts again from now rather than catching up.
class Pacer {
 public:
  explicit Pacer(double mbps) : bytes_per_second_(mbps * 1e6), next_(std::chrono::steady_clock::now()) {}
  void wrote(size_t bytes) {
    if (bytes_per_second_ <= 0 || (pending_ += bytes) < kChunk) return;
    next_ += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(static_cast<double>(pending_) / bytes_per_second_));
    pending_ = 0;
    const auto now = std::chrono::steady_clock::now();
    if (next_ > now)
      std::this_thread::sleep_until(next_);
    else
      next_ = now;
  }

 private:
  static constexpr size_t kChunk = 64 * 1024;
  double bytes_per_second_;
  std::chrono::steady_clock::time_point next_;
  size_t pending_ = 0;
};

// One load into `dir`; prints its levels. 1 on a RocksDB error (one line on stderr).
int load_once(const Args& a, const rocksdb::ColumnFamilyOptions& cf, const kvz::RecordSet& rs,
              const std::vector<size_t>& order, int index, const fs::path& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.error_if_exists = true;
  rocksdb::DB* raw = nullptr;
  const rocksdb::Status opened = rocksdb::DB::Open(rocksdb::Options(db_options, cf), dir.string(), &raw);
  if (!opened.ok()) {
    std::cerr << "kvz_lsm_load: cannot open " << dir.string() << ": " << opened.ToString() << "\n";
    return 1;
  }
  std::unique_ptr<rocksdb::DB> db(raw);
  const auto start = std::chrono::steady_clock::now();
  rocksdb::WriteOptions write;
  write.disableWAL = true;
  Pacer pacer(a.rate_mbps);
  for (size_t i : order) {
    const rocksdb::Status put = db->Put(write, rs.records[i].key, rs.records[i].value);
    if (!put.ok()) {
      std::cerr << "kvz_lsm_load: Put: " << put.ToString() << "\n";
      return 1;
    }
    pacer.wrote(rs.records[i].key.size() + rs.records[i].value.size());
  }
  const double written = seconds_since(start);
  const rocksdb::Status flushed = db->Flush(rocksdb::FlushOptions());
  if (!flushed.ok()) {
    std::cerr << "kvz_lsm_load: Flush: " << flushed.ToString() << "\n";
    return 1;
  }
  std::string note;
  settle(*db, note);
  std::cerr << fmt::format("kvz_lsm_load: load {}: {} records written in {:.1f} s, settled at {:.1f} s{}\n", index,
                           order.size(), written, seconds_since(start), note.empty() ? "" : ": " + note);
  std::map<int, Level> levels;
  std::string error;
  if (!read_levels(*db, levels, error)) {
    std::cerr << "kvz_lsm_load: " << error << "\n";
    return 1;
  }
  read_compaction_seconds(*db, levels);
  for (const auto& [level, l] : levels)
    std::cout << fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.3f}\t{:.3f}\n", index, level, l.files, l.file_bytes,
                             l.data_bytes, l.raw_bytes, l.kept_bytes, join(l.codecs), l.comp_sec, written);
  std::cout.flush();
  const rocksdb::Status closed = db->Close();
  db.reset();
  if (!closed.ok()) std::cerr << "kvz_lsm_load: Close: " << closed.ToString() << "\n";
  if (!a.keep) fs::remove_all(dir, ec);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  std::string error;
  if (!parse_args(argc, argv, a, error)) return bad(error);
  kvz::SourceRequest request;
  request.files = {a.source};
  request.record_mode = a.mode;
  request.read_store_files = kvz::reads_store_files(a.mode);
  if (!kvz::parse_byte_size(a.max_bytes, request.file_max_bytes) || request.file_max_bytes == 0)
    return bad("invalid --max-bytes '" + a.max_bytes + "'");
  rocksdb::ConfigOptions parse;
  parse.ignore_unknown_options = false;
  rocksdb::ColumnFamilyOptions cf;
  const rocksdb::Status parsed = rocksdb::GetColumnFamilyOptionsFromString(parse, {}, a.line, &cf);
  if (!parsed.ok()) return bad("--line: " + kvz::one_line(parsed.ToString()));
  std::vector<kvz::Source> sources;
  std::vector<std::string> warnings;
  if (!kvz::load_sources(request, sources, warnings, error)) return bad(kvz::one_line(error));
  for (const auto& w : warnings) std::cerr << "kvz_lsm_load: warning: " << kvz::one_line(w) << "\n";
  if (sources.size() != 1 || sources[0].records.records.empty()) return bad("no records in " + a.source);
  const kvz::RecordSet& rs = sources[0].records;
  uint64_t bytes = 0;
  for (const auto& r : rs.records) bytes += r.key.size() + r.value.size();
  std::cerr << fmt::format("kvz_lsm_load: {}: {} records, {} key+value bytes, {} order, {} load(s)\n", a.source,
                           rs.records.size(), bytes, a.order, a.repeats);
  const std::vector<size_t> order =
      kvz::load_order(rs.records.size(), a.order == "ascending" ? kvz::LoadOrder::Ascending : kvz::LoadOrder::Shuffled);
  std::cout << "load\tlevel\tfiles\tfile_bytes\tdata_bytes\traw_bytes\tkept_bytes\tcodecs\tcomp_sec\twrite_sec\n";
  for (int i = 0; i < a.repeats; ++i)
    if (const int rc = load_once(a, cf, rs, order, i, fs::path(a.dir) / ("load" + std::to_string(i)))) return rc;
  return 0;
}
