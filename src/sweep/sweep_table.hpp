// Sweep results as a table: one row per point, written as CSV (a header line, then one line per
// row) or JSON Lines (one object per line, keys in column order). Columns and units:
// docs/sweep.md#columns.
//
// Readers tolerate what a killed writer leaves: a last line without its end of line is reported
// as truncated and left out, never parsed.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/point_evaluator.hpp"
#include "sweep/sweep_point.hpp"

namespace tenet::sweep {

enum class TableFormat { kCsv, kJsonl };
const char* to_string(TableFormat f);  // "csv", "jsonl"
// From the file extension: .csv, .jsonl (or .ndjson). Else InputError(usage, path, option).
TableFormat table_format_of(const std::string& path, const std::string& option = "--out");

// index, id, the parameter columns, then the metric columns (relation-centric ones last when
// asked for). With `requests` (a sweep with a generation request, SweepPlan::has_requests) the
// parameter columns tokens, tp, pp and the request metric columns (ttft_seconds, ...) too.
std::vector<std::string> sweep_columns(bool relation_centric, bool requests = false);

// The row as an object with the sweep_columns keys. Exact integers beyond 64 bits are strings.
nlohmann::ordered_json make_row(const SweepPoint& point, const PointMetrics& metrics,
                                bool relation_centric, bool requests = false);

// One line, with its '\n'. The CSV header is format_header(); JSON Lines has none ("").
std::string format_header(const std::vector<std::string>& columns, TableFormat format);
std::string format_row(const nlohmann::ordered_json& row, const std::vector<std::string>& columns,
                       TableFormat format);

// A row as read back: its index, its id and its line exactly as written (with '\n').
struct StoredRow {
  std::uint64_t index = 0;
  std::string id;
  std::string line;
};

struct StoredTable {
  std::string file;
  TableFormat format = TableFormat::kCsv;
  std::vector<std::string> columns;  // CSV: the header; JSON Lines: the first row's keys
  std::vector<StoredRow> rows;       // in file order
  std::uint64_t complete_bytes = 0;  // length of the file up to its last complete line
  bool truncated = false;            // a last line without '\n' was left out
};

// Reads a results file (missing or empty: no columns, no rows). Throws InputError(parse,
// file, "line N") for a complete line that is not a row (wrong field count, no index/id, ...).
StoredTable read_table(const std::string& path, TableFormat format);

// Splits one CSV line (without its end of line) into fields (RFC 4180 quoting).
std::vector<std::string> split_csv_line(const std::string& line);

}  // namespace tenet::sweep
