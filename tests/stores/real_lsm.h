#pragma once
// A real RocksDB 7.8 LSM for the plan tests (level_plan_real_test.cpp, universal_plan_real_test.cpp):
// kvzbench's rows over a corpus's records as `run --profile rocksdb` measures them, a DB opened
// with a printed options line and loaded, and what each of its levels holds.
#include <gtest/gtest.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/listener.h>
#include <rocksdb/metadata.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bench/engine.h"
#include "blockgen/layouts.h"
#include "blockgen/load_order.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "commands/run_levels.h"
#include "real_stores.h"
#include "rocksdb_activity.h"
#include "stores/store_profile.h"

namespace kvz::real_lsm {

using namespace real_stores;

// RocksDB's own call per codec (the first of the profile's rows for it) and memcpy over block
// sets, as `run --profile rocksdb` measures them.
inline RunResults measure_sets(std::vector<BlockSet> sets) {
  const StoreProfile* profile = find_store_profile("rocksdb");
  std::string error;
  std::vector<CodecChoice> rows;
  std::set<std::string> seen;
  for (auto& c : parse_codec_spec("memcpy/" + profile->codecs, CodecRegistry::instance(), error))
    if (seen.insert(c.codec->info().name).second) rows.push_back(c);
  EXPECT_TRUE(error.empty()) << error;
  EngineOptions opt;
  opt.seconds_per_cell = 0.002;
  opt.repetitions = 1;
  opt.latency_calls = 10;
  std::vector<BlockGroup> groups;
  for (auto& blocks : sets) groups.push_back({std::move(blocks), profile});
  RunResults run;
  run.cells = run_matrix(build_matrix(std::move(groups), rows, CodecRegistry::instance()), opt).cells;
  return run;
}

// The records' whole set under the rocksdb profile.
inline RunResults measure(const RecordSet& rs) {
  const StoreProfile* profile = find_store_profile("rocksdb");
  std::string error;
  BlockSet blocks = build_blocks(rs, profile->layout, profile->block_size, error);
  EXPECT_TRUE(error.empty()) << error;
  std::vector<BlockSet> sets;
  sets.push_back(std::move(blocks));
  return measure_sets(std::move(sets));
}

// kvzbench's stored bytes per input byte, by RocksDB's compression name for the codec's call.
inline std::map<std::string, double> stored_per_input(const RunResults& run) {
  const std::map<std::string, std::string> names = {{"memcpy", "NoCompression"}, {"snappy", "Snappy"}, {"lz4", "LZ4"},
                                                    {"lz4hc", "LZ4HC"},          {"zlib", "Zlib"},     {"zstd", "ZSTD"},
                                                    {"bzip2", "BZip2"}};
  std::map<std::string, double> out;
  for (const auto& c : run.cells) {
    const auto name = names.find(c.key.codec);
    if (name == names.end() || c.key.dict_size) continue;
    out.emplace(name->second, static_cast<double>(c.stored_bytes) / static_cast<double>(c.input_bytes));
  }
  return out;
}

struct LevelReal {
  uint64_t files = 0, file_bytes = 0, data_bytes = 0, raw_bytes = 0;
  uint64_t kept_bytes = 0;    // the bytes of files whose records keep their sequence numbers (largest_seqno > 0)
  double predicted_data = 0;  // kvzbench's stored ratio on the raw bytes, per file's codec
  std::set<std::string> codecs;
};

// Opens a DB at `dir` with `line` (RocksDB's options string, verbatim) and, when given, a listener
// (the options string cannot name one).
inline std::unique_ptr<rocksdb::DB> open_db(const std::string& line, const std::string& dir,
                                            const std::shared_ptr<rocksdb::EventListener>& listener = nullptr) {
  rocksdb::ConfigOptions parse;
  parse.ignore_unknown_options = false;
  rocksdb::ColumnFamilyOptions cf;
  const rocksdb::Status parsed = rocksdb::GetColumnFamilyOptionsFromString(parse, {}, line, &cf);
  EXPECT_TRUE(parsed.ok()) << parsed.ToString() << " for " << line;
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = true;
  if (listener) db_options.listeners.push_back(listener);
  rocksdb::DB* raw = nullptr;
  fs::create_directories(dir);
  const rocksdb::Status opened = rocksdb::DB::Open(rocksdb::Options(db_options, cf), dir, &raw);
  EXPECT_TRUE(opened.ok()) << opened.ToString();
  return std::unique_ptr<rocksdb::DB>(raw);
}

// Waits (at most ~20 s) until nothing runs and nothing is pending. Under universal compaction
// (`picker_may_decline`) a compaction that stays pending while nothing starts for 50 polls is one
// the picker does not take; leveled compaction always takes one, and on a loaded machine its
// background thread can take longer than that to start, so there only "nothing pending" settles.
inline void settle(rocksdb::DB& db, bool picker_may_decline) {
  const int declined_after = picker_may_decline ? 50 : 1 << 30;
  int quiet = 0;
  for (int polls = 0; polls < 20000 && quiet < declined_after; ++polls) {
    bool pending = false;
    quiet = busy(db, pending) ? 0 : quiet + 1;
    if (quiet && !pending) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Whether a write switched the memtable (its entry count fell) or a flush or compaction runs:
// the serial load settles then.
inline bool needs_settling(rocksdb::DB& db, uint64_t& active_entries) {
  uint64_t entries = 0;
  db.GetIntProperty("rocksdb.num-entries-active-mem-table", &entries);
  const bool switched = entries < active_entries;
  active_entries = entries;
  bool pending = false;
  return switched || busy(db, pending);
}

// Opens a DB at `dir` with `line`, loads `rs` in a shuffled order, waits for compaction to settle;
// with `serial`, also after every memtable switch (each flush's compactions done before the next
// write, as judgement/universal_model.h replays them).
inline std::unique_ptr<rocksdb::DB> load_db(const RecordSet& rs, const std::string& line, const std::string& dir,
                                            bool serial = false,
                                            const std::shared_ptr<rocksdb::EventListener>& listener = nullptr) {
  std::unique_ptr<rocksdb::DB> db = open_db(line, dir, listener);
  if (!db) return db;
  const bool universal = line.find("compaction_style=kCompactionStyleUniversal") != std::string::npos;
  const std::vector<size_t> order = load_order(rs.records.size(), LoadOrder::Shuffled);  // as the level cuts assume
  rocksdb::WriteOptions write;
  write.disableWAL = true;
  uint64_t active_entries = 0;
  for (size_t i : order) {
    EXPECT_TRUE(db->Put(write, rs.records[i].key, rs.records[i].value).ok());
    if (serial && needs_settling(*db, active_entries)) settle(*db, universal);
  }
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  settle(*db, universal);
  return db;
}

// Each level's files, bytes, data bytes and raw bytes; `input_per_raw` turns RocksDB's raw key and
// value bytes into kvzbench's input bytes (block bytes before compression).
inline std::map<int, LevelReal> real_levels(rocksdb::DB& db, const std::map<std::string, double>& stored,
                                            double input_per_raw) {
  rocksdb::ColumnFamilyMetaData meta;
  db.GetColumnFamilyMetaData(&meta);
  rocksdb::TablePropertiesCollection props;
  EXPECT_TRUE(db.GetPropertiesOfAllTables(&props).ok());
  std::map<int, LevelReal> out;
  for (const auto& level : meta.levels) {
    for (const auto& f : level.files) {
      LevelReal& l = out[level.level];
      const auto p = props.find(f.db_path + f.name);
      if (p == props.end()) {
        ADD_FAILURE() << "no properties for " << f.db_path << f.name;
        continue;
      }
      const rocksdb::TableProperties& tp = *p->second;
      ++l.files;
      l.file_bytes += f.size;
      if (f.largest_seqno > 0) l.kept_bytes += f.size;
      l.data_bytes += tp.data_size;
      l.raw_bytes += tp.raw_key_size + tp.raw_value_size;
      l.codecs.insert(tp.compression_name);
      const auto s = stored.find(tp.compression_name);
      EXPECT_NE(s, stored.end()) << tp.compression_name;
      if (s != stored.end())
        l.predicted_data += static_cast<double>(tp.raw_key_size + tp.raw_value_size) * input_per_raw * s->second;
    }
  }
  return out;
}

inline uint64_t db_bytes(const std::map<int, LevelReal>& levels) {
  uint64_t sum = 0;
  for (const auto& [level, l] : levels) sum += l.file_bytes;
  return sum;
}

inline uint64_t raw_record_bytes(const RecordSet& rs) {
  uint64_t sum = 0;
  for (const auto& r : rs.records) sum += r.key.size() + 8 + r.value.size();  // RocksDB counts internal keys
  return sum;
}

// The corpora both plan tests load (logs, a CSV of ~50-byte records, NDJSON), 2 MB of each.
inline const Corpus kPlanCorpora[] = {
    {"logs/apache_access_logs.log", "lines", 2 << 20},
    {"csv/us_zip_codes.csv", "lines", 2 << 20},
    {"json/nginxplus_status.ndjson", "lines", 2 << 20},
};

// A corpus's records measured as `run --profile rocksdb` measures them, with the figures a real
// DB's levels are compared through.
struct MeasuredCorpus {
  RecordSet records;
  RunResults run;
  double input = 0;                      // kvzbench's input bytes (block bytes before compression)
  std::map<std::string, double> stored;  // stored_per_input
  double input_per_raw = 0;              // kvzbench's input bytes per raw byte RocksDB counts
};

// The level cuts `run --workload ...,size=` measures beside the whole set (commands/run_levels.h),
// leveled or universal as the workload says, added to the corpus's run.
inline void add_level_cuts(MeasuredCorpus& m, const Workload& w) {
  const StoreProfile* profile = find_store_profile("rocksdb");
  std::vector<BlockSet> cuts;
  std::string error;
  const bool cut = w.universal ? cut_universal_levels(m.records, profile->layout, profile->block_size, w.lsm,
                                                      w.universal_options, w.write_mbps, cuts, error)
                               : cut_lsm_levels(m.records, profile->layout, profile->block_size, w.lsm, cuts, error);
  EXPECT_TRUE(cut) << error;
  EXPECT_FALSE(cuts.empty());
  RunResults levels = measure_sets(std::move(cuts));
  for (auto& c : levels.cells) m.run.cells.push_back(std::move(c));
}

// The caller asserts the run has cells; without any, only `records` and `run` are set.
inline MeasuredCorpus measure_corpus(const Corpus& corpus) {
  MeasuredCorpus m;
  m.records = load_records(corpus.path, corpus.mode, corpus.max_bytes);
  m.run = measure(m.records);
  if (m.run.cells.empty()) return m;
  m.input = static_cast<double>(m.run.cells.front().input_bytes);
  m.stored = stored_per_input(m.run);
  m.input_per_raw = m.input / static_cast<double>(raw_record_bytes(m.records));
  return m;
}

inline double relative(double real, double predicted) { return predicted > 0 ? real / predicted - 1 : 0; }

}  // namespace kvz::real_lsm
