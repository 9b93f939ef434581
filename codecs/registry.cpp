#include "codecs/registry.h"

namespace kvz {

void CodecRegistry::add(std::unique_ptr<Codec> codec) { codecs_.push_back(std::move(codec)); }

const Codec* CodecRegistry::find(const std::string& name) const {
  for (const auto& c : codecs_)
    if (c->info().name == name) return c.get();
  return nullptr;
}

std::vector<std::string> CodecRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& c : codecs_) out.push_back(c->info().name);
  return out;
}

// Fixed order, memcpy first (the reference row, as in lzbench): `list`, `all` and the
// reports follow it, so results from different runs line up.
void registerAllCodecs(CodecRegistry& r) {
  registerCodecMemcpy(r);
  registerCodecZstd(r);
  registerCodecLz4(r);  // lz4, lz4hc
  registerCodecSnappy(r);
  registerCodecZlib(r);
  registerCodecBrotli(r);
  registerCodecXz(r);
  registerCodecLzo(r);
}

const CodecRegistry& CodecRegistry::instance() {
  static const CodecRegistry registry = [] {
    CodecRegistry r;
    registerAllCodecs(r);
    return r;
  }();
  return registry;
}

}  // namespace kvz
