// kvzbench(1) in roff, from the model of the CLI (commands/cli_export.h).
#include <fmt/format.h>

#include "commands/cli_export.h"
#include "commands/environment.h"

namespace kvz {

namespace {

// Text safe in roff: backslashes escaped, '-' a minus (so options copy as typed), one line that
// does not start with a control character.
std::string roff(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

std::string synopsis(const CliCommand& c) {
  std::string s = fmt::format("\\fBkvzbench {}\\fR [\\fIOPTIONS\\fR]", c.name);
  for (const auto& o : c.options) {
    if (!o.positional) continue;
    const std::string name = "\\fI" + roff(o.names.front()) + "\\fR" + (o.repeatable ? "..." : "");
    s += o.required ? " " + name : " [" + name + "]";
  }
  return s;
}

// One .TP entry: "-c, -e, --codecs TEXT" over its help and default.
std::string option_entry(const CliOption& o) {
  std::string names;
  for (const auto& n : o.names) {
    if (!names.empty()) names += ", ";
    names += (o.positional ? "\\fI" : "\\fB") + roff(n) + "\\fR";
  }
  if (!o.positional && !o.value.empty()) names += " \\fI" + roff(o.value) + "\\fR";
  std::string help = roff(o.help);
  if (!o.default_value.empty()) help += " (default: " + roff(o.default_value) + ")";
  if (o.required && !o.positional) help += " (required)";
  return ".TP\n" + names + "\n" + help + "\n";
}

std::string commands_section(const CliModel& m) {
  std::string s = ".SH COMMANDS\n";
  for (const auto& c : m.commands) s += fmt::format(".TP\n.B {}\n{}\n", c.name, roff(c.summary));
  for (const auto& c : m.commands) {
    s += fmt::format(".SS \"kvzbench {}\"\n{}\n.PP\n{}\n", c.name, synopsis(c), roff(c.description));
    for (const auto& o : c.options) s += option_entry(o);
  }
  return s;
}

std::string codecs_section(const CliModel& m) {
  std::string s =
      ".SH CODECS\n"
      "The codecs this build has (\\fBkvzbench list\\fR prints them with their runtime versions). A codec spec "
      "names them with levels and options, e.g. \\fBlz4/zstd:1,3/snappy\\fR or \\fBzstd:3:dict=16K\\fR; "
      "\\fBall\\fR, \\fBfast\\fR and \\fBratio\\fR are aliases.\n";
  for (const auto& c : m.codecs) {
    std::string what = roff(c.library);
    if (!c.levels.empty()) what += "; " + roff(c.levels);
    if (c.dictionary) what += "; dictionaries";
    s += fmt::format(".TP\n.B {}\n{}\n", roff(c.name), what);
  }
  return s;
}

// The variables kvzbench reads, then those of the Slurm launchers it installs (commands/environment.h).
std::string environment_section() {
  std::string s = ".SH ENVIRONMENT\n";
  for (const auto& v : program_environment()) s += fmt::format(".TP\n.B {}\n{}\n", roff(v.name), roff(v.meaning));
  s += ".PP\nThe Slurm launchers in share/kvzbench/deploy/slurm (\\fBsubmit\\-sweep.sh\\fR, "
       "\\fBsubmit\\-survey.sh\\fR and their batch scripts) read:\n";
  for (const auto& v : launcher_environment()) s += fmt::format(".TP\n.B {}\n{}\n", roff(v.name), roff(v.meaning));
  return s;
}

constexpr const char* kClosing = R"roff(.SH EXIT STATUS
.TP
.B 0
success (\fBcheck\fR: the run passes)
.TP
.B 1
a round trip failed, an output could not be written, nothing was measured, or \fBcheck\fR found a regression
.TP
.B 2
a usage error or unusable input
.TP
.B 128+N
\fBrun\fR stopped by signal N; the finished cells are kept
.SH FILES
.TP
.B share/kvzbench/deploy
under the install prefix: the Slurm launchers, the Kubernetes Jobs and their volume claim, the container file and the CI examples (README.md "Beyond one machine")
.SH SEE ALSO
README.md and the stage READMEs in kvzbench's documentation directory (share/doc/kvzbench under the install prefix).
)roff";

}  // namespace

std::string man_page(const CliModel& m) {
  std::string s = ".\\\" kvzbench(1), written by `kvzbench --man` from the program's own CLI: do not edit.\n";
  s += fmt::format(".TH KVZBENCH 1 \"\" \"kvzbench {}\" \"User Commands\"\n", roff(m.version));
  s += ".SH NAME\nkvzbench \\- a codec microbenchmark for the blocks key\\-value stores compress\n";
  s += ".SH SYNOPSIS\n\\fBkvzbench\\fR [\\fICOMMAND\\fR] [\\fIOPTIONS\\fR] [\\fICORPUS\\fR...]\n";
  s += ".SH DESCRIPTION\n"
       "kvzbench builds the blocks key\\-value stores compress (RocksDB and LevelDB data blocks, HBase cells, "
       "Cassandra chunks, value records) from corpora, store files or built\\-in datasets, runs every selected "
       "codec and level over them, verifies every round trip byte for byte, and reports ratio, speeds and "
       "per\\-call latency. A bare \\fBkvzbench\\fR, or one whose first argument is an option or a corpus, is "
       "\\fBkvzbench run\\fR. \\fBkvzbench COMMAND \\-\\-help\\fR prints a command's options; "
       "\\fBkvzbench \\-\\-version\\fR the version.\n";
  s += commands_section(m);
  s += codecs_section(m);
  s += environment_section();
  s += kClosing;
  return s;
}

}  // namespace kvz
