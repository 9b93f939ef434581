#pragma once
// A RocksDB or LevelDB DB directory as it stands: CURRENT names the MANIFEST, a log of
// VersionEdit records; replayed in order they give the live version, every live table file by
// column family and level with its size. Read for facts from RocksDB v7.8.3 (db/log_format.h,
// db/log_reader.cc ReadPhysicalRecord/ReadRecord, db/version_edit.{h,cc} DecodeFrom and
// DecodeNewFile4From, db/blob/blob_file_{addition,garbage}.cc, db/wal_edit.cc,
// db/version_builder.cc for the replay's rules) and LevelDB 1.23 (db/log_format.h,
// db/version_edit.cc, db/filename.cc); nothing copied.
//
// The log: 32 KiB blocks of records. A record is a 7-byte header (the masked CRC32C of the type
// byte and the payload, the payload's u16 length, the type) and its payload; a record that does
// not fit the rest of a block is cut into FIRST, MIDDLE..., LAST fragments (FULL when whole); the
// fewer than 7 bytes left at a block's end are zero padding, and a zero-type zero-length header
// marks space preallocated and never written (the rest of the block). RocksDB's recyclable types
// (5-8) carry a 4-byte log number after the length (inside the CRC). A record cut short at the
// end of the file is what a writer that died mid-write leaves: the replay ends before it, as
// RocksDB's recovery does; any other fault (a CRC that does not match, a length past the block,
// an unknown type, a fragment out of order) is damage.
//
// A VersionEdit is tagged fields (varint32 tag, then the field): comparator (1, a
// length-prefixed name), log number (2), next file number (3), last sequence (4), compact
// pointer (5: level, internal key), deleted file (6: level, number), new file (7: level,
// number, size, smallest and largest internal keys), previous log number (9), min log number to
// keep (10); RocksDB's new file 2 (100: + smallest and largest sequence), 3 (102: + a path id
// after the number) and 4 (103: as 2, then custom fields, each a varint32 tag and a
// length-prefixed value, up to tag 1; tag 65, the path id, is one byte; an unknown tag with bit
// 6 set must not be ignored), column family (200: its id, for the whole edit), column family
// add (201: its name), drop (202), max column family (203), atomic group (300: how many edits
// follow in it), blob file addition (400) and garbage (401); tags with bit 13 set are
// length-prefixed and ignorable (DB id, WAL additions and deletions, full history ts low).
// LevelDB writes tags 1-7 and 9 only.
//
// The replay (VersionBuilder::Apply): an edit's deleted files leave their level first, then its
// new files join theirs; a file deleted from a level that does not hold it, or added while it is
// live, is damage. Edits of an atomic group apply together, once the group is whole (an
// unfinished group at the end is dropped, as RocksDB drops it). A column family lives from its
// add to its drop; "default" (id 0) always.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace kvz {

struct LiveFile {
  uint64_t number = 0;
  uint64_t size = 0;     // as the MANIFEST records it (the file's size when it was written)
  uint32_t path_id = 0;  // RocksDB's db_paths index: 0 is the DB directory
  std::string smallest;  // user keys (internal keys without their 8-byte trailer)
  std::string largest;
};

struct LiveLevel {
  int level = 0;
  std::vector<LiveFile> files;  // L0 by file number, deeper levels by smallest key
  uint64_t bytes() const;
};

struct ColumnFamilyVersion {
  uint32_t id = 0;
  std::string name;
  std::vector<LiveLevel> levels;  // the levels that hold files, L0 first
  uint64_t files() const;
  uint64_t bytes() const;
};

struct DbVersion {
  std::string manifest;  // the MANIFEST's file name ("MANIFEST-000005")
  std::string comparator;
  uint64_t next_file = 0;
  uint64_t last_sequence = 0;
  uint64_t edits = 0;                         // VersionEdits replayed
  std::vector<ColumnFamilyVersion> families;  // live ones, by id
  uint64_t blob_files = 0;                    // RocksDB's live blob files (values kept apart from the SSTs)
  uint64_t blob_bytes = 0;
  uint64_t files() const;
  uint64_t bytes() const;
};

// The live version a MANIFEST's bytes describe; false with one line naming `name`, the byte
// offset and what is wrong.
bool parse_manifest(std::span<const uint8_t> bytes, const std::string& name, DbVersion& out, std::string& error);
// The MANIFEST that `dir`/CURRENT names, read and replayed; false with one line (no CURRENT, a
// CURRENT that names no MANIFEST of the directory, or the MANIFEST's fault).
bool read_db_version(const std::string& dir, DbVersion& out, std::string& error);

// A DB's latest OPTIONS file (RocksDB writes OPTIONS-<number> at each open and SetOptions): its
// `[CFOptions "NAME"]` sections, each option as written (`num_levels` -> "7"). Empty for LevelDB
// or when there is none; an unreadable one is empty too (the options only refine a plan).
using ColumnFamilyOptionsText = std::map<std::string, std::map<std::string, std::string>>;
ColumnFamilyOptionsText parse_options_file(std::string_view text);
ColumnFamilyOptionsText read_db_options(const std::string& dir);

}  // namespace kvz
