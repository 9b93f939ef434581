// `json-docs`: user-profile documents of about 1 KB with the same field names in every
// document, as a document store or a KV store holding JSON values sees them. Field set and
// value shapes are our choice (modelled on the generated user profiles of the simdjson
// corpus random.json): ids, names and cities from small vocabularies, a 40-70 word bio,
// 3-8 tags, nested address/preferences/stats objects, ISO timestamps.
// Keys: "user:" + 10-digit id, ids increasing with random gaps.
#include <string>

#include "blockgen/datasets/generators.h"

namespace kvz::datasets {

namespace {
const char* const kFirst[] = {"Ada",    "Alan",   "Grace",   "Linus", "Barbara", "Ken",    "Dennis", "Margaret",
                              "Edsger", "Donald", "Frances", "John",  "Radia",   "Leslie", "Sophie", "Tim"};
const char* const kLast[] = {"Lovelace", "Turing",   "Hopper", "Torvalds", "Liskov", "Thompson", "Ritchie",
                             "Hamilton", "Dijkstra", "Knuth",  "Allen",    "Backus", "Perlman",  "Lamport"};
const char* const kCities[] = {"Springfield", "Riverside", "Franklin", "Greenville", "Bristol",   "Clinton",
                               "Fairview",    "Salem",     "Madison",  "Georgetown", "Arlington", "Ashland"};
const char* const kWords[] = {"love",     "coffee", "code",   "travel", "music",  "data",    "open",
                              "source",   "night",  "runner", "photo",  "books",  "cats",    "mountains",
                              "engineer", "design", "food",   "games",  "writer", "science", "the",
                              "and",      "of",     "at",     "with",   "on"};
const char* const kThemes[] = {"dark", "light", "system"};
const char* const kLangs[] = {"en", "de", "fr", "es", "ja", "pt"};

template <size_t N>
const char* pick(Rng& rng, const char* const (&a)[N]) {
  return a[rng.below(N)];
}

// Every random draw is its own statement, in the order written: the operands of `+` and the
// arguments of a call are evaluated in an unspecified order, and GCC and clang chose
// differently, so the "same seed" gave two datasets.
std::string iso_time(Rng& rng) {
  const auto year = static_cast<int>(rng.range(2012, 2024));
  const auto month = static_cast<int>(rng.range(1, 12));
  const auto day = static_cast<int>(rng.range(1, 28));
  const auto hour = static_cast<int>(rng.range(0, 23));
  const auto minute = static_cast<int>(rng.range(0, 59));
  const auto second = static_cast<int>(rng.range(0, 59));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, hour, minute, second);
  return buf;
}

const char* boolean(bool b) { return b ? "true" : "false"; }

std::string profile(Rng& rng, uint64_t id) {
  const std::string first = pick(rng, kFirst);
  const std::string last = pick(rng, kLast);
  const std::string user = first + "_" + last + std::to_string(rng.below(1000));
  const auto age = rng.range(16, 90);
  const auto house = rng.range(1, 9999);
  const std::string street = pick(rng, kLast);
  const std::string city = pick(rng, kCities);
  const auto zip = rng.range(10000, 99999);
  const std::string created = iso_time(rng);
  const std::string login = iso_time(rng);
  const bool verified = rng.chance(0.2);
  std::string d = "{\"id\":" + std::to_string(id) + ",\"username\":\"" + user + "\",\"email\":\"" + user +
                  "@example.com\",\"name\":{\"first\":\"" + first + "\",\"last\":\"" + last +
                  "\"},\"age\":" + std::to_string(age) + ",\"address\":{\"street\":\"" + std::to_string(house) + " " +
                  street + " Street\",\"city\":\"" + city + "\",\"zip\":\"" + std::to_string(zip) +
                  "\",\"country\":\"US\"},\"created_at\":\"" + created + "\",\"last_login\":\"" + login +
                  "\",\"verified\":" + boolean(verified) + ",\"tags\":[";
  const auto ntags = rng.range(3, 8);
  for (int64_t i = 0; i < ntags; ++i) d += std::string(i ? "," : "") + "\"" + pick(rng, kWords) + "\"";
  d += "],\"bio\":\"";
  const auto nwords = rng.range(40, 70);
  for (int64_t i = 0; i < nwords; ++i) d += std::string(i ? " " : "") + pick(rng, kWords);
  const std::string theme = pick(rng, kThemes);
  const std::string lang = pick(rng, kLangs);
  const bool by_email = rng.chance(0.5);
  const bool by_sms = rng.chance(0.1);
  const bool by_push = rng.chance(0.7);
  const bool east = rng.chance(0.5);
  const auto offset = rng.range(0, 12);
  const auto followers = rng.below(100000);
  const auto following = rng.below(5000);
  const auto posts = rng.below(20000);
  const auto likes = rng.below(200000);
  const auto avatar = rng.next();
  d += "\",\"preferences\":{\"theme\":\"" + theme + "\",\"language\":\"" + lang +
       "\",\"notifications\":{\"email\":" + boolean(by_email) + ",\"sms\":" + boolean(by_sms) +
       ",\"push\":" + boolean(by_push) + "},\"timezone\":\"UTC" + (east ? "+" : "-") + std::to_string(offset) +
       "\"},\"stats\":{\"followers\":" + std::to_string(followers) + ",\"following\":" + std::to_string(following) +
       ",\"posts\":" + std::to_string(posts) + ",\"likes\":" + std::to_string(likes) +
       "},\"avatar_url\":\"https://cdn.example.com/a/" + std::to_string(avatar) + ".png\"}";
  return d;
}
}  // namespace

void gen_json_docs(uint64_t seed, size_t target, RecordSet& out) {
  Rng rng(seed);
  size_t bytes = 0;
  uint64_t id = 1000;
  while (bytes < target) {
    id += 1 + rng.below(16);
    std::string key = "user:" + std::to_string(id);
    key.insert(5, 10 - std::min<size_t>(10, key.size() - 5), '0');
    Record r{std::move(key), profile(rng, id)};
    bytes += r.key.size() + r.value.size();
    out.records.push_back(std::move(r));
  }
  out.detail = "user-profile JSON documents (~1 KB), keys user:<10-digit id>";
}

}  // namespace kvz::datasets
