// `check --junit`: check's verdict as JUnit XML, a test case per cell and check (size, compress,
// decompress); see report/check_writers.h for what each case says.
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/check_writers.h"
#include "report/markup.h"
#include "report/writers.h"
#include "results/results.h"
#include "util/stats.h"
#include "util/text.h"

namespace kvz {

namespace {

// The code point at s[i] and its length in bytes; 0 when s[i] starts no valid UTF-8 sequence
// (a stray continuation byte, a truncated or overlong sequence, a surrogate, beyond U+10FFFF).
size_t decode_utf8(std::string_view s, size_t i, uint32_t& cp) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char lead = byte(0);
  size_t len = 0;
  uint32_t least = 0;
  if (lead < 0x80) {
    cp = lead;
    return 1;
  }
  if ((lead & 0xE0) == 0xC0) {
    len = 2, cp = lead & 0x1Fu, least = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    len = 3, cp = lead & 0x0Fu, least = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    len = 4, cp = lead & 0x07u, least = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(k) & 0x3Fu);
  }
  if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// XML 1.0's Char production.
bool xml_char(uint32_t cp) {
  return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
         (cp >= 0x10000 && cp <= 0x10FFFF);
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

}  // namespace

std::string xml_escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    const size_t len = decode_utf8(text, i, cp);
    if (len == 0 || !xml_char(cp)) {
      out += kReplacement;
      i += len ? len : 1;
      continue;
    }
    if (const char* entity = cp < 0x80 ? markup_entity(static_cast<char>(cp)) : nullptr) {
      out += entity;
      i += len;
      continue;
    }
    switch (cp) {
      case '\'':
        out += "&apos;";
        break;
      case '\r':
        out += "&#13;";
        break;  // a parser would turn a literal CR into LF
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      default:
        out.append(text.substr(i, len));
    }
    i += len;
  }
  return out;
}

