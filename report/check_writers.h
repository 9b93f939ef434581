#pragma once
// `check`'s verdict for CI systems (check --junit, --markdown): JUnit XML, a test case per cell
// and check, for the test-report views of Jenkins, GitLab and the GitHub JUnit actions; and the
// verdict table in Markdown for a job summary such as $GITHUB_STEP_SUMMARY. Presentation only:
// both read judgement's CheckReport (judgement/check.h) and never judge.
#include <string>
#include <string_view>

#include "judgement/check.h"
#include "report/markup.h"  // markdown_escape
#include "results/results_fwd.h"

namespace kvz {

// What the outputs show beside the report: the options it was judged by, both runs (their
// metadata and the cells' medians for the figures; either may be null) and how long check took.
struct CheckContext {
  CheckOptions options;
  const RunResults* baseline = nullptr;
  const RunResults* current = nullptr;
  double seconds = 0;
};

// `text` made safe for XML 1.0: & < > " ' as entities; in an attribute (`attribute`) also tab,
// LF and CR as character references, so a parser keeps them; every character XML cannot hold
// (other control characters, bytes that are not UTF-8, U+FFFE, U+FFFF) becomes U+FFFD.
std::string xml_escape(std::string_view text, bool attribute = true);

// JUnit XML: one <testsuite>; per cell three test cases, classname = the cell id, name = `size`
// (the round trip and the sizes), `compress` and `decompress` (the speeds). A FAIL is a
// <failure> with the reason in its message and the figures in its text; what was not judged
// (NEW, MISSING, another shard, CPU or build differs, UNSTABLE, too few repetitions) is
// <skipped> with why as its text; a refusal of the whole gate (an interrupted run, nothing
// compared) is one more test case with an <error>. Validates against Jenkins' JUnit schema.
std::string check_junit(const CheckReport& rep, const CheckContext& ctx);
// Markdown: the verdict as the first line, the runs, the non-passing cells in a table (FAIL
// first, at most 100 rows), then the count per status.
std::string check_markdown(const CheckReport& rep, const CheckContext& ctx);

// Written whole or not at all (write_text_file).
bool write_check_junit(const std::string& path, const CheckReport& rep, const CheckContext& ctx, std::string& error);
// Appended to what a regular file at `path` holds (a step summary file collects every step's
// Markdown: GitHub's convention), after a blank line; the whole is then written to a temporary
// file and renamed over `path`, so the file holds either the old text or the old plus the new.
bool append_check_markdown(const std::string& path, const CheckReport& rep, const CheckContext& ctx,
                           std::string& error);

}  // namespace kvz
