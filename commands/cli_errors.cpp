#include "commands/cli_errors.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

#include "blockgen/block.h"
#include "util/text.h"

namespace kvz {

namespace {

bool all_digits(std::string_view v) {
  return !v.empty() &&
         std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}
bool starts_with_digit(std::string_view v) { return !v.empty() && std::isdigit(static_cast<unsigned char>(v[0])); }
// A bare number below kvzbench's smallest block size (1K; -b 4096 is kvzbench's own 4 KiB, and
// stays so): lzbench's -b16 (KB), and up to 22 zstd's -b3 (a level) too.
uint64_t small_number(std::string_view v) {
  uint64_t n = 0;
  return all_digits(v) && parse_u64(v, n) && n < kMinBlockSize ? n : 0;
}
bool zstd_level_or_kb(std::string_view v) { return small_number(v) >= 1 && small_number(v) <= 22; }
bool lzbench_kb(std::string_view v) { return small_number(v) > 22; }
// zstd's aggregated -b1e19: levels 1 to 19.
bool zstd_level_range(std::string_view v) {
  const size_t e = v.find('e');
  return e != std::string_view::npos && all_digits(v.substr(0, e)) && all_digits(v.substr(e + 1));
}

// One habit: the letter lzbench or `zstd -b` uses, which of its values are theirs (null: any,
// for a letter kvzbench does not have; kvzbench's own letters need a test that only a value
// kvzbench refuses passes), and the line that answers it: {a} is the argument as given, {v} its
// value, {r} a zstd level range (1e19 -> 1..19). The first row that matches answers.
struct ForeignFlag {
  char letter;
  bool (*theirs)(std::string_view value);
  const char* exact;  // this value only ("4" of -c4), or null for any
  const char* answer;
};

constexpr ForeignFlag kForeignFlags[] = {
    {'b', zstd_level_range, nullptr, "{a}: zstd's -b#e# benchmarks levels {r}: kvzbench's -c zstd:{r}"},
    {'b', zstd_level_or_kb, nullptr,
     "{a}: kvzbench's block sizes are 1K..1M (a bare number is bytes): lzbench's -b{v} is {v} KB blocks, kvzbench's "
     "-b {v}K; zstd's -b{v} benchmarks level {v}, kvzbench's -c zstd:{v}"},
    {'b', lzbench_kb, nullptr,
     "{a}: kvzbench's block sizes are 1K..1M (a bare number is bytes): lzbench's -b{v} is {v} KB blocks, kvzbench's "
     "-b {v}K"},
    {'c', starts_with_digit, "1",
     "{a}: lzbench's -c1 sorts by name: kvzbench's --sort none keeps the codecs' order; -c names codecs here (e.g. -c "
     "lz4/zstd:1,3)"},
    {'c', starts_with_digit, "2",
     "{a}: lzbench's -c2 sorts by compression time: kvzbench's --sort cspeed; -c names codecs here (e.g. -c "
     "lz4/zstd:1,3)"},
    {'c', starts_with_digit, "3",
     "{a}: lzbench's -c3 sorts by decompression time: kvzbench's --sort dspeed; -c names codecs here (e.g. -c "
     "lz4/zstd:1,3)"},
    {'c', starts_with_digit, "4",
     "{a}: lzbench's -c4 sorts by compressed size: kvzbench's --sort ratio; -c names codecs here (e.g. -c "
     "lz4/zstd:1,3)"},
    {'c', starts_with_digit, nullptr,
     "{a}: lzbench's -c# sorts by a column (1 name, 2 compression, 3 decompression, 4 size): kvzbench's --sort "
     "none|cspeed|dspeed|ratio; -c names codecs here"},
    {'e', starts_with_digit, nullptr,
     "{a}: zstd's -e{v} benchmarks levels up to {v}: kvzbench's -c zstd:1..{v} (-e here is lzbench's codec list, e.g. "
     "-e zstd,1,3/lz4)"},
    {'i', nullptr, nullptr,
     "{a}: lzbench's -iX,Y sets the minimum iterations: kvzbench's --repetitions N; zstd's -i# the seconds per level: "
     "kvzbench's --time S (per cell)"},
    {'t', nullptr, nullptr,
     "{a}: lzbench's -tX,Y sets the minimum seconds of compression and decompression: kvzbench's --time S (timed "
     "passes per cell, both directions)"},
    {'B', nullptr, nullptr,
     "{a}: zstd's -B# cuts the input into independent chunks of # bytes: kvzbench's -b SIZE (e.g. -b 16K)"},
    {'j', nullptr, nullptr,
     "{a}: lzbench's -j joins files and compresses each apart: kvzbench measures every named file as its own source "
     "already: drop -j"},
    {'o', starts_with_digit, "1", "{a}: lzbench's -o1 is Markdown: kvzbench's -o md (or --md FILE)"},
    {'o', starts_with_digit, "2", "{a}: lzbench's -o2 is text: kvzbench's -o text, the default"},
    {'o', starts_with_digit, "3", "{a}: lzbench's -o3 is text: kvzbench's -o text, the default"},
    {'o', starts_with_digit, "4", "{a}: lzbench's -o4 is CSV: kvzbench's -o csv (or --csv FILE)"},
    {'o', starts_with_digit, nullptr,
     "{a}: lzbench's -o# is a format number (1 Markdown, 2 text, 4 CSV): kvzbench's -o md|text|csv|json"},
    {'p', nullptr, nullptr,
     "{a}: lzbench's -p# prints the fastest, average or median: kvzbench prints the median over --repetitions, its "
     "spread beside it"},
    {'m', all_digits, nullptr,
     "{a}: lzbench's -m# caps memory in MB: kvzbench's --max-bytes SIZE caps what it reads of each source (-m here is "
     "the record mode)"},
    {'s', nullptr, nullptr,
     "{a}: lzbench's -s# keeps compressors above # MB/s: kvzbench has no speed filter: name the codecs (-c fast, -c "
     "lz4/snappy)"},
    {'S', nullptr, nullptr,
     "{a}: zstd's -S reports each file apart: kvzbench does already (each named file is its own source)"},
    {'V', nullptr, nullptr, "{a}: lzbench's -V: kvzbench --version"},
};

// `text` with {a}, {v} and {r} filled in.
std::string fill(std::string_view text, const std::string& arg, const std::string& value) {
  std::string range = value;
  if (const size_t e = range.find('e'); e != std::string::npos) range.replace(e, 1, "..");
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{' && i + 2 < text.size() && text[i + 2] == '}') {
      const char key = text[i + 1];
      out += key == 'a' ? arg : key == 'v' ? value : range;
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The answer for one short option letter and its value, or "".
std::string answer(const CLI::App& app, char letter, const std::string& arg, const std::string& value) {
  const bool ours = app.get_option_no_throw(std::string{'-', letter}) != nullptr;
  for (const ForeignFlag& f : kForeignFlags) {
    if (f.letter != letter || (ours && !f.theirs) || (f.theirs && !f.theirs(value))) continue;
    if (f.exact && value != f.exact) continue;
    return fill(f.answer, arg, value);
  }
  return "";
}

// Every option name `app` takes, as written on a command line ("--repetitions", "-c").
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& n : opt->get_lnames()) names.push_back("--" + n);
    for (const auto& n : opt->get_snames()) names.push_back("-" + n);
  }
  return names;
}

}  // namespace

