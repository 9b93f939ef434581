// The one list of store-file readers and their registration in the pipeline's registry.
#include "stores/store_readers.h"

namespace kvz {

// The readers, in the order the registry asks them: the first that claims a path takes it.
// HBase first (an HFile's trailer, or an `.hfile` name, wins over any other reading of its
// bytes), ScyllaDB before Cassandra (a Data.db with a `*-Scylla.db` beside it), WiredTiger
// before the tables (its descriptor, or a `.wt` name), LevelDB's magic before RocksDB's reader,
// which also takes the tables' names. Adding a reader: `std::unique_ptr<StoreFileReader>
// NAME_reader()` in stores/NAME/, and one READER(NAME) line here.
#define KVZ_STORE_READERS(READER) \
  READER(hbase)                   \
  READER(scylla)                  \
  READER(cassandra)               \
  READER(wiredtiger)              \
  READER(leveldb)                 \
  READER(rocksdb)

#define KVZ_DECLARE_READER(name) std::unique_ptr<StoreFileReader> name##_reader();
KVZ_STORE_READERS(KVZ_DECLARE_READER)
#undef KVZ_DECLARE_READER

void register_store_readers(SourceRegistry& registry) {
#define KVZ_ADD_READER(name) registry.add(name##_reader());
  KVZ_STORE_READERS(KVZ_ADD_READER)
#undef KVZ_ADD_READER
}

}  // namespace kvz

// The registration, once per program, before main. Not a call in main() because kvz_blockgen's
// pipeline, and every command and test binary that reads sources through it, must find the
// readers without each remembering to ask for them; and not a bare static initializer, which
// a static library's link drops along with its unreferenced object file: stores/CMakeLists.txt
// names this symbol to the linker (--undefined) for every program that links kvz_stores, so
// this object, and the initializer, is always linked in.
extern "C" const bool kvz_store_readers_registered = [] {
  kvz::register_store_readers(kvz::SourceRegistry::global());
  return true;
}();
