// Dictionaries: training, preparation per codec, round trips, and the refusals.
#include "codecs/dictionary.h"

#include <set>

#include "codec_test_support.h"

namespace kvz::test {
namespace {

// 1 KiB "blocks" of real text: the small-block case dictionaries are for.
std::vector<Bytes> small_blocks() {
  std::vector<Bytes> blocks;
  for (const char* f : {"snappy/alice29.txt", "snappy/asyoulik.txt", "snappy/lcet10.txt"}) {
    Bytes b = corpus_prefix(f, 128 * 1024);
    for (size_t off = 0; off + 1024 <= b.size(); off += 1024)
      blocks.emplace_back(b.begin() + static_cast<long>(off), b.begin() + static_cast<long>(off + 1024));
  }
  return blocks;
}

TrainedDict train(const std::vector<Bytes>& blocks, size_t size, std::string* note = nullptr) {
  std::vector<ByteView> samples;
  // Train on the even blocks, test on the odd ones.
  for (size_t i = 0; i < blocks.size(); i += 2) samples.emplace_back(blocks[i]);
  return train_dictionary(samples, size, note);
}

TEST(Dictionary, TrainsWithZdict) {
  auto blocks = small_blocks();
  std::string note = "unset";
  TrainedDict d = train(blocks, 16 * 1024, &note);
  ASSERT_TRUE(d.ok()) << d.error;
  EXPECT_GT(d.bytes.size(), 1024u);
  EXPECT_LE(d.bytes.size(), 16u * 1024);
  EXPECT_EQ(note, "") << "ZDICT should have trained on " << blocks.size() / 2 << " samples";
  EXPECT_GE(d.train_seconds, 0.0);
}

TEST(Dictionary, TrainsOnChunksWhenWholeSamplesAreTooFew) {
  // Three 64 KiB blocks: too few samples for ZDICT as they are, enough as 4 KiB chunks.
  Bytes text = corpus_prefix("snappy/lcet10.txt", 192 * 1024);
  ASSERT_EQ(text.size(), 192u * 1024);
  std::vector<ByteView> samples;
  for (size_t off = 0; off < text.size(); off += 64 * 1024) samples.emplace_back(text.data() + off, 64 * 1024);
  std::string note;
  TrainedDict d = train_dictionary(samples, 16 * 1024, &note);
  ASSERT_TRUE(d.ok()) << d.error;
  EXPECT_NE(note.find("chunks of 4K"), std::string::npos) << note;
  // A trained dictionary, not the raw tail of the last sample.
  const Bytes tail(text.end() - static_cast<long>(d.bytes.size()), text.end());
  EXPECT_NE(d.bytes, tail);
  EXPECT_GT(d.bytes.size(), 1024u);
}

TEST(Dictionary, FallsBackToRawSamplesWhenZdictCannotTrain) {
  Bytes one = alice(600);
  std::string note;
  TrainedDict d = train_dictionary({ByteView(one)}, 4096, &note);
  ASSERT_TRUE(d.ok()) << d.error;
  EXPECT_NE(note, "");
  EXPECT_EQ(d.bytes, one);  // all 600 sample bytes: fewer than the requested 4 KiB
}

TEST(Dictionary, RejectsBadSizesAndNoSamples) {
  Bytes one = alice(8192);
  EXPECT_FALSE(train_dictionary({ByteView(one)}, 1024).ok());
  EXPECT_FALSE(train_dictionary({ByteView(one)}, 113 * 1024).ok());
  EXPECT_FALSE(train_dictionary({}, 16 * 1024).ok());
}

TEST(Dictionary, RoundTripsAndHelpsSmallBlocks) {
  auto blocks = small_blocks();
  TrainedDict d = train(blocks, 16 * 1024);
  ASSERT_TRUE(d.ok());
  std::set<std::string> tested;
  for (const auto& choice : all_choices("zstd:-1,3,19:dict=16K/lz4:1,8:dict=16K/lz4hc:9:dict=16K/"
                                        "zlib:6:dict=16K/zlib:6:zlib:dict=16K")) {
    SCOPED_TRACE(choice.label());
    tested.insert(choice.codec->info().name);
    const Codec& codec = *choice.codec;
    auto prepared = codec.prepare_dict(d.bytes, choice.params);
    ASSERT_TRUE(prepared.ok()) << prepared.error;
    EXPECT_EQ(prepared.value->size(), d.bytes.size());
    EXPECT_GE(prepared.value->memory_bytes(), d.bytes.size() / 2);
    auto with = open_or_fail(codec, choice.params, prepared.value);
    CodecParams plain = choice.params;
    plain.dict_size = 0;
    auto without = open_or_fail(codec, plain);
    size_t total_with = 0, total_without = 0;
    for (size_t i = 1; i < blocks.size(); i += 2) {
      Bytes packed = compress_all(*with, blocks[i]);
      total_with += packed.size();
      total_without += compress_all(*without, blocks[i]).size();
      Bytes back(blocks[i].size());
      CallResult r = with->decompress(packed, back);
      ASSERT_TRUE(r.ok()) << r.error;
      ASSERT_EQ(back, blocks[i]);
      // Without the dictionary the block does not decode to the original.
      Bytes wrong(blocks[i].size());
      CallResult w = without->decompress(packed, wrong);
      EXPECT_TRUE(!w.ok() || wrong != blocks[i]);
    }
    EXPECT_LT(total_with, total_without * 9 / 10) << "a trained dictionary must help 1 KiB text blocks";
  }
  for (const auto& c : CodecRegistry::instance().codecs())  // a new dictionary codec gets a row above
    EXPECT_EQ(tested.count(c->info().name), c->info().supports_dict ? 1u : 0u) << c->info().name;
}

TEST(Dictionary, CodecsWithoutDictionariesSaySo) {
  Bytes dict = alice(4096);
  size_t without = 0;
  for (const auto& codec : CodecRegistry::instance().codecs()) {
    const Codec& c = *codec;
    if (c.info().supports_dict) continue;
    ++without;
    auto p = c.prepare_dict(dict, CodecParams{.level = c.info().default_level});
    EXPECT_FALSE(p.ok()) << c.info().name;
    EXPECT_NE(p.error.find("does not support dictionaries"), std::string::npos) << p.error;
  }
  EXPECT_GT(without, 0u);  // memcpy at least
}

TEST(Dictionary, MismatchedDictionaryIsRefusedAtOpen) {
  Bytes dict = alice(8192);
  const auto& reg = CodecRegistry::instance();
  auto z3 = reg.find("zstd")->prepare_dict(dict, {.level = 3});
  ASSERT_TRUE(z3.ok());
  EXPECT_FALSE(reg.find("zstd")->open({.level = 5}, z3.value).ok());  // prepared for level 3
  EXPECT_FALSE(reg.find("lz4")->open({.level = 1}, z3.value).ok());   // another codec's dict
  EXPECT_FALSE(reg.find("brotli")->open({.level = 5}, z3.value).ok());
  auto l4 = reg.find("lz4")->prepare_dict(dict, {.level = 1});
  ASSERT_TRUE(l4.ok());
  EXPECT_FALSE(reg.find("lz4hc")->open({.level = 9}, l4.value).ok());
}

}  // namespace
}  // namespace kvz::test
