// What one evaluation returns: the output of every stage of the pipeline (pipeline.hpp), and the
// cost of one call of the matmul that every report is built from. Units in docs/output.md.
//
// An explicit variant of three modes, so that a consumer cannot read a field its request did not
// fill:
//  - TenetMetrics: TENET's relation-centric analysis alone: a problem source (JSON spec, TENET
//    files) or a matmul under TENET timing (with a scheme: the exact quantization counts of the
//    whole GEMM); no hardware model, no tiling, no cost;
//  - SystolicTiming: a matmul on the hardware model: the tiling, ONE product (quantized or not:
//    an unquantized GEMM is the identity scheme), the physical limits and the cost of one call;
//    the relation-centric view too when the request asked (Request::relation_centric);
//  - FusedKernel: a fused kernel row of a model pass (MatmulShape::fused_attention or fused_ffn:
//    attention or an MLP as one kernel, eval::evaluate_fused_row, docs/model.md §8): the cost of
//    one call, no single product, tiling or relation-centric view.
// The accessors (systolic(), tenet(), relations(), product(), hw(), call_cost(), tiling()) throw
// InternalError naming the mode the evaluation is in when it has no such field.
#pragma once

#include <optional>
#include <variant>

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

// Stages "build the workload" and "relation-centric analysis": the workload (the GEMM with its
// quantization tensors as isl relations, or the problem source's), PE array and mapping the
// analysis ran on, and TENET's metrics of it.
struct RelationCentric {
  input::Problem analyzed;
  analysis::Report report;
};

// Mode "TENET metrics": a problem source, or a matmul under TENET timing (Timing::kTenet).
struct TenetMetrics {
  RelationCentric relations;
  // TENET timing with a scheme: the exact quantization counts of the whole GEMM (each weight
  // dequantized once), no hardware model. None for a problem source or an unquantized GEMM.
  std::optional<quant::QuantCosts> quant_counts;
};

// Mode "systolic timing": a matmul on the hardware model (Timing::kSystolic).
struct SystolicTiming {
  // Stage "choose the mapping": the tiling used (resolved) and the search's statistics.
  mapping::Tiling tiling;
  hw::TilingSearchStats tiling_search;
  // Stage "one product": ONE of the matmul's `batch` products on the hardware model, quantized or
  // not (no scheme: no scale or zero tensors, no quantization work, a dequant unit never busy).
  // Its bound is the one every report names.
  quant::ProductResult product;
  // Stage "physical limits": the least DRAM traffic and cycles of any mapping.
  hw::Bounds bounds;
  double epilogue_energy_pj = 0;  // the fused epilogue of one call (all batch products), pJ
  // The cost of one call (all batch products; the entry's count is not applied).
  llm::LayerCost cost;
  // The relation-centric view of the untiled mapping, when the request asked for it.
  std::optional<RelationCentric> relations;
};

// Mode "fused kernel": a model pass's fused attention or MLP row (Timing::kSystolic), costed as
// the kernel `tenet kernel` costs (its blocking searched, every matmul tile through evaluate()).
struct FusedKernel {
  llm::LayerCost cost;  // the cost of one call (all its heads / tokens)
};

struct Evaluation {
  // Matmul sources (none of the three for a problem source):
  // stage "apply quantization": the scheme as applied; none for an unquantized GEMM.
  std::optional<AppliedScheme> scheme;
  quant::DequantRate dequant_rate;  // the resolved dequant-unit throughput (0 if none needed)
  // The hardware model's problem: operands as stored (packed words, scale and zero tensors).
  hw::GemmProblem problem;

  // What the request's mode filled.
  std::variant<TenetMetrics, SystolicTiming, FusedKernel> mode;

  // "TENET metrics", "systolic timing" or "fused kernel".
  const char* mode_name() const;
  bool is_systolic() const { return std::holds_alternative<SystolicTiming>(mode); }

  // The mode's fields; InternalError naming the mode this evaluation is in otherwise.
  const TenetMetrics& tenet() const;
  const SystolicTiming& systolic() const;
  // The relation-centric view: always under TENET metrics, when asked under systolic timing;
  // InternalError when the request did not ask for it.
  bool has_relations() const;
  const RelationCentric& relations() const;
  // Systolic timing only (InternalError under TENET metrics, for the paths that only evaluate
  // with systolic timing: every cost model, the sweep, search, compare):
  const quant::ProductResult& product() const { return systolic().product; }
  const hw::Result& hw() const { return systolic().product.hw; }  // the product's hardware result
  // The cost of one call: systolic timing or a fused kernel.
  const llm::LayerCost& call_cost() const;
  const mapping::Tiling& tiling() const { return systolic().tiling; }
  const hw::Bounds& bounds() const { return systolic().bounds; }
};

}  // namespace tenet::eval
