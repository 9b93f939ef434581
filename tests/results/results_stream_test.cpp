// stream_results and read_cells_at (results/results_stream.h), how `report` reads a file too large
// to hold: every cell load_results loads, in its order, over many worker batches, each at a place
// from which it reads back alone. (Its refusals: results_compact_test.cpp, beside the other loaders'.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "results/results.h"
#include "results/results_json.h"
#include "results/results_stream.h"
#include "tests/results/fixture.h"

namespace kvz {
namespace {

using testing::TempFile;

struct Streamed {
  RunResults head;
  std::vector<std::string> texts, ids;  // each cell's line as the file writer writes it
  std::vector<CellPlace> places;
};

Streamed stream_all(const std::string& path) {
  Streamed s;
  std::string error;
  ResultsStream stream;
  stream.on_head = [&](const RunResults& head) {
    EXPECT_TRUE(s.texts.empty()) << "the head comes before the cells";
    s.head = head;
  };
  stream.on_cell = [&](CellResult& c, const std::string& id, CellPlace place) {
    s.texts.push_back(cell_json_text(c));
    s.ids.push_back(id);
    s.places.push_back(place);
  };
  EXPECT_TRUE(stream_results(path, stream, error)) << error;
  return s;
}

}  // namespace

// 560 cells: two batches of 256 and a short one, on every core, handed over in file order.
TEST(ResultsStream, HandsOverEveryCellLoadResultsLoadsInOrder) {
  RunResults run = testing::make_sweep(5, 40);
  run.cells[300].status = CellStatus::Failed;
  run.cells[300].failure = "round trip mismatch";
  run.cells[300].compress_mbps.clear();
  run.cells[300].decompress_mbps.clear();
  const TempFile file(results_to_json(run));
  RunResults whole;
  std::string error;
  ASSERT_TRUE(load_results(file.path, whole, error)) << error;
  const Streamed s = stream_all(file.path);
  EXPECT_EQ(meta_to_json(s.head.meta).dump(), meta_to_json(whole.meta).dump());
  EXPECT_TRUE(s.head.cells.empty());
  ASSERT_EQ(s.texts.size(), whole.cells.size());
  for (size_t i = 0; i < whole.cells.size(); ++i) {
    EXPECT_EQ(s.texts[i], cell_json_text(whole.cells[i])) << i;
    EXPECT_EQ(s.ids[i], whole.cells[i].key.id());
  }
}

// A second pass reads the cells it wants at their places, in the order asked.
TEST(ResultsStream, CellsReadBackAloneAtTheirPlaces) {
  const TempFile file(results_to_json(testing::make_sweep(6, 30)));
  const Streamed s = stream_all(file.path);
  const std::vector<size_t> wanted = {401, 0, 17, 17, 419};
  std::vector<CellPlace> places;
  for (const size_t i : wanted) places.push_back(s.places.at(i));
  std::vector<std::string> read;
  std::string error;
  ASSERT_TRUE(read_cells_at(
      file.path, places, [&](CellResult& c) { read.push_back(cell_json_text(c)); }, error))
      << error;
  ASSERT_EQ(read.size(), wanted.size());
  for (size_t i = 0; i < wanted.size(); ++i) EXPECT_EQ(read[i], s.texts[wanted[i]]);
  // A file changed in between: one line, not a crash or a wrong cell.
  places.push_back({s.places.back().offset + 7, s.places.back().size});
  EXPECT_FALSE(read_cells_at(
      file.path, places, [](CellResult&) {}, error));
  EXPECT_EQ(error, file.path + ": changed while it was read (its cells are not where they were): read it again");
  EXPECT_FALSE(read_cells_at(
      file.path + ".absent", places, [](CellResult&) {}, error));
  EXPECT_EQ(error, file.path + ".absent: cannot open (missing or unreadable)");
}

// A refusal found in a later batch stops the stream there, with load_results' own line.
TEST(ResultsStream, ARepeatedCellInALaterBatchIsRefusedAsLoadResultsRefusesIt) {
  RunResults run = testing::make_sweep(7, 40);
  run.cells.push_back(run.cells[3]);
  const TempFile file(results_to_json(run));
  RunResults whole;
  std::string whole_error, stream_error;
  EXPECT_FALSE(load_results(file.path, whole, whole_error));
  size_t handed = 0;
  ResultsStream stream;
  stream.on_cell = [&](CellResult&, const std::string&, CellPlace) { ++handed; };
  EXPECT_FALSE(stream_results(file.path, stream, stream_error));
  EXPECT_EQ(stream_error, whole_error);
  EXPECT_EQ(handed, run.cells.size() - 1);  // every cell before the repeated one
}

}  // namespace kvz
