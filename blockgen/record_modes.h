#pragma once
// Internals of the record modes, shared by records.cpp (dispatch, sampling),
// record_detect.cpp (mode detection) and record_readers.cpp (one reader per mode), and by
// the dataset generators (keys, uniqueness).
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "blockgen/block.h"
#include "blockgen/records.h"

namespace kvz::detail {

// A sortable id key: the ordinal as 12 zero-padded decimal digits.
std::string ordinal_key(uint64_t n);
// Sort by key and make keys unique (duplicates after the first get "#NNNNNNNNNN");
// returns how many keys were changed.
uint64_t sort_unique(RecordSet& set);
// N of "fixed:N", 0 when `mode` is not a valid fixed mode.
size_t fixed_size(const std::string& mode);

// Lines without their '\n'; a final line without newline counts when non-empty.
template <typename F>
inline void for_each_line(std::string_view data, F&& f) {
  size_t pos = 0;
  uint64_t n = 0;
  while (pos < data.size()) {
    const void* nl = std::memchr(data.data() + pos, '\n', data.size() - pos);
    const size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - data.data()) : data.size();
    f(data.substr(pos, end - pos), n++);
    pos = end + 1;
  }
}

// Blank lines hold no record: a reader skips them and says how many, so no input line is
// dropped without a count.
inline void note_blank_lines(RecordSet& set, std::string_view mode, uint64_t blank) {
  if (blank) set.warnings.push_back(std::string(mode) + ": " + std::to_string(blank) + " blank lines: skipped");
}

// Control bytes other than tab/CR/LF/FF (binary data in a text mode).
bool has_binary(std::string_view s);
size_t count_fields(std::string_view line, char sep);
// The fewest leading columns (1..3, fewer than all) whose values are >= 90% distinct over up
// to 2000 rows (the first row may be a header and is skipped); 0 when none are.
int pick_key_columns(const std::vector<std::string_view>& rows, char sep, size_t nfields);
// Mode detection on the head of the data; `why` says what was seen.
std::string detect_mode(std::string_view data, std::string& why);

// Readers append to set.records and set detail/warnings; those returning false found the
// input mostly unfit for the mode (the caller falls back to lines).
void read_lines(std::string_view data, const RecordOptions& opt, RecordSet& set);
bool read_jsonl(std::string_view data, const RecordOptions& opt, RecordSet& set);
bool read_json(std::string_view data, const RecordOptions& opt, RecordSet& set, std::string& why);
bool read_delimited(std::string_view data, char sep, const RecordOptions& opt, RecordSet& set);
void read_fixed(std::string_view data, size_t n, RecordSet& set);
// Key/value dumps (record_kv.cpp): `key<TAB>value` lines; ldb/sst_dump hex dumps.
bool read_kv_tab(std::string_view data, RecordSet& set);
bool read_kv_hex(std::string_view data, RecordSet& set);
bool looks_like_hex_dump(std::string_view head);

}  // namespace kvz::detail
