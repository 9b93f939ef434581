#pragma once
// A merged fleet survey built in memory: each host holds files of table "ks.events" (and host
// "a" one of "ks.users"), each file's cells an as-stored block set with its lz4 current row and
// two candidates, with each host's own speeds and, optionally, its own CPU model. The cells
// carry key.host (and key.cpu) as `merge` sets them for several hosts.
#include <random>
#include <string>
#include <vector>

#include "tests/results/fixture.h"

namespace kvz::testing {

struct FleetFile {
  std::string host, cpu, source, table;
  uint64_t on_disk = 0;
  double speed = 1.0;  // the host's speeds, as a factor of the fixture codecs'
};

inline const std::vector<FleetFile>& fleet_files() {
  static const std::vector<FleetFile> files = {
      {"node1", "EPYC 7B13", "nb-1-big-Data.db", "ks.events", 1'000'000, 1.0},
      {"node1", "EPYC 7B13", "nb-2-big-Data.db", "ks.users", 400'000, 1.0},
      {"node2", "EPYC 7B13", "nb-1-big-Data.db", "ks.events", 2'000'000, 1.3},
      {"node3", "Xeon 8375C", "nb-1-big-Data.db", "ks.events", 3'000'000, 0.7}};
  return files;
}

// `cpu_key`: the CPU models differ, so every cell keys them (as merge does).
inline RunResults fleet_run(bool cpu_key = true) {
  RunResults r;
  r.meta.hostname = "node1";
  r.meta.cpu_model = "mixed: EPYC 7B13 | Xeon 8375C";
  std::mt19937_64 rng(7);
  const std::vector<FixtureCodec> codecs = {
      {"lz4", 1, 2.1, 700, 3500}, {"zstd", 1, 2.8, 450, 1200}, {"zlib", 6, 3.1, 40, 350}};
  for (const auto& f : fleet_files()) {
    r.meta.corpora.push_back({f.source, "/data/" + f.source, f.on_disk, "", "Data.db", f.table, f.host});
    for (const auto& fc : codecs) {
      FixtureCodec scaled = fc;
      scaled.c_mbps *= f.speed;
      scaled.d_mbps *= f.speed;
      CellResult c = make_cell(scaled, 16384, rng, 5, 0.0, f.source);
      c.key.layout = "as-stored";
      c.key.record_mode = "sstable-data";
      c.key.profile = "cassandra";
      c.key.host = f.host;
      if (cpu_key) c.key.cpu = f.cpu;
      c.input_bytes = f.on_disk * 2;
      c.stored_bytes = static_cast<uint64_t>(static_cast<double>(c.input_bytes) / fc.ratio);
      if (std::string(fc.codec) == "lz4") c.current = true, c.on_disk_bytes = f.on_disk;
      r.cells.push_back(c);
    }
  }
  return r;
}

}  // namespace kvz::testing
