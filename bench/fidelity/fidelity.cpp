// kvzbench_fidelity: does the harness report the speed the library really has?
// For lz4, snappy and zstd -1 at 4 KiB and 64 KiB it measures the same blocks twice in one
// process: through run_matrix (sessions, Google Benchmark, job lists) and through a bare
// loop calling the library directly, timed with steady_clock around whole passes.
// Prints harness/bare per direction; the target is >= 0.97.
//   usage: kvzbench_fidelity [CORPUS_FILE] [--time S] [--repetitions N]
#include <lz4.h>
#include <snappy.h>
#include <zstd.h>

#include <fmt/format.h>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>

#include "bench/matrix.h"
#include "bench/stats.h"
#include "bench/timer.h"
#include "blockgen/corpus.h"
#include "blockgen/layouts.h"
#include "blockgen/records.h"
#include "codecs/registry.h"
#include "codecs/spec.h"

namespace {

using kvz::BlockSet;

struct Bare {
  std::function<size_t(const uint8_t*, size_t, uint8_t*, size_t)> compress;
  std::function<size_t(const uint8_t*, size_t, uint8_t*, size_t)> decompress;
  size_t bound;
};

// Median MB/s of `reps` runs, each as many whole passes as fit in `seconds`: by wall time
// and by process CPU time (the latter shrugs off being descheduled on a busy machine).
struct Speed {
  double wall = 0, cpu = 0;
};
template <typename PassFn>
Speed bare_mbps(PassFn pass, uint64_t bytes_per_pass, double seconds, int reps) {
  std::vector<double> wall, cpu;
  pass();  // warm-up, as the harness does
  for (int r = 0; r < reps; ++r) {
    uint64_t passes = 0;
    const double t0 = kvz::wall_seconds(), c0 = kvz::process_cpu_seconds();
    double t1 = t0;
    do {
      pass();
      ++passes;
      t1 = kvz::wall_seconds();
    } while (t1 - t0 < seconds);
    const double bytes = static_cast<double>(passes * bytes_per_pass);
    wall.push_back(bytes / (t1 - t0) / 1e6);
    cpu.push_back(bytes / (kvz::process_cpu_seconds() - c0) / 1e6);
  }
  return {kvz::median(wall), kvz::median(cpu)};
}

}  // namespace

