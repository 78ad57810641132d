// The base request the fused-kernel and chip tests cost their kernels with: bf16 operands and
// output, weight-stationary, on `acc`.
#pragma once

#include <memory>
#include <utility>

#include "tenet/arch/accelerator.hpp"
#include "tenet/eval/pipeline.hpp"

namespace tenet::test {

inline eval::Request bf16_ws_request(std::shared_ptr<const arch::Accelerator> acc) {
  eval::Request r;
  r.bits = {16, 16, 16};
  r.dataflow = mapping::Dataflow::kWeightStationary;
  r.accelerator = std::move(acc);
  return r;
}

}  // namespace tenet::test
