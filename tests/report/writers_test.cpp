#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "report/console.h"
#include "report/html_assets.h"
#include "report/html_data.h"
#include "report/writers.h"
#include "tests/results/fixture.h"

namespace kvz {

namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

const Recommendation& pick(const GroupRecommendations& g, const std::string& workload) {
  for (const auto& p : g.picks)
    if (p.workload == workload) return p;
  throw std::runtime_error("no pick " + workload);
}

// Every line of `text` in at most 100 code points: the console's width.
void expect_within_100_columns(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    size_t columns = 0;
    for (char ch : line) columns += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
    EXPECT_LE(columns, 100u) << line;
  }
}

}  // namespace

TEST(Csv, OneRowPerCellWithStableColumns) {
  RunResults r = testing::make_run(40, 3);
  r.cells[1].status = CellStatus::Failed;
  r.cells[1].failure = "round trip mismatch, at block 2";
  const std::string p = ::testing::TempDir() + "/kvz_w.csv";
  std::string err;
  ASSERT_TRUE(write_csv(p, r, err)) << err;
  std::istringstream in(read_text(p));
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("id,source,record_mode,layout,block_size,codec,level,params,", 0), 0u);
  // The whole header, as report/README.md documents it: columns are appended, never reordered.
  EXPECT_EQ(header,
            "id,source,record_mode,layout,block_size,codec,level,params,dict_size,cache,threads,profile,status,failure,"
            "blocks,input_bytes,compressed_bytes,stored_bytes,blocks_kept_raw,min_saving,ratio,stored_ratio,saving_pct,"
            "repetitions,compress_mbps_median,compress_mbps_min,compress_mbps_max,decompress_mbps_median,"
            "decompress_mbps_min,decompress_mbps_max,compress_cpu_mbps_median,decompress_cpu_mbps_median,"
            "compress_rel_memcpy,decompress_rel_memcpy,"
            "compress_p50_ns,compress_p90_ns,compress_p99_ns,compress_p999_ns,compress_max_ns,compress_stalls,"
            "decompress_p50_ns,decompress_p90_ns,decompress_p99_ns,decompress_p999_ns,decompress_max_ns,"
            "decompress_stalls,context_memory,dict_bytes,dict_train_seconds,dict_gain,wall_seconds,cpu_seconds,"
            "compress_calls,decompress_calls,compress_calls_per_block,decompress_calls_per_block,"
            "compress_median_block_ns,compress_worst_block_ns,compress_worst_block,decompress_median_block_ns,"
            "decompress_worst_block_ns,decompress_worst_block,compress_stall_blocks,decompress_stall_blocks,"
            "compress_preempted_stalls,decompress_preempted_stalls,compress_context_bytes,decompress_context_bytes,"
            "dict_method,dict_block_bytes,file_codec,file_bytes,store_file_bytes");
  const auto ncols = std::count(header.begin(), header.end(), ',');
  size_t rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    if (line.find("FAILED") != std::string::npos) {
      EXPECT_NE(line.find("\"round trip mismatch, at block 2\""), std::string::npos);
      continue;  // a quoted comma
    }
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), ncols) << line;
  }
  EXPECT_EQ(rows, r.cells.size());
}

TEST(Recommend, RulesPickFromMeasuredFigures) {
  const RunResults r = testing::make_run(41, 9, 0.0);  // no noise: the fixture's figures exactly
  const auto groups = recommend(r, {});
  ASSERT_EQ(groups.size(), 2u);  // 4K and 64K
  const auto& g = groups[0];
  EXPECT_EQ(g.group, "rocksdb 4K stream T1");
  // Each workload is a cost (judgement/workload_rules.h): write-heavy's cores at 100 MB/s make
  // xz 6 (4 MB/s) dear and zstd 1 the cheapest; read-heavy's 500 MB/s of reads, lz4 1.
  EXPECT_EQ(pick(g, "write-heavy").choice->label, "zstd 1");
  EXPECT_EQ(pick(g, "read-heavy").choice->label, "lz4 1");
  // Decompress >= 500 MB/s: lz4, snappy, zstd 1, zstd 3 -> the bytes decide: zstd 3.
  EXPECT_EQ(pick(g, "space-sensitive").choice->label, "zstd 3");
  for (const auto& p : g.picks) EXPECT_NE(p.workload, "hot data");  // it was read-heavy under another name
  EXPECT_EQ(pick(g, "cold data").choice->label, "xz 6");
  EXPECT_NE(pick(g, "space-sensitive").why.find("decompress 1100 MB/s by fastest calls"), std::string::npos)
      << pick(g, "space-sensitive").why;
  // Latency-bound reads the intrinsic worst block (1.4 x p50 in the fixture), not the worst call
  // (10 x p50, the scheduler's on a busy machine): xz (worst block 1434 us) is out.
  EXPECT_EQ(pick(g, "latency-bound").choice->label, "zstd 3");
  RecommendOptions tight;
  tight.space_min_decompress = 100000;
  EXPECT_FALSE(pick(recommend(r, tight)[0], "space-sensitive").choice.has_value());
}

