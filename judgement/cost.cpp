#include "judgement/cost.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "util/text.h"

namespace kvz {

namespace {

constexpr double kSecondsPerMonth = 30.0 * 24 * 3600;  // 2,592,000

bool parse_number(const std::string& key, const std::string& value, double& out, std::string& error) {
  char* end = nullptr;
  out = std::strtod(value.c_str(), &end);
  if (value.empty() || *end || !std::isfinite(out) || out < 0 || out > 1e12) {
    error = fmt::format("--workload {}='{}': a number >= 0 (MB/s, $/GB-month or $/core-hour)", key, value);
    return false;
  }
  return true;
}

constexpr const char* kWorkloadKeys[] = {"write",           "read",       "storage",      "cpu",
                                         "device",          "size",       "num_levels",   "multiplier",
                                         "dynamic",         "level_base", "write_buffer", "l0_trigger",
                                         "target_file",     "style",      "size_ratio",   "min_merge_width",
                                         "max_merge_width", "size_amp",   "family",       "order"};

bool split_workload(const std::string& text, std::map<std::string, std::string>& kv, std::vector<std::string>& families,
                    std::string& error) {
  for (const auto& item : split_list(text, ',')) {
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (eq == std::string::npos ||
        std::find(std::begin(kWorkloadKeys), std::end(kWorkloadKeys), key) == std::end(kWorkloadKeys)) {
      error = fmt::format(
          "--workload: '{}' is not one of write=MB/s, read=MB/s, storage=$/GB-month, cpu=$/core-hour, "
          "device=NAME, size=BYTES, num_levels=N, multiplier=M, dynamic=0|1, level_base=BYTES, "
          "write_buffer=BYTES, l0_trigger=N, target_file=BYTES, style=leveled|universal, size_ratio=N, "
          "min_merge_width=N, max_merge_width=N, size_amp=PERCENT, family=NAME:write=W:read=R:size=BYTES, "
          "order=shuffled|ascending",
          item);
      return false;
    }
    if (key == "family") {
      families.push_back(item.substr(eq + 1));
      continue;
    }
    if (!kv.emplace(key, item.substr(eq + 1)).second) {
      error = "--workload: " + key + "= given twice";
      return false;
    }
  }
  return true;
}

// "500G", "64M", "4096": bytes, the suffixes powers of 1024 (as RocksDB's options are set).
// Every size key takes the one range kWorkloadBytesMin..kWorkloadBytesMax (1 B .. 1 EiB): a
// larger one made plans of 1e308 bytes and a 309-digit option (issue 35).
bool parse_bytes(const std::string& key, const std::string& value, double& out, std::string& error) {
  char* end = nullptr;
  out = std::strtod(value.c_str(), &end);
  const std::string suffix(end ? end : "");
  const std::string units = "KMGTPE";
  const size_t unit = suffix.size() == 1 ? units.find(suffix[0]) : std::string::npos;
  if (unit != std::string::npos) out *= std::pow(1024.0, static_cast<double>(unit + 1));
  if (value.empty() || end == value.c_str() || !std::isfinite(out) || out < kWorkloadBytesMin ||
      out > kWorkloadBytesMax || (!suffix.empty() && unit == std::string::npos)) {
    error = fmt::format("--workload {}='{}': a size from 1 byte to 1E, e.g. 500G (K, M, G, T, P, E: powers of 1024)",
                        key, value);
    return false;
  }
  return true;
}

bool parse_whole(const std::string& key, const std::string& value, int lo, int hi, int& out, std::string& error) {
  if (!parse_int(value, out) || out < lo || out > hi) {
    error = fmt::format("--workload {}='{}': a whole number {}..{}", key, value, lo, hi);
    return false;
  }
  return true;
}

// The per-level plan's options; with no size= (or family=) none of them may be given (they would be ignored).
bool parse_lsm(std::map<std::string, std::string>& kv, bool families, LsmOptions& lsm, std::string& error) {
  if (!kv.count("size") && !families) {
    for (const char* key :
         {"num_levels", "multiplier", "dynamic", "level_base", "write_buffer", "l0_trigger", "target_file", "style",
          "size_ratio", "min_merge_width", "max_merge_width", "size_amp", "order"}) {
      if (kv.count(key)) {
        error = fmt::format("--workload {}= needs size= or family= (the data the plan is for)", key);
        return false;
      }
    }
    return true;
  }
  if (kv.count("size") && !parse_bytes("size", kv["size"], lsm.data_bytes, error)) return false;
  if (kv.count("num_levels") && !parse_whole("num_levels", kv["num_levels"], 2, 64, lsm.num_levels, error))
    return false;
  if (kv.count("l0_trigger") && !parse_whole("l0_trigger", kv["l0_trigger"], 1, 1 << 20, lsm.l0_trigger, error))
    return false;
  if (kv.count("multiplier") &&
      (!parse_number("multiplier", kv["multiplier"], lsm.multiplier, error) || lsm.multiplier <= 1)) {
    error = fmt::format("--workload multiplier='{}': a number > 1", kv["multiplier"]);
    return false;
  }
  if (kv.count("dynamic")) {
    if (kv["dynamic"] != "0" && kv["dynamic"] != "1") {
      error = fmt::format("--workload dynamic='{}': 0 or 1", kv["dynamic"]);
      return false;
    }
    lsm.dynamic = kv["dynamic"] == "1";
  }
  if (kv.count("order")) {
    if (kv["order"] != "shuffled" && kv["order"] != "ascending") {
      error =
          fmt::format("--workload order='{}': shuffled or ascending (the order the load writes keys in)", kv["order"]);
      return false;
    }
    lsm.order = kv["order"] == "ascending" ? LoadOrder::Ascending : LoadOrder::Shuffled;
  }
  return (!kv.count("level_base") || parse_bytes("level_base", kv["level_base"], lsm.level_base, error)) &&
         (!kv.count("write_buffer") || parse_bytes("write_buffer", kv["write_buffer"], lsm.write_buffer, error)) &&
         (!kv.count("target_file") || parse_bytes("target_file", kv["target_file"], lsm.target_file, error));
}

bool parse_unsigned(const std::string& key, const std::string& value, unsigned lo, unsigned& out, std::string& error) {
  int v = 0;
  if (!parse_whole(key, value, static_cast<int>(lo), 1 << 30, v, error)) return false;
  out = static_cast<unsigned>(v);
  return true;
}

// style= and universal compaction's knobs; each style refuses the other's knobs (they would be ignored).
bool parse_style(std::map<std::string, std::string>& kv, bool families, Workload& w, std::string& error) {
  const std::string style = kv.count("style") ? kv["style"] : "leveled";
  if (style != "leveled" && style != "universal") {
    error = fmt::format("--workload style='{}': leveled or universal", style);
    return false;
  }
  w.universal = style == "universal";
  const bool universal_read = w.universal || families;
  const bool leveled_read = !w.universal;
  for (const char* key : {"size_ratio", "min_merge_width", "max_merge_width", "size_amp"})
    if (kv.count(key) && !universal_read) {
      error = fmt::format("--workload {}= is a universal compaction option: it needs style=universal or family=", key);
      return false;
    }
  for (const char* key : {"multiplier", "dynamic", "level_base", "target_file"})
    if (kv.count(key) && !leveled_read) {
      error = fmt::format("--workload {}= is a leveled compaction option: style=universal does not read it", key);
      return false;
    }
  UniversalOptions& u = w.universal_options;
  if ((kv.count("size_ratio") && !parse_unsigned("size_ratio", kv["size_ratio"], 0, u.size_ratio, error)) ||
      (kv.count("min_merge_width") &&
       !parse_unsigned("min_merge_width", kv["min_merge_width"], 2, u.min_merge_width, error)) ||
      (kv.count("max_merge_width") &&
       !parse_unsigned("max_merge_width", kv["max_merge_width"], u.min_merge_width, u.max_merge_width, error)) ||
      (kv.count("size_amp") && !parse_unsigned("size_amp", kv["size_amp"], 1, u.max_size_amplification_percent, error)))
    return false;
  return true;
}

bool family_error(const std::string& text, const std::string& why, std::string& error) {
  error = fmt::format(
      "--workload family='{}': {}; NAME:write=MB/s:read=MB/s:size=BYTES, e.g. "
      "family=hot:write=50:read=200:size=20G",
      text, why);
  return false;
}

bool valid_family_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

bool parse_family(const std::string& text, FamilyLoad& f, std::string& error) {
  const auto parts = split_list(text, ':');
  if (parts.empty() || !valid_family_name(parts[0]))
    return family_error(text, "a name of letters, digits, _ or -", error);
  f.name = parts[0];
  std::map<std::string, std::string> kv;
  for (size_t i = 1; i < parts.size(); ++i) {
    const size_t eq = parts[i].find('=');
    const std::string key = parts[i].substr(0, eq);
    if (eq == std::string::npos || (key != "write" && key != "read" && key != "size") ||
        !kv.emplace(key, parts[i].substr(eq + 1)).second)
      return family_error(text, "'" + parts[i] + "' is not write=, read= or size= given once", error);
  }
  if (kv.size() != 3) return family_error(text, "write=, read= and size= are all needed", error);
  return parse_number("write", kv["write"], f.write_mbps, error) &&
         parse_number("read", kv["read"], f.read_mbps, error) && parse_bytes("size", kv["size"], f.data_bytes, error);
}

// family= items; write= and read= default to their sums (the whole store's load).
bool parse_families(const std::vector<std::string>& items, std::map<std::string, std::string>& kv, Workload& w,
                    std::string& error) {
  if (items.empty()) return true;
  if (kv.count("size")) {
    error = "--workload size= and family= together: with families each family gives its own size";
    return false;
  }
  double write = 0, read = 0;
  for (const auto& item : items) {
    FamilyLoad f;
    if (!parse_family(item, f, error)) return false;
    for (const auto& other : w.families)
      if (other.name == f.name) return family_error(item, "the family " + f.name + " is named twice", error);
    write += f.write_mbps;
    read += f.read_mbps;
    w.families.push_back(f);
  }
  kv.emplace("write", fmt::format("{:.17g}", write));
  kv.emplace("read", fmt::format("{:.17g}", read));
  return true;
}

const Device* find_device(const std::vector<Device>& devices, const std::string& name) {
  for (const auto& d : devices)
    if (d.name == name) return &d;
  return nullptr;
}

}  // namespace

double held_bytes(const Workload& w) {
  if (w.lsm.data_bytes > 0) return w.lsm.data_bytes;
  double sum = 0;
  for (const auto& f : w.families) sum += f.data_bytes;
  return sum;
}

CostRow cost_row(const std::string& label, double ratio, double compress_mbps, double decompress_mbps, int threads,
                 const Workload& w, const Device* device) {
  CostRow c;
  c.label = label;
  c.stored_ratio = ratio;
  const double held = held_bytes(w);
  c.stored_gb = held > 0 ? held / 1e9 / ratio : w.write_mbps * kSecondsPerMonth / 1000.0 / ratio;
  c.storage_usd = c.stored_gb * w.storage_usd_gb_month;
  // A group's MB/s is the total of its `threads` workers, each on a core of its own.
  c.cores = threads * ((compress_mbps > 0 ? w.write_mbps / compress_mbps : 0) +
                       (decompress_mbps > 0 ? w.read_mbps / decompress_mbps : 0));
  c.cpu_usd = c.cores * w.cpu_usd_core_hour * kHoursPerMonth;
  c.total_usd = c.storage_usd + c.cpu_usd;
  if (device) c.device_load = w.read_mbps / ratio / device->mb_per_s;
  return c;
}

bool parse_workload(const std::string& text, const std::vector<Device>& devices, Workload& out, std::string& error) {
  out = Workload{};
  std::map<std::string, std::string> kv;
  std::vector<std::string> families;
  if (!split_workload(text, kv, families, error) || !parse_families(families, kv, out, error)) return false;
  for (const char* key : {"write", "read", "storage", "cpu"}) {
    if (!kv.count(key)) {
      error = fmt::format(
          "--workload needs write=, read=, storage= and cpu= (missing {}=), e.g. "
          "write=50,read=200,storage=0.08,cpu=0.04",
          key);
      return false;
    }
  }
  if (!parse_number("write", kv["write"], out.write_mbps, error) ||
      !parse_number("read", kv["read"], out.read_mbps, error) ||
      !parse_number("storage", kv["storage"], out.storage_usd_gb_month, error) ||
      !parse_number("cpu", kv["cpu"], out.cpu_usd_core_hour, error))
    return false;
  if (out.write_mbps == 0 && out.read_mbps == 0) {
    error = "--workload: write and read are both 0: there is nothing to cost";
    return false;
  }
  if (kv.count("device")) {
    out.device = kv["device"];
    if (!find_device(devices, out.device)) {
      std::vector<std::string> names;
      for (const auto& d : devices) names.push_back(d.name);
      error = fmt::format("--workload device='{}': not a device of the I/O model ({})", out.device, join(names, ", "));
      return false;
    }
  }
  return parse_lsm(kv, !out.families.empty(), out.lsm, error) && parse_style(kv, !out.families.empty(), out, error);
}

std::string workload_text(const Workload& w) {
  const double held = held_bytes(w);
  return fmt::format("30 days at {} MB/s written, {} MB/s read; ${}/GB-month, ${}/core-hour{}{}", w.write_mbps,
                     w.read_mbps, w.storage_usd_gb_month, w.cpu_usd_core_hour,
                     w.device.empty() ? "" : "; device " + w.device,
                     held > 0 ? fmt::format("; {:.4g} GiB held", held / 1073741824.0) : "");
}

std::vector<GroupCosts> cost_model(const RunResults& r, const Workload& w, const std::vector<Device>& devices) {
  const Device* device = w.device.empty() ? nullptr : find_device(devices, w.device);
  std::vector<GroupCosts> out;
  for (const auto& g : recommend(r, RecommendOptions{})) {
    GroupCosts gc;
    gc.group = g.group;
    gc.rows.push_back(cost_row("uncompressed", 1.0, 0, 0, g.threads, w, device));
    for (const auto& c : g.candidates) {
      if (c.dict_losses) continue;  // never a recommendation, so never a cost-model pick
      gc.rows.push_back(cost_row(c.label, c.stored_ratio, c.compress_mbps, c.decompress_mbps, g.threads, w, device));
    }
    // Those the device can serve first, then by total; equal totals by label (stable output).
    std::sort(gc.rows.begin(), gc.rows.end(), [](const CostRow& a, const CostRow& b) {
      const bool fa = a.device_load <= 1.0, fb = b.device_load <= 1.0;
      if (fa != fb) return fa;
      if (a.total_usd != b.total_usd) return a.total_usd < b.total_usd;
      return a.label < b.label;
    });
    out.push_back(std::move(gc));
  }
  return out;
}

}  // namespace kvz
