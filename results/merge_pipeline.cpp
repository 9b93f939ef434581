#include "results/merge_pipeline.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

#include <nlohmann/json.hpp>

#include "results/gb_rows.h"
#include "results/merge_plan.h"
#include "results/results_json.h"
#include "results/stream_batches.h"

namespace kvz {

namespace {

// Batches in flight: enough to keep every core parsing while the oldest is written.
size_t batches_in_flight() { return 2 * std::max(1u, std::thread::hardware_concurrency()); }

// Parses, keys and checks the batch's cells against their own run; stops at the first cell
// that cannot be read. Returns the GB families of the parsed cells.
int parse_batch(const MergePlan& plan, const std::set<std::string>& codecs, CellBatch& b) {
  int families = 0;
  try {
    b.cells.reserve(b.texts.size());
    for (const auto& text : b.texts) {
      CellResult c;
      cell_from_json(nlohmann::json::parse(text), c);
      plan.qualify(b.input, c.key);
      b.problems.push_back(cell_consistency_error(codecs, c));
      families += gb_family_count(c);
      b.cells.push_back(std::move(c));
    }
  } catch (...) {
    b.failure = std::current_exception();
  }
  b.texts = {};
  return families;
}

void format_batch(CellBatch& b, int family) {
  bool first_row = true, first_line = true;
  for (const auto& c : b.cells) {
    append_gb_rows(b.rows, first_row, family, c);
    append_cell(b.lines, first_line, c);
  }
}

// A worker: its GB families are numbered from where the batch before it ends, which it learns
// once that batch is parsed (not formatted), so the formatting of batches overlaps.
CellBatch run_batch(const MergePlan& plan, const std::set<std::string>& codecs, CellBatch b,
                    std::shared_future<int> first_family, std::promise<int> next_family) {
  const int families = parse_batch(plan, codecs, b);
  int family = 0;
  try {
    family = first_family.get();
  } catch (...) {
    if (!b.failure) b.failure = std::current_exception();
  }
  next_family.set_value(family + families);
  if (b.failure) return b;  // never written: the merge stops at its bad cell
  try {
    format_batch(b, family);
  } catch (...) {
    b.failure = std::current_exception();
  }
  return b;
}

}  // namespace

bool MergeWriter::open(std::string& error) {
  spool_.reset(std::tmpfile());
  if (!spool_) {
    error = std::string("cannot create a temporary file for the cells: ") + std::strerror(errno);
    return false;
  }
  if (!out_.open(error)) return false;
  write(results_head(plan_.meta()));
  return true;
}

void MergeWriter::add(const CellBatch& batch) {
  for (size_t i = 0; i < batch.cells.size(); ++i) check(batch.input, batch.cells[i], batch.problems[i]);
  if (batch.failure) std::rethrow_exception(batch.failure);
  // A batch's text starts "\n"; after the first, a comma goes before it (written apart: the
  // batch's megabytes are never copied to put it there).
  if (!batch.rows.empty() && !first_row_) write(",");
  if (!batch.rows.empty()) write(batch.rows);
  if (!batch.lines.empty() && !first_cell_) spool(",");
  if (!batch.lines.empty()) spool(batch.lines);
  first_row_ = first_row_ && batch.rows.empty();
  first_cell_ = first_cell_ && batch.lines.empty();
  cells_ += batch.cells.size();
}

bool MergeWriter::finish(std::string& error) {
  write(results_middle(plan_.schema_version(), plan_.meta()));
  if (std::fflush(spool_.get()) != 0 || std::fseek(spool_.get(), 0, SEEK_SET) != 0)
    throw MergeRefusal(std::string("cannot read the cells' temporary file back: ") + std::strerror(errno));
  std::string chunk(1 << 20, '\0');
  for (size_t n; (n = std::fread(chunk.data(), 1, chunk.size(), spool_.get())) > 0;)
    write(std::string_view(chunk.data(), n));
  write(kResultsTail);
  return out_.commit(error);
}

void MergeWriter::check(size_t input, const CellResult& c, const std::string& problem) {
  const auto [it, first] = owner_.emplace(c.key.id(), input);
  if (!first && it->second == input) throw std::runtime_error("cell " + c.key.id() + " appears twice");
  if (!first)
    throw MergeRefusal("cell " + c.key.id() + " is in input " + std::to_string(it->second + 1) + " and input " +
                       std::to_string(input + 1) + ": merge joins disjoint results only");
  if (!problem.empty()) throw std::runtime_error(problem);
  if (std::string e = plan_.partial_set_error(input, c.key, c.partial_set); !e.empty()) throw MergeRefusal(e);
  if (std::string e = current_.add(c); !e.empty()) throw MergeRefusal(e);
}

void MergeWriter::write(std::string_view text) {
  std::string error;
  if (!out_.write(text, error)) throw MergeRefusal(error);
}

void MergeWriter::spool(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), spool_.get()) != text.size())
    throw MergeRefusal(std::string("cannot write the cells' temporary file: ") + std::strerror(errno));
}

MergePipeline::~MergePipeline() {
  for (auto& f : pending_) f.wait();
}

void MergePipeline::add(size_t input, std::string text) {
  if (!failed_.empty()) throw MergeRefusal(failed_);
  filling_.input = input;
  filling_.texts.push_back(std::move(text));
  if (filling_.texts.size() >= kBatchCells) submit();
}

void MergePipeline::end_input() {
  if (!filling_.texts.empty()) submit();
}

void MergePipeline::submit() {
  if (!started_) {
    std::promise<int> zero;
    zero.set_value(0);
    next_family_ = zero.get_future().share();
    started_ = true;
  }
  while (pending_.size() >= batches_in_flight()) write_oldest();
  std::promise<int> next;
  std::shared_future<int> after = next.get_future().share();
  const auto& codecs = codecs_[filling_.input];
  pending_.push_back(std::async(std::launch::async, run_batch, std::cref(plan_), std::cref(codecs),
                                std::exchange(filling_, CellBatch{}), next_family_, std::move(next)));
  next_family_ = std::move(after);
}

// The oldest batch, checked and written; an error becomes its whole line, naming the input.
void MergePipeline::write_oldest() {
  CellBatch batch = pending_.front().get();
  pending_.pop_front();
  try {
    writer_.add(batch);
  } catch (const MergeRefusal& e) {
    failed_ = e.what();
  } catch (const std::exception& e) {
    failed_ = paths_[batch.input] + ": malformed kvzbench result: " + e.what();
  }
  if (!failed_.empty()) throw MergeRefusal(failed_);
}

std::string MergePipeline::drain() {
  if (!failed_.empty()) return failed_;
  try {
    end_input();
    while (!pending_.empty()) write_oldest();
  } catch (const MergeRefusal& e) {
    return e.what();
  }
  return "";
}

}  // namespace kvz
