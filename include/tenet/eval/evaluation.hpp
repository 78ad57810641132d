// What one evaluation returns: the output of every stage of the pipeline (pipeline.hpp), and the
// cost of one call of the matmul that every report is built from. Units in docs/output.md.
#pragma once

#include <optional>

#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/eval/request.hpp"
#include "tenet/hw/bounds.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/hw/result.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/input/problem.hpp"
#include "tenet/llm/layer_cost.hpp"
#include "tenet/quant/quant_costs.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::eval {

// The scheme as it applies to one matmul (B's role and layout, weights a logged kernel does not
// dequantize, the KV cache's format) and how B is bound to it.
struct AppliedScheme {
  quant::QuantSpec spec;
  quant::ApplyOptions apply;
};

struct Evaluation {
  // Stage "apply quantization": the scheme as applied; none for an unquantized GEMM.
  std::optional<AppliedScheme> scheme;
  quant::DequantRate dequant_rate;  // the resolved dequant-unit throughput (0 if none needed)
  // Stages "build the workload" and "relation-centric analysis": the workload (the GEMM with its
  // quantization tensors as isl relations), PE array and mapping the analysis ran on.
  std::optional<input::Problem> analyzed;
  // The hardware model's problem: operands as stored (packed words, scale and zero tensors).
  hw::GemmProblem problem;
  // Stage "choose the mapping": the tiling used (resolved) and the search's statistics.
  mapping::Tiling tiling;
  hw::TilingSearchStats tiling_search;
  // Stage "relation-centric analysis": TENET's metrics (when asked, and for problem sources).
  std::optional<analysis::Report> relations;
  // Stage "one product" (systolic timing): ONE of the matmul's `batch` products on the hardware
  // model, quantized or not (an unquantized GEMM is the identity scheme: no scale or zero tensors,
  // no quantization work, a dequant unit never busy). Its bound is the one every report names.
  std::optional<quant::ProductResult> product;
  // TENET timing with a scheme: the exact quantization counts of the whole GEMM (each weight
  // dequantized once), no hardware model.
  std::optional<quant::QuantCosts> tenet_quant;
  // Stage "physical limits": the least DRAM traffic and cycles of any mapping (systolic timing).
  std::optional<hw::Bounds> bounds;
  double epilogue_energy_pj = 0;  // the fused epilogue of one call (all batch products), pJ
  // The cost of one call (all batch products; the entry's count is not applied). Systolic timing
  // only: none under TENET timing, which has no hardware model.
  std::optional<llm::LayerCost> cost;

  // The hardware model's result of the product (product->hw); InternalError under TENET timing.
  const hw::Result& hw() const;
  // The cost of one call (*cost); InternalError under TENET timing, for the paths that only
  // evaluate with systolic timing (every cost model, the sweep, search, compare).
  const llm::LayerCost& call_cost() const;
};

}  // namespace tenet::eval
