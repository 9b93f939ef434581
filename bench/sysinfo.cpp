#include "bench/sysinfo.h"

#include <unistd.h>

#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

namespace kvz {

namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::tm utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  return tm;
}

}  // namespace

uint64_t parse_sysfs_cache_size(const std::string& text) {
  size_t pos = 0;
  uint64_t value = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    value = value * 10 + static_cast<uint64_t>(text[pos] - '0');
    ++pos;
  }
  if (pos == 0) return 0;
  const char unit = pos < text.size() ? text[pos] : '\0';
  if (unit == 'K' || unit == 'k') return value << 10;
  if (unit == 'M' || unit == 'm') return value << 20;
  if (unit == 'G' || unit == 'g') return value << 30;
  return value;
}

SystemFacts read_system_facts() {
  SystemFacts f;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  // Virtual machines often show a generic model name ("AMD EPYC"): family/model/stepping
  // tell CPU generations apart, so `check` compares speeds only on the same silicon.
  std::string family, model, stepping;
  auto field_is = [&](const char* name) {
    const size_t n = std::strlen(name);
    return line.rfind(name, 0) == 0 && line.find_first_not_of(" \t", n) == line.find(':');
  };
  while (std::getline(cpuinfo, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
    if (f.cpu_model.empty() && field_is("model name")) f.cpu_model = value;
    if (family.empty() && field_is("cpu family")) family = value;
    if (model.empty() && field_is("model")) model = value;
    if (stepping.empty() && field_is("stepping")) stepping = value;
    if (f.cpu_flags.empty() && line.rfind("flags", 0) == 0) {
      std::istringstream words(" " + value);
      std::string w;
      static const char* kWanted[] = {"sse4_2",      "avx",      "avx2",      "bmi1",   "bmi2",
                                      "avx512f",     "avx512bw", "avx512vl",  "sha_ni", "constant_tsc",
                                      "nonstop_tsc", "rdtscp",   "hypervisor"};
      while (words >> w) {
        for (const char* k : kWanted) {
          if (w == k) f.cpu_flags += (f.cpu_flags.empty() ? "" : " ") + w;
        }
      }
    }
  }
  if (!family.empty()) f.cpu_model += " (family " + family + ", model " + model + ", stepping " + stepping + ")";
  f.cores = static_cast<int>(std::thread::hardware_concurrency());
  int best_level = -1;
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    const std::string level = read_first_line(dir + "level");
    if (level.empty()) continue;
    if (read_first_line(dir + "type") == "Instruction") continue;
    const int lv = std::atoi(level.c_str());
    if (lv > best_level) {
      best_level = lv;
      f.llc_bytes = parse_sysfs_cache_size(read_first_line(dir + "size"));
    }
  }
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) f.hostname = host;
  return f;
}

std::string utc_timestamp_iso() {
  const std::tm tm = utc_now();
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string utc_timestamp_compact() {
  const std::tm tm = utc_now();
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

}  // namespace kvz
