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
