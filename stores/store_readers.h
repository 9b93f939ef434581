#pragma once
// The readers of the stores' own files (blockgen/source_registry.h), one per store, each in its
// store's folder (stores/<store>/). Every program linking kvz_stores has them in
// SourceRegistry::global() before main (stores/store_readers.cpp says how); a test may fill a
// registry of its own.
#include "blockgen/source_registry.h"

namespace kvz {

// Adds every store's reader to `registry`, in the order it asks them.
void register_store_readers(SourceRegistry& registry);

}  // namespace kvz
