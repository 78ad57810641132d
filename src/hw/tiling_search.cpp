#include "tenet/hw/tiling_search.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "hw/model.hpp"

namespace tenet::hw {
namespace {

using mapping::GemmDim;
using mapping::Tiling;

// Tile extents worth trying for a dimension of `size` cut by the array into pieces of `unit`.
std::vector<long long> candidates(long long size, long long unit) {
  std::set<long long> out{size};
  for (long long t = unit; t < size && out.size() < 24; t *= 2) out.insert(t);
  for (long long parts = 2; parts <= 8; ++parts) {
    const long long even = detail::ceil_div(detail::ceil_div(size, parts), unit) * unit;
    if (even < size) out.insert(even);
  }
  return {out.begin(), out.end()};
}

const std::array<std::array<GemmDim, 3>, 6> kOrders{{
    {GemmDim::kM, GemmDim::kN, GemmDim::kK}, {GemmDim::kN, GemmDim::kM, GemmDim::kK},
    {GemmDim::kM, GemmDim::kK, GemmDim::kN}, {GemmDim::kK, GemmDim::kM, GemmDim::kN},
    {GemmDim::kN, GemmDim::kK, GemmDim::kM}, {GemmDim::kK, GemmDim::kN, GemmDim::kM}}};

struct Scored {
  double dram_bytes;
  long long tiles;
  Tiling tiling;
};

}  // namespace

Tiling choose_tiling(const arch::Accelerator& acc, const GemmProblem& problem,
                     mapping::Dataflow dataflow, const Options& options) {
  // The untiled model gives the array split of every dimension.
  const detail::Model whole(acc, problem, dataflow, Tiling{}, options);
  const detail::Plan& plan = whole.plan();
  std::array<std::vector<long long>, 3> extents;
  for (int d = 0; d < 3; ++d) {
    const long long unit = plan.dim[d].split > 0 ? plan.dim[d].split : 64;
    extents[d] = candidates(plan.dim[d].size, std::min(unit, plan.dim[d].size));
  }
  // Pass 1: DRAM bytes of every candidate (cheap); pass 2: timing of the best few.
  std::vector<Scored> scored;
  for (long long tm : extents[0])
    for (long long tn : extents[1])
      for (long long tk : extents[2])
        for (const auto& order : kOrders) {
          Tiling t{tm, tn, tk, order};
          const detail::Model m(acc, problem, dataflow, t, options);
          scored.push_back({m.dram_bytes(), m.tiles(), t});
          if (m.tiles() == 1) break;  // the loop order does not matter for one tile
        }
  std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    return std::tie(a.dram_bytes, a.tiles) < std::tie(b.dram_bytes, b.tiles);
  });
  const size_t finalists = std::min<size_t>(scored.size(), 12);
  Tiling best = scored.front().tiling;
  long long best_cycles = -1;
  for (size_t i = 0; i < finalists && scored[i].dram_bytes == scored.front().dram_bytes; ++i) {
    const detail::Model m(acc, problem, dataflow, scored[i].tiling, options);
    const long long cycles = m.timing().total;
    if (best_cycles < 0 || cycles < best_cycles) best = scored[i].tiling, best_cycles = cycles;
  }
  return mapping::resolve_tiling(best, problem.shape);
}

}  // namespace tenet::hw
