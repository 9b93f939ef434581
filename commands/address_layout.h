#pragma once
// The same address-space layout in every run. Where code and buffers land changes how fast a
// call runs (cache, TLB and branch-predictor aliasing): with randomised layout (ASLR) the same
// 12 KiB block decompressed by zlib took a fastest call of 29.7 µs in most processes and
// 35-37 µs in others, the median block unchanged; with randomisation off, 29.6-30.1 µs in all.
// So `kvzbench run` turns it off for its own process (personality ADDR_NO_RANDOMIZE, then one
// re-exec), unless KVZ_ASLR=on; where the kernel or a container forbids it the run goes on and
// the result says so (meta.extra.address_layout).
#include <string>

namespace kvz {

// Called first thing by main() for `run`: may re-execute the program (then never returns).
void fix_address_layout(char** argv);

// "fixed" (randomisation off), or "randomised (why)"; for the result's metadata.
const std::string& address_layout();

}  // namespace kvz
