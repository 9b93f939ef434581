// Dictionary rows (see bench/cell_dict.h).
#include "bench/cell_dict.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "codecs/spec.h"

namespace kvz {

namespace {

void measure_all_blocks(CellState& cell) {
  cell.measured.resize(cell.group->blocks.count());
  for (size_t i = 0; i < cell.measured.size(); ++i) cell.measured[i] = i;
}

// The store whose in-file method makes "file" dictionaries: the profile's, or RocksDB's (the
// one store here that keeps a dictionary in each file) without a profile or under one that
// keeps none.
const StoreProfile& dictionary_store(const CellState& cell) {
  const StoreProfile* store = cell.group->store;
  if (store && store_has_file_dictionary(*store)) return *store;
  static const StoreProfile* rocksdb = find_store_profile("rocksdb");
  return *rocksdb;
}

// Raw samples as the dictionary: their bytes concatenated, in the order taken (the store's
// samples, or the split's training blocks), at most `size` bytes. No training, so no failure.
TrainedDict raw_samples_dictionary(const std::vector<ByteView>& samples, size_t size) {
  TrainedDict d;
  for (ByteView s : samples) {
    if (d.bytes.size() >= size) break;
    const size_t take = std::min(size - d.bytes.size(), s.size());
    d.bytes.insert(d.bytes.end(), s.begin(), s.begin() + static_cast<std::ptrdiff_t>(take));
  }
  return d;
}

// "file": the store's samples from every block, every block measured. Under the profile of a
// store that keeps one, ZDICT exactly as the store calls it (no fallback: RocksDB then writes
// no dictionary and the row is skipped); otherwise a block set too small for ZDICT (a 512 KiB
// sample of 64 KiB blocks) is trained on 4 KiB chunks, with a note. A raw row's dictionary is
// the store's raw samples.
const TrainedDict& file_dictionary(CellState& cell, DictCache& dicts) {
  const size_t size = cell.params.dict_size;
  const bool raw = cell.params.raw_dict;
  auto it = dicts.trained.find({size, raw});
  if (it != dicts.trained.end()) return it->second;
  std::vector<ByteView> samples;
  for (auto s : store_dictionary_samples(dictionary_store(cell), cell.group->blocks, size, raw)) samples.push_back(s);
  if (raw) return dicts.trained.emplace(std::pair{size, raw}, raw_samples_dictionary(samples, size)).first->second;
  const bool exact = cell.group->store && store_has_file_dictionary(*cell.group->store);
  std::string note;
  it = dicts.trained
           .emplace(std::pair{size, raw},
                    train_dictionary(samples, size, &note, exact ? TrainFallback::None : TrainFallback::Chunks))
           .first;
  const BlockSet& bs = cell.group->blocks;
  if (!note.empty())
    dicts.notes.push_back(fmt::format("{} {}: dictionary {}: {} (RocksDB writes no dictionary for a file this small)",
                                      bs.source, format_byte_size(bs.block_size), format_byte_size(size), note));
  return it->second;
}

// "split": trained on a disjoint fraction, measured on the rest.
const TrainedDict* split_dictionary(CellState& cell, DictCache& dicts, const EngineOptions& opt) {
  const BlockSet& bs = cell.group->blocks;
  if (!dicts.split_done) {
    dicts.split_done = true;
    BlockSplit split;
    if (!split_train_test(bs.count(), opt.dict_train_fraction, opt.seed, split)) {
      dicts.split_error = fmt::format("dictionary needs at least 2 blocks, the sample has {}", bs.count());
    }
    dicts.train = std::move(split.train);
    dicts.test = std::move(split.test);
  }
  if (!dicts.split_error.empty()) {
    cell.skipped = dicts.split_error;
    return nullptr;
  }
  const std::pair key{cell.params.dict_size, cell.params.raw_dict};
  auto it = dicts.trained.find(key);
  if (it == dicts.trained.end()) {
    std::vector<ByteView> samples;
    for (size_t i : dicts.train) samples.push_back(bs.block(i));
    std::string note;
    it = dicts.trained
             .emplace(key, key.second ? raw_samples_dictionary(samples, key.first)
                                      : train_dictionary(samples, key.first, &note))
             .first;
    if (!note.empty())
      dicts.notes.push_back(fmt::format("{} {}: dictionary {}: {}", bs.source, format_byte_size(bs.block_size),
                                        format_byte_size(cell.params.dict_size), note));
  }
  cell.measured = dicts.test;
  return &it->second;
}

}  // namespace

// The blocks a cell measures and its prepared dictionary (see EngineOptions::dict_method).
bool choose_blocks(CellState& cell, DictCache& dicts, const EngineOptions& opt,
                   std::shared_ptr<const PreparedDict>& dict) {
  if (cell.params.dict_size == 0) {
    measure_all_blocks(cell);
    return true;
  }
  DictFigures& fig = cell.figures.dict;
  const StoredOrigin& origin = cell.group->blocks.origin;
  const bool file_own = cell.current && !origin.dictionary.empty();
  const bool in_file = file_own || opt.dict_method == "file";
  const TrainedDict* td = nullptr;
  if (file_own) {  // the file's own dictionary, as the file holds it
    dicts.stored.bytes = origin.dictionary;
    td = &dicts.stored;
    measure_all_blocks(cell);
  } else if (in_file) {
    td = &file_dictionary(cell, dicts);
    if (!td->ok()) {
      // RocksDB's ZSTD_TrainDictionary returns "" and the file gets no dictionary: the row
      // would be the plain one.
      cell.skipped =
          fmt::format("{}'s per-file method writes no dictionary for this block set: {}",
                      dictionary_store(cell).name == "rocksdb" ? "RocksDB" : dictionary_store(cell).name, td->error);
      return false;
    }
    measure_all_blocks(cell);
  } else {
    td = split_dictionary(cell, dicts, opt);
    if (!td) return false;
    if (!td->ok()) {
      cell.figures.failure = "dictionary training failed: " + td->error;
      return false;
    }
  }
  auto prepared = cell.codec->prepare_dict(ByteView(td->bytes.data(), td->bytes.size()), cell.params);
  if (!prepared.ok()) {
    cell.figures.failure = fmt::format("{}: {}", cell.codec->info().name, prepared.error);
    return false;
  }
  dict = prepared.value;
  fig.bytes = td->bytes.size();
  fig.train_seconds = td->train_seconds;
  fig.method = in_file ? "file" : opt.dict_method;
  if (file_own) {
    fig.block_bytes = origin.dictionary_on_disk;
  } else if (in_file) {
    // In the store's own file (its framing) under the profile of a store that keeps one;
    // otherwise the dictionary's raw bytes.
    const StoreProfile* store = cell.group->store;
    fig.block_bytes = store ? store_dictionary_block_bytes(*store, td->bytes.size()) : td->bytes.size();
  }
  return true;
}

// The measured blocks without the dictionary, as the dictionary row counts them: stored
// bytes ("file") or compressed bytes ("split"). The base of dict_gain.
bool size_without_dict(CellState& cell, const EngineOptions& opt, uint64_t& total) {
  CodecParams plain = cell.params;
  plain.dict_size = 0;
  auto s = cell.codec->open(plain, nullptr);
  if (!s.ok()) return false;
  const BlockCodec as_stored{cell.codec->info().name, plain.label(), cell.codec->info().is_reference};
  std::vector<uint8_t> out;
  total = 0;
  for (size_t i : cell.measured) {
    const ByteView in = cell.group->blocks.block(i);
    out.resize(s.value->bound(in.size()));
    const CallResult r = s.value->compress(in, MutableByteView(out.data(), out.size()));
    if (!r.ok()) return false;
    if (cell.figures.dict.method != "file") {  // the split study
      total += r.size;
    } else {
      total += stored_in_group(*cell.group, as_stored, in.size(), r.size, opt.min_saving).bytes;
    }
  }
  return true;
}

bool split_train_test(size_t block_count, double train_fraction, uint64_t seed, BlockSplit& out) {
  out = {};
  if (block_count < 2) return false;
  // zstd's trainer wants several samples (fastCover keeps 75 % and needs 5): take at least
  // 8 when that still leaves half the blocks to measure.
  auto n_train = static_cast<size_t>(static_cast<double>(block_count) * train_fraction);
  n_train = std::max(n_train, std::min<size_t>(8, block_count / 2));
  n_train = std::clamp<size_t>(n_train, 1, block_count - 1);
  std::vector<size_t> order(block_count);
  std::iota(order.begin(), order.end(), size_t{0});
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  out.train.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n_train));
  out.test.assign(order.begin() + static_cast<std::ptrdiff_t>(n_train), order.end());
  std::sort(out.train.begin(), out.train.end());
  std::sort(out.test.begin(), out.test.end());
  return true;
}

}  // namespace kvz
