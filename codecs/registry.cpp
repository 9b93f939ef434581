#include "codecs/registry.h"

#include <stdexcept>

namespace kvz {

void CodecRegistry::add(std::unique_ptr<Codec> codec) {
  // Two codecs under one name would make every spec, cell id and report ambiguous.
  if (find(codec->info().name)) throw std::logic_error("codec '" + codec->info().name + "' registered twice");
  codecs_.push_back(std::move(codec));
}

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
// The families come from codecs/CMakeLists.txt, one kvz_codec() line each, in its order, and
// only those built (KVZ_WITH_<CODEC>).
#define KVZ_REGISTER(family) void registerCodec##family(CodecRegistry& r);
#include "kvz_codec_registrations.inc"
#undef KVZ_REGISTER

void registerAllCodecs(CodecRegistry& r) {
  registerCodecMemcpy(r);
#define KVZ_REGISTER(family) registerCodec##family(r);
#include "kvz_codec_registrations.inc"
#undef KVZ_REGISTER
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
