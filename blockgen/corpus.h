#pragma once
// Finding corpora: a path, or a name from corpora/MANIFEST.tsv resolved against the
// corpora directory: KVZ_CORPORA if set, else ../shared/corpora beside the project (found
// from the executable's location), else ./corpora-cache (what corpora/fetch.sh fills).
#include <string>
#include <string_view>
#include <vector>

namespace kvz {

// The environment variable that points kvzbench at a local corpora mirror.
inline constexpr const char* kCorporaEnv = "KVZ_CORPORA";

// The corpora directory in use, or "" when none is found.
std::string corpora_dir();
// Resolve a corpus argument to a readable path. Accepts a path, "json/twitter.json",
// or a bare manifest name ("twitter.json"). Returns "" and sets `error` when not found.
std::string resolve_corpus(const std::string& arg, std::string& error);

// The `file` column of <corpora dir>/MANIFEST.tsv (relative names), empty without one.
std::vector<std::string> manifest_names(const std::string& dir);

// Hex SHA-256 (libcrypto EVP) of bytes read from a corpus, for the run metadata: what was
// measured, so hashing costs no more than reading the sample (a 20 GB file is not read whole).
std::string sha256_hex(std::string_view bytes);

}  // namespace kvz
