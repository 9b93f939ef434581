#pragma once
#include <cstddef>
#include <string>

namespace kvz {
// `kvzbench blocks -l LAYOUT -b SIZE [-d DATASET | FILE...] (--out DIR | --stats)`.
int blocks_main(int argc, char** argv);
}  // namespace kvz
