#pragma once
// Finding corpora: a path, or a name from corpora/MANIFEST.tsv resolved against the
// directory in KVZ_CORPORA (default: ../shared/corpora beside the project, if present).
#include <string>
#include <vector>

namespace kvz {

// The corpora directory in use, or "" when none is found.
std::string corpora_dir();
// Resolve a corpus argument to a readable path. Accepts a path, "json/twitter.json",
// or a bare manifest name ("twitter.json"). Returns "" and sets `error` when not found.
std::string resolve_corpus(const std::string& arg, std::string& error);

}  // namespace kvz
