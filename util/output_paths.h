#pragma once
// Which outputs a command may write, settled before it reads anything: an output is never one of
// its inputs and never another output's file, whatever the spelling (util/README.md "Outputs
// never over inputs"). One rule for every subcommand and every output flag.
#include <string>
#include <vector>

namespace kvz {

// A path on the command line and the option that names it ("--junit", "-o"; "" for a positional
// input), for the messages.
struct NamedPath {
  std::string option;
  std::string path;
};

// True when both paths name the same file: the same path after resolving `.`, `..` and symbolic
// links (whether or not it exists yet), or the same existing file by device and inode (a hard
// link; "-" is standard output, so `> a.json` makes it a.json). Character devices (/dev/null)
// are never one of their readers' inputs.
bool same_file(const std::string& a, const std::string& b);

// "" or one line (exit 2) naming both paths: an output that is not writable (check_writable);
// two outputs naming one file (or both standard output); an output that is an input, or inside
// an input directory (a store's directory is read whole).
std::string check_outputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

// The same for an output directory (`blocks --out DIR`, `run --out-dir DIR`): not an input, not
// inside an input directory, and no input inside it.
std::string check_output_directory(const NamedPath& dir, const std::vector<NamedPath>& inputs);

}  // namespace kvz