std::string foreign_flag_error(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-' || arg[1] == '-') continue;
    std::string value(arg.substr(2));
    std::string shown(arg);
    const std::string_view next = i + 1 < argc ? argv[i + 1] : "";
    if (value.empty() && starts_with_digit(next) && next.size() <= 12 && next.find_first_of("./") == next.npos) {
      // "-b 16", "-i 3": a number, not a file
      value = next;
      shown += " " + value;
    }
    if (std::string a = answer(app, arg[1], one_line(shown), one_line(value)); !a.empty()) return a;
  }
  return "";
}

namespace {

// An option it does not know among the arguments `app` left over: "unknown option ..." with the
// closest it has; "" when there is none.
std::string unknown_option(const CLI::App& app) {
  for (const std::string& arg : app.remaining()) {
    if (arg.size() < 2 || arg[0] != '-') continue;
    const std::string name = arg.substr(0, arg.find('='));
    const std::string hint = did_you_mean(name, option_names(app));
    const std::string command =
        app.get_name().rfind("kvzbench", 0) == 0 ? app.get_name() : "kvzbench " + app.get_name();
    return "unknown option '" + one_line(name) + "'" + (hint.empty() ? "" : ": " + hint) + " (`" + command +
           " --help` lists them)";
  }
  return "";
}

// A one-value option given more than once (CLI11: "At Most 1 required but received 2"): which,
// and what it was given; "" when there is none.
std::string option_given_twice(const CLI::App& app) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional() || opt->get_multi_option_policy() != CLI::MultiOptionPolicy::Throw ||
        opt->get_items_expected_max() > 1 || opt->results().size() < 2)
      continue;
    std::vector<std::string> values;
    for (const auto& v : opt->results()) values.push_back("'" + one_line(v) + "'");
    return opt->get_name(false, true) + " given " +
           (values.size() == 2 ? std::string("twice") : std::to_string(values.size()) + " times") + " (" +
           join(values) + "): give it once";
  }
  return "";
}

}  // namespace

std::string parse_error_line(const CLI::App& app, const CLI::ParseError& error) {
  // An unknown option first: the required option CLI11 reports missing is often the one mistyped.
  if (std::string unknown = unknown_option(app); !unknown.empty()) return unknown;
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr)
    if (std::string twice = option_given_twice(app); !twice.empty()) return twice;
  return one_line(error.what());
}

}  // namespace kvz