TEST(IoModel, EffectiveTimePerDevice) {
  RunResults r;
  CellResult c;
  c.key.codec = "lz4";
  c.key.block_size = 4096;
  c.blocks = 10;
  c.input_bytes = 40960;
  c.compressed_bytes = 20480;
  c.stored_bytes = 20480;
  c.decompress_mbps = {4096};  // 1 us per 4 KiB block
  c.compress_mbps = {500};
  r.cells.push_back(c);
  const auto rows = io_model(r, {{"net", 100, 10}});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NEAR(rows[0].raw_us, 10 + 40.96, 1e-9);
  EXPECT_NEAR(rows[0].effective_us, 10 + 20.48 + 1, 1e-9);
  EXPECT_NEAR(rows[0].speedup, 50.96 / 31.48, 1e-9);
  EXPECT_EQ(default_devices().size(), 4u);
  Device d;
  std::string err;
  EXPECT_TRUE(parse_device("ssd:500:120", d, err));
  EXPECT_EQ(d.name, "ssd");
  EXPECT_DOUBLE_EQ(d.latency_us, 120);
  EXPECT_FALSE(parse_device("ssd:fast:1", d, err));
  EXPECT_FALSE(parse_device("ssd", d, err));
}

TEST(Markdown, SummaryHasTablesAndStores) {
  RunResults r = testing::make_run(42, 3);
  for (auto& c : r.cells) c.key.profile = "rocksdb";
  const auto md = markdown_summary(r, {});
  EXPECT_NE(md.find("### The answer"), std::string::npos);
  EXPECT_NE(md.find("| write-heavy |"), std::string::npos);
  EXPECT_NE(md.find("### Store profiles"), std::string::npos);
  EXPECT_NE(md.find("| rocksdb | zstd 3 |"), std::string::npos);
  EXPECT_EQ(markdown_summary(testing::make_run(42, 3), {}).find("### Store profiles"), std::string::npos);
  // A dictionary that costs more than it saves reads as a loss.
  r.cells[4].dict_gain = 0.981;
  EXPECT_NE(markdown_summary(r, {}).find("x0.981 LOSS"), std::string::npos);
}

TEST(Html, SelfContainedWithChartJsInlined) {
  RunResults r = testing::make_run(43, 3);
  r.cells[4].dict_gain = 1.3;
  r.cells[4].key.source = "</script><b>x";  // must not break out of the data block
  const std::string p = ::testing::TempDir() + "/kvz_w.html";
  std::string err;
  ASSERT_TRUE(write_html(p, {r}, err)) << err;
  std::string html = read_text(p);
  EXPECT_EQ(html.find("</script><b>"), std::string::npos);
  // Chart.js is inlined whole (its licence notice names its site, in a comment); the rest of
  // the page names no URL and loads nothing.
  const size_t lib = html.find(kChartJs);
  ASSERT_NE(lib, std::string::npos);
  EXPECT_NE(std::string(kChartJs).find("Chart.js v3.9"), std::string::npos);
  html.erase(lib, std::string(kChartJs).size());
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=)")));
  EXPECT_NE(html.find(kHtmlScript), std::string::npos);
  for (const char* id : {"ratio", "saving", "tails", "dict", "io"})
    EXPECT_NE(html.find(std::string("id=\"chart-") + id + "\""), std::string::npos) << id;
  // The answer comes before every chart.
  EXPECT_LT(html.find("id=\"answer\""), html.find("id=\"chart-ratio\""));
}

