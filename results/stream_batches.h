#pragma once
// What the streaming readers and the streamed merge share: the cells a worker takes at a time,
// and the signal that a file's cells come before its meta.
#include <cstddef>

namespace kvz {

// Cells a worker parses at a time: large enough that a thread's start is lost in its work
// (~256 cells take ~50 ms), small enough that the batches in flight hold a few MB.
inline constexpr size_t kBatchCells = 256;

// Thrown by a streaming reader when a file's cells come before its meta (kvzbench writes meta
// first): the codec checks need the meta, so the file is read whole instead.
struct CellsBeforeMeta {};

}  // namespace kvz
