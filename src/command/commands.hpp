// The commands that compose several stages: compare, search and bound, each one library function
// taking typed arguments and returning the rendered result. The CLI (src/cli) reads its options
// into these structs and the Python package (python/src/tenet_module.cpp) its keywords; neither
// assembles requests, matmul lists or report contexts of its own. Errors name the fields below
// (gemm, model, log, quant, kv_token_axis, timing, format, buffers, dataflows, bits); the CLI
// maps them to its options (cli::option_for_field).
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/report_format.hpp"
#include "report/llm_report.hpp"
#include "sweep/search_settings.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/llm/matmul_shape.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::command {

// Where a command's matmuls come from: exactly one of a GEMM, a model pass or a workload log.
struct MatmulSource {
  std::optional<std::array<std::int64_t, 3>> gemm;  // M, N, K (batch: pass.batch)
  std::string model;                                // a config.json path, or a label of `config`
  std::optional<llm::ModelConfig> config;           // an already-read config (Python's dict)
  report::ModelPass pass;  // with a model: phase, batch, tokens and conventions
  std::string log;         // a workload log (text or JSON Lines)
};

// The matmuls of a source and what a report says of them (`inputs`: the GEMM; or the model, its
// phase, batch, tokens and matmul count; or the log). InputError(usage, "gemm") unless exactly
// one source is given; InputError(range, "gemm") for a size < 1.
struct SourceMatmuls {
  std::vector<llm::MatmulShape> matmuls;
  nlohmann::ordered_json inputs = nlohmann::ordered_json::object();
};
SourceMatmuls source_matmuls(const MatmulSource& source);

// `tenet compare`: one GEMM under several schemes, side by side (table or json).
struct CompareArgs {
  std::array<std::int64_t, 3> gemm{};                            // M, N, K
  std::vector<std::shared_ptr<const quant::QuantSpec>> schemes;  // at least one
  eval::Settings settings;  // the accelerator, mapping and dequant unit; its quant is ignored
  bool kv = false;          // B is a KV-cache tensor (the scheme's kv_cache operand)
  std::string kv_token_axis = "n";  // n: K cache in Q·Kᵀ (NT); k: V cache in P·V (NN)
  bool accumulate = false;          // C = C + A·B (llm::MatmulShape::accumulate)
  io::ReportFormat format = io::ReportFormat::kTable;
};
std::string compare(const CompareArgs& args);

// `tenet search`: the best mapping of every matmul of the source under the objective, with the
// Pareto front (table or json).
struct SearchArgs {
  MatmulSource source;
  sweep::SearchSettings settings;
  io::ReportFormat format = io::ReportFormat::kTable;
};
std::string search(const SearchArgs& args);

// `tenet bound`: least DRAM traffic against global-buffer size (table, json or csv).
struct BoundArgs {
  MatmulSource source;
  eval::Settings settings;
  std::optional<std::array<int, 3>> bits;    // unquantized operand widths (default 16/16/16)
  std::vector<long long> buffers;            // bytes, at least one
  std::vector<mapping::Dataflow> dataflows;  // empty: eval::defaults::search_dataflows
  bool bound_only = false;                   // only the analytic bound, no mapping search
  io::ReportFormat format = io::ReportFormat::kTable;
};
std::string bound(const BoundArgs& args);

}  // namespace tenet::command
