#include "codecs/dictionary.h"

#include <zdict.h>

#include <fmt/format.h>
#include <chrono>
#include <cstring>

#include "codecs/spec.h"

namespace kvz {

namespace {
constexpr size_t kTrainChunk = 4096;
}  // namespace

TrainedDict train_dictionary(const std::vector<ByteView>& samples, size_t dict_size, std::string* note,
                             TrainFallback fallback) {
  TrainedDict out;
  if (dict_size < kMinDictSize || dict_size > kMaxDictSize) {
    out.error = fmt::format("dictionary size {} out of range ({}..{})", format_byte_size(dict_size),
                            format_byte_size(kMinDictSize), format_byte_size(kMaxDictSize));
    return out;
  }
  // ZDICT wants the samples back to back plus their sizes.
  std::vector<uint8_t> joined;
  std::vector<size_t> sizes;
  for (ByteView s : samples) {
    if (s.empty()) continue;
    joined.insert(joined.end(), s.begin(), s.end());
    sizes.push_back(s.size());
  }
  if (joined.empty()) {
    out.error = "no sample bytes to train a dictionary from";
    return out;
  }
  auto start = std::chrono::steady_clock::now();
  out.bytes.resize(dict_size);
  size_t r = ZDICT_trainFromBuffer(out.bytes.data(), dict_size, joined.data(), sizes.data(),
                                   static_cast<unsigned>(sizes.size()));
  if (note) note->clear();
  if (ZDICT_isError(r) && fallback == TrainFallback::None) {
    out.bytes.clear();
    out.error = fmt::format("ZDICT could not train on {} samples of {} bytes ({})", sizes.size(), joined.size(),
                            ZDICT_getErrorName(r));
    return out;
  }
  if (ZDICT_isError(r) && joined.size() >= 2 * kTrainChunk) {
    // Large blocks give too few samples for ZDICT (a 64 KiB block set of 1 MiB has 16): cut
    // them into 4 KiB chunks, as `zstd --train -B4096` does with big files, and train again.
    std::vector<size_t> chunks(joined.size() / kTrainChunk, kTrainChunk);
    if (joined.size() % kTrainChunk) chunks.push_back(joined.size() % kTrainChunk);
    r = ZDICT_trainFromBuffer(out.bytes.data(), dict_size, joined.data(), chunks.data(),
                              static_cast<unsigned>(chunks.size()));
    if (!ZDICT_isError(r) && note)
      *note = fmt::format("trained on {} chunks of 4K cut from {} samples (too few whole samples)", chunks.size(),
                          sizes.size());
  }
  if (ZDICT_isError(r)) {
    // Too few sample bytes even in chunks: use the newest sample bytes as a raw-content
    // dictionary, which is what RocksDB does when it is not asked to train.
    size_t n = std::min(dict_size, joined.size());
    out.bytes.assign(joined.end() - static_cast<std::ptrdiff_t>(n), joined.end());
    if (note)
      *note = fmt::format("ZDICT could not train ({}): raw dictionary of the last {} sample bytes",
                          ZDICT_getErrorName(r), n);
  } else {
    out.bytes.resize(r);
  }
  out.train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace kvz
