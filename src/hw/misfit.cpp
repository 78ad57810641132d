#include "hw/misfit.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hw/model.hpp"
#include "hw/overflow_context.hpp"
#include "tenet/hw/tiling_search.hpp"

namespace tenet::hw {

std::string describe(const Misfit& m) {
  std::string out = fmt::format(
      "the operands that must be SRAM-resident need {} bytes of global-buffer partition \"{}\" "
      "({} bytes)",
      m.needed_bytes, m.partition, m.capacity_bytes);
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const MisfitOperand& o = m.operands[i];
    out += fmt::format("{}{} ({}) {} bytes", i == 0 ? ": " : ", ", o.name,
                       workload::to_string(o.role), o.footprint_bytes);
  }
  return out;
}

std::optional<Misfit> tiling_misfit(const arch::Accelerator& acc, const GemmProblem& problem,
                                    mapping::Dataflow dataflow, const mapping::Tiling& tiling,
                                    const Options& options) {
  return detail::naming_gemm_on_overflow(
      problem, [&] { return detail::Model(acc, problem, dataflow, tiling, options).misfit(); });
}

std::optional<std::pair<mapping::Tiling, Misfit>> smallest_tile_misfit(const arch::Accelerator& acc,
                                                                       const GemmProblem& problem,
                                                                       mapping::Dataflow dataflow,
                                                                       const Options& options) {
  mapping::Tiling smallest = mapping::resolve_tiling({}, problem.shape);
  for (const mapping::Tiling& t : tiling_candidates(acc, problem, dataflow)) {
    smallest.m = std::min(smallest.m, t.m);
    smallest.n = std::min(smallest.n, t.n);
    smallest.k = std::min(smallest.k, t.k);
    smallest.single |= t.single;  // a single-buffered tile needs less
  }
  std::optional<Misfit> m = tiling_misfit(acc, problem, dataflow, smallest, options);
  if (!m) return std::nullopt;
  return std::make_pair(smallest, *m);
}

}  // namespace tenet::hw
