// A RocksDB or LevelDB MANIFEST replayed into the live version (stores/rocksdb/manifest.h).
#include "stores/rocksdb/manifest.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <utility>

#include "stores/shared/crc32c.h"
#include "stores/shared/file_bytes.h"
#include "stores/shared/table_block.h"

namespace kvz {

namespace {

// --- The log: 32 KiB blocks of checksummed records ----------------------------------------

constexpr size_t kLogBlock = 32768;
constexpr size_t kLogRecordHeader = 7;
constexpr size_t kRecyclableHeader = 11;
enum RecordType : uint8_t { kZero = 0, kFull = 1, kFirst = 2, kMiddle = 3, kLast = 4, kRecyclableLast = 8 };

// The logical records of a log, fragments joined; the offset of each record's first header.
class LogReader {
 public:
  LogReader(std::span<const uint8_t> bytes, const std::string& name) : b_(bytes), name_(name) {}
  // The next record: true with `record` set; false at the end (`error` empty) or on damage.
  bool next(std::string& record, uint64_t& at, std::string& error);

 private:
  // One physical record; 0 at the end of the file (a record cut short there included).
  int physical(std::span<const uint8_t>& payload, uint64_t& at, std::string& error);
  std::span<const uint8_t> b_;
  const std::string& name_;
  size_t pos_ = 0;
};

int LogReader::physical(std::span<const uint8_t>& payload, uint64_t& at, std::string& error) {
  for (;;) {
    const size_t left_in_block = kLogBlock - pos_ % kLogBlock;
    if (left_in_block < kLogRecordHeader) pos_ += left_in_block;  // the block's zero padding
    if (pos_ + kLogRecordHeader > b_.size()) return 0;
    at = pos_;
    const auto h = b_.subspan(pos_);
    const size_t length = h[4] | size_t{h[5]} << 8;
    const uint8_t type = h[6];
    if (type == kZero && length == 0) {  // preallocated, never written: the rest of the block
      pos_ += kLogBlock - pos_ % kLogBlock;
      continue;
    }
    if (type == kZero || type > kRecyclableLast) {
      error = fmt::format("{}: offset {}: record type {} is none of the log's", name_, at, type);
      return -1;
    }
    const size_t header = type > kLast ? kRecyclableHeader : kLogRecordHeader;
    if (header + length > kLogBlock - pos_ % kLogBlock) {
      error = fmt::format("{}: offset {}: a record of {} bytes runs past its 32 KiB block", name_, at, length);
      return -1;
    }
    if (pos_ + header + length > b_.size()) return 0;  // cut short at the end: a writer that died
    const uint32_t stored = static_cast<uint32_t>(read_le(h, 0, 4));
    if (stored != mask_crc32c(crc32c(h.subspan(6, header - 6 + length)))) {
      error = fmt::format("{}: offset {}: the record's CRC32C does not match (a damaged MANIFEST)", name_, at);
      return -1;
    }
    payload = h.subspan(header, length);
    pos_ += header + length;
    return type > kLast ? type - 4 : type;  // a recyclable type is its plain one
  }
}

bool LogReader::next(std::string& record, uint64_t& at, std::string& error) {
  record.clear();
  bool in_fragments = false;
  for (;;) {
    std::span<const uint8_t> payload;
    uint64_t fragment_at = 0;
    const int type = physical(payload, fragment_at, error);
    if (type <= 0) return false;  // the end (a fragmented record left unfinished is dropped) or damage
    const bool starts = type == kFull || type == kFirst;
    if (starts == in_fragments) {
      error = fmt::format("{}: offset {}: a {} fragment {} (a damaged MANIFEST)", name_, fragment_at,
                          type == kFull     ? "whole"
                          : type == kFirst  ? "first"
                          : type == kMiddle ? "middle"
                                            : "last",
                          in_fragments ? "inside another record" : "with no first fragment before it");
      return false;
    }
    if (starts) at = fragment_at;
    record.append(reinterpret_cast<const char*>(payload.data()), payload.size());
    if (type == kFull || type == kLast) return true;
    in_fragments = true;
  }
}

// --- VersionEdit ----------------------------------------------------------------------------

enum Tag : uint32_t {
  kComparator = 1,
  kLogNumber = 2,
  kNextFileNumber = 3,
  kLastSequence = 4,
  kCompactPointer = 5,
  kDeletedFile = 6,
  kNewFile = 7,
  kPrevLogNumber = 9,
  kMinLogNumberToKeep = 10,
  kNewFile2 = 100,
  kNewFile3 = 102,
  kNewFile4 = 103,
  kColumnFamily = 200,
  kColumnFamilyAdd = 201,
  kColumnFamilyDrop = 202,
  kMaxColumnFamily = 203,
  kInAtomicGroup = 300,
  kBlobFileAddition = 400,
  kBlobFileGarbage = 401,
  kSafeIgnoreMask = 1u << 13,
  kDbId = kSafeIgnoreMask + 1,
  kBlobFileAdditionOld = kSafeIgnoreMask + 2,
  kBlobFileGarbageOld = kSafeIgnoreMask + 3,
  kWalAddition = kSafeIgnoreMask + 4,
  kWalDeletion = kSafeIgnoreMask + 5,
};
constexpr uint32_t kFileTerminate = 1;
constexpr uint32_t kFileMustUnderstand = 1u << 6;
constexpr uint32_t kFilePathId = kFileMustUnderstand + 1;
constexpr int kMaxLevels = 64;  // RocksDB takes any num_levels; none has this many

struct NewFile {
  int level = 0;
  LiveFile file;
};

struct Edit {
  std::string comparator;
  std::optional<uint64_t> next_file, last_sequence;
  uint32_t family = 0;
  std::optional<std::string> family_added;
  bool family_dropped = false;
  std::optional<uint32_t> atomic_remaining;
  std::vector<std::pair<int, uint64_t>> deleted;
  std::vector<NewFile> added;
  std::vector<std::pair<uint64_t, uint64_t>> blobs_added;  // number, bytes
};

// A cursor over one edit; the first fault names the field it was in.
struct EditCursor {
  table::Cursor c;
  const char* fault = nullptr;
  uint64_t u64(const char* what) {
    const uint64_t v = c.varint();
    if (!c.ok && !fault) fault = what;
    return v;
  }
  uint32_t u32(const char* what) {
    const uint64_t v = c.varint(5);
    if ((!c.ok || v > 0xffffffffu) && !fault) fault = what;
    return static_cast<uint32_t>(v);
  }
  std::string bytes(const char* what) {
    const uint64_t n = u32(what);
    const auto s = fault ? std::span<const uint8_t>{} : c.take(n);
    if (!c.ok && !fault) fault = what;
    return {reinterpret_cast<const char*>(s.data()), s.size()};
  }
  int level(const char* what) {
    const uint32_t v = u32(what);
    if (!fault && v >= kMaxLevels) fault = "a level past 63";
    return static_cast<int>(v);
  }
  // An internal key: the user key and 8 bytes of sequence and type.
  std::string user_key(const char* what) {
    std::string k = bytes(what);
    if (!fault && k.size() < 8) fault = what;
    return fault ? std::string() : k.substr(0, k.size() - 8);
  }
  bool done() const { return fault || c.pos >= c.b.size(); }
};

// NewFile4's custom fields, up to the terminating tag: only the path id matters here.
void new_file4_fields(EditCursor& e, LiveFile& f) {
  for (int fields = 0; !e.fault; ++fields) {
    const uint32_t tag = e.u32("a new file's custom field");
    if (e.fault || tag == kFileTerminate) return;
    const std::string value = e.bytes("a new file's custom field");
    if (e.fault) return;
    if (tag == kFilePathId) {
      if (value.size() != 1 || static_cast<uint8_t>(value[0]) > 3) e.fault = "a new file's path id";
      f.path_id = value.empty() ? 0 : static_cast<uint8_t>(value[0]);
    } else if (tag & kFileMustUnderstand) {
      e.fault = "a new file's custom field that must be understood, of a later RocksDB";
    }
  }
}

void new_file(EditCursor& e, uint32_t tag, Edit& out) {
  NewFile n;
  n.level = e.level("a new file's level");
  n.file.number = e.u64("a new file's number");
  if (tag == kNewFile3) n.file.path_id = e.u32("a new file's path id");
  n.file.size = e.u64("a new file's size");
  n.file.smallest = e.user_key("a new file's smallest key");
  n.file.largest = e.user_key("a new file's largest key");
  if (tag != kNewFile) {
    e.u64("a new file's smallest sequence");
    e.u64("a new file's largest sequence");
  }
  if (tag == kNewFile3 && n.file.path_id > 3) e.fault = "a new file's path id";
  if (tag == kNewFile4) new_file4_fields(e, n.file);
  if (!e.fault) out.added.push_back(std::move(n));
}

// A blob file addition (number, count, bytes, checksum method and value, custom fields) or
// garbage (number, count, bytes, custom fields).
void blob_file(EditCursor& e, bool addition, Edit& out) {
  const uint64_t number = e.u64("a blob file's number");
  e.u64("a blob file's count");
  const uint64_t bytes = e.u64("a blob file's bytes");
  if (addition) {
    e.bytes("a blob file's checksum method");
    e.bytes("a blob file's checksum");
  }
  for (;;) {
    const uint32_t tag = e.u32("a blob file's custom field");
    if (e.fault || tag == kFileTerminate) break;
    if (tag & kFileMustUnderstand) e.fault = "a blob file's custom field that must be understood";
    e.bytes("a blob file's custom field");
  }
  if (addition && !e.fault) out.blobs_added.emplace_back(number, bytes);
}

// A WAL addition of RocksDB 6.x (tag 8196, not length-prefixed): the log number, then tagged
// fields up to tag 1 (2: the synced size).
void wal_addition(EditCursor& e) {
  e.u64("a WAL addition");
  for (;;) {
    const uint32_t tag = e.u32("a WAL addition");
    if (e.fault || tag == kFileTerminate) return;
    if (tag != 2) e.fault = "a WAL addition's field";
    e.u64("a WAL addition's size");
  }
}

void edit_field(EditCursor& e, uint32_t tag, Edit& out) {
  switch (tag) {
    case kComparator:
      out.comparator = e.bytes("the comparator's name");
      break;
    case kLogNumber:
    case kPrevLogNumber:
    case kMinLogNumberToKeep:
      e.u64("a log number");
      break;
    case kNextFileNumber:
      out.next_file = e.u64("the next file number");
      break;
    case kLastSequence:
      out.last_sequence = e.u64("the last sequence");
      break;
    case kCompactPointer:
      e.level("a compaction pointer");
      e.bytes("a compaction pointer");
      break;
    case kDeletedFile: {
      const int level = e.level("a deleted file's level");
      out.deleted.emplace_back(level, e.u64("a deleted file's number"));
      break;
    }
    case kNewFile:
    case kNewFile2:
    case kNewFile3:
    case kNewFile4:
      new_file(e, tag, out);
      break;
    case kColumnFamily:
      out.family = e.u32("a column family id");
      break;
    case kColumnFamilyAdd:
      out.family_added = e.bytes("a column family's name");
      break;
    case kColumnFamilyDrop:
      out.family_dropped = true;
      break;
    case kMaxColumnFamily:
      e.u32("the max column family");
      break;
    case kInAtomicGroup:
      out.atomic_remaining = e.u32("an atomic group's count");
      break;
    case kBlobFileAddition:
    case kBlobFileAdditionOld:
      blob_file(e, true, out);
      break;
    case kBlobFileGarbage:
    case kBlobFileGarbageOld:
      blob_file(e, false, out);
      break;
    case kWalAddition:
      wal_addition(e);
      break;
    case kWalDeletion:
      e.u64("a WAL deletion");
      break;
    default:
      if (tag & kSafeIgnoreMask) {  // the DB id, WAL edits, timestamps: length-prefixed, ignorable
        e.bytes("an ignorable field");
      } else {
        e.fault = "a tag of no RocksDB or LevelDB version";
      }
  }
}

// --- The replay -------------------------------------------------------------------------------

struct Family {
  std::string name;
  std::map<int, std::map<uint64_t, LiveFile>> levels;  // level -> number -> file
};

struct Replay {
  const std::string& name;
  DbVersion& out;
  std::map<uint32_t, Family> families{{0, Family{"default", {}}}};
  std::set<uint32_t> dropped;
  std::map<uint64_t, uint64_t> blobs;
  std::vector<std::pair<Edit, uint64_t>> group;  // an atomic group's edits so far, with their offsets

