#pragma once
// The results file's text, piece by piece (internal to results/): results_to_json writes a
// whole run with these, and the streaming merge (merge_stream.cpp) writes its output with the
// same pieces one cell at a time, so the two files are the same bytes.
//   results_head · append_gb_rows for each cell · results_middle · append_cell for each cell ·
//   kResultsTail
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/recommendations.h"
#include "results/results_fwd.h"

namespace kvz {

std::string cell_json_text(const CellResult& c);              // the cell's line: nlohmann's dump of it, byte for byte
void cell_from_json(const nlohmann::json& j, CellResult& c);  // throws on a malformed cell
nlohmann::json meta_to_json(const RunMeta& m);
// The `recommendations` array (results/recommendations.h), written after the cells.
nlohmann::json recommendations_to_json(const std::vector<RecommendationRecord>& recs);
std::vector<RecommendationRecord> recommendations_from_json(const nlohmann::json& j);  // throws when malformed
void meta_from_json(const nlohmann::json& j, RunMeta& m);
std::string dump_json(const nlohmann::json& j);  // one line; invalid UTF-8 replaced

// `{"context": ..., "benchmarks": [`
std::string results_head(const RunMeta& meta);
// An OK cell's GB rows, each on its own line; `first` is true before the file's first row.
void append_gb_rows(std::string& out, bool& first, int& family, const CellResult& c);
// `], "kvzbench": {"schema_version": N, "meta": {...}, "cells": [`
std::string results_middle(int schema_version, const RunMeta& meta);
// One cell on its own line; `first` is true before the file's first cell.
void append_cell(std::string& out, bool& first, const CellResult& c);
inline constexpr const char* kResultsTail = "\n]}}\n";

}  // namespace kvz
