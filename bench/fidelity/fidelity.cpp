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
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/engine.h"
#include "bench/timer.h"
#include "blockgen/corpus.h"
#include "blockgen/layouts.h"
#include "blockgen/records.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "util/stats.h"

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

// The bare library calls, each as the harness's session makes it (lz4 acceleration 1, snappy's
// raw format, zstd level 1 with reused contexts). Owns the contexts the calls use.
class BareLibraries {
 public:
  BareLibraries() : cctx_(ZSTD_createCCtx()), dctx_(ZSTD_createDCtx()) {
    loops_ = {{"lz4",
               {[this](const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
                  return static_cast<size_t>(LZ4_compress_fast_extState(&lz4_state_, reinterpret_cast<const char*>(in),
                                                                        reinterpret_cast<char*>(out),
                                                                        static_cast<int>(n), static_cast<int>(cap), 1));
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
                  return snappy::RawUncompress(reinterpret_cast<const char*>(in), n, reinterpret_cast<char*>(out)) ? cap
                                                                                                                   : 0;
                },
                0}},
              {"zstd:1",
               {[this](const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
                  return ZSTD_compressCCtx(cctx_, out, cap, in, n, 1);
                },
                [this](const uint8_t* in, size_t n, uint8_t* out, size_t cap) {
                  return ZSTD_decompressDCtx(dctx_, out, cap, in, n);
                },
                0}}};
  }
  ~BareLibraries() {
    ZSTD_freeCCtx(cctx_);
    ZSTD_freeDCtx(dctx_);
  }
  BareLibraries(const BareLibraries&) = delete;
  BareLibraries& operator=(const BareLibraries&) = delete;
  const std::vector<std::pair<std::string, Bare>>& loops() const { return loops_; }

 private:
  ZSTD_CCtx* cctx_;
  ZSTD_DCtx* dctx_;
  LZ4_stream_t lz4_state_{};
  std::vector<std::pair<std::string, Bare>> loops_;
};

struct Options {
  std::string corpus = "json/twitter.json";
  double seconds = 0.5;
  int reps = 5;
};

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--time" && i + 1 < argc) {
      o.seconds = std::atof(argv[++i]);
    } else if (a == "--repetitions" && i + 1 < argc) {
      o.reps = std::atoi(argv[++i]);
    } else {
      o.corpus = a;
    }
  }
  return o;
}

// The bare loop's speeds over `blocks`: every block compressed once into one buffer, then whole
// passes timed each way.
class BarePasses {
 public:
  BarePasses(const Bare& fns, const BlockSet& blocks, size_t block_size, const Options& o)
      : fns_(fns),
        blocks_(blocks),
        o_(o),
        packed_(blocks.count() * (block_size + block_size / 2 + 1024)),
        out_(block_size + block_size / 2 + 1024) {
    for (size_t i = 0; i < blocks.count(); ++i) {
      const auto b = blocks.block(i);
      const size_t n = fns.compress(b.data(), b.size(), packed_.data() + offs_.back(), packed_.size() - offs_.back());
      offs_.push_back(offs_.back() + n);
    }
  }
  Speed compress() {
    return bare_mbps(
        [&] {
          for (size_t i = 0; i < blocks_.count(); ++i) {
            const auto b = blocks_.block(i);
            sink_ += fns_.compress(b.data(), b.size(), out_.data(), out_.size());
          }
        },
        blocks_.total_bytes(), o_.seconds, o_.reps);
  }
  Speed decompress() {
    return bare_mbps(
        [&] {
          for (size_t i = 0; i < blocks_.count(); ++i)
            sink_ += fns_.decompress(packed_.data() + offs_[i], offs_[i + 1] - offs_[i], out_.data(),
                                     blocks_.block(i).size());
        },
        blocks_.total_bytes(), o_.seconds, o_.reps);
  }
  size_t sink() const { return sink_; }

 private:
  const Bare& fns_;
  const BlockSet& blocks_;
  const Options& o_;
  std::vector<uint8_t> packed_;
  std::vector<size_t> offs_{0};
  std::vector<uint8_t> out_;
  size_t sink_ = 0;
};

