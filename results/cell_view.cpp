#include "results/cell_view.h"

#include "results/results.h"

#include <fmt/format.h>

namespace kvz {

BlockSetKey block_set_of(const CellKey& k) {
  return {k.source, k.record_mode, k.layout, k.block_size, k.cache, k.threads, k.profile, k.host, k.cpu};
}

std::string source_label(const CellKey& k) { return k.host.empty() ? k.source : k.source + "@" + k.host; }

std::string source_label(const CorpusInfo& c) { return c.host.empty() ? c.name : c.name + "@" + c.host; }

std::string cell_label(const RunResults& run, const CellResult& c) {
  const CellKey& k = c.key;
  if (c.reference) return k.codec;
  std::string params = k.params.empty() ? std::to_string(k.level) : k.params;
  for (const auto& v : run.meta.codec_versions) {
    if (v.codec != k.codec || v.has_levels) continue;
    // A level-less codec's params start with the meaningless level ("0", "0:dict=16K").
    const size_t colon = params.find(':');
    params = colon == std::string::npos ? "" : params.substr(colon + 1);
  }
  return params.empty() ? k.codec : k.codec + " " + params;
}

const CellResult* reference_of(const RunResults& run, const CellResult& c) {
  const CellResult* any = nullptr;
  const BlockSetKey mine = block_set_of(c.key);
  for (const auto& m : run.cells) {
    if (!m.reference || m.status != CellStatus::Ok || m.compress_mbps.empty()) continue;
    if (block_set_of(m.key) == mine) return &m;
    if (!any) any = &m;
  }
  return any;
}

namespace {
double relative(double value, double base) { return value > 0 && base > 0 ? value / base : 0; }
}  // namespace

double CellView::compress_rel() const {
  return reference ? relative(cell.compress_median(), reference->compress_median()) : 0;
}
double CellView::decompress_rel() const {
  return reference ? relative(cell.decompress_median(), reference->decompress_median()) : 0;
}

bool CellView::ok() const { return cell.status == CellStatus::Ok; }

CellView view_of(const RunResults& run, const CellResult& cell, size_t run_index) {
  return {run, cell, reference_of(run, cell), run_index};
}

std::string dictionary_text(const CellResult& c, bool brief) {
  if (c.dict_bytes == 0) return "";
  if (brief) {
    std::string s = c.dict_method == "file" ? fmt::format("dict {} B from all {} blocks, in the file (+{} B)",
                                                          c.dict_bytes, c.blocks, c.dict_block_bytes)
                                            : fmt::format("dict {} B, split study ({} unseen blocks, dict not counted)",
                                                          c.dict_bytes, c.blocks);
    if (!c.dict_gain) return s;
    return s + fmt::format(": net x{:.3f}{}", *c.dict_gain, c.dict_loses() ? ", a LOSS: never recommended" : "");
  }
  std::string s =
      c.dict_method == "file"
          ? fmt::format("dict {} B sampled from all {} blocks and kept in the file ({} B counted in stored bytes)",
                        c.dict_bytes, c.blocks, c.dict_block_bytes)
          : fmt::format(
                "dict {} B trained on a disjoint 20 % split, measured on the other {} blocks (split study: "
                "a dictionary shipped outside the data, not counted)",
                c.dict_bytes, c.blocks);
  s += fmt::format(", trained in {:.3f} s", c.dict_train_seconds);
  if (!c.dict_gain) return s;
  if (!c.dict_loses()) return s + fmt::format(": net gain x{:.3f} over no dictionary", *c.dict_gain);
  return s + fmt::format(": net gain x{:.3f}, a LOSS ({:.1f} % more bytes than no dictionary): never recommended",
                         *c.dict_gain, 100.0 * (1.0 / *c.dict_gain - 1.0));
}

}  // namespace kvz
