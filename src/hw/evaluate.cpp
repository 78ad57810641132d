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

std::vector<TensorResult> evaluate_gemm_tensors(const arch::Accelerator& acc,
                                                const GemmProblem& problem,
                                                mapping::Dataflow dataflow,
                                                const mapping::Tiling& tiling,
                                                const Options& options) {
  return detail::naming_gemm_on_overflow(
      problem, [&] { return detail::Model(acc, problem, dataflow, tiling, options).tensors(); });
}

std::optional<Result> evaluate_gemm_if_fits(const arch::Accelerator& acc,
                                            const GemmProblem& problem, mapping::Dataflow dataflow,
                                            const mapping::Tiling& tiling, const Options& options) {
  return detail::naming_gemm_on_overflow(problem, [&]() -> std::optional<Result> {
    const detail::Model m(acc, problem, dataflow, tiling, options);
    if (!m.feasible()) return std::nullopt;
    return m.result();
  });
}

}  // namespace tenet::hw
