// A store file's own blocks (judgement/file_baseline.h): the file's codec row is the baseline and
// every other row a switch from it, in the console, the Markdown and the HTML answer.
#include <gtest/gtest.h>

#include <sstream>

#include "judgement/file_baseline.h"
#include "report/console.h"
#include "report/html_data.h"
#include "report/writers.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

// The synthetic run's 4 KiB lz4 row as a file's codec: the file holds 100 bytes more than
// kvzbench's lz4 makes of its blocks.
RunResults run_with_a_file() {
  RunResults r = testing::make_run(11, 3);
  for (auto& c : r.cells) {
    if (c.key.block_size != 4096) continue;
    c.key.layout = "as-stored";
    if (c.key.codec == "lz4") {
      c.current = true;
      c.on_disk_bytes = c.stored_bytes + 100;
    }
  }
  return r;
}

TEST(FileBaseline, EveryOtherRowIsASwitchFromTheFilesCodec) {
  const RunResults r = run_with_a_file();
  const CellResult* lz4 = nullptr;
  for (const auto& c : r.cells)
    if (c.current) lz4 = &c;
  ASSERT_NE(lz4, nullptr);
  const auto b = file_baseline(r, *lz4);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->label, "lz4 1");
  EXPECT_EQ(b->predicted_delta, -100);
  EXPECT_EQ(baseline_text(*b).find("lz4 1: " + std::to_string(lz4->stored_bytes + 100) + " B on disk; measured here " +
                                   std::to_string(lz4->stored_bytes) + " B (-100 B, "),
            0u)
      << baseline_text(*b);
  EXPECT_EQ(baseline_text(*b).find("the whole file"), std::string::npos);  // no corpus entry: unknown
  RunResults with_file = r;
  with_file.meta.corpora.push_back({"synthetic", "/data/synthetic.sst", lz4->stored_bytes + 5000, "", ""});
  const auto whole = file_baseline(with_file, *lz4);
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->file_bytes, lz4->stored_bytes + 5000);
  EXPECT_NE(baseline_text(*whole).find("; the whole file " + std::to_string(lz4->stored_bytes + 5000) + " B"),
            std::string::npos);
  // memcpy is not a switch; the four other codecs are, the biggest saving first.
  ASSERT_EQ(b->switches.size(), 5u);
  for (size_t i = 1; i < b->switches.size(); ++i) EXPECT_GE(b->switches[i - 1].saving_pct, b->switches[i].saving_pct);
  EXPECT_EQ(b->switches.front().label, "xz 6");
  for (const auto& s : b->switches) {
    const double want = 100.0 * (1.0 - static_cast<double>(s.cell->stored_bytes) / static_cast<double>(b->on_disk));
    EXPECT_DOUBLE_EQ(s.saving_pct, want) << s.label;
    EXPECT_DOUBLE_EQ(s.decompress_time_x, lz4->decompress_median() / s.cell->decompress_median()) << s.label;
  }
  // The 64 KiB block set has no file codec: no baseline.
  for (const auto& c : r.cells) {
    if (c.key.block_size == 65536) {
      EXPECT_FALSE(file_baseline(r, c).has_value()) << c.key.id();
    }
  }
}

TEST(FileBaseline, ConsoleMarkdownAndHtmlSayIt) {
  const RunResults r = run_with_a_file();
  std::ostringstream console;
  print_console_table(console, r, "cspeed", false);
  const std::string text = console.str();
  EXPECT_NE(text.find("\nlz4 1 *"), std::string::npos) << text;
  EXPECT_NE(text.find("* the file's own codec, lz4 1: "), std::string::npos);
  EXPECT_NE(text.find("switching from lz4 1 (stored bytes, times against it):\n  xz 6: "), std::string::npos);
  const std::string md = markdown_summary(r, {});
  EXPECT_NE(md.find("### synthetic as stored: switching from its lz4 1"), std::string::npos) << md;
  EXPECT_NE(md.find("| lz4 1 (the file's) |"), std::string::npos);
  const auto answer = html_data({r}, {})["answer"];
  bool file_line = false, switch_line = false;
  for (const auto& g : answer["groups"]) {
    if (!g.contains("file")) continue;
    file_line = g["file"].get<std::string>().rfind("the file today: lz4 1: ", 0) == 0;
    for (const auto& p : g["by_store"]["any"])
      if (p.contains("switch"))
        switch_line |= p["switch"].get<std::string>().rfind("vs the file's lz4 1: ", 0) == 0 ||
                       p["switch"] == "the file's own codec: keep it";
  }
  EXPECT_TRUE(file_line);
  EXPECT_TRUE(switch_line);
}

}  // namespace
}  // namespace kvz