namespace {

enum class Outcome { Pass, Failure, Skipped, Error };

struct JunitCase {
  std::string classname, name;
  Outcome outcome = Outcome::Pass;
  std::string type;     // <failure type=...>: size, round-trip, speed, missing
  std::string message;  // one line: the reason
  std::string detail;   // the figures, a line each
};

JunitCase make_case(std::string classname, std::string name, Outcome outcome = Outcome::Pass,
                    std::string message = "") {
  JunitCase k;
  k.classname = std::move(classname);
  k.name = std::move(name);
  k.outcome = outcome;
  k.message = std::move(message);
  return k;
}

// Both runs' cells by id, for the figures behind a verdict.
struct RunCells {
  std::unordered_map<std::string, const CellResult*> baseline, current;
};

RunCells index_runs(const CheckContext& ctx) {
  RunCells r;
  if (ctx.baseline)
    for (const auto& c : ctx.baseline->cells) r.baseline.emplace(c.key.id(), &c);
  if (ctx.current)
    for (const auto& c : ctx.current->cells) r.current.emplace(c.key.id(), &c);
  return r;
}

const CellResult* find(const std::unordered_map<std::string, const CellResult*>& cells, const std::string& id) {
  const auto it = cells.find(id);
  return it == cells.end() ? nullptr : it->second;
}

// The size case: the round trip, the input, the compressed and stored bytes.
JunitCase size_case(const CellCheck& cc, const RunCells& runs) {
  JunitCase k = make_case(cc.id, "size");
  if (cc.size_status != CheckStatus::Fail) return k;
  k.outcome = Outcome::Failure;
  k.type = "size";
  k.message = fmt::format("size {}: {}", cc.size_note, cc.note);
  const CellResult* b = find(runs.baseline, cc.id);
  const CellResult* c = find(runs.current, cc.id);
  if (b && c)
    k.detail = fmt::format(
        "input bytes:      baseline {}, current {}\ncompressed bytes: baseline {}, current {} ({:+.3f} %)\n"
        "stored bytes:     baseline {}, current {}\n",
        b->input_bytes, c->input_bytes, b->compressed_bytes, c->compressed_bytes, (cc.size_ratio - 1) * 100,
        b->stored_bytes, c->stored_bytes);
  return k;
}

// The median change in %, negative when slower (never "-0.0").
double change_pct(const SpeedVerdict& v) { return -v.slowdown * 100 + 0.0; }

// The figures behind a speed verdict: the change the gate judged, the U test, the raw medians
// of both runs, the thresholds and the run-to-run noise.
std::string speed_detail(const CellCheck& cc, bool compress, const CheckReport& rep, const CheckContext& ctx,
                         const RunCells& runs) {
  const SpeedVerdict& v = compress ? cc.compress : cc.decompress;
  const CheckOptions& o = ctx.options;
  std::string d = fmt::format(
      "change: {:+.2f} % (median, normalised to the run's memcpy speed; negative is slower)\n"
      "Mann-Whitney U, one-sided (current slower): p = {:.3g}\n"
      "FAIL needs: slower by > {:.1f} % and p < {} with >= {} repetitions in both runs\n",
      change_pct(v), v.p, o.slowdown_threshold * 100, o.p_value, o.min_repetitions);
  const CellResult* b = find(runs.baseline, cc.id);
  const CellResult* c = find(runs.current, cc.id);
  if (b && c) {
    const bool cpu = v.cpu_time;  // the speeds the gate judged
    const double bm = median(cell_speeds(*b, compress, cpu)), cm = median(cell_speeds(*c, compress, cpu));
    d += fmt::format("median MB/s ({}, not normalised): baseline {:.1f}, current {:.1f} ({:+.2f} %)\n",
                     cpu ? "CPU time" : "wall time", bm, cm, bm > 0 ? (cm / bm - 1) * 100 : 0.0);
    d += fmt::format("repetitions: baseline {}, current {}\n", cell_speeds(*b, compress, cpu).size(),
                     cell_speeds(*c, compress, cpu).size());
  }
  const double noise = compress ? rep.compress_noise : rep.decompress_noise;
  if (noise > 0)
    d += fmt::format("run-to-run noise: +-{:.2f} % (a FAIL must clear the threshold by twice it)\n", noise * 100);
  if (!v.note.empty()) d += "note: " + v.note + "\n";
  return d;
}

// A direction's case: FAIL is a failure with the figures; UNSTABLE and SKIPPED are skipped with why.
JunitCase speed_case(const CellCheck& cc, bool compress, const CheckReport& rep, const CheckContext& ctx,
                     const RunCells& runs) {
  const SpeedVerdict& v = compress ? cc.compress : cc.decompress;
  JunitCase k = make_case(cc.id, compress ? "compress" : "decompress");
  const double threshold = ctx.options.slowdown_threshold * 100;
  const std::string note = v.note.empty() ? "" : ": " + v.note;
  switch (v.status) {
    case CheckStatus::Fail:
      k.outcome = Outcome::Failure;
      k.type = "speed";
      k.message =
          fmt::format("{:.1f} % slower than the baseline (threshold {:.1f} %), Mann-Whitney p = {:.3g} (< {}){}",
                      v.slowdown * 100, threshold, v.p, ctx.options.p_value, note);
      k.detail = speed_detail(cc, compress, rep, ctx, runs);
      break;
    case CheckStatus::Unstable:
      k.outcome = Outcome::Skipped;
      k.message = fmt::format(
          "UNSTABLE: change {:+.1f} %, p = {:.3g}; the spread reaches past the {:.1f} % threshold, no clear FAIL{}",
          change_pct(v), v.p, threshold, note);
      break;
    case CheckStatus::Skipped:
      k.outcome = Outcome::Skipped;
      k.message = "SKIPPED: " + (v.note.empty() ? std::string("not compared") : v.note);
      break;
    default:
      break;  // PASS (the memcpy row's is "reference")
  }
  return k;
}

// A cell whose checks did not run: NEW, MISSING, in another shard, or its round trip failed.
void unjudged_cases(const CellCheck& cc, const CheckOptions& opt, std::vector<JunitCase>& out) {
  const bool round_trip = cc.status == CheckStatus::Fail;
  const bool missing_fails = cc.status == CheckStatus::Missing && opt.fail_on_missing;
  JunitCase size = make_case(cc.id, "size", Outcome::Skipped, std::string(to_string(cc.status)) + ": " + cc.note);
  if (round_trip || missing_fails) {
    size.outcome = Outcome::Failure;
    size.type = round_trip ? "round-trip" : "missing";
    size.message = round_trip ? cc.note : cc.note + " (--fail-missing)";
  }
  out.push_back(size);
  const std::string why = round_trip ? "round trip failed: no speeds to compare" : size.message;
  for (const char* dir : {"compress", "decompress"}) out.push_back(make_case(cc.id, dir, Outcome::Skipped, why));
}

std::vector<JunitCase> cases_of(const CheckReport& rep, const CheckContext& ctx) {
  const RunCells runs = index_runs(ctx);
  std::vector<JunitCase> cases;
  cases.reserve(rep.cells.size() * 3 + 1);
  for (const auto& cc : rep.cells) {
    if (cc.size_note.empty()) {  // sizes not compared: nothing was
      unjudged_cases(cc, ctx.options, cases);
      continue;
    }
    cases.push_back(size_case(cc, runs));
    for (const bool compress : {true, false}) cases.push_back(speed_case(cc, compress, rep, ctx, runs));
  }
  if (!rep.refusal.empty()) {
    cases.push_back(make_case("kvzbench check", "gate", Outcome::Error, rep.refusal));
    cases.back().type = "refusal";
    cases.back().detail = "The gate cannot pass whatever the cells say.\n";
  }
  return cases;
}

std::string testcase_xml(const JunitCase& k) {
  std::string o = fmt::format(R"(    <testcase classname="{}" name="{}")", xml_escape(k.classname), xml_escape(k.name));
  if (k.outcome == Outcome::Pass) return o + "/>\n";
  o += ">\n";
  switch (k.outcome) {
    case Outcome::Skipped:  // Jenkins' schema: <skipped> holds text and no attribute
      o += "      <skipped>" + xml_escape(k.message, false) + "</skipped>\n";
      break;
    case Outcome::Failure:
    case Outcome::Error: {
      const char* tag = k.outcome == Outcome::Failure ? "failure" : "error";
      o += fmt::format(R"(      <{} message="{}" type="{}">)", tag, xml_escape(k.message), xml_escape(k.type));
      o += xml_escape(k.message + "\n" + k.detail, false) + fmt::format("</{}>\n", tag);
      break;
    }
    case Outcome::Pass:
      break;
  }
  return o + "    </testcase>\n";
}

void add_property(std::string& o, std::string_view name, std::string_view value) {
  o += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", xml_escape(name), xml_escape(value));
}

// The runs compared and how: paths, revisions, CPUs, the speed gate, library changes, the verdict.
std::string properties_xml(const CheckReport& rep, const CheckContext& ctx) {
  std::string o = "    <properties>\n";
  add_property(o, "verdict", rep.exit_code == 0 ? "PASS" : "FAIL");
  add_property(o, "exit_code", std::to_string(rep.exit_code));
  if (!rep.refusal.empty()) add_property(o, "refusal", rep.refusal);
  const CheckOptions& opt = ctx.options;
  add_property(o, "baseline", opt.baseline_path);
  add_property(o, "current", opt.current_path);
  for (const auto& [name, run] : {std::pair{"baseline", ctx.baseline}, std::pair{"current", ctx.current}}) {
    if (!run) continue;
    add_property(o, std::string(name) + ".revision", run->meta.git_revision);
    add_property(o, std::string(name) + ".cpu", run->meta.cpu_model);
    add_property(o, std::string(name) + ".started_at", run->meta.started_at);
  }
  add_property(o, "speed_gate",
               !opt.speed_gate    ? "off (--no-speed)"
               : !rep.cpu_match   ? "skipped: the CPU model differs from the baseline's"
               : !rep.build_match ? "skipped: the build differs from the baseline's"
                                  : fmt::format("slower by > {:.1f} % and p < {} (>= {} repetitions)",
                                                opt.slowdown_threshold * 100, opt.p_value, opt.min_repetitions));
  if (!rep.version_changes.empty()) add_property(o, "codec_version_changes", join(rep.version_changes, "; "));
  return o + "    </properties>\n";
}

}  // namespace

