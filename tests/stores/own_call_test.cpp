// The store's own call (stores/store_profile.h store_own_call): the first row a store lists for a
// codec is the call it makes; the rows after it for the same codec (the "best possible call": the
// same bytes, a state reused across blocks) are not, and neither is a codec it does not write.
#include <gtest/gtest.h>

#include "stores/store_profile.h"

namespace kvz {
namespace {

const StoreProfile& profile_named(const std::string& name) {
  const StoreProfile* p = find_store_profile(name);
  if (!p) throw std::runtime_error("no profile " + name);
  return *p;
}

TEST(StoreOwnCall, RocksDbSetsUpZlibLz4AndLz4hcPerBlock) {
  const StoreProfile& r = profile_named("rocksdb");
  EXPECT_TRUE(store_own_call(r, "lz4", "1:stream:fresh"));
  EXPECT_FALSE(store_own_call(r, "lz4", "1:stream"));  // the best possible call
  EXPECT_FALSE(store_own_call(r, "lz4", "1"));         // one-shot LZ4: not RocksDB's bytes
  EXPECT_TRUE(store_own_call(r, "lz4hc", "9:fresh:dict=16K"));
  EXPECT_FALSE(store_own_call(r, "lz4hc", "9:dict=16K"));  // the README's old example: not RocksDB's call
  EXPECT_TRUE(store_own_call(r, "zlib", "6:fresh:rawdict=16K"));
  EXPECT_FALSE(store_own_call(r, "zlib", "6"));
  EXPECT_TRUE(store_own_call(r, "zstd", "3:dict=16K"));  // zstd's contexts are cached: one row
  EXPECT_TRUE(store_own_call(r, "zstd", "-5"));          // any level the options can set
  EXPECT_FALSE(store_own_call(r, "zstd", "3:dict=16K:split"));
  EXPECT_TRUE(store_own_call(r, "bzip2", "1"));
  EXPECT_FALSE(store_own_call(r, "bzip2", "9"));  // 7.8 writes blockSize100k 1 whatever the level
  EXPECT_FALSE(store_own_call(r, "xz", "6"));
  EXPECT_TRUE(store_own_call(r, "memcpy", "0"));
}

TEST(StoreOwnCall, CassandraScyllaAndWiredTiger) {
  EXPECT_TRUE(store_own_call(profile_named("cassandra"), "zstd", "3:fresh"));  // a context per chunk
  EXPECT_FALSE(store_own_call(profile_named("cassandra"), "zstd", "3"));
  EXPECT_TRUE(store_own_call(profile_named("cassandra"), "zlib", "6:zlib"));
  EXPECT_TRUE(store_own_call(profile_named("cassandra"), "lz4", "1"));
  EXPECT_TRUE(store_own_call(profile_named("scylla"), "zlib", "6:zlib:fresh"));
  EXPECT_FALSE(store_own_call(profile_named("scylla"), "zlib", "6:zlib"));
  EXPECT_TRUE(store_own_call(profile_named("wiredtiger"), "zstd", "6:fresh"));
  EXPECT_FALSE(store_own_call(profile_named("wiredtiger"), "zstd", "6"));
  EXPECT_TRUE(store_own_call(profile_named("wiredtiger"), "snappy", "0"));
}

}  // namespace
}  // namespace kvz
