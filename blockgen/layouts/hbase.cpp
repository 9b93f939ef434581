// HBase HFile data blocks of KeyValue cells (hbase-common KeyValue.java):
//   keylen(4 BE) vallen(4 BE) | rowlen(2 BE) row famlen(1) family qualifier timestamp(8 BE)
//   type(1) | value
// HFileWriterImpl.append checks the block boundary *before* writing a cell: once the block
// holds >= blocksize bytes it is finished, so the cell that crosses the target stays in it.
// A columnar record (csv/tsv/timeseries) becomes one row with one cell per value column
// (qualifier = column name) under family "cf", as in the HBase sensor study; any other record
// becomes one cell with qualifier "v". Tags and the mvcc vlong that HFile v3 may append to a
// cell are not written (see README).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "blockgen/encoding.h"
#include "blockgen/layouts/layout_impl.h"
#include "blockgen/records.h"

namespace kvz::layouts {

namespace {
constexpr std::string_view kFamily = "cf";
constexpr uint64_t kTimestamp = 1700000000000ull;  // fixed, so blocks are reproducible
constexpr uint8_t kTypePut = 4;

void append_cell(std::string& block, std::string_view row, std::string_view qualifier, std::string_view value,
                 BlockComposition& comp) {
  const size_t before = block.size();
  const size_t keylen = 2 + row.size() + 1 + kFamily.size() + qualifier.size() + 8 + 1;
  enc::put_be(block, keylen, 4);
  enc::put_be(block, value.size(), 4);
  enc::put_be(block, row.size(), 2);
  block.append(row);
  block.push_back(static_cast<char>(kFamily.size()));
  block.append(kFamily);
  block.append(qualifier);
  enc::put_be(block, kTimestamp, 8);
  block.push_back(static_cast<char>(kTypePut));
  block.append(value);
  comp.key_bytes += row.size();
  comp.value_bytes += value.size();
  comp.overhead_bytes += (block.size() - before) - row.size() - value.size();
}
}  // namespace

bool build_hbase(const RecordSet& in, size_t block_size, BlockSet& out, std::string& error) {
  std::string block;
  uint32_t rows_in_block = 0;
  std::vector<std::string> fields;
  const bool columnar = in.field_separator != 0;
  // Reserve what the cells will take (each cell repeats row, family, qualifier, timestamp),
  // so the block buffer is not regrown (and briefly doubled) on large inputs.
  size_t qualifier_bytes = 1, cells_per_row = 1;
  if (columnar && !in.columns.empty()) {
    qualifier_bytes = 0;
    for (const auto& c : in.columns) qualifier_bytes += c.size();
    cells_per_row = in.columns.size();
    qualifier_bytes /= cells_per_row;
  }
  size_t estimate = 0;
  for (const Record& r : in.records)
    estimate += r.value.size() + cells_per_row * (r.key.size() + qualifier_bytes + 12 + 2 + 1 + kFamily.size() + 9);
  out.bytes.reserve(estimate + estimate / 16);
  std::vector<std::string> qualifiers;
  for (size_t i = 0; i < std::max<size_t>(in.columns.size(), 64); ++i) qualifiers.push_back(value_column_name(in, i));
  auto flush = [&] {
    out.add_block({reinterpret_cast<const uint8_t*>(block.data()), block.size()}, rows_in_block);
    block.clear();
    rows_in_block = 0;
  };
  for (const Record& r : in.records) {
    if (r.key.size() > 32767) {
      error = "hbase: row key of " + std::to_string(r.key.size()) + " bytes exceeds HBase's 32767-byte limit";
      return false;
    }
    bool counted = false;
    auto cell = [&](std::string_view qualifier, std::string_view value) {
      if (!block.empty() && block.size() >= block_size) flush(), counted = false;
      append_cell(block, r.key, qualifier, value, out.composition);
      if (!counted) ++rows_in_block, counted = true;
    };
    if (columnar) {
      split_fields(r.value, in.field_separator, fields);
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i >= qualifiers.size()) qualifiers.push_back(value_column_name(in, i));
        cell(qualifiers[i], fields[i]);
      }
      if (fields.empty()) cell("v", "");
    } else {
      cell("v", r.value);
    }
    out.composition.records += 1;
  }
  if (!block.empty()) flush();
  return true;
}

}  // namespace kvz::layouts
