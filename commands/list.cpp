// `kvzbench list [--json]`: the codec table, straight from the registry.
#include "commands/list.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "codecs/registry.h"
#include "commands/cli_errors.h"
#include "commands/help_format.h"
#include "util/text.h"

namespace kvz {
namespace {

// "-7..-1,1..22" rather than thirty numbers; "0..9,6e,9e" for xz.
std::string compact_levels(const std::vector<int>& levels, const std::vector<CodecParams>& extra = {}) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < levels.size();) {
    size_t j = i;
    while (j + 1 < levels.size() && levels[j + 1] == levels[j] + 1) ++j;
    parts.push_back(j - i >= 2 ? fmt::format("{}..{}", levels[i], levels[j])
                               : fmt::format("{}", fmt::join(levels.begin() + static_cast<long>(i),
                                                             levels.begin() + static_cast<long>(j) + 1, ",")));
    i = j + 1;
  }
  for (const auto& row : extra) parts.push_back(row.label());
  return fmt::format("{}", fmt::join(parts, ","));
}

nlohmann::ordered_json to_json(const CodecInfo& i) {
  return {{"name", i.name},
          {"library", i.library},
          {"version", i.version},
          {"has_levels", i.has_levels},
          {"level_label", i.level_label},
          {"min_level", i.min_level},
          {"max_level", i.max_level},
          {"valid_levels", i.valid_levels},
          {"default_level", i.default_level},
          {"standard_levels", i.standard_levels},
          {"fast_levels", i.fast_levels},
          {"ratio_levels", i.ratio_levels},
          {"supports_dict", i.supports_dict},
          {"options", i.options_help},
          {"needs_original_size", i.needs_original_size},
          {"notes", i.notes}};
}

// A row per codec, its notes under it, filled to the console's width (util/text.h
// console_columns).
void print_table(const CodecRegistry& reg) {
  std::vector<std::array<std::string, 6>> rows;
  std::vector<std::string> notes;
  rows.push_back({"codec", "library", "levels", "default", "standard levels", "dict"});
  notes.emplace_back();
  for (const auto& c : reg.codecs()) {
    const CodecInfo& i = c->info();
    rows.push_back({i.name, i.library + " " + i.version,
                    i.has_levels ? fmt::format("{} {}", i.level_label, i.level_range_text()) : "-",
                    i.has_levels ? std::to_string(i.default_level) : "-",
                    i.has_levels ? compact_levels(i.standard_levels, i.extra_standard) : "-",
                    i.supports_dict ? "yes" : "no"});
    notes.push_back(i.notes);
  }
  std::array<size_t, 6> width{};
  for (const auto& r : rows)
    for (size_t k = 0; k < r.size(); ++k) width[k] = std::max(width[k], display_width(r[k]));
  const size_t columns = console_columns();
  for (size_t n = 0; n < rows.size(); ++n) {
    std::string line;
    for (size_t k = 0; k + 1 < rows[n].size(); ++k) line += fmt::format("{:<{}}  ", rows[n][k], width[k]);
    fmt::print("{}{}\n", line, rows[n].back());
    for (const auto& note : fill_lines(notes[n], columns - 4)) fmt::print("    {}\n", note);
  }
}

// The App `list` parses with; describe_list hands the same one to the man page and completions.
void init_app(CLI::App& app, bool& json) {
  app.description("List codecs, their levels, library versions and dictionary support");
  fit_help(app);  // within the console's width
  app.name("kvzbench list");
  app.add_flag("--json", json, "print JSON for machines");
}

}  // namespace

void describe_list(CLI::App& app) {
  static bool json = false;  // what the flag binds to: a described App is never parsed
  init_app(app, json);
}

int list_main(int argc, char** argv) {
  CLI::App app;
  bool json = false;
  init_app(app, json);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "kvzbench list: error: %s\n", parse_error_line(app, e).c_str());
    return 2;
  }
  const CodecRegistry& reg = CodecRegistry::instance();
  if (json) {
    nlohmann::ordered_json codecs = nlohmann::ordered_json::array();
    for (const auto& c : reg.codecs()) codecs.push_back(to_json(c->info()));
    fmt::print("{}\n", nlohmann::ordered_json{{"codecs", codecs}}.dump(2));
  } else {
    print_table(reg);
  }
  return 0;
}

}  // namespace kvz