int main(int argc, char** argv) {
  std::string corpus = "json/twitter.json";
  double seconds = 0.5;
  int reps = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--time" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (a == "--repetitions" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else {
      corpus = a;
    }
  }
  std::string err;
  const std::string path = kvz::resolve_corpus(corpus, err);
  if (path.empty()) {
    std::cerr << "kvzbench_fidelity: error: " << err << "\n";
    return 2;
  }
  kvz::RecordSet rs = kvz::read_corpus(path, "bytes", size_t{1} << 20, err);
  if (!err.empty()) {
    std::cerr << "kvzbench_fidelity: error: " << err << "\n";
    return 2;
  }
  const kvz::CodecRegistry& reg = kvz::CodecRegistry::instance();
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  LZ4_stream_t lz4_state;
  const std::vector<std::pair<std::string, Bare>> bare = {
      {"lz4",
       {[&](const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
          return static_cast<size_t>(LZ4_compress_fast_extState(&lz4_state, reinterpret_cast<const char*>(in),
                                                                reinterpret_cast<char*>(out), static_cast<int>(n),
                                                                static_cast<int>(cap), 1));
        },
        [](const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
          return static_cast<size_t>(LZ4_decompress_safe(reinterpret_cast<const char*>(in),
                                                         reinterpret_cast<char*>(out), static_cast<int>(n),
                                                         static_cast<int>(cap)));
        },
        0}},
      {"snappy",
       {[](const uint8_t* in, size_t n, uint8_t* out, size_t) {
          size_t written = 0;
          snappy::RawCompress(reinterpret_cast<const char*>(in), n, reinterpret_cast<char*>(out), &written);
          return written;
        },
        [](const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
          return snappy::RawUncompress(reinterpret_cast<const char*>(in), n, reinterpret_cast<char*>(out)) ? cap : 0;
        },
        0}},
      {"zstd:1",
       {[&](const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
          return ZSTD_compressCCtx(cctx, out, cap, in, n, 1);
        },
        [&](const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
          return ZSTD_decompressDCtx(dctx, out, cap, in, n);
        },
        0}},
  };

  fmt::print("kvzbench fidelity: {} ({} bytes), {} s x {} repetitions per figure; MB/s = 1e6 B/s\n", path,
             rs.raw.size(), seconds, reps);
  fmt::print("{:<8} {:>6} {:>12} {:>12} {:>7} {:>12} {:>12} {:>7} {:>9} {:>9}\n", "codec", "block", "c harness",
             "c bare", "ratio", "d harness", "d bare", "ratio", "c cpu-rt", "d cpu-rt");
  bool all_ok = true;
  for (size_t bs : {size_t{4096}, size_t{65536}}) {
    kvz::BlockGroup g;
    g.blocks = kvz::build_blocks(rs, "raw", bs, err);
    const BlockSet& blocks = g.blocks;
    for (const auto& entry : bare) {
      // Named copies, not structured bindings: lambdas may not capture those before C++20 in clang 14.
      const auto& spec = entry.first;
      const auto& fns = entry.second;
      std::vector<kvz::CodecChoice> choices = kvz::parse_codec_spec(spec, reg, err);
      if (choices.empty()) {
        std::cerr << "kvzbench_fidelity: error: " << err << "\n";
        return 2;
      }
      // Bare: compress every block into one buffer, then time whole passes each way.
      std::vector<uint8_t> packed(blocks.count() * (bs + bs / 2 + 1024));
      std::vector<size_t> offs{0};
      for (size_t i = 0; i < blocks.count(); ++i) {
        const auto b = blocks.block(i);
        const size_t n = fns.compress(b.data(), b.size(), packed.data() + offs.back(), packed.size() - offs.back());
        offs.push_back(offs.back() + n);
      }
      std::vector<uint8_t> out(bs + bs / 2 + 1024);
      size_t sink = 0;
      auto c_pass = [&] {
        return bare_mbps(
            [&] {
              for (size_t i = 0; i < blocks.count(); ++i) {
                const auto b = blocks.block(i);
                sink += fns.compress(b.data(), b.size(), out.data(), out.size());
              }
            },
            blocks.total_bytes(), seconds, reps);
      };
      auto d_pass = [&] {
        return bare_mbps(
            [&] {
              for (size_t i = 0; i < blocks.count(); ++i)
                sink +=
                    fns.decompress(packed.data() + offs[i], offs[i + 1] - offs[i], out.data(), blocks.block(i).size());
            },
            blocks.total_bytes(), seconds, reps);
      };
      // Bare before and after the harness, averaged, so a drift in machine load between
      // the two measurements does not land on one side only.
      const Speed c_before = c_pass(), d_before = d_pass();
      kvz::EngineOptions opt;
      opt.seconds_per_cell = seconds * 2.0 * reps / 0.8;  // so GB's min_time per repetition == seconds
      opt.repetitions = reps;
      opt.random_interleaving = false;
      opt.latency_calls = 1000;
      kvz::Matrix m;
      m.groups.push_back(g);
      m.cells.push_back({0, choices[0].codec, choices[0].params});
      const kvz::EngineOutcome o = kvz::run_matrix(m, opt);
      if (o.cells.empty() || o.cells[0].status != kvz::CellStatus::Ok) {
        std::cerr << "kvzbench_fidelity: error: harness cell failed\n";
        return 1;
      }
      const Speed c_after = c_pass(), d_after = d_pass();
      if (sink == 0) std::cerr << "(no output)\n";
      const kvz::CellResult& h = o.cells[0];
      const double c_bare = (c_before.wall + c_after.wall) / 2, d_bare = (d_before.wall + d_after.wall) / 2;
      const double c_bare_cpu = (c_before.cpu + c_after.cpu) / 2, d_bare_cpu = (d_before.cpu + d_after.cpu) / 2;
      const double cr = h.compress_median() / c_bare, dr = h.decompress_median() / d_bare;
      const double crc = kvz::median(h.compress_cpu_mbps) / c_bare_cpu;
      const double drc = kvz::median(h.decompress_cpu_mbps) / d_bare_cpu;
      all_ok &= cr >= 0.97 && dr >= 0.97;
      fmt::print("{:<8} {:>6} {:>12.1f} {:>12.1f} {:>7.3f} {:>12.1f} {:>12.1f} {:>7.3f} {:>9.3f} {:>9.3f}\n", spec,
                 kvz::format_byte_size(bs), h.compress_median(), c_bare, cr, h.decompress_median(), d_bare, dr, crc,
                 drc);
    }
  }
  ZSTD_freeCCtx(cctx);
  ZSTD_freeDCtx(dctx);
  fmt::print("ratios are harness/bare of median wall MB/s; cpu-rt: the same by process CPU time\n{}\n",
             all_ok ? "fidelity: every wall ratio >= 0.97" : "fidelity: some wall ratio below 0.97 (see above)");
  return 0;
}
