#pragma once
// Writes WiredTiger tables with Debian's libwiredtiger 3.2.1 (libwiredtiger-dev) and its snappy
// and zlib extensions, for the tests that read them back (tests/stores/wt_file_test.cpp).
#include <wiredtiger.h>

#include <filesystem>
#include <string>
#include <vector>

#include "blockgen/block.h"

namespace kvz::real_wiredtiger {

// The corpora the WiredTiger tests write tables of (records in key order, 512 KiB of each).
inline const std::vector<std::string>& test_corpora() {
  static const std::vector<std::string> corpora = {"logs/apache_access_logs.log", "json/twitter.json",
                                                   "csv/world-cities.csv", "canterbury/bible.txt", "logs/auth.log"};
  return corpora;
}

// The extension library of a compressor ("snappy", "zlib"), "" when Debian ships none.
inline std::string extension(const std::string& compressor) {
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"}) {
    std::string path = std::string(dir) + "/libwiredtiger_" + compressor + ".so";
    if (std::filesystem::exists(path)) return path;
  }
  return "";
}

// A fresh database in `home` with table "x" (raw keys and values) holding `records` in order,
// written with `compressor` ("none", "snappy", "zlib") and `leaf_page_max`, then closed (its
// final checkpoint written). `bulk`: through a bulk cursor (a bulk load); else through an
// ordinary cursor, one insert per record (WiredTiger builds the pages in memory and reconciles
// them when it evicts or checkpoints). Returns "" or WiredTiger's error.
inline std::string write_table(const std::string& home, const std::vector<Record>& records,
                               const std::string& compressor, size_t leaf_page_max, bool bulk = true) {
  std::filesystem::remove_all(home);
  std::filesystem::create_directories(home);
  std::string open_config = "create,cache_size=100MB";  // wiredtiger_open's default
  if (compressor != "none") open_config += ",extensions=[" + extension(compressor) + "]";
  WT_CONNECTION* conn = nullptr;
  int ret = wiredtiger_open(home.c_str(), nullptr, open_config.c_str(), &conn);
  if (ret != 0) return std::string("wiredtiger_open: ") + wiredtiger_strerror(ret);
  WT_SESSION* session = nullptr;
  ret = conn->open_session(conn, nullptr, nullptr, &session);
  const std::string create = "key_format=u,value_format=u,leaf_page_max=" + std::to_string(leaf_page_max) +
                             ",block_compressor=" + (compressor == "none" ? "" : compressor);
  if (ret == 0) ret = session->create(session, "table:x", create.c_str());
  WT_CURSOR* cursor = nullptr;
  if (ret == 0) ret = session->open_cursor(session, "table:x", nullptr, bulk ? "bulk" : nullptr, &cursor);
  for (size_t i = 0; ret == 0 && i < records.size(); ++i) {
    WT_ITEM key{records[i].key.data(), records[i].key.size(), nullptr, 0, 0};
    WT_ITEM value{records[i].value.data(), records[i].value.size(), nullptr, 0, 0};
    cursor->set_key(cursor, &key);
    cursor->set_value(cursor, &value);
    ret = cursor->insert(cursor);
  }
  if (cursor) cursor->close(cursor);
  const int closed = conn->close(conn, nullptr);
  if (ret == 0) ret = closed;
  return ret == 0 ? "" : std::string("wiredtiger: ") + wiredtiger_strerror(ret);
}

// WiredTiger's own count of the table's row-store leaf pages (statistics "btree: row-store
// leaf pages", read on a fresh open of `home`); -1 on an error.
inline int64_t leaf_pages(const std::string& home, const std::string& compressor) {
  std::string open_config = "statistics=(all)";
  if (compressor != "none") open_config += ",extensions=[" + extension(compressor) + "]";
  WT_CONNECTION* conn = nullptr;
  if (wiredtiger_open(home.c_str(), nullptr, open_config.c_str(), &conn) != 0) return -1;
  WT_SESSION* session = nullptr;
  WT_CURSOR* stats = nullptr;
  int64_t value = -1;
  if (conn->open_session(conn, nullptr, nullptr, &session) == 0 &&
      session->open_cursor(session, "statistics:table:x", nullptr, "statistics=(all)", &stats) == 0) {
    stats->set_key(stats, WT_STAT_DSRC_BTREE_ROW_LEAF);
    const char* desc = nullptr;
    const char* printable = nullptr;
    if (stats->search(stats) != 0 || stats->get_value(stats, &desc, &printable, &value) != 0) value = -1;
    stats->close(stats);
  }
  conn->close(conn, nullptr);
  return value;
}

}  // namespace kvz::real_wiredtiger