// The same blocks through run_matrix: one cell, GB's min_time per repetition = o.seconds.
std::optional<kvz::CellResult> harness_cell(const kvz::BlockGroup& g, const kvz::CodecChoice& choice,
                                            const Options& o) {
  kvz::EngineOptions opt;
  opt.seconds_per_cell = o.seconds * 2.0 * o.reps / 0.8;
  opt.repetitions = o.reps;
  opt.random_interleaving = false;
  opt.latency_calls = 1000;
  kvz::Matrix m;
  m.groups.push_back(g);
  m.cells.push_back({0, choice.codec, choice.params});
  const kvz::EngineOutcome out = kvz::run_matrix(m, opt);
  if (out.cells.empty() || out.cells[0].status != kvz::CellStatus::Ok) return std::nullopt;
  return out.cells[0];
}

// One codec at one block size: bare before and after the harness, averaged, so a drift in
// machine load between the two measurements does not land on one side only; prints its row.
// 0, or the exit code of an error.
int measure(const std::string& spec, const Bare& fns, const kvz::BlockGroup& g, size_t block_size, const Options& o,
            bool& all_ok) {
  std::string err;
  const std::vector<kvz::CodecChoice> choices = kvz::parse_codec_spec(spec, kvz::CodecRegistry::instance(), err);
  if (choices.empty()) {
    std::cerr << "kvzbench_fidelity: error: " << err << "\n";
    return 2;
  }
  BarePasses bare(fns, g.blocks, block_size, o);
  const Speed c_before = bare.compress(), d_before = bare.decompress();
  const std::optional<kvz::CellResult> h = harness_cell(g, choices[0], o);
  if (!h) {
    std::cerr << "kvzbench_fidelity: error: harness cell failed\n";
    return 1;
  }
  const Speed c_after = bare.compress(), d_after = bare.decompress();
  if (bare.sink() == 0) std::cerr << "(no output)\n";
  const double c_bare = (c_before.wall + c_after.wall) / 2, d_bare = (d_before.wall + d_after.wall) / 2;
  const double c_bare_cpu = (c_before.cpu + c_after.cpu) / 2, d_bare_cpu = (d_before.cpu + d_after.cpu) / 2;
  const double cr = h->compress_median() / c_bare, dr = h->decompress_median() / d_bare;
  const double crc = kvz::median(h->compress_cpu_mbps) / c_bare_cpu;
  const double drc = kvz::median(h->decompress_cpu_mbps) / d_bare_cpu;
  all_ok &= cr >= 0.97 && dr >= 0.97;
  fmt::print("{:<8} {:>6} {:>12.1f} {:>12.1f} {:>7.3f} {:>12.1f} {:>12.1f} {:>7.3f} {:>9.3f} {:>9.3f}\n", spec,
             kvz::format_byte_size(block_size), h->compress_median(), c_bare, cr, h->decompress_median(), d_bare, dr,
             crc, drc);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  std::string err;
  const std::string path = kvz::resolve_corpus(o.corpus, err);
  if (path.empty()) {
    std::cerr << "kvzbench_fidelity: error: " << err << "\n";
    return 2;
  }
  kvz::RecordSet rs = kvz::read_corpus(path, "bytes", size_t{1} << 20, err);
  if (!err.empty()) {
    std::cerr << "kvzbench_fidelity: error: " << err << "\n";
    return 2;
  }
  BareLibraries bare;  // not const: its calls use its contexts
  fmt::print("kvzbench fidelity: {} ({} bytes), {} s x {} repetitions per figure; MB/s = 1e6 B/s\n", path,
             rs.raw.size(), o.seconds, o.reps);
  fmt::print("{:<8} {:>6} {:>12} {:>12} {:>7} {:>12} {:>12} {:>7} {:>9} {:>9}\n", "codec", "block", "c harness",
             "c bare", "ratio", "d harness", "d bare", "ratio", "c cpu-rt", "d cpu-rt");
  bool all_ok = true;
  for (size_t bs : {size_t{4096}, size_t{65536}}) {
    kvz::BlockGroup g;
    g.blocks = kvz::build_blocks(rs, "raw", bs, err);
    for (const auto& [spec, fns] : bare.loops())
      if (const int rc = measure(spec, fns, g, bs, o, all_ok)) return rc;
  }
  fmt::print("ratios are harness/bare of median wall MB/s; cpu-rt: the same by process CPU time\n{}\n",
             all_ok ? "fidelity: every wall ratio >= 0.97" : "fidelity: some wall ratio below 0.97 (see above)");
  return 0;
}
