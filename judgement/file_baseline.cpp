#include "judgement/file_baseline.h"

#include <algorithm>

#include <fmt/format.h>

#include "results/cell_view.h"
#include "results/results.h"

namespace kvz {

std::optional<FileBaseline> file_baseline(const RunResults& run, const CellResult& cell) {
  const BlockSetKey set = block_set_of(cell.key);
  const CellResult* current = nullptr;
  for (const auto& c : run.cells)
    if (c.current && c.on_disk_bytes && c.status == CellStatus::Ok && block_set_of(c.key) == set) current = &c;
  if (!current) return std::nullopt;
  FileBaseline b;
  b.current = current;
  b.label = cell_label(run, *current);
  b.on_disk = *current->on_disk_bytes;
  b.predicted_delta = static_cast<int64_t>(current->stored_bytes) - static_cast<int64_t>(b.on_disk);
  for (const auto& corpus : run.meta.corpora)
    if (corpus.name == current->key.source) b.file_bytes = corpus.bytes, b.files = std::max<uint64_t>(corpus.files, 1);
  auto times = [](double base_mbps, double mbps) { return base_mbps > 0 && mbps > 0 ? base_mbps / mbps : 0.0; };
  for (const auto& c : run.cells) {
    if (&c == current || c.reference || c.status != CellStatus::Ok || block_set_of(c.key) != set) continue;
    CodecSwitch s;
    s.cell = &c;
    s.label = cell_label(run, c);
    s.saving_pct = b.on_disk ? 100.0 * (1.0 - static_cast<double>(c.stored_bytes) / static_cast<double>(b.on_disk)) : 0;
    s.compress_time_x = times(current->compress_median(), c.compress_median());
    s.decompress_time_x = times(current->decompress_median(), c.decompress_median());
    s.worst_block_us[0] = c.compress_latency.intrinsic.worst_block_ns / 1e3;
    s.worst_block_us[1] = c.decompress_latency.intrinsic.worst_block_ns / 1e3;
    b.switches.push_back(s);
  }
  // The biggest saving first: the question is what a switch buys.
  std::stable_sort(b.switches.begin(), b.switches.end(),
                   [](const CodecSwitch& x, const CodecSwitch& y) { return x.saving_pct > y.saving_pct; });
  return b;
}

std::string baseline_text(const FileBaseline& b) {
  const std::string match = b.predicted_delta == 0 ? "exact"
                                                   : fmt::format("{:+} B, {:+.2f} %", b.predicted_delta,
                                                                 100.0 * static_cast<double>(b.predicted_delta) /
                                                                     static_cast<double>(b.on_disk ? b.on_disk : 1));
  const std::string whole = b.file_bytes <= b.on_disk ? ""
                            : b.files > 1             ? fmt::format("; its {} files {} B", b.files, b.file_bytes)
                                                      : fmt::format("; the whole file {} B", b.file_bytes);
  return fmt::format("{}: {} B on disk; measured here {} B ({}){}", b.label, b.on_disk, b.current->stored_bytes, match,
                     whole);
}

std::string switch_text(const CodecSwitch& s) {
  const std::string bytes =
      s.saving_pct >= 0 ? fmt::format("saves {:.1f} %", s.saving_pct) : fmt::format("{:.1f} % more", -s.saving_pct);
  return fmt::format("{}: {} B, {}; c time ×{:.2f}, d time ×{:.2f}; worst blk {:.1f}/{:.1f} µs", s.label,
                     s.cell->stored_bytes, bytes, s.compress_time_x, s.decompress_time_x, s.worst_block_us[0],
                     s.worst_block_us[1]);
}

}  // namespace kvz
