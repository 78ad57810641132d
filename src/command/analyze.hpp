// `tenet analyze`: one problem — a JSON spec, TENET's .s/.p/.m files (or an experiment naming
// them), or the GEMM generator on a PE array or an accelerator — through eval::evaluate, rendered
// as TENET's metrics (with the hardware model's keys under systolic timing). The CLI reads its
// options into AnalyzeArgs and Python (tenet.analyze) its keywords; neither builds the request.
// Errors name the file (and JSON pointer or line) of the input they come from, or a field: gemm,
// array, dataflow, bits_a, bits_b, bits_c, bandwidth, latency, loop_order, hops, compute_delay
// and the eval::Settings fields.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "io/report_format.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/mapping/systolic.hpp"

namespace tenet::command {

// The analysis settings given, over the problem's (a spec may carry them) and TENET's defaults.
struct AnalysisFlags {
  std::optional<int> hops;                   // interconnect hops in the reuse neighbourhood
  std::optional<bool> same_time, prev_time;  // reuse at the same / the previous time stamp
  std::string compute_delay;                 // active | avg (empty: the problem's, else active)
};

struct AnalyzeArgs {
  // The problem: exactly one of a spec (a file, or its JSON), the three TENET files, a TENET
  // experiment, or the GEMM generator (gemm).
  std::string spec;
  std::optional<nlohmann::json> spec_json;
  std::string tenet_stmt, tenet_pe, tenet_map;
  std::string tenet_experiment, tenet_data_dir;     // data_dir: where its relative paths start
  std::optional<std::array<std::int64_t, 3>> gemm;  // M, N, K
  // The GEMM generator: array and/or arch, dataflow, quant, timing (default systolic with an
  // arch, tenet without), tile, tiling_objective, dequant_rate, edge_transfers.
  eval::Settings settings;
  std::string loop_order;  // the tile loop order (needs an explicit tile)
  mapping::GemmBits bits{16, 16, 16};
  long long bandwidth = 64, latency = 1;  // the ideal array's scratchpad (TENET's view)
  bool accumulate = false;                // C = C + A·B
  AnalysisFlags analysis;
  io::ReportFormat format = io::ReportFormat::kTable;
};

// The report (docs/output.md) in `format`.
std::string analyze(const AnalyzeArgs& args);

}  // namespace tenet::command
