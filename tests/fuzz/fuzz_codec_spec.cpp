// libFuzzer target: the codec spec grammar (kvz::parse_codec_spec), e.g. "zstd:-5..3:dict=16K/lz4".
#include <cstddef>
#include <cstdint>
#include <string>

#include "codecs/registry.h"
#include "codecs/spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;  // longer specs add nothing but giant level ranges
  const std::string spec(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto choices = kvz::parse_codec_spec(spec, kvz::CodecRegistry::instance(), error);
  for (const auto& c : choices) (void)c.label();
  return 0;
}
