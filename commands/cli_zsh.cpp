// The zsh completion, from the model of the CLI (commands/cli_export.h): one _arguments
// function per subcommand, value sets from the same tables the options are checked against.
#include <fmt/format.h>

#include "commands/cli_export.h"

namespace kvz {

namespace {

// Inside a single-quoted zsh word.
std::string in_quotes(std::string_view text) {
  std::string out;
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out;
}

// An option's explanation for _arguments' [...]: short (zsh lists it beside the option), with
// the characters _arguments reads escaped.
std::string explanation(std::string_view help) {
  constexpr size_t kMax = 72;
  std::string text(help.substr(0, help.find('\n')));
  if (text.size() > kMax) {
    const size_t cut = text.rfind(' ', kMax - 3);
    text = text.substr(0, cut == std::string::npos ? kMax - 3 : cut) + "...";
  }
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '[' || c == ']' || c == ':') out += '\\';
    out += c;
  }
  return in_quotes(out);
}

// ":message:action" of an option's value; "" for a flag.
std::string value_spec(const CliOption& o) {
  if (o.completes.empty()) return o.value.empty() ? "" : ":number: ";
  if (o.completes == "file") return ":file:_files";
  return fmt::format(":{}:_kvzbench_values {}", o.completes, o.completes);
}

std::string option_spec(const CliOption& o) {
  if (o.positional) return fmt::format("'{}:{}:_files'", o.repeatable ? "*" : "", in_quotes(o.names.front()));
  const std::string tail = fmt::format("[{}]{}", explanation(o.help), in_quotes(value_spec(o)));
  if (o.names.size() == 1) return fmt::format("'{}{}{}'", o.repeatable ? "*" : "", o.names.front(), tail);
  const std::string excluded = o.repeatable ? "*" : fmt::format("({})", fmt::join(o.names, " "));
  return fmt::format("'{}'{{{}}}'{}'", excluded, fmt::join(o.names, ","), tail);
}

std::string command_function(const CliCommand& c) {
  std::string s = fmt::format("_kvzbench_cmd_{}() {{\n  _arguments -s -S", c.name);
  for (const auto& o : c.options) s += " \\\n    " + option_spec(o);
  return s + "\n}\n\n";
}

std::string values_function(const CliModel& m) {
  std::string s =
      "# [COMPADD-OPTIONS] SET: complete a value set's names (with the options _arguments passes);\n"
      "# a list goes on after its separators (\"lz4/zs\").\n"
      "_kvzbench_values() {\n  local set=$argv[-1]\n  local -a names\n  argv[-1]=()\n  case $set in\n";
  for (const auto& v : m.values) {
    s += fmt::format("  {}) names=('{}')", v.name, fmt::join(v.words, "' '"));
    if (!v.separators.empty()) s += fmt::format(" && compset -P '*[{}]'", in_quotes(v.separators));
    s += " ;;\n";
  }
  return s + "  esac\n  compadd \"$@\" -a names\n}\n\n";
}

constexpr const char* kDispatch = R"zsh(_kvzbench() {
  if ((CURRENT == 2)) && [[ $PREFIX != -* ]]; then
    if [[ $PREFIX == */* || $PREFIX == .* || $PREFIX == '~'* ]]; then
      _files # `kvzbench ./data.json` is `run` over a corpus
    else
      _describe -t commands 'kvzbench command' _kvzbench_commands
    fi
    return
  fi
  if ((CURRENT > 2)) && ((${+functions[_kvzbench_cmd_${words[2]}]})); then
    local cmd=${words[2]}
    shift words
    ((CURRENT--))
    _kvzbench_cmd_$cmd
  else
    _kvzbench_cmd_run # an option or a corpus first: `run`
  fi
}

if [[ $funcstack[1] == _kvzbench ]]; then
  _kvzbench "$@"
else
  compdef _kvzbench kvzbench
fi
)zsh";

}  // namespace

std::string zsh_completion(const CliModel& m) {
  std::string s =
      "#compdef kvzbench\n"
      "# zsh completion for kvzbench, written by `kvzbench --completions zsh` from the program's own\n"
      "# CLI (its subcommands, their options, the codec registry): do not edit.\n\n"
      "_kvzbench_commands=(\n";
  for (const auto& c : m.commands) s += fmt::format("  '{}:{}'\n", c.name, in_quotes(c.summary));
  s += ")\n\n" + values_function(m);
  for (const auto& c : m.commands) s += command_function(c);
  return s + kDispatch;
}

}  // namespace kvz
