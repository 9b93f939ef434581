// check --junit and --markdown (report/check_writers.h): escaping, the counts, one failure for a
// doctored regression, skipped cases with why, and the Markdown appended to a step summary.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "report/check_writers.h"
#include "tests/results/fixture.h"
#include "tests/util/temp_dir.h"

namespace kvz {
namespace {

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

size_t codec_cells(const RunResults& r) {
  size_t n = 0;
  for (const auto& c : r.cells) n += !c.reference;
  return n;
}

// check's report and both outputs for a baseline and a current run.
struct Outputs {
  CheckReport rep;
  std::string junit, markdown;
};

Outputs outputs(const RunResults& base, const RunResults& cur, const CheckOptions& opt = {}) {
  Outputs o{check_cells(base, cur, opt), "", ""};
  const CheckContext ctx{opt, &base, &cur, 0.25};
  o.junit = check_junit(o.rep, ctx);
  o.markdown = check_markdown(o.rep, ctx);
  return o;
}

std::string suite_counts(size_t tests, size_t failures, size_t errors, size_t skipped) {
  return "<testsuite name=\"kvzbench check\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
         std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" +
         std::to_string(skipped) + "\" time=\"0.250\"";
}

}  // namespace

TEST(CheckWriters, XmlEscapesMarkupControlsAndBadUtf8) {
  EXPECT_EQ(xml_escape(R"(a<b>&"c'd)"), "a&lt;b&gt;&amp;&quot;c&apos;d");
  EXPECT_EQ(xml_escape("tab\there\nline\r"), "tab&#9;here&#10;line&#13;");
  EXPECT_EQ(xml_escape("tab\there\nline", false), "tab\there\nline");
  // Characters XML 1.0 cannot hold become U+FFFD: NUL, ESC, a stray byte, an overlong '/', a
  // surrogate, a truncated sequence, U+FFFE.
  EXPECT_EQ(xml_escape(std::string("a\0b", 3)),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(xml_escape("\x1b[0m"), "\xEF\xBF\xBD[0m");
  EXPECT_EQ(xml_escape("x\xffy"), "x\xEF\xBF\xBDy");
  EXPECT_EQ(xml_escape("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(xml_escape("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(xml_escape("end\xE2\x82"), "end\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(xml_escape("\xEF\xBF\xBE"), "\xEF\xBF\xBD");
  // Valid UTF-8 stays as it is: é, €, an emoji.
  EXPECT_EQ(xml_escape("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST(CheckWriters, MarkdownEscapesTableCells) {
  EXPECT_EQ(markdown_escape("a|b`c*d_e"), "a\\|b\\`c\\*d\\_e");
  EXPECT_EQ(markdown_escape("<img src=x>&$1"), "&lt;img src=x&gt;&amp;\\$1");
  EXPECT_EQ(markdown_escape("two\nlines"), "two\\\\nlines");  // one_line's "\n", its backslash escaped
}

TEST(CheckWriters, SelfCheckIsAllPassing) {
  const RunResults r = testing::make_run(50);
  const Outputs o = outputs(r, r);
  ASSERT_EQ(o.rep.exit_code, 0);
  EXPECT_NE(o.junit.find(suite_counts(3 * r.cells.size(), 0, 0, 0)), std::string::npos) << o.junit;
  EXPECT_EQ(occurrences(o.junit, "<testcase "), 3 * r.cells.size());
  EXPECT_EQ(occurrences(o.junit, "<failure"), 0u);
  EXPECT_EQ(o.junit.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 0), 0u);
  EXPECT_NE(o.junit.find(R"(<property name="verdict" value="PASS"/>)"), std::string::npos);
  EXPECT_EQ(o.markdown.rfind("### kvzbench check: PASS (0 of 14 cells failed)\n", 0), 0u) << o.markdown;
  EXPECT_NE(o.markdown.find("Every cell passed."), std::string::npos);
  EXPECT_NE(o.markdown.find("**14 cells:** 14 PASS, 0 FAIL, 0 UNSTABLE, 0 SKIPPED, 0 NEW, 0 MISSING"),
            std::string::npos);
}

// A baseline 1 % smaller in one cell: exactly one failure, the size case of that cell, with the
// reason and both runs' bytes.
TEST(CheckWriters, DoctoredSizeRegressionIsOneFailure) {
  const RunResults cur = testing::make_run(51);
  RunResults base = cur;
  CellResult& c = base.cells[3];
  c.compressed_bytes = static_cast<uint64_t>(static_cast<double>(c.compressed_bytes) * 0.99);
  const Outputs o = outputs(base, cur);
  ASSERT_EQ(o.rep.exit_code, 1);
  EXPECT_NE(o.junit.find(suite_counts(3 * cur.cells.size(), 1, 0, 0)), std::string::npos);
  ASSERT_EQ(occurrences(o.junit, "<failure "), 1u);
  const size_t at = o.junit.find("<failure ");
  const size_t testcase = o.junit.rfind("<testcase ", at);
  EXPECT_EQ(o.junit.substr(testcase, at - testcase).find(R"(classname=")" + c.key.id() + R"(" name="size")"), 10u);
  const std::string failure = o.junit.substr(at, o.junit.find("</failure>", at) - at);
  EXPECT_NE(failure.find(R"(type="size")"), std::string::npos);
  EXPECT_NE(failure.find("same library version: must be equal"), std::string::npos);
  EXPECT_NE(failure.find(fmt::format("compressed bytes: baseline {}, current {}", c.compressed_bytes,
                                     cur.cells[3].compressed_bytes)),
            std::string::npos)
      << failure;
  // The Markdown: the verdict first, the failing row in the table, before the counts.
  EXPECT_EQ(o.markdown.rfind("### kvzbench check: FAIL (1 of 14 cells failed)\n", 0), 0u) << o.markdown;
  const size_t row = o.markdown.find("| FAIL | " + c.key.id() + " | +1.010 % |");
  ASSERT_NE(row, std::string::npos) << o.markdown;
  EXPECT_LT(row, o.markdown.find("**14 cells:** 13 PASS, 1 FAIL"));
  EXPECT_EQ(occurrences(o.markdown, "| FAIL |"), 1u);
}

// Every codec 30 % slower than the baseline: both directions of every codec cell fail, each
// with the change, the p-value and the raw medians; memcpy (the reference) passes.
TEST(CheckWriters, SpeedRegressionCarriesTheFigures) {
  const RunResults cur = testing::make_run(52);
  const Outputs o = outputs(testing::scaled(cur, 1.3), cur);
  const size_t n = codec_cells(cur);
  EXPECT_NE(o.junit.find(suite_counts(3 * cur.cells.size(), 2 * n, 0, 0)), std::string::npos);
  EXPECT_EQ(occurrences(o.junit, R"(type="speed")"), 2 * n);
  EXPECT_EQ(occurrences(o.junit, R"(message="23.1 % slower than the baseline (threshold 10.0 %), Mann-Whitney p = )"),
            2 * n);
  EXPECT_EQ(occurrences(o.junit, "median MB/s (CPU time, not normalised): baseline "), 2 * n);
  EXPECT_EQ(occurrences(o.junit, "repetitions: baseline 9, current 9"), 2 * n);
  EXPECT_NE(o.markdown.find("FAIL -23.1 % p="), std::string::npos);
}

// What was not judged is skipped, with why: another CPU, too few repetitions (UNSTABLE).
TEST(CheckWriters, SkippedSaysWhy) {
  const RunResults cur = testing::make_run(53);
  RunResults other = cur;
  other.meta.cpu_model = "Another CPU";
  const Outputs cpu = outputs(other, cur);
  EXPECT_EQ(cpu.rep.exit_code, 0);
  const size_t n = codec_cells(cur);
  EXPECT_NE(cpu.junit.find(suite_counts(3 * cur.cells.size(), 0, 0, 2 * n)), std::string::npos);
  EXPECT_EQ(occurrences(cpu.junit, "<skipped>SKIPPED: CPU differs</skipped>"), 2 * n);
  EXPECT_NE(cpu.markdown.find("Speeds: SKIPPED, the CPU model differs"), std::string::npos);

  const RunResults few = testing::make_run(54, 3);
  const Outputs unstable = outputs(testing::scaled(few, 1.3), few);
  EXPECT_EQ(unstable.rep.exit_code, 0);
  EXPECT_EQ(occurrences(unstable.junit, "<failure"), 0u);
  EXPECT_EQ(occurrences(unstable.junit, "<skipped>UNSTABLE: change -23.1 %, p = "), 2 * n);
  EXPECT_NE(unstable.junit.find("3 vs 3 repetitions (&lt; 9): cannot FAIL</skipped>"), std::string::npos);
}

// A failed round trip fails its size case; NEW and MISSING cells are skipped, MISSING fails
// with --fail-missing; an interrupted run is an error case of its own.
TEST(CheckWriters, RoundTripNewMissingAndRefusal) {
  const RunResults base = testing::make_run(55);
  RunResults cur = base;
  cur.cells[2].status = CellStatus::Failed;
  cur.cells[2].failure = "round trip mismatch at block 3";
  cur.cells.pop_back();  // MISSING
  cur.cells.push_back(cur.cells[1]);
  cur.cells.back().key.level = 9;  // NEW
  cur.cells.back().key.params = "9";
  CheckOptions strict;
  strict.fail_on_missing = true;
  const Outputs o = outputs(base, cur, strict);
  EXPECT_EQ(occurrences(o.junit, "<failure "), 2u);
  EXPECT_NE(o.junit.find(R"(message="round trip failed: round trip mismatch at block 3" type="round-trip")"),
            std::string::npos);
  EXPECT_NE(o.junit.find(R"(type="missing")"), std::string::npos);
  EXPECT_NE(o.junit.find("<skipped>NEW: not in the baseline</skipped>"), std::string::npos);
  EXPECT_LT(o.markdown.find("| FAIL |"), o.markdown.find("| MISSING |"));
  EXPECT_LT(o.markdown.find("| MISSING |"), o.markdown.find("| NEW |"));

  RunResults interrupted = base;
  interrupted.meta.interrupted = true;
  const Outputs r = outputs(base, interrupted);
  EXPECT_NE(r.junit.find(suite_counts(3 * base.cells.size() + 1, 0, 1, 0)), std::string::npos);
  EXPECT_NE(r.junit.find(R"(<testcase classname="kvzbench check" name="gate">)"), std::string::npos);
  EXPECT_NE(r.junit.find(R"(<error message="the current run was interrupted: its results are incomplete")"),
            std::string::npos);
  EXPECT_EQ(r.markdown.rfind("### kvzbench check: FAIL (the current run was interrupted", 0), 0u);
}

// Cell ids come from file names: whatever they hold, the XML stays well-formed and a Markdown row
// stays one row of six cells.
TEST(CheckWriters, CellIdsFromFileNamesAreEscaped) {
  RunResults base = testing::make_run(56);
  for (auto& c : base.cells) c.key.source = "a<b>&\"'|`x\n\xff.json";
  RunResults cur = base;
  cur.cells[1].compressed_bytes += 1;
  const Outputs o = outputs(base, cur);
  EXPECT_EQ(o.junit.find("<b>"), std::string::npos);
  EXPECT_EQ(o.junit.find('\xff'), std::string::npos);
  EXPECT_NE(o.junit.find(R"(classname="a&lt;b&gt;&amp;&quot;&apos;|`x&#10;)"
                         "\xEF\xBF\xBD"
                         ".json/"),
            std::string::npos);
  const size_t row = o.markdown.find("| FAIL | ");
  ASSERT_NE(row, std::string::npos);
  const std::string line = o.markdown.substr(row, o.markdown.find('\n', row) - row);
  EXPECT_NE(line.find(R"(a&lt;b&gt;&amp;"'\|\`x\\n)"
                      "\xff.json"),
            std::string::npos)
      << line;
  EXPECT_EQ(occurrences(line, "|") - occurrences(line, "\\|"), 7u) << line;  // six cells
}

// The JUnit file is written whole; the Markdown is appended, as to a GitHub step summary.
TEST(CheckWriters, JunitWrittenMarkdownAppended) {
  const RunResults r = testing::make_run(57);
  const CheckReport rep = check_cells(r, r, {});
  const CheckContext ctx{{}, &r, &r, 0};
  const std::string dir = ::testing::TempDir();
  std::string err;
  ASSERT_TRUE(write_check_junit(dir + "/kvz_check.xml", rep, ctx, err)) << err;
  EXPECT_EQ(testing::file_text(dir + "/kvz_check.xml"), check_junit(rep, ctx));
  const std::string md = dir + "/kvz_summary.md";
  std::ofstream(md, std::ios::trunc) << "earlier step";
  ASSERT_TRUE(append_check_markdown(md, rep, ctx, err)) << err;
  ASSERT_TRUE(append_check_markdown(md, rep, ctx, err)) << err;
  const std::string text = testing::file_text(md);
  EXPECT_EQ(text.rfind("earlier step\n\n### kvzbench check: PASS", 0), 0u) << text;
  EXPECT_EQ(occurrences(text, "### kvzbench check: PASS"), 2u);
  EXPECT_NE(text.find("0 MISSING\n\n### kvzbench check: PASS"), std::string::npos);
  // A new file is created.
  std::remove((dir + "/kvz_new.md").c_str());
  ASSERT_TRUE(append_check_markdown(dir + "/kvz_new.md", rep, ctx, err)) << err;
  EXPECT_EQ(testing::file_text(dir + "/kvz_new.md"), check_markdown(rep, ctx));
}

}  // namespace kvz
