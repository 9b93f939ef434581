#pragma once
// What the engine's tests share: block sets of known contents, a registry of test codecs and
// options that keep a cell to milliseconds.
#include <random>
#include <string>
#include <vector>

#include "bench/engine.h"
#include "bench_test_codecs.h"
#include "codecs/registry.h"
#include "codecs/spec.h"

namespace kvz::testing {

// Even blocks: long runs (RLE shrinks them); odd blocks: noise (RLE doubles them).
// Byte 0 of block i is i, so sessions can tell which blocks they were given.
inline BlockGroup mixed_blocks(size_t count, size_t size, const std::string& source = "mixed") {
  BlockGroup g;
  g.blocks.source = source;
  g.blocks.record_mode = "test";
  g.blocks.layout = "raw";
  g.blocks.block_size = size;
  std::mt19937 rng(9);
  for (size_t i = 0; i < count; ++i) {
    std::vector<uint8_t> b(size);
    for (size_t j = 0; j < size; ++j) b[j] = (i % 2 == 0) ? static_cast<uint8_t>(j / 512) : static_cast<uint8_t>(rng());
    b[0] = static_cast<uint8_t>(i);
    g.blocks.add_block(b, 1);
  }
  return g;
}

inline EngineOptions fast_options() {
  EngineOptions o;
  o.seconds_per_cell = 0.004;
  o.repetitions = 2;
  o.latency_calls = 200;
  return o;
}

struct Fixture {
  CodecRegistry reg;
  const Codec* copy;
  const Codec* rle;
  const Codec* broken;
  const Codec* failing;
  SeenBlocks seen;
  const Codec* spying;
  Fixture() {
    reg.add(std::make_unique<CopyCodec>());
    reg.add(std::make_unique<RleCodec>("rle", Fault::None));
    reg.add(std::make_unique<RleCodec>("rle-broken", Fault::CorruptDecode));
    reg.add(std::make_unique<RleCodec>("rle-failing", Fault::FailCompress));
    reg.add(std::make_unique<RleCodec>("rle-spy", Fault::None, &seen));
    copy = reg.codecs()[0].get();
    rle = reg.codecs()[1].get();
    broken = reg.codecs()[2].get();
    failing = reg.codecs()[3].get();
    spying = reg.codecs()[4].get();
  }
  std::vector<CodecChoice> choose(std::initializer_list<const Codec*> codecs) {
    std::vector<CodecChoice> out;
    for (const Codec* c : codecs) out.push_back({c, CodecParams{}});
    return out;
  }
};

inline size_t rle_size(ByteView b) {
  RleSession s(Fault::None, nullptr);
  std::vector<uint8_t> out(s.bound(b.size()));
  return s.compress(b, MutableByteView(out.data(), out.size())).size;
}

inline const CellResult* find(const EngineOutcome& o, const std::string& codec) {
  for (const auto& c : o.cells)
    if (c.key.codec == codec) return &c;
  return nullptr;
}

}  // namespace kvz::testing
