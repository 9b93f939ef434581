// The model the man page and completions are written from, and the hidden commands that write
// them (commands/cli_export.h).
#include "commands/cli_export.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>

#include "blockgen/layouts.h"
#include "blockgen/records.h"
#include "codecs/registry.h"
#include "commands/command_table.h"
#include "commands/run_options.h"
#include "commands/run_plan.h"
#include "kvz_build_info.h"
#include "stores/store_profile.h"

namespace kvz {

namespace {

// Which names an option's value completes from, by its long name: the tables it is checked
// against, so a new codec, profile or layout is completed without a change here.
struct ValueSource {
  const char* option;
  const char* values;  // a CliValues name
};
constexpr ValueSource kValueSources[] = {
    {"--codecs", "codecs"},
    {"--profile", "profiles"},
    {"--layout", "layouts"},
    {"--dataset", "datasets"},
    {"--record-mode", "record-modes"},
    {"--cache", "cache-modes"},
    {"--dict-method", "dict-methods"},
    {"--sort", "sorts"},
};

template <class Row>
std::vector<std::string> row_names(const Row& row) {
  std::vector<std::string> names;
  for (const auto& [name, value] : row.values) names.emplace_back(name);
  return names;
}

std::vector<CliValues> value_sets() {
  std::vector<CliValues> sets;
  sets.push_back({"codecs", "/+", CodecRegistry::instance().names()});
  CliValues profiles{"profiles", "", {}};
  for (const auto& p : sweep_profiles()) profiles.words.push_back(p.name);
  for (const auto& p : store_profiles()) profiles.words.push_back(p.name);
  sets.push_back(profiles);
  sets.push_back({"layouts", ",", layout_names()});
  sets.push_back({"datasets", ",", dataset_names()});
  CliValues modes{"record-modes", "", {}};
  for (const auto& m : record_mode_table())
    if (!std::strchr(m.name, ':')) modes.words.emplace_back(m.name);  // "fixed:N" is a pattern, not a name
  sets.push_back(modes);
  sets.push_back({"cache-modes", "", row_names(kCacheOption)});
  sets.push_back({"dict-methods", "", row_names(kDictMethodOption)});
  sets.push_back({"sorts", "", row_names(kSortOption)});
  return sets;
}

// A value set for the option, "file" for text (paths, mostly), "" for a number or a flag.
std::string completes(const CLI::Option& opt) {
  if (opt.get_positional()) return "file";
  if (opt.get_type_size_min() == 0) return "";
  for (const auto& v : kValueSources)
    for (const auto& l : opt.get_lnames())
      if ("--" + l == v.option) return v.values;
  const std::string type = opt.get_type_name();
  for (const char* number : {"INT", "UINT", "FLOAT", "NUMBER"})
    if (type.rfind(number, 0) == 0) return "";
  return "file";
}

CliOption describe_option(const CLI::Option& opt) {
  CliOption o;
  o.positional = opt.get_positional();
  if (o.positional) {
    o.names.push_back(opt.get_name(true));
  } else {
    for (const auto& s : opt.get_snames()) o.names.push_back("-" + s);
    for (const auto& l : opt.get_lnames()) o.names.push_back("--" + l);
  }
  o.repeatable = opt.get_expected_max() > 1;
  o.required = opt.get_required();
  if (opt.get_type_size_min() > 0) o.value = opt.get_type_name();
  o.help = opt.get_description();
  o.default_value = opt.get_default_str();
  o.completes = completes(opt);
  return o;
}

CliCommand describe_command(const Command& c) {
  CLI::App app;
  c.describe(app);
  CliCommand cmd{c.name, c.help, app.get_description(), {}};
  for (const CLI::Option* opt : app.get_options())
    if (!opt->get_group().empty()) cmd.options.push_back(describe_option(*opt));  // "" = hidden
  return cmd;
}

}  // namespace

CliModel describe_cli() {
  CliModel m;
  m.version = KVZ_VERSION;
  for (const Command& c : commands()) m.commands.push_back(describe_command(c));
  m.values = value_sets();
  for (const auto& c : CodecRegistry::instance().codecs()) {
    const CodecInfo& i = c->info();
    m.codecs.push_back(
        {i.name, i.library, i.has_levels ? i.level_label + " " + i.level_range_text() : "", i.supports_dict});
  }
  return m;
}

bool is_cli_export(std::string_view arg) { return arg == "--man" || arg == "--completions"; }

int cli_export_main(int argc, char** argv) {
  const std::string_view flag = argv[0];
  const std::string_view shell = argc == 2 ? argv[1] : "";
  const bool man = flag == "--man" && argc == 1;
  if (!man && !(flag == "--completions" && argc == 2 && (shell == "bash" || shell == "zsh"))) {
    std::fprintf(stderr, "kvzbench: error: usage: kvzbench --man | kvzbench --completions bash|zsh\n");
    return 2;
  }
  const CliModel model = describe_cli();
  const std::string text = man ? man_page(model) : shell == "bash" ? bash_completion(model) : zsh_completion(model);
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "kvzbench: error: cannot write %s\n", man ? "the man page" : "the completion");
    return 1;
  }
  return 0;
}

}  // namespace kvz
