// Evaluating sweep points: the cost of every matmul of the point's workload on the point's
// accelerator (eval::evaluate), summed as `tenet model` does (llm::build_model_report),
// and optionally the TENET relation-centric metrics (analysis::Analyzer).
//
// Reuse of work (docs/sweep.md#reuse-of-work):
// - SweepMemo holds one entry per distinct layer evaluation, keyed by the evaluation request
//   (eval::Request: architecture point up to its clock, quantization scheme, dataflow, tiling and
//   its objective, the matmul's batch, M, N, K, layout, B operand, weights_quantized,
//   epilogue_ops, options).
//   A model's repeated layers and the points that share them are evaluated once; it is shared by
//   all threads.
// - Relation-centric metrics use one parametric Analyzer per (architecture point, dataflow) and
//   thread: the isl set algebra is built once, each GEMM shape only fixes the parameters.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analyzer.hpp"
#include "sweep/memo.hpp"
#include "sweep/sweep_plan.hpp"
#include "sweep/sweep_point.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/eval/request.hpp"
#include "tenet/llm/layer_cost.hpp"

namespace tenet::sweep {

using poly::Integer;

// A layer's cost, or why it cannot be evaluated (an expected outcome in a sweep: e.g. a scheme
// whose precision the accelerator lacks).
struct LayerOutcome {
  std::optional<llm::LayerCost> cost;
  std::string error;
};

// TENET's metrics of one GEMM (untiled systolic mapping on the point's array), summed over
// count × batch for a workload.
struct RelationMetrics {
  Integer delay;          // TENET delay (time stamps, communication overlapped)   [cycles]
  double energy = 0;      // TENET energy                                        [MAC units]
  Integer unique_volume;  // Σ over tensors: elements fetched from the scratchpad [elements]
  Integer total_volume;   // Σ over tensors: (instance, element) accesses         [elements]
  friend bool operator==(const RelationMetrics& a, const RelationMetrics& b) {
    return a.delay == b.delay && a.energy == b.energy && a.unique_volume == b.unique_volume &&
           a.total_volume == b.total_volume;
  }
};

struct RelationKey {
  std::size_t arch = 0;
  mapping::Dataflow dataflow = mapping::Dataflow::kOutputStationary;
  std::int64_t m = 1, n = 1, k = 1;
  friend bool operator==(const RelationKey& a, const RelationKey& b) {
    return a.arch == b.arch && a.dataflow == b.dataflow && a.m == b.m && a.n == b.n && a.k == b.k;
  }
};
struct RelationKeyHash {
  std::size_t operator()(const RelationKey& k) const;
};
struct RelationOutcome {
  std::optional<RelationMetrics> metrics;
  std::string error;
};

struct SweepMemo {
  // Keyed by the evaluation request (eval::hash / eval::same_evaluation; accelerator and scheme
  // by their plan indices).
  Memo<eval::Request, LayerOutcome, eval::RequestHash, eval::SameEvaluation> layers;
  Memo<RelationKey, RelationOutcome, RelationKeyHash> relations;
};

// What a generation request adds to its point (llm::RequestReport; docs/generate.md).
struct RequestMetrics {
  double ttft_seconds = 0;
  std::optional<double> tpot_seconds;  // none when tokens = 1
  double e2e_seconds = 0;
  double tokens_per_second = 0;
  std::optional<bool> fits;  // none: the accelerator states no dram.capacity_bytes
  std::optional<std::int64_t> max_batch;
  Integer memory_bytes;  // per chip: weights, KV cache and activations
  friend bool operator==(const RequestMetrics& a, const RequestMetrics& b) {
    return a.ttft_seconds == b.ttft_seconds && a.tpot_seconds == b.tpot_seconds &&
           a.e2e_seconds == b.e2e_seconds && a.tokens_per_second == b.tokens_per_second &&
           a.fits == b.fits && a.max_batch == b.max_batch && a.memory_bytes == b.memory_bytes;
  }
};

// The metrics of one point (units in docs/sweep.md#columns).
struct PointMetrics {
  std::string status = "ok";  // "ok" or "error"
  std::string error;          // why, when status is "error"
  std::int64_t matmuls = 0;   // distinct matmul entries of the workload
  Integer calls, macs;        // Σ count, Σ count·batch·M·N·K
  Integer cycles;             // Σ count·cycles (calls run one after another)
  double seconds = 0;         // cycles / clock
  double energy_pj = 0;
  Integer dram_bytes, sram_bytes;
  double utilization = 0;  // cycle-weighted mean over the matmuls
  std::string bound;       // the bound of the matmuls holding the most cycles
  std::optional<double> tokens_per_second;
  std::optional<hw::BoundsSum> bounds;      // Σ count·bounds of the matmuls (physical limits)
  std::optional<RelationMetrics> relation;  // only when the spec asks for it
  std::optional<RequestMetrics> request;    // generation requests only
  friend bool operator==(const PointMetrics& a, const PointMetrics& b);
};

struct EvaluatorStats {
  std::uint64_t layer_requests = 0;     // layer costs asked for (Σ over points of their matmuls)
  std::uint64_t layer_evaluations = 0;  // eval::evaluate calls
  std::uint64_t relation_requests = 0, relation_evaluations = 0;
};

// Evaluates points of one plan. One PointEvaluator per thread (it keeps isl objects of its
// thread); `memo` may be shared by all of them, or null to evaluate every layer afresh.
class PointEvaluator {
 public:
  PointEvaluator(const SweepPlan& plan, SweepMemo* memo);
  ~PointEvaluator();
  PointEvaluator(const PointEvaluator&) = delete;
  PointEvaluator& operator=(const PointEvaluator&) = delete;

  PointMetrics evaluate(const SweepPoint& point);
  const EvaluatorStats& stats() const { return stats_; }  // of this evaluator only

 private:
  const std::shared_ptr<const arch::Accelerator>& accelerator(std::size_t arch_index);
  LayerOutcome layer(const SweepPoint& point, const llm::MatmulShape& shape);
  eval::Request layer_request(const SweepPoint& point, const llm::MatmulShape& shape);
  PointMetrics request(const SweepPoint& point);
  RelationOutcome relation(const SweepPoint& point, const llm::MatmulShape& shape);

  const SweepPlan& plan_;
  SweepMemo* memo_;
  EvaluatorStats stats_;
  std::map<std::size_t, std::shared_ptr<const arch::Accelerator>> accelerators_;  // bounded
  std::vector<std::shared_ptr<const quant::QuantSpec>> schemes_;  // per plan quant index
  std::map<std::pair<std::size_t, int>, analysis::Analyzer> analyzers_;
};

}  // namespace tenet::sweep
