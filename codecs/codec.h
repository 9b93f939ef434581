#pragma once
// The one codec interface (Arrow-style): a stateless Codec describes itself and opens
// per-thread Sessions; a Session owns every library context and does no allocation, no
// logging and throws nothing inside compress/decompress.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kvz {

using ByteView = std::span<const uint8_t>;
using MutableByteView = std::span<uint8_t>;

// Result of one hot-path call. `error` points at a static string (the library's own
// message: ZSTD_getErrorName, zlib msg, ...) so the failure path allocates nothing either.
struct CallResult {
  size_t size = 0;
  const char* error = nullptr;
  bool ok() const { return error == nullptr; }
  static CallResult Ok(size_t n) { return {n, nullptr}; }
  static CallResult Fail(const char* msg) { return {0, msg ? msg : "unknown error"}; }
};

// Result for the cold path (open, dictionary preparation): may carry an owned message.
template <typename T>
struct Expected {
  T value{};
  std::string error;  // empty = ok
  bool ok() const { return error.empty(); }
};

// Dictionary sizes accepted by `dict=` and train_dictionary (ZDICT's useful range).
inline constexpr size_t kMinDictSize = 4 * 1024;
inline constexpr size_t kMaxDictSize = 112 * 1024;

// Parameters of one benchmark row: what every codec has (a level, a dictionary size), plus
// the codec's own options in the canonical form its Codec::parse_options produced, so that
// a cell key, the CLI grammar and the reports all see one text.
struct CodecParams {
  int level = 0;
  size_t dict_size = 0;  // requested dictionary size in bytes (0 = none)
  // The dictionary is raw samples of the data, not trained (`rawdict=SIZE`): what RocksDB uses
  // with max_dict_bytes and no zstd_max_train_bytes. Meaningful only with dict_size.
  bool raw_dict = false;
  // What follows the level in a label: "e" (xz extreme), ":zlib", ":stream", ":w22"; "" = defaults.
  std::string options{};

  // Stable, human-readable id of the params: "3", "6e", "6:zlib", "1:stream", "11:w22",
  // "3:dict=16K", "3:rawdict=16K".
  std::string label() const;
  // `options` cut into the tokens parse_options takes back: "e" -> {"e"}, ":w22" -> {"w22"}.
  std::vector<std::string> option_tokens() const;
  bool operator==(const CodecParams&) const = default;
};

// What a codec's `level` means and which values are valid.
struct CodecInfo {
  std::string name{};      // registry key, e.g. "zstd"
  std::string library{};   // e.g. "libzstd"
  std::string version{};   // runtime version, e.g. ZSTD_versionString()
  bool has_levels = true;  // false: level is ignored (memcpy, snappy)
  int min_level = 0;
  int max_level = 0;
  int default_level = 0;
  std::vector<int> valid_levels{};     // non-empty when the valid set is sparse (lzo variants)
  std::vector<int> standard_levels{};  // what `all` sweeps for this codec
  std::vector<int> fast_levels{};      // what the `fast` alias sweeps (empty: not a fast codec)
  std::vector<int> ratio_levels{};     // what the `ratio` alias sweeps (empty: not a ratio codec)
  bool supports_dict = false;
  bool is_reference = false;         // the reference row (memcpy): speeds are reported relative to it
  bool needs_original_size = false;  // decoder must be told the exact original size
  // Heap allocations the library makes inside every compress call, with no API to hand it our
  // memory (snappy 1.1.9: its hash table): the known exception to the allocation-free hot path,
  // said in `notes` and pinned by tests/codecs/allocation_test.cpp. 0 for every other codec.
  int allocations_per_compress = 0;
  std::string level_label = "level";          // what the level number is ("acceleration", "variant", ...)
  std::string notes{};                        // shown by `kvzbench list`
  std::string options_help{};                 // the options it takes after its levels ("" = none), for list/errors
  std::vector<CodecParams> extra_standard{};  // rows `all` sweeps besides standard_levels (xz: 6e, 9e)

  bool is_valid_level(int level) const;
  // lo..hi, skipping 0 when `skip_zero` (zstd's 0 means its default level): standard_levels.
  static std::vector<int> level_range(int lo, int hi, bool skip_zero = false);
  std::string level_range_text() const;  // e.g. "-131072..22" or "1,11,12,15,999"
};

// A dictionary digested once for one codec and params (zstd CDict+DDict; raw bytes for
// lz4/zlib), shared read-only by every session that uses it.
class PreparedDict {
 public:
  virtual ~PreparedDict() = default;
  virtual size_t size() const = 0;          // raw dictionary bytes
  virtual size_t memory_bytes() const = 0;  // memory held by the digested form
};

struct ContextMemory {
  size_t compress = 0;
  size_t decompress = 0;
};

class Session {
 public:
  virtual ~Session() = default;
  // Worst-case compressed size for n input bytes.
  virtual size_t bound(size_t n) const = 0;
  // Compress `in` into `out`; out.size() is the capacity. A too-small buffer is an error.
  virtual CallResult compress(ByteView in, MutableByteView out) noexcept = 0;
  // Decompress `in` into `out`; out.size() is the exact original size the caller expects.
  virtual CallResult decompress(ByteView in, MutableByteView out) noexcept = 0;
  // Bytes of library context this session holds, per direction: library-reported sizes
  // where the library has them (ZSTD_sizeof_CCtx/DCtx), else what it allocated through us
  // (arena high-water mark, live heap) or its fixed work memory. Read after the calls:
  // libraries size their contexts on first use.
  virtual ContextMemory context_memory() const = 0;
  // Heap allocations the library made through this session's allocators since open()
  // (arena growth included). Constant after warm-up: the proof of an allocation-free hot path.
  virtual uint64_t library_heap_allocations() const { return 0; }
};

class Codec {
 public:
  explicit Codec(CodecInfo info) : info_(std::move(info)) {}
  virtual ~Codec() = default;
  const CodecInfo& info() const { return info_; }
  // Open a session; `dict` may be null. Checks params (check_params) and that the codec takes
  // dictionaries, then calls open_session: errors name the valid range.
  Expected<std::unique_ptr<Session>> open(const CodecParams& params, std::shared_ptr<const PreparedDict> dict) const;
  // Digest raw dictionary bytes for these params: checks params, dictionary support and a
  // non-empty dictionary, then calls digest_dict.
  Expected<std::shared_ptr<const PreparedDict>> prepare_dict(ByteView dict_bytes, const CodecParams& params) const;
  // The codec's own options: turn the spec's option tokens (and "e" from a level written "6e")
  // into `params.options` in canonical form. Empty on success, else one line naming the token
  // and what the codec takes. The default takes no options.
  virtual std::string parse_options(const std::vector<std::string>& tokens, CodecParams& params) const;
  // Empty if `params` are valid for this codec (level, dictionary, options), else one line
  // naming the valid range.
  std::string check_params(const CodecParams& params) const;

 protected:
  // What each codec implements, called with params check_params accepted and, for `dict`,
  // only when the codec supports dictionaries.
  virtual Expected<std::unique_ptr<Session>> open_session(const CodecParams& params,
                                                          std::shared_ptr<const PreparedDict> dict) const = 0;
  // Called with non-empty bytes for a codec that supports dictionaries; the default refuses.
  virtual Expected<std::shared_ptr<const PreparedDict>> digest_dict(ByteView dict_bytes,
                                                                    const CodecParams& params) const;

 private:
  CodecInfo info_;
};

}  // namespace kvz
