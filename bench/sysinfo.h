#pragma once
// Facts about the machine recorded in the run metadata.
#include <cstdint>
#include <string>

namespace kvz {

struct SystemFacts {
  std::string cpu_model;
  std::string cpu_flags;  // the flags codecs care about, space separated
  int cores = 0;
  uint64_t llc_bytes = 0;  // largest cache level of cpu0 from /sys; 0 when unknown
  std::string hostname;
};

SystemFacts read_system_facts();
// "32768K" / "1M" / "512" as found in /sys cache size files; 0 on garbage.
uint64_t parse_sysfs_cache_size(const std::string& text);
// Current time as ISO 8601 UTC ("2026-11-22T18:42:18Z"), and compact for directory names.
std::string utc_timestamp_iso();
std::string utc_timestamp_compact();

}  // namespace kvz
