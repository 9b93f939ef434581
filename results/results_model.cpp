// The result model's own methods: a cell's id, its ratios and median speeds.
#include "results/results.h"
#include "util/bytes.h"
#include "util/stats.h"

namespace kvz {

// Appends only (no "/" + x temporaries: GCC 12's -Wrestrict misreads those here).
std::string CellKey::id() const {
  std::string s = source;
  if (!host.empty()) s.append("@").append(host);
  if (!record_mode.empty() && record_mode != "dataset" && record_mode != source) s.append(":").append(record_mode);
  s.append("/").append(layout.empty() ? std::string("raw") : layout);
  s.append("/").append(format_byte_size(block_size));
  s.append("/").append(codec);
  std::string p = params.empty() ? std::to_string(level) : params;
  if (dict_size && p.find("dict=") == std::string::npos) p.append(":dict=").append(format_byte_size(dict_size));
  s.append("/").append(p);
  s.append("/").append(cache).append("/T").append(std::to_string(threads));
  if (!profile.empty()) s.append("/").append(profile);
  if (!cpu.empty()) s.append("/cpu=").append(cpu);
  return s;
}

double CellResult::ratio() const {
  return safe_div(static_cast<double>(input_bytes), static_cast<double>(compressed_bytes));
}
double CellResult::stored_ratio() const {
  return safe_div(static_cast<double>(input_bytes), static_cast<double>(stored_bytes));
}
double CellResult::saving_pct() const {
  if (!input_bytes) return 0.0;
  return 100.0 * (1.0 - static_cast<double>(compressed_bytes) / static_cast<double>(input_bytes));
}
double CellResult::compress_median() const { return compress_mbps.empty() ? 0.0 : median(compress_mbps); }
double CellResult::decompress_median() const { return decompress_mbps.empty() ? 0.0 : median(decompress_mbps); }

const char* to_string(CellStatus s) { return s == CellStatus::Ok ? "OK" : "FAILED"; }

}  // namespace kvz
