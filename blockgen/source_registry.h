#pragma once
// A store's own files as `run`/`blocks` sources (a RocksDB table, a Cassandra `*-Data.db`, an
// HBase HFile, a WiredTiger file), also inside a directory given as a source. blockgen knows
// only this interface: each store reads its own format (stores/<store>/) and registers its
// reader (stores/store_readers.cpp); the pipeline asks the registry which reader takes a path.
// A reader fills RecordSet's records, raw stream and blocks as stored, with the file's codec
// and bytes on disk (RecordSet::origin), and says what the file is in RecordSet::detail.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "blockgen/block.h"

namespace kvz {

// How a reader takes a path: not at all; by a name its files carry (`x.sst`: a damaged one is
// then bad input with one line saying why, not an empty text corpus); or as one of its files
// (by its bytes, a magic or a trailer, or by a name only its files have, `*-Data.db`).
enum class Claim { none, name, file };

// A part of a store that a directory holds whole, with the files that make it (a RocksDB or
// LevelDB DB: a column family's level, as its MANIFEST says): read as one source.
struct FileGroup {
  std::string name;                // the part, after the directory's source name ("default/L6")
  std::vector<std::string> files;  // in the order the part holds them (a level's key order)
  std::string table;               // the table it belongs to (StoredOrigin::table)
  int level = -1;                  // the LSM level, -1 for none
  std::string options;             // the part's options as the store wrote them ("num_levels=7;...")
};

// How a directory is read: its parts (none: file by file) and one line per thing to say about
// it (a MANIFEST that does not read, so its files are read one by one).
struct DirectoryParts {
  std::vector<FileGroup> groups;
  std::vector<std::string> notes;
};

// A reader of one kind of store file.
class StoreFileReader {
 public:
  virtual ~StoreFileReader() = default;
  // The store that writes these files ("cassandra").
  virtual std::string_view store() const = 0;
  // For a variant, the store whose file format (and framing) it writes too ("scylla":
  // "cassandra"); "" for none. The base's profile frames the variant's blocks.
  virtual std::string_view base() const { return {}; }
  // How it takes `path` (Claim); cheap: a name, a stat and a few bytes read.
  virtual Claim claim(const std::string& path) const = 0;
  // Files of the store's own that a directory listing leaves out (`name`: the file name).
  virtual bool hides(const std::string& /*name*/) const { return false; }
  // Reads the file (up to `max_bytes` of records or decompressed stream, whole blocks; 0: all)
  // into `set`. False with a one-line error naming the file and the byte offset.
  virtual bool read(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) const = 0;
  // Whether `set` came from this reader (its RecordSet::record_mode).
  virtual bool made(const RecordSet& set) const = 0;
  // A directory this store describes as a whole: its parts (FileGroup). False when `dir` is
  // none of its; true with notes and no groups when it is but its description does not read.
  virtual bool parts_in(const std::string& /*dir*/, DirectoryParts& /*out*/) const { return false; }
  // Reads a part's files into one set (`max_bytes` shared among them by size), as read() does.
  virtual bool read_group(const FileGroup& group, size_t /*max_bytes*/, RecordSet& /*set*/, std::string& error) const {
    error = group.name + ": this store reads no parts";
    return false;
  }
};

// The readers, asked in registration order: the first that claims a path takes it, so the
// order decides when a file's name and its bytes point to different readers (the stores'
// order and why: stores/store_readers.cpp).
class SourceRegistry {
 public:
  // Throws std::logic_error when a reader of that store is already registered.
  void add(std::unique_ptr<StoreFileReader> reader);
  const std::vector<std::unique_ptr<StoreFileReader>>& readers() const { return readers_; }

  // The reader that takes `path`; null for any other file.
  const StoreFileReader* reader_for(const std::string& path) const;
  bool is_store_file(const std::string& path) const { return reader_for(path) != nullptr; }
  // The store that wrote the file, as its bytes (or a `*-Data.db`'s name and companions) say:
  // "rocksdb", "leveldb" (also RocksDB format_version 0), "cassandra", "scylla", "hbase",
  // "wiredtiger"; "" for a file taken by its name alone, or any other file.
  std::string store_of(const std::string& path) const;
  // The store whose format `store`'s files are ("scylla" -> "cassandra"); `store` itself when
  // it is no variant.
  std::string base_of(const std::string& store) const;
  // The store files in `dir` (not recursive), sorted; empty when there are none.
  std::vector<std::string> files_in(const std::string& dir) const;
  // The parts of a directory a store describes whole (StoreFileReader::parts_in), and the reader
  // that reads them; null when no store does.
  const StoreFileReader* parts_in(const std::string& dir, DirectoryParts& out) const;
  // Reads `path` with the reader that takes it (StoreFileReader::read).
  bool read(const std::string& path, size_t max_bytes, RecordSet& set, std::string& error) const;
  // Whether a record set came from a reader here (its detail names the file's bytes on disk).
  bool made(const RecordSet& set) const;

  // The process-wide registry the pipeline reads with. Programs linking kvz_stores have every
  // store's reader in it before main (stores/store_readers.cpp); without it, it is empty and
  // every file is a corpus.
  static SourceRegistry& global();

 private:
  std::vector<std::unique_ptr<StoreFileReader>> readers_;
};

}  // namespace kvz
