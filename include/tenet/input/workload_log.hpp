// Workload logs: one line per matmul kernel call captured while a model ran.
//
// Two line formats (docs/logs.md; JSON Schema docs/schema/workload-log.schema.json):
//   text   `<kernel>: <batch>, <M>, <N>, <K>`   (the seed's TVM hook; more leading extents are
//          multiplied into batch, `<kernel>: <M>, <N>, <K>` means batch 1)
//   jsonl  {"kernel": "...", "batch": 1, "M": 37, "N": 1024, "K": 1024, ...}  (tenet_hook)
// The reader streams: it holds one line at a time and one entry per distinct call, so memory
// depends on the number of distinct shapes, not on the length of the log.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tenet/llm/matmul_shape.hpp"

namespace tenet::input {

enum class LogFormat { kAuto, kText, kJsonl };        // kAuto: decided per line ('{' starts JSON)
const char* to_string(LogFormat f);                   // "auto", "text", "jsonl"
LogFormat parse_log_format(const std::string& name);  // else InputError(unknown-name)

struct LogReadOptions {
  LogFormat format = LogFormat::kAuto;
  bool lenient = false;                  // skip malformed lines (counted) instead of failing
  std::size_t max_reported_skips = 10;   // line numbers of skipped lines kept in the summary
  std::size_t max_line_bytes = 1 << 20;  // longer lines are malformed
  std::size_t max_distinct = 1 << 20;    // more distinct calls -> InputError(range)
};

// A call of a non-matmul kernel (llm::interpret_vector_kernel names it): the extents of its
// loop nest (docs/logs.md#non-matmul-kernels). Text `<kernel>: <e1>, <e2>, ...`; JSON
// {"kernel": ..., "shape": [e1, e2, ...], "count": n, "phase": ...}.
struct VectorKernelCall {
  std::string kernel;
  std::vector<std::int64_t> extents;  // 1 … 8 positive extents
  std::int64_t count = 1;
  llm::Phase phase = llm::Phase::kUnspecified;
};

struct WorkloadLog {
  std::string file;
  std::vector<llm::MatmulShape> entries;  // distinct calls, first-appearance order, with counts
  // Distinct non-matmul kernel calls (same kernel, extents and phase: counts added), in order of
  // first appearance. Their records count in `records` and `calls`.
  std::vector<VectorKernelCall> vector_kernels;
  std::int64_t lines = 0;    // lines read (including blank and skipped ones)
  std::int64_t records = 0;  // well-formed records (blank lines excluded)
  llm::Integer calls;        // Σ count over records
  std::int64_t text_records = 0, json_records = 0;
  std::int64_t skipped = 0;                 // malformed lines skipped (lenient mode)
  std::vector<std::int64_t> skipped_lines;  // the first max_reported_skips of them (1-based)
  std::string first_skip_reason;            // the error of the first skipped line
  // The header record (docs/logs.md#header-record): {"record": "header", "quantization": ...,
  // "model": ...}. Every header of a log must agree; it applies to the whole log.
  std::int64_t header_records = 0;
  std::string quantization;            // MLC's quantization name or a scheme file; empty: none
  std::int64_t quantization_line = 0;  // the line of the first header that gave it
  std::string model;                   // the model's name, if a header gave it
};

// A header record's fields (parse_log_header).
struct LogHeader {
  std::string quantization;
  std::string model;
};

// The header record on `line` (a JSON object with "record": "header"), or nothing when the line
// is not one. Throws InputError(where "line N, /field") for a header with a wrong field.
std::optional<LogHeader> parse_log_header(std::string_view line, const std::string& file,
                                          std::int64_t line_number);

// One record parsed from one line (count from the record, 1 for text lines).
// Throws InputError(parse | type | range | missing-field | unknown-field | overflow |
// unknown-name) with where = "line N" (and the record's field for JSON).
llm::MatmulShape parse_log_line(const std::string& line, LogFormat format, const std::string& file,
                                std::int64_t line_number);

// Streams `in` to the end. `file` names the source in errors and in the result.
WorkloadLog read_workload_log(std::istream& in, const std::string& file,
                              const LogReadOptions& options = {});
// Opens `path` (InputError io if it cannot be read).
WorkloadLog read_workload_log_file(const std::string& path, const LogReadOptions& options = {});

}  // namespace tenet::input
