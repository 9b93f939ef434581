// The one list of stores (each one folder, stores/NAME/, behind the Store interface of
// stores/store.h), the profile table built from it, `NAME:key=value` option parsing, and the
// public calls of stores/store_profile.h answered through each profile's store.
#include "stores/store_profile.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "codecs/registry.h"
#include "stores/framing.h"
#include "stores/store.h"
#include "util/bytes.h"
#include "util/text.h"

namespace kvz {

// The registered stores, in `--profile` order. Adding a store: stores/NAME/NAME.cpp defines
// `const Store& NAME_store()`, and one STORE(NAME) line here registers it.
#define KVZ_REGISTERED_STORES(STORE) \
  STORE(rocksdb)                     \
  STORE(leveldb)                     \
  STORE(cassandra)                   \
  STORE(scylla)                      \
  STORE(hbase)                       \
  STORE(wiredtiger)                  \
  STORE(tarantool)

#define KVZ_DECLARE_STORE(name) const Store& name##_store();
KVZ_REGISTERED_STORES(KVZ_DECLARE_STORE)
#undef KVZ_DECLARE_STORE

namespace {

const std::vector<const Store*>& registered_stores() {
#define KVZ_STORE_ENTRY(name) &name##_store(),
  static const std::vector<const Store*> stores = {KVZ_REGISTERED_STORES(KVZ_STORE_ENTRY)};
#undef KVZ_STORE_ENTRY
  return stores;
}

// Where `p` sits in its store's versions: 0, the version the profile is named for, unless
// version= chose a later one.
size_t version_index(const Store& store, const StoreProfile& p) {
  for (size_t i = 0; i < store.versions.size(); ++i)
    if (store.versions[i].name == p.version) return i;
  return 0;
}

// The version that gained `w` (0: the profile's own); past the list for a key it lacks.
size_t since_index(const Store& store, const WritableCodec& w) {
  if (w.since.empty()) return 0;
  for (size_t i = 0; i < store.versions.size(); ++i)
    if (store.versions[i].key == w.since) return i;
  return store.versions.size();
}

// The codecs the version `p` models writes, in the profile's order: all that every profile
// question (list, support, options, caveats, config lines) looks at.
std::vector<const WritableCodec*> written_codecs(const Store& store, const StoreProfile& p) {
  std::vector<const WritableCodec*> out;
  const size_t at = version_index(store, p);
  for (const WritableCodec& w : store.codecs)
    if (since_index(store, w) <= at) out.push_back(&w);
  return out;
}

std::string spec_item(const WritableCodec& w) {
  return w.params.empty() ? std::string(w.name) : fmt::format("{}:{}", w.name, w.params);
}

std::string codec_spec(const Store& store, const StoreProfile& p) {
  std::vector<std::string> spec;
  for (const WritableCodec* w : written_codecs(store, p)) spec.push_back(spec_item(*w));
  return join(spec, "/");
}

std::vector<StoreProfile> make_profiles() {
  std::vector<StoreProfile> profiles;
  for (const Store* store : registered_stores()) {
    StoreProfile p = store->profile;
    p.base = p.name;
    p.codecs = codec_spec(*store, p);
    profiles.push_back(std::move(p));
  }
  return profiles;
}

// version=KEY: the version modelled, and the codecs that version writes.
std::string apply_version(const Store& store, StoreProfile& p, std::string_view value) {
  std::vector<std::string> keys;
  for (const StoreVersion& v : store.versions) {
    if (v.key == value) {
      p.version = std::string(v.name);
      p.codecs = codec_spec(store, p);
      return "";
    }
    keys.emplace_back(v.key);
  }
  return fmt::format("{}: version must be {}, got '{}'", p.base, join(keys, " or "), value);
}

// The help line of version=: each version, and what a later one adds.
std::string version_help(const Store& store) {
  std::vector<std::string> items;
  for (size_t i = 0; i < store.versions.size(); ++i) {
    std::vector<std::string> adds;
    for (const WritableCodec& w : store.codecs)
      if (i > 0 && since_index(store, w) == i) adds.push_back(spec_item(w));
    items.push_back(fmt::format("{} ({}{})", store.versions[i].key, store.versions[i].name,
                                i == 0 ? ", the default" : ": adds " + join(adds)));
  }
  return "version=V  the store version modelled: " + join(items);
}

// The call mode the params select ("stream", "zlib") or "" for the codec's plain call.
// Params are CodecParams::label(): the level, then ':'-separated options ("1:stream").
std::string codec_mode(std::string_view params) {
  const auto parts = split(params, ":");
  for (size_t i = 1; i < parts.size(); ++i) {
    if (parts[i] == "stream" || parts[i] == "zlib") return std::string(parts[i]);
  }
  return "";
}

// Applies the common chunk=/block= option; returns "" or a one-line error.
std::string apply_block_size(const Store& store, StoreProfile& p, std::string_view key, std::string_view value) {
  size_t n = 0;
  if (!parse_byte_size(value, n) || n < p.min_block_size || n > p.max_block_size)
    return p.base + ": " + std::string(key) + " must be " + format_byte_size(p.min_block_size) + ".." +
           format_byte_size(p.max_block_size) + ", got '" + std::string(value) + "'";
  if (store.check_block_size) {
    std::string refused = store.check_block_size(n, value);
    if (!refused.empty()) return refused;
  }
  p.block_size = n;
  return "";
}

// Applies one `key=value` option to `p`; returns "" or a one-line error.
std::string apply_option(const Store& store, StoreProfile& p, std::string_view key, std::string_view value) {
  for (const StoreOption& option : store.options) {
    if (key == option.key) return option.apply(p, value);
  }
  if (key == "chunk" || key == "block") return apply_block_size(store, p, key, value);
  if (key == "version" && !store.versions.empty()) return apply_version(store, p, value);
  std::vector<std::string> keys;
  for (const auto& line : store_profile_options(p)) keys.push_back(line.substr(0, line.find('=')));
  const std::string hint = did_you_mean(key, keys);
  return p.base + ": unknown option '" + std::string(key) + "'" + (hint.empty() ? "" : ": " + hint) +
         " (known: " + join(keys) + ")";
}

// "" or what is wrong with one `key=value` of a profile's options before it is applied: no '=',
// two options run together (`x=1:x=2`), or a key given before (chunk= and block= are one):
// a second value would silently win.
std::string option_item_error(const std::string& base, std::string_view item,
                              std::set<std::string, std::less<>>& given) {
  const size_t eq = item.find('=');
  if (eq == std::string_view::npos) return base + ": option '" + std::string(item) + "' needs key=value";
  if (item.find('=', eq + 1) != std::string_view::npos)
    return base + ": option '" + std::string(item) + "' is two options: separate them with ',' (" + base +
           ":key=value,key=value)";
  std::string key(trim(item.substr(0, eq)));
  if (key == "block") key = "chunk";
  if (!given.insert(key).second)
    return base + ": option " + std::string(trim(item.substr(0, eq))) + "= given twice: give each option once";
  return "";
}

// Variants with options are built once and kept, so pointers stay valid.
std::mutex g_variants_mutex;
std::deque<StoreProfile>& variants() {
  static std::deque<StoreProfile> d;
  return d;
}

}  // namespace

const Store* find_store(const StoreProfile& profile) {
  const auto& profiles = store_profiles();
  for (size_t i = 0; i < profiles.size(); ++i) {
    if (profiles[i].name == profile.base) return registered_stores()[i];
  }
  return nullptr;
}

const std::vector<StoreProfile>& store_profiles() {
  static const std::vector<StoreProfile> profiles = make_profiles();
  return profiles;
}

std::vector<std::string> store_profile_options(const StoreProfile& p) {
  const Store* store = find_store(p);
  std::vector<std::string> out;
  out.push_back(std::string(store ? store->size_option : "chunk") + "=SIZE  block/chunk/page size (" +
                format_byte_size(p.min_block_size) + ".." + format_byte_size(p.max_block_size) + ")");
  if (store) {
    for (const StoreOption& option : store->options) out.emplace_back(option.help);
    if (!store->versions.empty()) out.push_back(version_help(*store));
  }
  return out;
}

const StoreProfile* find_store_profile(const std::string& name) {
  std::string ignored;
  return find_store_profile(name, ignored);
}

const StoreProfile* find_store_profile(const std::string& name, std::string& error) {
  error.clear();
  const std::string base = name.substr(0, name.find(':'));
  const StoreProfile* found = nullptr;
  for (const auto& p : store_profiles()) {
    if (p.name == base) found = &p;
  }
  if (!found) {
    std::vector<std::string> names;
    for (const auto& p : store_profiles()) names.push_back(p.name);
    const std::string hint = did_you_mean(base, names);
    error =
        "unknown store profile '" + base + "'" + (hint.empty() ? "" : ": " + hint) + " (known: " + join(names) + ")";
    return nullptr;
  }
  if (base == name) return found;

  std::lock_guard<std::mutex> lock(g_variants_mutex);
  for (const auto& v : variants()) {
    if (v.name == name) return &v;
  }
  const Store& store = *find_store(*found);
  StoreProfile p = *found;
  p.name = name;
  std::string_view opts = std::string_view(name).substr(base.size() + 1);
  if (trim(opts).empty()) {
    error = base + ": empty option list after ':'";
    return nullptr;
  }
  std::set<std::string, std::less<>> given;
  while (!opts.empty()) {  // one trailing comma is allowed
    const size_t comma = opts.find(',');
    std::string_view item = trim(opts.substr(0, comma));
    opts = comma == std::string_view::npos ? std::string_view() : opts.substr(comma + 1);
    error = option_item_error(base, item, given);
    if (error.empty()) {
      const size_t eq = item.find('=');
      error = apply_option(store, p, trim(item.substr(0, eq)), trim(item.substr(eq + 1)));
    }
    if (!error.empty()) return nullptr;
  }
  if (store.rules) p.rules = store.rules(p);
  variants().push_back(std::move(p));
  return &variants().back();
}

bool is_uncompressed(const std::string& codec) {
  const Codec* c = CodecRegistry::instance().find(codec);
  return c && c->info().is_reference;
}

namespace {

// The level text of CodecParams::label() params ("1" of "1:stream").
std::string_view level_text(std::string_view params) { return params.substr(0, params.find(':')); }

// The row of `codec` that the version `p` models writes first, null when it writes none.
const WritableCodec* written(const Store& store, const StoreProfile& p, std::string_view codec) {
  for (const WritableCodec* w : written_codecs(store, p))
    if (w->name == codec) return w;
  return nullptr;
}

// A codec a later version than `p`'s writes: the one-line pointer to it, "" when none does.
std::string later_version_hint(const Store& store, const StoreProfile& p, std::string_view codec) {
  for (const WritableCodec& w : store.codecs) {
    const size_t at = since_index(store, w);
    if (w.name == codec && at > version_index(store, p) && at < store.versions.size())
      return fmt::format(", which {} writes (--profile {}:version={})", store.versions[at].name, p.base, w.since);
  }
  return "";
}

}  // namespace

bool store_supports_codec(const StoreProfile& p, const BlockCodec& codec) {
  if (codec.uncompressed) return true;  // every store can write uncompressed blocks
  const Store* store = find_store(p);
  if (!store) return false;
  const std::string mode = codec_mode(codec.params);
  for (const WritableCodec* w : written_codecs(*store, p)) {
    if (w->name != codec.name || codec_mode(w->params) != mode) continue;
    if (!w->fixed_level || level_text(w->params) == level_text(codec.params)) return true;
  }
  return false;
}

std::string store_codec_options(const StoreProfile& p, const std::string& codec, std::string& options) {
  if (is_uncompressed(codec)) return "";
  const Store* store = find_store(p);
  if (!store) return "";  // a hand-made profile: no list to check against
  std::vector<std::string> writes;
  for (const WritableCodec* w : written_codecs(*store, p)) writes.push_back(spec_item(*w));
  const WritableCodec* found = written(*store, p, codec);
  const std::string list = p.base + " writes " + join(writes, ", ") + " (and uncompressed blocks)";
  if (!found)
    return list + ": not " + codec + later_version_hint(*store, p, codec) + "; drop --profile to measure " + codec +
           " on its own";
  const std::string store_mode = codec_mode(found->params), given = codec_mode(options);
  if (options.empty()) {  // the store's own call: its mode and call options (":stream:fresh")
    const size_t colon = found->params.find(':');
    if (colon != std::string_view::npos) options = std::string(found->params.substr(colon));
    return "";
  }
  if (given != store_mode)
    return fmt::format("{}: not {} with ':{}' ({} writes {} as {})", list, codec, given, p.base, codec,
                       spec_item(*found));
  return "";
}

namespace {

// A label's call options: what follows the level, less a dictionary ("9:fresh:dict=16K" -> ":fresh").
std::string_view call_options(std::string_view params) {
  size_t at = params.size();
  for (std::string_view dict : {":dict=", ":rawdict="}) at = std::min(at, params.find(dict));
  params = params.substr(0, at);
  size_t level = params.starts_with('-') ? 1 : 0;
  while (level < params.size() && params[level] >= '0' && params[level] <= '9') ++level;
  return params.substr(level);
}

}  // namespace

bool store_own_call(const StoreProfile& p, const std::string& codec, const std::string& params) {
  if (is_uncompressed(codec)) return true;
  const Store* store = find_store(p);
  const WritableCodec* own = store ? written(*store, p, codec) : nullptr;
  if (!own || params.ends_with(":split")) return false;
  if (own->fixed_level && level_text(own->params) != level_text(params)) return false;
  const size_t colon = own->params.find(':');
  const std::string_view own_options = colon == std::string_view::npos ? "" : own->params.substr(colon);
  return call_options(params) == own_options;
}

int store_codec_level(const StoreProfile& p, const std::string& codec, int level) {
  const Store* store = find_store(p);
  const WritableCodec* w = store ? written(*store, p, codec) : nullptr;
  int fixed = 0;
  if (!w || !w->fixed_level || !parse_int(level_text(w->params), fixed)) return level;
  return fixed;
}

std::string store_codec_caveat(const StoreProfile& p, const std::string& codec) {
  const Store* store = find_store(p);
  const WritableCodec* w = store ? written(*store, p, codec) : nullptr;
  if (!w) return "";
  const size_t since = since_index(*store, *w);
  std::string caveat =
      since == 0 ? "" : fmt::format("{} only, not {}", store->versions[since].name, store->versions[0].name);
  if (!w->unchecked.empty()) caveat += (caveat.empty() ? "" : ": ") + std::string(w->unchecked);
  return caveat;
}

bool store_supports_codec(const StoreProfile& p, const std::string& codec) {
  if (is_uncompressed(codec)) return true;  // the reference row: uncompressed blocks
  const Store* store = find_store(p);
  return store && written(*store, p, codec);
}

StoredBlock store_block(const StoreProfile& p, const BlockCodec& codec, size_t raw_size, size_t compressed_size) {
  if (const Store* store = find_store(p)) return store->store_block(p, codec, raw_size, compressed_size);
  // A hand-made profile without a known base: the plain 12.5 % rule, no framing.
  return compressed_size < raw_size - raw_size / 8 ? framing::stored_compressed(compressed_size, 0)
                                                   : framing::stored_raw(raw_size, 0);
}

bool store_models_file(const StoreProfile& p) {
  const Store* store = find_store(p);
  return store && store->file_parts;
}

std::optional<FileParts> store_file_parts(const StoreProfile& p, const FileInput& in) {
  const Store* store = find_store(p);
  if (!store || !store->file_parts || !in.blocks || !in.compress) return std::nullopt;
  const TableKeys& keys = in.blocks->table_keys;
  if (keys.first.size() != in.blocks->count() || in.stored.size() != in.blocks->count() || keys.first.empty())
    return std::nullopt;
  return store->file_parts(p, in);
}

std::vector<std::span<const uint8_t>> store_dictionary_samples(const StoreProfile& p, const BlockSet& blocks,
                                                               size_t dict_size, bool raw) {
  const Store* store = find_store(p);
  if (!store || !store->dictionary_samples) return {};
  return store->dictionary_samples(blocks, dict_size, raw);
}

bool store_has_file_dictionary(const StoreProfile& p) {
  const Store* store = find_store(p);
  return store && store->dictionary_samples;
}

size_t store_dictionary_block_bytes(const StoreProfile& p, size_t dict_bytes) {
  const Store* store = find_store(p);
  return store && store->dictionary_block ? store->dictionary_block(dict_bytes) : dict_bytes;
}

std::string store_figure_basis(const StoreProfile& p, const std::string& codec, size_t block_size) {
  const Store* store = find_store(p);
  return store && store->figure_basis ? store->figure_basis(p, codec, block_size) : "";
}

ConfigLine store_config_line(const StoreProfile& p, const ConfigChoice& choice) {
  const Store* store = find_store(p);
  if (!store || !store->config_line) return {false, "no configuration syntax for profile " + p.name};
  if (!store_supports_codec(p, choice.codec)) return {false, fmt::format("{} cannot write {}", p.base, choice.codec)};
  if (choice.dict_size && !store_has_file_dictionary(p))
    return {false, fmt::format("{} has no compression dictionary", p.base)};
  ConfigLine line = store->config_line(choice);
  const WritableCodec* w = written(*store, p, choice.codec);  // null: uncompressed
  const size_t since = w ? since_index(*store, *w) : 0;
  if (line.writable && since > 0) line.text += fmt::format("  ({} only)", store->versions[since].name);
  return line;
}

}  // namespace kvz
