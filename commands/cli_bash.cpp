// The bash completion, from the model of the CLI (commands/cli_export.h). It needs nothing but
// bash itself (no bash-completion helpers), so a test can source it and call _kvzbench.
#include <fmt/format.h>

#include "commands/cli_export.h"

namespace kvz {

namespace {

// One single-quoted shell word.
std::string shell_word(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// The functions that answer from the model: value sets, separators, options, option values.
std::string tables(const CliModel& m) {
  std::string words, seps, options, values, with_files;
  for (const auto& v : m.values) {
    words += fmt::format("  {}) echo {} ;;\n", v.name, shell_word(joined(v.words)));
    if (!v.separators.empty()) seps += fmt::format("  {}) echo {} ;;\n", v.name, shell_word(v.separators));
  }
  for (const auto& c : m.commands) {
    std::vector<std::string> names;
    for (const auto& o : c.options) {
      if (o.positional) {
        with_files += (with_files.empty() ? "" : " | ") + c.name;
        continue;
      }
      names.insert(names.end(), o.names.begin(), o.names.end());
      if (o.value.empty()) continue;
      std::vector<std::string> patterns;
      for (const auto& n : o.names) patterns.push_back(shell_word(c.name + " " + n));
      values +=
          fmt::format("  {}) echo {} ;;\n", fmt::join(patterns, " | "), o.completes.empty() ? "none" : o.completes);
    }
    options += fmt::format("  {}) echo {} ;;\n", c.name, shell_word(joined(names)));
  }
  return fmt::format(
      "# SET: the names a value set offers.\n_kvzbench_words() {{\n  case $1 in\n{}  esac\n}}\n\n"
      "# SET: the characters after which its list goes on (\"lz4/zs\").\n"
      "_kvzbench_separators() {{\n  case $1 in\n{}  esac\n}}\n\n"
      "# COMMAND: its options.\n_kvzbench_options() {{\n  case $1 in\n{}  esac\n}}\n\n"
      "# COMMAND OPTION: what the option's value completes from: a value set, file or none;\n"
      "# nothing for a flag.\n_kvzbench_value() {{\n  case \"$1 $2\" in\n{}  esac\n}}\n\n"
      "# COMMAND: whether it takes file arguments.\n_kvzbench_takes_files() {{\n  case $1 in\n  {}) return 0 ;;\n"
      "  esac\n  return 1\n}}\n",
      words, seps, options, values, with_files.empty() ? "''" : with_files);
}

constexpr const char* kCompleter = R"sh(
# KIND WORD: COMPREPLY for an option's value.
_kvzbench_complete_value() {
  local kind=$1 cur=$2 seps last pre=""
  case $kind in
  none) COMPREPLY=() && return ;;
  file) _kvzbench_complete_files "$cur" && return ;;
  esac
  seps=$(_kvzbench_separators "$kind")
  last=$cur
  if [[ -n $seps ]]; then
    last=${cur##*["$seps"]}
    pre=${cur%"$last"}
  fi
  mapfile -t COMPREPLY < <(compgen -P "$pre" -W "$(_kvzbench_words "$kind")" -- "$last")
}

_kvzbench_complete_files() {
  compopt -o filenames 2>/dev/null # fails outside a completion (a test calling _kvzbench)
  mapfile -t COMPREPLY < <(compgen -f -- "$1")
}

_kvzbench() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" cmd=run kind words
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  # `--option=value`: readline makes '=' a word of its own.
  if [[ $cur == "=" ]]; then
    cur=""
  elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  fi
  if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then
    if [[ $cur == */* || $cur == .* || $cur == "~"* ]]; then
      _kvzbench_complete_files "$cur" # `kvzbench ./data.json` is `run` over a corpus
    else
      mapfile -t COMPREPLY < <(compgen -W "$_kvzbench_commands" -- "$cur")
    fi
    return 0
  fi
  # The first word is the command; an option or a corpus there means `run`.
  if ((COMP_CWORD > 1)) && [[ " $_kvzbench_commands " == *" ${COMP_WORDS[1]} "* ]]; then
    cmd=${COMP_WORDS[1]}
  fi
  kind=$(_kvzbench_value "$cmd" "$prev")
  if [[ -n $kind ]]; then
    _kvzbench_complete_value "$kind" "$cur"
  elif [[ $cur == -* ]]; then
    words=$(_kvzbench_options "$cmd")
    ((COMP_CWORD == 1)) && words+=" --version"
    mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
  elif _kvzbench_takes_files "$cmd"; then
    _kvzbench_complete_files "$cur"
  else
    COMPREPLY=()
  fi
  return 0
}

complete -F _kvzbench kvzbench
)sh";

}  // namespace

std::string bash_completion(const CliModel& m) {
  std::vector<std::string> commands;
  for (const auto& c : m.commands) commands.push_back(c.name);
  return "# bash completion for kvzbench, written by `kvzbench --completions bash` from the program's own\n"
         "# CLI (its subcommands, their options, the codec registry): do not edit.\n\n" +
         fmt::format("_kvzbench_commands={}\n\n", shell_word(joined(commands))) + tables(m) + kCompleter;
}

}  // namespace kvz
