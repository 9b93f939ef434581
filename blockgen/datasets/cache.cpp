// `cache`: objects like those in Twitter's in-memory caches (Yang, Yue, Rashmi, "A large scale
// analysis of hundreds of in-memory cache clusters at Twitter", OSDI'20: keys are short
// namespaced ids, values are mostly small with a long tail). Parameters here are our choice
// within that shape, not fitted to the traces:
//   keys: "<namespace>:<digits>", total length uniform in [20, 44] bytes, 8 namespaces;
//   values: log-normal size, median 100 B, sigma 1.2 (p99 ~1.6 KB), clamped to [4, 16384] B;
//   content: a serialized object: short field tags, small integers, words from a fixed
//   vocabulary (compressible), and a 16-byte random id (incompressible).
#include <algorithm>
#include <cmath>

#include "blockgen/datasets/generators.h"

namespace kvz::datasets {

namespace {
const char* const kNamespaces[] = {"user", "tweet", "timeline", "session", "graph", "media", "feat", "ads"};
const char* const kValueWords[] = {"active",   "blocked", "en",      "ja",    "es",   "web",    "ios",   "android",
                                   "follow",   "like",    "retweet", "reply", "home", "search", "notif", "promoted",
                                   "verified", "default", "true",    "false", "null", "cursor", "next"};

std::string cache_value(Rng& rng, size_t len) {
  std::string v;
  v.reserve(len + 32);
  while (v.size() < len) {
    const auto kind = rng.below(4);
    v.push_back(static_cast<char>(0x08 + rng.below(16)));  // field tag
    if (kind == 0) {
      for (int i = 0; i < 16; ++i) v.push_back(static_cast<char>(rng.below(256)));
    } else if (kind == 1) {
      v += std::to_string(rng.below(100000));
    } else {
      const char* w = kValueWords[rng.below(std::size(kValueWords))];
      v.push_back(static_cast<char>(std::char_traits<char>::length(w)));
      v += w;
    }
  }
  v.resize(len);
  return v;
}
}  // namespace

void gen_cache(uint64_t seed, size_t target, RecordSet& out) {
  Rng rng(seed);
  size_t bytes = 0;
  while (bytes < target) {
    const std::string ns = kNamespaces[rng.below(std::size(kNamespaces))];
    const size_t key_len = static_cast<size_t>(rng.range(20, 44));
    std::string key = ns + ":";
    while (key.size() < key_len) key.push_back(static_cast<char>('0' + rng.below(10)));
    const double size = std::exp(std::log(100.0) + 1.2 * rng.normal());
    const size_t len = static_cast<size_t>(std::clamp(size, 4.0, 16384.0));
    Record r{std::move(key), cache_value(rng, len)};
    bytes += r.key.size() + r.value.size();
    out.records.push_back(std::move(r));
  }
  out.detail = "namespace:id keys of 20-44 B, log-normal values (median 100 B, sigma 1.2, max 16 KiB)";
}

}  // namespace kvz::datasets
