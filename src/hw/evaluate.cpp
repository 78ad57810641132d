#include "tenet/hw/evaluate.hpp"

#include "hw/model.hpp"
#include "hw/overflow_context.hpp"

namespace tenet::hw {

Result evaluate_gemm(const arch::Accelerator& acc, const GemmProblem& problem,
                     mapping::Dataflow dataflow, const mapping::Tiling& tiling,
                     const Options& options) {
  return detail::naming_gemm_on_overflow(
      problem, [&] { return detail::Model(acc, problem, dataflow, tiling, options).result(); });
}

}  // namespace tenet::hw
