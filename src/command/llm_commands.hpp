// The commands over a model's or a run's matmul list, one function each: `tenet model` (a Hugging
// Face config's prefill or decode pass), `tenet log` (a workload log), `tenet generate` (a whole
// generation request) and `tenet tir` (a TVMScript dump's kernels). The CLI reads its options
// into these structs and the Python package its keywords; the defaults are the structs' own
// (report::ModelPass, llm::RequestOptions, report::TirRun, eval/defaults.hpp). Errors name the
// fields of the structs (phase, batch, prompt, ..., eval::Settings') or the input files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/report_format.hpp"
#include "report/generate_report.hpp"
#include "report/llm_report.hpp"
#include "report/tir_report.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/llm/model_config.hpp"

namespace tenet::command {

// What a model or log report shows: the matmul list alone, or its cost under `cost`.
struct ListingArgs {
  bool shapes_only = false;   // the matmuls (shapes and counts) without their cost
  bool merge_shapes = false;  // entries with identical calls merged (names joined with '+')
  eval::Settings cost;        // `quant` may list schemes ("a,b"): a side-by-side comparison
  io::ReportFormat format = io::ReportFormat::kTable;
};

// A report with what the caller shows beside it (the CLI on stderr, Python as warnings).
struct Report {
  std::string text;
  std::vector<std::string> warnings;
};

// `tenet model`: the matmuls of one pass of a model and their cost.
struct ModelArgs {
  std::string model;                       // a config.json path or bundled name; or a label
  std::optional<llm::ModelConfig> config;  // an already-read config (Python's dict)
  report::ModelPass pass;
  ListingArgs listing;
};
std::string model(const ModelArgs& args);

// `tenet log`: the matmul calls of a workload log, aggregated, and their cost. Warnings: the
// malformed lines skipped (lenient), the log's kernels without a scheme.
struct LogArgs {
  std::string input;                // the log: JSON Lines (tenet_hook) or text lines
  std::string log_format = "auto";  // auto (per line), text or jsonl
  bool lenient = false;             // skip malformed lines instead of failing
  std::string tir;                  // a TVMScript dump: each call takes its kernel's structure
  std::int64_t tokens = 0;          // tokens the logged run produced (0: unknown)
  ListingArgs listing;
};
Report log(const LogArgs& args);

// `tenet generate`: a whole generation request of a model (docs/generate.md).
struct GenerateArgs {
  report::GenerateRequest request;
  io::ReportFormat format = io::ReportFormat::kTable;
};
std::string generate(const GenerateArgs& args);

// `tenet tir`: the matmul kernels of a TVMScript dump, recognised, bound and costed
// (docs/tir.md). Warnings: CSV only, the kernels skipped (the table and JSON list them).
struct TirArgs {
  report::TirRun run;
  io::ReportFormat format = io::ReportFormat::kTable;
};
report::TirReport tir(const TirArgs& args);

}  // namespace tenet::command
