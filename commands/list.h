#pragma once
namespace kvz {
// `kvzbench list [--json]`: every codec, level range, runtime version, dictionary support.
int list_main(int argc, char** argv);
}  // namespace kvz