std::string check_junit(const CheckReport& rep, const CheckContext& ctx) {
  const std::vector<JunitCase> cases = cases_of(rep, ctx);
  size_t failures = 0, errors = 0, skipped = 0;
  for (const auto& k : cases) {
    failures += k.outcome == Outcome::Failure;
    errors += k.outcome == Outcome::Error;
    skipped += k.outcome == Outcome::Skipped;
  }
  const std::string counts = fmt::format(R"(tests="{}" failures="{}" errors="{}")", cases.size(), failures, errors);
  std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += fmt::format("<testsuites name=\"kvzbench check\" {} time=\"{:.3f}\">\n", counts, ctx.seconds);
  o += fmt::format("  <testsuite name=\"kvzbench check\" {} skipped=\"{}\" time=\"{:.3f}\"", counts, skipped,
                   ctx.seconds);
  if (ctx.current && !ctx.current->meta.started_at.empty())
    o += " timestamp=\"" + xml_escape(ctx.current->meta.started_at) + "\"";
  if (ctx.current && !ctx.current->meta.hostname.empty())
    o += " hostname=\"" + xml_escape(ctx.current->meta.hostname) + "\"";
  o += ">\n" + properties_xml(rep, ctx);
  for (const auto& k : cases) o += testcase_xml(k);
  return o + "  </testsuite>\n</testsuites>\n";
}

bool write_check_junit(const std::string& path, const CheckReport& rep, const CheckContext& ctx, std::string& error) {
  return write_text_file(path, check_junit(rep, ctx), error);
}

}  // namespace kvz
