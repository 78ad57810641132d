// Tests: the request of one matmul on an accelerator under a scheme, with the options the tests
// vary (tiling, objective, dequant rate, hardware idealisations); eval::evaluate runs it.
#pragma once

#include <memory>

#include "tenet/eval/pipeline.hpp"

namespace tenet::test {

struct LayerOptions {
  bool choose_tiling = true;  // false: `tiling`
  mapping::Tiling tiling;
  hw::TilingObjective tiling_objective = hw::TilingObjective::kLatency;
  hw::Options hw;
  long long dequant_elements_per_cycle = 0, dequant_ops_per_cycle = 0;
};

inline eval::Request layer_request(const arch::Accelerator& acc, mapping::Dataflow dataflow,
                                   const quant::QuantSpec& scheme, const llm::MatmulShape& shape,
                                   const LayerOptions& o = {}) {
  eval::Request r;
  r.matmul = shape;
  r.accelerator = std::make_shared<const arch::Accelerator>(acc);
  r.scheme = std::make_shared<const quant::QuantSpec>(scheme);
  r.dataflow = dataflow;
  if (!o.choose_tiling) r.tiling = o.tiling;
  r.tiling_objective = o.tiling_objective;
  r.hw = o.hw;
  r.dequant_rate = {o.dequant_elements_per_cycle, o.dequant_ops_per_cycle};
  return r;
}

}  // namespace tenet::test

namespace tenet::test {

// The quantized GEMM C = A·B of the quant tests: B as `apply` says (weights, or the KV cache with
// its token axis), run through the pipeline; the product of the evaluation.
struct QuantGemmOptions {
  quant::ApplyOptions apply;
  mapping::Tiling tiling;      // 0 = whole dimension
  bool choose_tiling = false;  // the tiling search instead
  hw::Options hw;
  long long dequant_elements_per_cycle = 0, dequant_ops_per_cycle = 0;
};

inline quant::ProductResult evaluate_quant_gemm(const arch::Accelerator& acc,
                                                const mapping::GemmShape& shape,
                                                const quant::QuantSpec& spec,
                                                mapping::Dataflow dataflow,
                                                const QuantGemmOptions& o = {}) {
  llm::MatmulShape m;
  m.name = "gemm";
  m.m = shape.m, m.n = shape.n, m.k = shape.k;
  if (o.apply.b == workload::OperandRole::kKvCache) {
    m.b_operand = workload::OperandRole::kKvCache;
    m.layout =
        o.apply.kv_token_axis == quant::KvTokenAxis::kN ? llm::Layout::kNT : llm::Layout::kNN;
  } else {
    m.layout = o.apply.b_layout;
  }
  LayerOptions lo;
  lo.choose_tiling = o.choose_tiling;
  lo.tiling = o.tiling;
  lo.hw = o.hw;
  lo.dequant_elements_per_cycle = o.dequant_elements_per_cycle;
  lo.dequant_ops_per_cycle = o.dequant_ops_per_cycle;
  return eval::evaluate(layer_request(acc, dataflow, spec, m, lo)).product();
}

}  // namespace tenet::test
