// store_block() rules at their boundaries, and the profile table's consistency with the
// codec registry and blockgen layouts.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "blockgen/layouts.h"
#include "codecs/registry.h"
#include "codecs/spec.h"
#include "stores/store_profile.h"

namespace kvz {
namespace {

const StoreProfile& profile(const std::string& name) {
  std::string error;
  const StoreProfile* p = find_store_profile(name, error);
  EXPECT_NE(p, nullptr) << error;
  if (!p) throw std::runtime_error(error);
  return *p;
}

// A codec's output as store_block sees it; the framing rules here depend on the name only.
BlockCodec compressed(const std::string& name) { return {name, "", false}; }
const BlockCodec kUncompressed{"memcpy", "0", true};

TEST(StoreProfiles, EveryProfileIsUsable) {
  const char* expected[] = {"rocksdb", "leveldb", "cassandra", "scylla", "hbase", "wiredtiger", "tarantool"};
  ASSERT_EQ(store_profiles().size(), std::size(expected));
  for (const char* name : expected) {
    const StoreProfile& p = profile(name);
    SCOPED_TRACE(name);
    EXPECT_NE(find_layout(p.layout), nullptr) << p.layout;
    EXPECT_GE(p.block_size, p.min_block_size);
    EXPECT_LE(p.block_size, p.max_block_size);
    EXPECT_FALSE(p.rules.empty());
    std::string error;
    auto choices = parse_codec_spec(p.codecs, CodecRegistry::instance(), error);
    ASSERT_FALSE(choices.empty()) << p.codecs << ": " << error;
    for (const auto& c : choices) {
      EXPECT_TRUE(store_supports_codec(p, c.codec->info().name)) << c.label();
      // The profile's own rows are in the mode the store writes them.
      const BlockCodec codec{c.codec->info().name, c.params.label(), c.codec->info().is_reference};
      EXPECT_TRUE(store_supports_codec(p, codec)) << c.label();
    }
  }
  EXPECT_DOUBLE_EQ(profile("scylla").stall_threshold_ms, 1.0);
}

TEST(StoreProfiles, UnknownNamesAndBadOptionsAreOneLineErrors) {
  std::string error;
  EXPECT_EQ(find_store_profile("mongodb", error), nullptr);
  EXPECT_NE(error.find("known: rocksdb"), std::string::npos) << error;
  EXPECT_EQ(find_store_profile("cassandra:min_compress_ratio=0.5", error), nullptr);
  EXPECT_NE(error.find(">= 1.0"), std::string::npos) << error;
  EXPECT_EQ(find_store_profile("rocksdb:bogus=1", error), nullptr);
  EXPECT_NE(error.find("max_compressed_bytes_per_kb"), std::string::npos) << error;
  EXPECT_EQ(find_store_profile("rocksdb:max_compressed_bytes_per_kb=2000", error), nullptr);
  EXPECT_EQ(find_store_profile("scylla:chunk=12K", error), nullptr);
  EXPECT_NE(error.find("power of two"), std::string::npos) << error;
  EXPECT_EQ(find_store_profile("scylla:chunk=256K", error), nullptr);
  EXPECT_EQ(find_store_profile("leveldb:", error), nullptr);
  EXPECT_EQ(find_store_profile("leveldb:chunk", error), nullptr);
  for (char c : error) EXPECT_NE(c, '\n');
}

TEST(StoreProfiles, OptionVariantsAreStableAndApplied) {
  const StoreProfile* a = find_store_profile("cassandra:min_compress_ratio=1.1,chunk=64K");
  const StoreProfile* b = find_store_profile("cassandra:min_compress_ratio=1.1,chunk=64K");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a, b);  // cached: bench may keep the pointer
  EXPECT_EQ(a->base, "cassandra");
  EXPECT_DOUBLE_EQ(a->min_compress_ratio, 1.1);
  EXPECT_EQ(a->block_size, 64u * 1024);
  EXPECT_EQ(find_store_profile("cassandra")->min_compress_ratio, 0);  // the base is untouched
}

TEST(StoreProfiles, SupportedCodecsAreEachStoresOwnListWithModes) {
  const StoreProfile& rocksdb = profile("rocksdb");
  // RocksDB 7.8 calls LZ4_compress_fast_continue and deflates raw (-14).
  EXPECT_TRUE(store_supports_codec(rocksdb, BlockCodec{"lz4", "1:stream", false}));
  EXPECT_FALSE(store_supports_codec(rocksdb, BlockCodec{"lz4", "1", false}));
  EXPECT_TRUE(store_supports_codec(rocksdb, BlockCodec{"zlib", "6", false}));
  EXPECT_FALSE(store_supports_codec(rocksdb, BlockCodec{"zlib", "6:zlib", false}));
  EXPECT_TRUE(store_supports_codec(rocksdb, BlockCodec{"zstd", "3:dict=16K", false}));
  EXPECT_TRUE(store_supports_codec(rocksdb, "lz4"));  // by name: offered in some mode
  EXPECT_FALSE(store_supports_codec(rocksdb, "brotli"));
  // Cassandra's DeflateCompressor and Scylla's deflate_processor write the zlib container.
  EXPECT_TRUE(store_supports_codec(profile("cassandra"), BlockCodec{"zlib", "6:zlib", false}));
  EXPECT_FALSE(store_supports_codec(profile("cassandra"), BlockCodec{"zlib", "6", false}));
  EXPECT_FALSE(store_supports_codec(profile("cassandra"), BlockCodec{"lz4", "1:stream", false}));
  EXPECT_FALSE(store_supports_codec(profile("leveldb"), "lz4"));
  EXPECT_TRUE(store_supports_codec(profile("hbase"), "xz"));
  EXPECT_FALSE(store_supports_codec(profile("tarantool"), "snappy"));
  // Option variants answer as their store; uncompressed blocks every store writes.
  EXPECT_TRUE(store_supports_codec(*find_store_profile("scylla:chunk=16K"), "snappy"));
  for (const auto& p : store_profiles()) {
    EXPECT_TRUE(store_supports_codec(p, kUncompressed)) << p.name;
    EXPECT_TRUE(store_supports_codec(p, "memcpy")) << p.name;
  }
}

TEST(StoreProfiles, OptionListsAndRuleLinesFollowTheStore) {
  EXPECT_EQ(store_profile_options(profile("wiredtiger")).front().rfind("block=SIZE", 0), 0u);
  EXPECT_EQ(store_profile_options(profile("scylla")).size(), 1u);
  const auto cassandra = store_profile_options(profile("cassandra"));
  ASSERT_EQ(cassandra.size(), 2u);
  EXPECT_EQ(cassandra[0].rfind("chunk=SIZE  block/chunk/page size (1K..1M)", 0), 0u) << cassandra[0];
  EXPECT_EQ(cassandra[1].rfind("min_compress_ratio=R", 0), 0u);
  EXPECT_EQ(store_profile_options(profile("rocksdb")).back().rfind("max_compressed_bytes_per_kb=N", 0), 0u);
  // An option that is another store's is unknown here, and the error lists this store's.
  std::string error;
  EXPECT_EQ(find_store_profile("leveldb:min_compress_ratio=1.1", error), nullptr);
  EXPECT_EQ(error, "leveldb: unknown option 'min_compress_ratio' (known: chunk, version)");
  // Rule lines describe the options in force.
  EXPECT_NE(find_store_profile("cassandra:min_compress_ratio=1.1")->rules.find("; min_compress_ratio=1.10"),
            std::string::npos);
  EXPECT_NE(find_store_profile("rocksdb:max_compressed_bytes_per_kb=900")->rules.find("<= 900*raw/1024"),
            std::string::npos);
  EXPECT_EQ(find_store_profile("rocksdb:chunk=8K")->rules, profile("rocksdb").rules);
  EXPECT_EQ(find_store_profile("rocksdb:chunk=8K,")->block_size, 8u * 1024);  // one trailing comma is fine
}

// Issue 35: an option given twice was resolved silently (the last value won); chunk= and block=
// are one option; two options run together with ':' are not one value.
TEST(StoreProfiles, AnOptionGivenTwiceIsRefused) {
  std::string error;
  EXPECT_EQ(find_store_profile("cassandra:chunk=16K,chunk=64K", error), nullptr);
  EXPECT_EQ(error, "cassandra: option chunk= given twice: give each option once");
  EXPECT_EQ(find_store_profile("rocksdb:chunk=16K,block=4K", error), nullptr);
  EXPECT_EQ(error, "rocksdb: option block= given twice: give each option once");
  EXPECT_EQ(find_store_profile("cassandra:min_compress_ratio=1.1,min_compress_ratio=1.2", error), nullptr);
  EXPECT_EQ(error, "cassandra: option min_compress_ratio= given twice: give each option once");
  EXPECT_EQ(find_store_profile("cassandra:chunk=16K:chunk=64K", error), nullptr);
  EXPECT_EQ(error,
            "cassandra: option 'chunk=16K:chunk=64K' is two options: separate them with ',' "
            "(cassandra:key=value,key=value)");
  ASSERT_NE(find_store_profile("cassandra:chunk=16K,min_compress_ratio=1.1", error), nullptr) << error;
}

// Issue 36: a mistyped profile or option key names the closest this store has.
TEST(StoreProfiles, TyposNameTheClosest) {
  std::string error;
  EXPECT_EQ(find_store_profile("casandra:chunk=16K", error), nullptr);
  EXPECT_EQ(error,
            "unknown store profile 'casandra': did you mean 'cassandra'? (known: rocksdb, leveldb, cassandra, scylla, "
            "hbase, wiredtiger, tarantool)");
  EXPECT_EQ(find_store_profile("cassandra:min_compress_ratoi=1.1", error), nullptr);
  EXPECT_EQ(error,
            "cassandra: unknown option 'min_compress_ratoi': did you mean 'min_compress_ratio'? (known: chunk, "
            "min_compress_ratio)");
}

TEST(StoreBlock, TheUncompressedFlagNotTheNameSelectsTheReferenceFraming) {
  for (const auto& p : store_profiles()) {
    SCOPED_TRACE(p.name);
    const StoredBlock reference = store_block(p, kUncompressed, 4000, 4000);
    const StoredBlock flagged = store_block(p, BlockCodec{"zstd", "3", true}, 4000, 4000);
    EXPECT_EQ(flagged.bytes, reference.bytes);
    // WiredTiger's page is the block plus the 64 bytes it never compresses (stores/wiredtiger/wiredtiger.cpp).
    EXPECT_EQ(flagged.payload, p.name == "wiredtiger" ? 4064u : 4000u);
    EXPECT_FALSE(flagged.kept_raw);
  }
}

TEST(StoreBlock, HandMadeProfileGetsThePlainRule) {
  StoreProfile custom;
  custom.base = "custom";
  EXPECT_TRUE(store_block(custom, compressed("zstd"), 4096, 3584).kept_raw);
  EXPECT_EQ(store_block(custom, compressed("zstd"), 4096, 3583).bytes, 3583u);
  EXPECT_FALSE(store_supports_codec(custom, "zstd"));
  EXPECT_TRUE(store_supports_codec(custom, kUncompressed));
  EXPECT_EQ(store_profile_options(custom).size(), 1u);
}

TEST(StoreBlock, RocksDb78KeepsRawUnlessPrefixedSizeBeatsSevenEighths) {
  const StoreProfile& p = profile("rocksdb");
  // raw 2989: raw - raw/8 = 2616; zstd's varint32 prefix of 2989 is 2 bytes.
  StoredBlock at = store_block(p, compressed("zstd"), 2989, 2614);  // 2616 with prefix: not < 2616
  EXPECT_TRUE(at.kept_raw);
  EXPECT_EQ(at.bytes, 2989u + 5);
  StoredBlock below = store_block(p, compressed("zstd"), 2989, 2613);  // 2615 < 2616
  EXPECT_FALSE(below.kept_raw);
  EXPECT_EQ(below.payload, 2615u);
  EXPECT_EQ(below.bytes, 2620u);
  // Snappy has no prefix: 2615 alone is below 2616.
  EXPECT_FALSE(store_block(p, compressed("snappy"), 2989, 2615).kept_raw);
  EXPECT_EQ(store_block(p, compressed("snappy"), 2989, 2615).bytes, 2620u);
  // Prefix widths: 1 byte below 128, 3 bytes from 16384.
  EXPECT_EQ(store_block(p, compressed("lz4"), 100, 50).payload, 51u);
  EXPECT_EQ(store_block(p, compressed("lz4hc"), 20000, 5000).payload, 5003u);
  EXPECT_EQ(store_block(p, compressed("zlib"), 4096, 1000).bytes, 1007u);
  // memcpy = kNoCompression: raw plus trailer, not counted as a keep-raw decision.
  EXPECT_FALSE(store_block(p, kUncompressed, 4096, 4096).kept_raw);
  EXPECT_EQ(store_block(p, kUncompressed, 4096, 4096).bytes, 4101u);
}

TEST(StoreBlock, RocksDbNewerRuleIsAtMostNPerKb) {
  const StoreProfile* p = find_store_profile("rocksdb:max_compressed_bytes_per_kb=896");
  ASSERT_NE(p, nullptr);
  // raw 1024 -> limit 896 including the 2-byte prefix.
  EXPECT_FALSE(store_block(*p, compressed("zstd"), 1024, 894).kept_raw);
  EXPECT_TRUE(store_block(*p, compressed("zstd"), 1024, 895).kept_raw);
  // The 7.8 rule differs exactly here: 896 is not < 1024 - 128.
  EXPECT_TRUE(store_block(profile("rocksdb"), compressed("zstd"), 1024, 894).kept_raw);
}

TEST(StoreBlock, LevelDbTwelveAndAHalfPercent) {
  const StoreProfile& p = profile("leveldb");
  EXPECT_FALSE(store_block(p, compressed("snappy"), 4096, 3583).kept_raw);
  EXPECT_EQ(store_block(p, compressed("snappy"), 4096, 3583).bytes, 3588u);
  EXPECT_TRUE(store_block(p, compressed("snappy"), 4096, 3584).kept_raw);
  EXPECT_EQ(store_block(p, compressed("snappy"), 4096, 3584).bytes, 4101u);
}

TEST(StoreBlock, CassandraChunksAndMinCompressRatio) {
  const StoreProfile& p = profile("cassandra");
  EXPECT_EQ(store_block(p, compressed("lz4"), 16384, 5000).bytes, 5000u + 4 + 4);
  EXPECT_EQ(store_block(p, compressed("zstd"), 16384, 5000).bytes, 5000u + 4);
  // Off by default: even an expanding chunk is stored compressed.
  EXPECT_FALSE(store_block(p, compressed("lz4"), 16384, 16500).kept_raw);
  const StoreProfile* r = find_store_profile("cassandra:min_compress_ratio=1.1");
  ASSERT_NE(r, nullptr);
  // maxCompressedLength = ceil(16384 / 1.1) = 14895, compared with the prefixed length.
  EXPECT_FALSE(store_block(*r, compressed("lz4"), 16384, 14890).kept_raw);
  StoredBlock raw = store_block(*r, compressed("lz4"), 16384, 14891);
  EXPECT_TRUE(raw.kept_raw);
  EXPECT_EQ(raw.bytes, 16384u + 4);
  // A short last chunk that fails the rule is padded up to maxCompressedLength.
  StoredBlock padded = store_block(*r, compressed("zstd"), 14000, 14900);
  EXPECT_TRUE(padded.kept_raw);
  EXPECT_EQ(padded.bytes, 14895u + 4);
}

TEST(StoreBlock, ScyllaNeverFallsBackToRaw) {
  const StoreProfile& p = profile("scylla");
  StoredBlock b = store_block(p, compressed("lz4"), 4096, 4200);
  EXPECT_FALSE(b.kept_raw);
  EXPECT_EQ(b.bytes, 4200u + 4 + 4);
}

TEST(StoreBlock, HBaseHeaderFramingAndChecksums) {
  const StoreProfile& p = profile("hbase");
  // 33 + 20008 = 20041 bytes on disk -> 2 checksum chunks of 16 KiB.
  EXPECT_EQ(store_block(p, compressed("snappy"), 65536, 20000).bytes, 20041u + 8);
  // gzip member = zlib container (2+4) replaced by 18 bytes.
  EXPECT_EQ(store_block(p, compressed("zlib"), 65536, 10000).payload, 10012u);
  EXPECT_FALSE(store_block(p, compressed("xz"), 65536, 70000).kept_raw);  // HBase never stores raw
}

TEST(StoreBlock, WiredTigerAllocationUnits) {
  const StoreProfile& p = profile("wiredtiger");
  // A block of 32768 is a page of 32832 (8 units by integer division). Output 8 + 28000 = 28008
  // (6 units) saves units: the page is 64 + 28008 = 28072 -> 7 units of 4 KiB.
  StoredBlock b = store_block(p, compressed("snappy"), 32768, 28000);
  EXPECT_FALSE(b.kept_raw);
  EXPECT_EQ(b.bytes, 7u * 4096);
  // Output 30008: 7 < 8 units, WT takes it although 64 + 30008 rounds to 8 units.
  EXPECT_EQ(store_block(p, compressed("snappy"), 32768, 30000).bytes, 32768u);
  EXPECT_FALSE(store_block(p, compressed("snappy"), 32768, 30000).kept_raw);
  // lz4: 16 + 32700 = 32716 is 7 units (the 64 bytes are not counted): taken, 9 units written.
  EXPECT_FALSE(store_block(p, compressed("lz4"), 32768, 32700).kept_raw);
  EXPECT_EQ(store_block(p, compressed("lz4"), 32768, 32700).bytes, 9u * 4096);
  // 16 + 32760 = 32776 is 8 units: no unit saved, the raw page is written (32832 -> 9 units).
  EXPECT_TRUE(store_block(p, compressed("lz4"), 32768, 32760).kept_raw);
  EXPECT_EQ(store_block(p, compressed("lz4"), 32768, 32760).bytes, 9u * 4096);
  EXPECT_EQ(store_block(p, compressed("zlib"), 32768, 1000).bytes, 4096u);
  // A page of one allocation unit or less is never compressed.
  EXPECT_TRUE(store_block(p, compressed("zlib"), 4000, 100).kept_raw);
  EXPECT_EQ(store_block(p, compressed("zlib"), 4000, 100).bytes, 4096u);
}

// WiredTiger's own calls are its rows under the profile (a plain zstd is ZSTD_compress per call,
// a plain zlib its container set up per call), and its zstd and lz4 bytes are said to be
// unchecked: Debian ships no extension to write them with.
TEST(StoreCodecs, WiredTigersCallsAndItsUncheckedCodecs) {
  const StoreProfile& p = profile("wiredtiger");
  std::string options;
  EXPECT_EQ(store_codec_options(p, "zstd", options), "");
  EXPECT_EQ(options, ":fresh");
  options.clear();
  EXPECT_EQ(store_codec_options(p, "zlib", options), "");
  EXPECT_EQ(options, ":zlib:fresh");
  EXPECT_EQ(store_codec_caveat(p, "snappy"), "");
  EXPECT_EQ(store_codec_caveat(p, "zlib"), "");
  EXPECT_NE(store_codec_caveat(p, "zstd").find("not validated"), std::string::npos);
  EXPECT_NE(store_codec_caveat(p, "lz4").find("not validated"), std::string::npos);
  EXPECT_EQ(store_codec_caveat(profile("rocksdb"), "zstd"), "");
}

TEST(StoreBlock, TarantoolFieldEncoding) {
  const StoreProfile& p = profile("tarantool");
  // body = type 1 + mp_uint(1000) 3 + 400; ext16 header 4.
  EXPECT_EQ(store_block(p, compressed("zstd"), 1000, 400).bytes, 408u);
  StoredBlock tiny = store_block(p, compressed("lz4"), 10, 12);
  EXPECT_TRUE(tiny.kept_raw);
  EXPECT_EQ(tiny.bytes, 10u);
}

}  // namespace
}  // namespace kvz