// The answer, per source and block size: among the codecs the store can write, with its line.
TEST(Html, AnswerPerSourceAndStoreWithTheStoresConfigLine) {
  RunResults r = testing::make_run(43, 3);
  for (const auto& fc : testing::fixture_codecs()) {  // a second source, at 4K only
    std::mt19937_64 rng(7);
    r.cells.push_back(testing::make_cell(fc, 4096, rng, 3, 0.01, "second"));
  }
  const auto a = html_data({r}, {})["answer"];
  EXPECT_EQ(a["default_store"], "any");  // no profile: every codec, as the console's answer
  ASSERT_EQ(a["groups"].size(), 5u);     // pooled 4K and 64K, then per source
  std::set<std::string> seen;
  for (const auto& g : a["groups"])
    seen.insert((g["source"].is_null() ? "all" : g["source"].get<std::string>()) + "/" +
                std::to_string(g["block"].get<uint64_t>()));
  EXPECT_EQ(seen, (std::set<std::string>{"all/4096", "all/65536", "second/4096", "synthetic/4096", "synthetic/65536"}));
  auto pick = [&](const nlohmann::json& g, const std::string& store, const std::string& workload) {
    for (const auto& p : g["by_store"][store])
      if (p["workload"] == workload) return p;
    return nlohmann::json();
  };
  const auto& g4 = a["groups"][2];  // the pooled groups come first
  // Cold data: xz 6 has the best ratio; RocksDB cannot write xz, so its pick is zlib 6.
  EXPECT_EQ(pick(g4, "any", "cold data")["choice"], "xz 6");
  EXPECT_FALSE(pick(g4, "any", "cold data").contains("config"));
  const auto rocks = pick(g4, "rocksdb", "cold data");
  EXPECT_EQ(rocks["choice"], "zlib 6");
  EXPECT_EQ(rocks["config"],
            "compression=kZlibCompression;bottommost_compression=kZlibCompression;compression_opts={level=6};"
            "block_based_table_factory={block_size=4096}");
  EXPECT_TRUE(rocks["writable"].get<bool>());
  // LevelDB 1.23 writes snappy only (zstd is its unreleased main branch's): its cold-data pick.
  const std::string leveldb = pick(g4, "leveldb", "cold data")["choice"];
  EXPECT_EQ(leveldb.rfind("snappy", 0), 0u) << leveldb;
}

// make_run's metadata over lz4hc levels 1..`levels` alone, all at the given speeds (0.1 % noise).
RunResults lz4hc_levels_run(int levels, double c_mbps, double d_mbps) {
  RunResults r = testing::make_run(43, 3);
  r.cells.clear();
  std::mt19937_64 rng(5);
  for (int level = 1; level <= levels; ++level)
    r.cells.push_back(testing::make_cell({"lz4hc", level, 2.0, c_mbps, d_mbps}, 4096, rng, 3, 0.001));
  return r;
}

// Many codecs within noise of each other: the console's pick line stays within 100 columns,
// the ties it cannot show counted ("+N tied").
TEST(Console, ManyTiesFitOneHundredColumns) {
  RunResults r = lz4hc_levels_run(12, 300, 3000);
  for (auto& c : r.cells) c.compressed_bytes = c.stored_bytes = c.input_bytes / 2;  // equal ratios
  std::ostringstream out;
  print_recommendations(out, r);
  expect_within_100_columns(out.str());
  size_t tied = 0;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) tied += line.find(" tied ") != std::string::npos;
  EXPECT_GT(tied, 0u) << out.str();
}

