// Fixed-size chunks of the corpus bytes, as Cassandra and ScyllaDB compress the SSTable
// data file in chunk_length_in_kb chunks; the last chunk is shorter. Without raw bytes (a
// dataset) the records are chunked as key+value concatenated.
#include <algorithm>
#include <string>

#include "blockgen/layouts/layout_impl.h"

namespace kvz::layouts {

void build_raw(const RecordSet& in, size_t block_size, BlockSet& out) {
  std::string joined;
  std::span<const uint8_t> data(in.raw);
  if (in.raw.empty()) {
    for (const Record& r : in.records) {
      joined.append(r.key);
      joined.append(r.value);
      out.composition.key_bytes += r.key.size();
      out.composition.value_bytes += r.value.size();
    }
    out.composition.records = in.records.size();
    data = {reinterpret_cast<const uint8_t*>(joined.data()), joined.size()};
  } else {
    out.composition.value_bytes = in.raw.size();  // raw bytes: no key/value split known
  }
  out.bytes.reserve(data.size());
  for (size_t off = 0; off < data.size(); off += block_size) {
    out.add_block(data.subspan(off, std::min(block_size, data.size() - off)), 0);
  }
}

}  // namespace kvz::layouts