namespace kvz {
namespace {

BlockSet numbered_blocks(size_t count, size_t size) {
  BlockSet set;
  for (size_t i = 0; i < count; ++i) {
    std::vector<uint8_t> b(size, static_cast<uint8_t>(i));
    set.add_block(b, 1);
  }
  return set;
}

TEST(StoreDictionarySamples, RocksDbPrimeStrideFromTheMiddle) {
  const StoreProfile& p = profile("rocksdb");
  // 5 blocks: start at 2, step 545055921143 % 5 = 3 -> 2, 0, 3, 1, 4.
  BlockSet five = numbered_blocks(5, 10);
  auto samples = store_dictionary_samples(p, five, 1);  // budget 100 bytes: all of them
  ASSERT_EQ(samples.size(), 5u);
  const uint8_t order[] = {2, 0, 3, 1, 4};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(samples[i][0], order[i]);
    EXPECT_EQ(samples[i].size(), 10u);
  }
  // 4 blocks of 30 bytes, budget 100: 30 + 30 + 30 + 10 (the last one cut short).
  BlockSet four = numbered_blocks(4, 30);
  samples = store_dictionary_samples(p, four, 1);
  ASSERT_EQ(samples.size(), 4u);
  EXPECT_EQ(samples[3].size(), 10u);
  EXPECT_EQ(samples[0][0], 2);                  // 4 / 2
  EXPECT_EQ(samples[1][0], 1);                  // (2 + 3) % 4
  for (const auto& other : store_profiles()) {  // only RocksDB samples its own file
    if (other.name == "rocksdb") continue;
    EXPECT_TRUE(store_dictionary_samples(other, four, 1).empty()) << other.name;
  }
  EXPECT_TRUE(store_dictionary_samples(p, BlockSet{}, 16384).empty());
}

// A compaction output buffers data blocks only up to target_file_size (64 MiB), the block that
// passes it included, and samples among those: 66 blocks of 1 MiB -> n = 65, start at 32.
TEST(StoreDictionarySamples, RocksDbSamplesOnlyTheBufferedBlocks) {
  BlockSet big = numbered_blocks(66, size_t{1} << 20);
  const auto samples =
      store_dictionary_samples(profile("rocksdb"), big, 1 << 20);  // budget 100 MiB: every buffered block
  ASSERT_EQ(samples.size(), 65u);
  EXPECT_EQ(samples[0][0], 32);
  std::set<uint8_t> seen;
  for (const auto& s : samples) seen.insert(s[0]);
  EXPECT_EQ(seen.size(), 65u);
  EXPECT_EQ(seen.count(65), 0u);  // the 66th block was written after the dictionary
}

// RocksDB's dictionary is a raw meta block with the 5-byte block trailer; other stores keep
// no dictionary in their files.
TEST(StoreDictionarySamples, DictionaryBlockBytes) {
  EXPECT_TRUE(store_has_file_dictionary(profile("rocksdb")));
  EXPECT_EQ(store_dictionary_block_bytes(profile("rocksdb"), 16384), 16389u);
  for (const auto& other : store_profiles()) {
    if (other.name == "rocksdb") continue;
    EXPECT_FALSE(store_has_file_dictionary(other)) << other.name;
    EXPECT_EQ(store_dictionary_block_bytes(other, 16384), 16384u) << other.name;
  }
}

}  // namespace
}  // namespace kvz