// No row meets a rule (a slow machine: nothing decompresses at 500 MB/s): the "none" line names
// the rule, wrapped to 100 columns like every other line.
TEST(Console, ARuleNoRowMeetsFitsOneHundredColumns) {
  const RunResults r = lz4hc_levels_run(3, 30, 100);
  std::ostringstream out;
  print_recommendations(out, r);
  EXPECT_NE(out.str().find("space-sensitive  none: the bytes at rest dominate: the cheapest per month"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("decompress >= 500 MB/s"), std::string::npos) << out.str();
  expect_within_100_columns(out.str());
}

// --workload: the HTML carries the cost model per workload group, cheapest first.
TEST(Html, CostModelWhenAWorkloadIsGiven) {
  const RunResults r = testing::make_run(43, 3);
  EXPECT_FALSE(html_data({r}, {}).contains("cost"));
  ReportOptions opt;
  Workload w;
  std::string error;
  ASSERT_TRUE(parse_workload("write=50,read=200,storage=0.08,cpu=0.04", opt.devices, w, error)) << error;
  opt.workload = w;
  const auto cost = html_data({r}, opt)["cost"];
  ASSERT_EQ(cost["groups"].size(), 2u);  // 4K and 64K
  const auto& rows = cost["groups"][0]["rows"];
  ASSERT_EQ(rows.size(), 7u);  // six codecs and "uncompressed"
  for (size_t i = 1; i < rows.size(); ++i)
    EXPECT_LE(rows[i - 1]["total"].get<double>(), rows[i]["total"].get<double>());
  EXPECT_EQ(cost["workload"], "30 days at 50 MB/s written, 200 MB/s read; $0.08/GB-month, $0.04/core-hour");
}

// Two runs: the comparison carries `check`'s verdict per cell and the summary.
TEST(Html, ComparesTwoRunsWithCheckVerdicts) {
  const RunResults base = testing::make_run(43, 9);
  RunResults bigger = base;
  bigger.cells[3].compressed_bytes += bigger.cells[3].compressed_bytes / 20;  // 5 % more bytes: a size regression
  bigger.cells[3].stored_bytes += bigger.cells[3].compressed_bytes / 20;
  const auto d = html_data({base, bigger}, {});
  ASSERT_TRUE(d.contains("compare"));
  EXPECT_EQ(d["compare"]["exit_code"], 1);
  size_t fails = 0;
  for (const auto& row : d["compare"]["rows"]) {
    if (row["status"] == "FAIL") {
      ++fails;
      EXPECT_EQ(row["id"], base.cells[3].key.id());
    }
  }
  EXPECT_EQ(fails, 1u);
  EXPECT_NE(d["compare"]["summary"].get<std::string>().find("check fails"), std::string::npos);
  EXPECT_FALSE(html_data({base}, {}).contains("compare"));
}

// A cell without the calls for p99.9 (--latency-calls 100) gives the charts null, not a number.
TEST(Html, PercentilesWithoutTheirCallsAreNull) {
  RunResults r = testing::make_run(43, 3);
  r.cells[2].compress_latency.p999_ns.reset();
  const auto cells = html_data({r}, {})["cells"];
  EXPECT_TRUE(cells[2]["m"]["c_p999"].is_null());
  EXPECT_TRUE(cells[2]["m"]["d_p999"].is_number());
  EXPECT_GT(cells[2]["m"]["c_wb"].get<double>(), 0.0);
}

// The console's default table fits 100 columns (code points, not bytes); --wide shows every
// console column (spreads, x memcpy, context memory, per-direction percentiles).
TEST(Console, CompactFitsOneHundredColumnsWideHasEveryColumn) {
  RunResults r = testing::make_run(43, 3);
  r.cells[4].dict_bytes = 16384;
  r.cells[4].dict_method = "file";
  r.cells[4].dict_block_bytes = 16389;
  r.cells[4].dict_gain = 0.98;
  for (LatencyStats* l : {&r.cells[5].compress_latency, &r.cells[5].decompress_latency}) {
    l->calls = 300;  // too few for p99.9
    l->p999_ns.reset();
  }
  auto columns_of = [](const std::string& line) {
    size_t n = 0;
    for (unsigned char ch : line) n += (ch & 0xC0) != 0x80;  // count UTF-8 lead bytes
    return n;
  };
  std::ostringstream compact, wide;
  print_console_table(compact, r, TableSort::CompressSpeed);
  print_console_table(wide, r, TableSort::CompressSpeed, true);
  std::istringstream lines(compact.str());
  size_t longest = 0;
  for (std::string line; std::getline(lines, line);) longest = std::max(longest, columns_of(line));
  EXPECT_LE(longest, 100u) << compact.str();
  EXPECT_NE(compact.str().find("p99.9 µs c/d (n)"), std::string::npos);
  EXPECT_NE(compact.str().find("a LOSS: never recommended"), std::string::npos);
  EXPECT_NE(compact.str().find("—/— (300)"), std::string::npos);  // no p99.9 without its calls
  EXPECT_EQ(compact.str().find("context c/d"), std::string::npos);
  EXPECT_NE(wide.str().find("context c/d"), std::string::npos);
  EXPECT_NE(wide.str().find("comp µs p50/99/99.9 (n)"), std::string::npos);
}

}  // namespace kvz
