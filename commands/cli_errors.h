#pragma once
// Command-line errors that help (issue 36): an unknown option names the option it was closest
// to, and the flags of the benchmarks people come from (lzbench, `zstd -b`) are answered with
// kvzbench's own, one line each, from one table (cli_errors.cpp).
#include <string>

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace kvz {

// The one-line message for a CLI11 parse error of `app`: for an option it does not know, that
// option and the closest ones it has ("unknown option '--repetiton': did you mean
// '--repetitions'?"); otherwise CLI11's own message.
std::string parse_error_line(const CLI::App& app, const CLI::ParseError& error);

// The first argument that is lzbench's or `zstd -b`'s flag rather than kvzbench's (lzbench's
// -b16 is 16 KB blocks, -c4 sorts by size, -i3,5 counts iterations; zstd's -b3 is level 3,
// -e19 the last level, -i3 seconds, -B16K chunks), answered with kvzbench's equivalent: "" when
// there is none. An argument is theirs only when `app` has no such option or would refuse
// that value, so a command line kvzbench accepts is never refused. Arguments after "--" are
// files.
std::string foreign_flag_error(const CLI::App& app, int argc, const char* const* argv);

}  // namespace kvz
