// stream_results: the file's structure read as load_results reads it (results_reader.h), each
// cell's text parsed on a worker thread a batch at a time and handed over in file order; the
// ordered end keeps what load_results checks across cells (the ids, each block set's current
// row), ~100 bytes a cell. read_cells_at parses the cells at given places the same way.
#include "results/results_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <exception>
#include <future>
#include <set>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "results/results_checks.h"
#include "results/results_compact.h"
#include "results/results_json.h"
#include "results/results_reader.h"
#include "results/stream_batches.h"

namespace kvz {

namespace {

using nlohmann::json;

struct StreamBatch {
  std::vector<std::string> texts;
  std::vector<CellPlace> places;
  std::vector<CellResult> cells;  // parsed, in order
  std::vector<std::string> ids;
  std::exception_ptr failure;  // the cell after the last parsed one could not be read
};

StreamBatch parse_stream_batch(StreamBatch b) {
  b.cells.reserve(b.texts.size());
  try {
    for (const auto& text : b.texts) {
      CellResult c;
      cell_from_json(json::parse(text), c);
      b.ids.push_back(c.key.id());
      b.cells.push_back(std::move(c));
    }
  } catch (...) {
    b.failure = std::current_exception();
  }
  b.texts = {};
  return b;
}

using Deliver = std::function<void(CellResult& cell, const std::string& id, CellPlace place)>;

// Cell texts parsed on every core and delivered in the order added; a cell that cannot be read
// throws from add() or finish() once every cell before it is delivered, as one thread would.
class ParsedInOrder {
 public:
  explicit ParsedInOrder(Deliver deliver)
      : deliver_(std::move(deliver)), in_flight_(std::max(2u, std::thread::hardware_concurrency())) {}
  ParsedInOrder(const ParsedInOrder&) = delete;
  ParsedInOrder& operator=(const ParsedInOrder&) = delete;

  void add(std::string text, CellPlace place) {
    filling_.texts.push_back(std::move(text));
    filling_.places.push_back(place);
    if (filling_.texts.size() == kBatchCells) submit();
  }
  // Every cell still on its way; nothing after a cell failed (its error is the one to report).
  void finish() {
    if (failed_) return;
    submit();
    while (!pending_.empty()) deliver_oldest();
  }

 private:
  void submit() {
    if (filling_.texts.empty()) return;
    pending_.push_back(std::async(std::launch::async, parse_stream_batch, std::move(filling_)));
    filling_ = StreamBatch{};
    while (pending_.size() > in_flight_) deliver_oldest();
  }
  void deliver_oldest() {
    StreamBatch b = pending_.front().get();
    pending_.pop_front();
    failed_ = true;  // until the batch is through
    for (size_t i = 0; i < b.cells.size(); ++i) deliver_(b.cells[i], b.ids[i], b.places[i]);
    if (b.failure) std::rethrow_exception(b.failure);
    failed_ = false;
  }

  Deliver deliver_;
  size_t in_flight_;
  StreamBatch filling_;
  std::deque<std::future<StreamBatch>> pending_;  // a future from std::async waits for its thread when destroyed
  bool failed_ = false;                           // a cell could not be read or was refused
};

// The checks load_results makes across cells, on the cells as they are delivered.
class CheckedCells {
 public:
  explicit CheckedCells(const ResultsStream& stream) : stream_(stream) {}
  void head(const RunResults& head) {
    if (head_seen_) return;
    head_seen_ = true;
    for (const auto& v : head.meta.codec_versions) known_codecs_.insert(v.codec);
    if (stream_.on_head) stream_.on_head(head);
  }
  bool head_seen() const { return head_seen_; }
  void deliver(CellResult& c, const std::string& id, CellPlace place) {
    if (ids_.find(id)) throw std::runtime_error("cell " + id + " appears twice");
    ids_.add(id);
    if (first_error_.empty()) first_error_ = cell_consistency_error(known_codecs_, c);
    if (first_error_.empty()) first_error_ = current_rows_.add(c);
    if (stream_.on_cell) stream_.on_cell(c, id, place);
  }
  const std::string& first_error() const { return first_error_; }

 private:
  const ResultsStream& stream_;
  bool head_seen_ = false;
  std::set<std::string> known_codecs_;
  IdIndex ids_;
  CurrentRows current_rows_;
  std::string first_error_;
};

// One pass over the file; `known_head`: the meta read by an earlier pass (cells before meta).
bool stream_pass(const std::string& path, const ResultsStream& stream, const RunResults* known_head,
                 std::string& error) {
  RunResults head;
  CheckedCells checked(stream);
  if (known_head) checked.head(*known_head);
  ParsedInOrder parsed([&](CellResult& c, const std::string& id, CellPlace place) { checked.deliver(c, id, place); });
  ResultsFileSink sink;
  sink.schema_version = &head.schema_version;
  sink.meta = &head.meta;
  sink.on_meta = [&] { checked.head(head); };
  sink.on_cell = [&](const std::string& text) {
    if (!checked.head_seen()) throw CellsBeforeMeta{};
    parsed.add(text, {sink.cell_offset, static_cast<uint32_t>(text.size())});
  };
  sink.consistency_error = [&] {
    parsed.finish();  // the last batches, checked before the file's verdict
    return checked.first_error();
  };
  if (read_results_file(path, sink, error)) return true;
  // The scan failed further on while cells before that point were still being parsed: the first
  // of those that fails is the file's error, as one thread would have met it first.
  try {
    parsed.finish();
  } catch (const std::exception&) {
    error = path + ": " + load_failure_text(std::current_exception());
  }
  return false;
}

}  // namespace

bool stream_results(const std::string& path, const ResultsStream& stream, std::string& error) {
  try {
    return stream_pass(path, stream, nullptr, error);
  } catch (const CellsBeforeMeta&) {
  }
  // Cells before the meta (kvzbench writes the meta first; the codec checks need it): the file
  // is judged by load_results, whole, and then streamed again with its meta known.
  RunResults head;
  if (!load_results(path, head, error)) return false;
  head.cells = {};
  return stream_pass(path, stream, &head, error);
}

bool read_cells_at(const std::string& path, const std::vector<CellPlace>& places,
                   const std::function<void(CellResult& cell)>& on_cell, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = path + ": cannot open (missing or unreadable)";
    return false;
  }
  bool ok = true;
  try {
    ParsedInOrder parsed([&](CellResult& c, const std::string&, CellPlace) { on_cell(c); });
    for (const CellPlace& p : places) {
      std::string text(p.size, '\0');
      if (::pread(fd, text.data(), p.size, static_cast<off_t>(p.offset)) != static_cast<ssize_t>(p.size))
        throw std::runtime_error("short read");
      parsed.add(std::move(text), p);
    }
    parsed.finish();
  } catch (const std::exception&) {
    error = path + ": changed while it was read (its cells are not where they were): read it again";
    ok = false;
  }
  ::close(fd);
  return ok;
}

}  // namespace kvz