  bool apply(const Edit& e, uint64_t at, std::string& error);
  bool take(Edit e, uint64_t at, std::string& error);
  bool files(Family& f, const Edit& e, uint64_t at, std::string& error);
  void finish();
};

bool Replay::files(Family& f, const Edit& e, uint64_t at, std::string& error) {
  for (const auto& [level, number] : e.deleted) {
    auto l = f.levels.find(level);
    if (l == f.levels.end() || !l->second.erase(number)) {
      error = fmt::format("{}: offset {}: the edit deletes file {} from L{}, which does not hold it", name, at, number,
                          level);
      return false;
    }
    if (l->second.empty()) f.levels.erase(l);
  }
  for (const auto& n : e.added) {
    for (const auto& [level, files] : f.levels)
      if (files.count(n.file.number)) {
        error = fmt::format("{}: offset {}: the edit adds file {} to L{}, live on L{} already", name, at, n.file.number,
                            n.level, level);
        return false;
      }
    f.levels[n.level][n.file.number] = n.file;
  }
  return true;
}

bool Replay::apply(const Edit& e, uint64_t at, std::string& error) {
  ++out.edits;
  if (!e.comparator.empty() && e.family == 0) out.comparator = e.comparator;
  if (e.next_file) out.next_file = *e.next_file;
  if (e.last_sequence) out.last_sequence = *e.last_sequence;
  for (const auto& [number, bytes] : e.blobs_added) blobs[number] = bytes;
  if (e.family_added) {
    if (families.count(e.family) || dropped.count(e.family)) {
      error = fmt::format("{}: offset {}: column family {} added twice", name, at, e.family);
      return false;
    }
    families[e.family].name = *e.family_added;
  }
  if (dropped.count(e.family)) return true;  // a dropped family's last edits: nothing lives there
  const auto f = families.find(e.family);
  if (f == families.end()) {
    error = fmt::format("{}: offset {}: an edit of column family {}, which was never added", name, at, e.family);
    return false;
  }
  if (e.family_dropped) {
    dropped.insert(e.family);
    families.erase(f);
    return true;
  }
  return files(f->second, e, at, error);
}

// An edit, or an atomic group's edits once its last one has come.
bool Replay::take(Edit e, uint64_t at, std::string& error) {
  if (!e.atomic_remaining) {
    if (!group.empty()) {
      error = fmt::format("{}: offset {}: an edit inside an unfinished atomic group", name, at);
      return false;
    }
    return apply(e, at, error);
  }
  const bool last = *e.atomic_remaining == 0;
  group.emplace_back(std::move(e), at);
  if (!last) return true;
  for (const auto& [edit, offset] : group)
    if (!apply(edit, offset, error)) return false;
  group.clear();
  return true;
}

void Replay::finish() {
  for (auto& [id, f] : families) {
    ColumnFamilyVersion cf;
    cf.id = id;
    cf.name = f.name;
    for (auto& [level, files] : f.levels) {
      LiveLevel l;
      l.level = level;
      for (auto& [number, file] : files) l.files.push_back(std::move(file));
      if (level > 0)
        std::stable_sort(l.files.begin(), l.files.end(),
                         [](const LiveFile& a, const LiveFile& b) { return a.smallest < b.smallest; });
      cf.levels.push_back(std::move(l));
    }
    out.families.push_back(std::move(cf));
  }
  out.blob_files = blobs.size();
  for (const auto& [number, bytes] : blobs) out.blob_bytes += bytes;
}

bool parse_edit(const std::string& record, Edit& out, const std::string& name, uint64_t at, std::string& error) {
  EditCursor e{{{reinterpret_cast<const uint8_t*>(record.data()), record.size()}}};
  while (!e.done()) {
    const uint32_t tag = e.u32("a field's tag");
    if (!e.fault) edit_field(e, tag, out);
  }
  if (e.fault) error = fmt::format("{}: offset {}: a VersionEdit cut short or malformed at {}", name, at, e.fault);
  return !e.fault;
}

template <typename T>
uint64_t sum_bytes(const std::vector<T>& items) {
  uint64_t sum = 0;
  for (const auto& i : items) sum += i.bytes();
  return sum;
}

}  // namespace

uint64_t LiveLevel::bytes() const {
  uint64_t sum = 0;
  for (const auto& f : files) sum += f.size;
  return sum;
}
uint64_t ColumnFamilyVersion::files() const {
  uint64_t n = 0;
  for (const auto& l : levels) n += l.files.size();
  return n;
}
uint64_t ColumnFamilyVersion::bytes() const { return sum_bytes(levels); }
uint64_t DbVersion::files() const {
  uint64_t n = 0;
  for (const auto& f : families) n += f.files();
  return n;
}
uint64_t DbVersion::bytes() const { return sum_bytes(families); }

bool parse_manifest(std::span<const uint8_t> bytes, const std::string& name, DbVersion& out, std::string& error) {
  out = DbVersion{};
  out.manifest = name;
  error.clear();
  LogReader log(bytes, name);
  Replay replay{name, out, {{0, Family{"default", {}}}}, {}, {}, {}};
  std::string record;
  uint64_t at = 0;
  while (log.next(record, at, error)) {
    Edit e;
    if (!parse_edit(record, e, name, at, error) || !replay.take(std::move(e), at, error)) return false;
  }
  if (!error.empty()) return false;
  if (out.edits == 0) {
    error = name + ": no VersionEdit (an empty or cut MANIFEST)";
    return false;
  }
  replay.finish();  // an atomic group left unfinished at the end is dropped, as RocksDB drops it
  return true;
}

bool read_db_version(const std::string& dir, DbVersion& out, std::string& error) {
  namespace fs = std::filesystem;
  std::vector<uint8_t> current;
  if (!read_small_file((fs::path(dir) / "CURRENT").string(), 4096, current, error)) return false;
  std::string manifest(current.begin(), current.end());
  if (!manifest.empty() && manifest.back() == '\n') manifest.pop_back();
  if (manifest.rfind("MANIFEST-", 0) != 0 || manifest.find_first_of("/\n\\") != std::string::npos) {
    error = fmt::format("{}/CURRENT names no MANIFEST (\"{}\")", dir, manifest.substr(0, 40));
    return false;
  }
  MappedFile file;
  if (!file.open((fs::path(dir) / manifest).string(), error)) return false;
  return parse_manifest(file.bytes(), manifest, out, error);
}

// --- OPTIONS ----------------------------------------------------------------------------------

ColumnFamilyOptionsText parse_options_file(std::string_view text) {
  ColumnFamilyOptionsText out;
  std::map<std::string, std::string>* section = nullptr;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    if (line.front() == '[') {
      constexpr std::string_view kCf = "[CFOptions \"";
      const bool cf = line.rfind(kCf, 0) == 0 && line.size() >= kCf.size() + 2 && line.substr(line.size() - 2) == "\"]";
      section = cf ? &out[std::string(line.substr(kCf.size(), line.size() - kCf.size() - 2))] : nullptr;
      continue;
    }
    const size_t eq = line.find('=');
    if (section && eq != std::string_view::npos) (*section)[std::string(line.substr(0, eq))] = line.substr(eq + 1);
  }
  return out;
}

ColumnFamilyOptionsText read_db_options(const std::string& dir) {
  namespace fs = std::filesystem;
  std::string latest;
  uint64_t latest_number = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    // OPTIONS-<number>: at most 19 digits, so the number fits.
    if (n.rfind("OPTIONS-", 0) != 0 || n.size() == 8 || n.size() > 8 + 19 ||
        n.find_first_not_of("0123456789", 8) != std::string::npos)
      continue;
    const uint64_t number = std::stoull(n.substr(8));
    if (latest.empty() || number > latest_number) latest = n, latest_number = number;
  }
  std::vector<uint8_t> bytes;
  std::string error;
  if (latest.empty() || !read_small_file((fs::path(dir) / latest).string(), 1 << 20, bytes, error)) return {};
  return parse_options_file({reinterpret_cast<const char*>(bytes.data()), bytes.size()});
}

}  // namespace kvz
