#include <algorithm>
#include <cmath>
#include <tuple>

#include "detail/checked_int.hpp"
#include "hw/overflow_context.hpp"
#include "hw/search/search_detail.hpp"
#include "hw/tiling_search_detail.hpp"
#include "tenet/error.hpp"

// Floors of cycles: the search's compute cycles per extent, group floors with edge windows;
// the public compute_cycles_floor(s) and plan_candidate; the floors exposed to the tests.

namespace tenet::hw::search {

long long Search::group_floor(const Tiling& t) const {
  const detail::Plan plan = detail::retile(base_, t);
  const std::array<long long, 3> extent{plan.dim[0].tile, plan.dim[1].tile, plan.dim[2].tile};
  if (micro_ && !options_.unlimited_buffer && !fit_.fits(extent, t.single, true))
    return kInfeasible;
  const long long compute =
      micro_ ? detail::compute_cycles(plan, &acc_.spec().micro) : compute_cycles_of(plan.tiling);
  if (!edge_floor()) return compute;
  if (!options_.unlimited_buffer && !fit_.fits(extent, t.single)) return compute;
  return detail::add(compute, edge_windows(plan, [](size_t) { return true; }));
}

long long Search::least_edge_windows(const detail::Plan& plan,
                                     const std::vector<unsigned>& sets) const {
  long long least = -1;
  for (unsigned set : sets) {
    const long long edges = edge_windows(plan, [set](size_t i) { return (set >> i & 1u) != 0; });
    if (least < 0 || edges < least) least = edges;
  }
  return least < 0 ? 0 : least;
}

}  // namespace tenet::hw::search

namespace tenet::hw {

namespace detail {

std::vector<long long> search_compute_cycles(const arch::Accelerator& acc,
                                             const GemmProblem& problem, mapping::Dataflow dataflow,
                                             const std::vector<mapping::Tiling>& tilings) {
  validate(problem);
  const search::Search s(acc, problem, dataflow, Options{}, TilingObjective::kLatency);
  std::vector<long long> out;
  for (const mapping::Tiling& t : tilings) out.push_back(s.compute_cycles_of(t));
  return out;
}

long long largest_fitting_extent(const arch::Accelerator& acc, const GemmProblem& problem,
                                 const std::array<long long, 3>& tile, int d, unsigned single,
                                 long long below, bool bisect) {
  return search::FitExtents(acc, problem).largest(tile, d, single, below, bisect);
}

long long fitting_extent_bound(const arch::Accelerator& acc, const GemmProblem& problem,
                               const std::array<long long, 3>& tile, int d) {
  const search::FitExtents fit(acc, problem);
  search::FitExtents::Others others;
  if (!fit.prepare(tile, d, others)) return 0;
  return fit.upper(others, d);
}

long long search_compute_floor_upto(const arch::Accelerator& acc, const GemmProblem& problem,
                                    mapping::Dataflow dataflow,
                                    const std::array<long long, 3>& tile, int d, long long upto) {
  validate(problem);
  const search::Search s(acc, problem, dataflow, Options{}, TilingObjective::kLatency);
  return s.compute_floor_upto(tile, d, upto);
}

double search_loose_floor(const arch::Accelerator& acc, const GemmProblem& problem,
                          mapping::Dataflow dataflow, const mapping::Tiling& tiling) {
  validate(problem);
  search::TrafficFloor traffic(acc, problem, dataflow, Options{});
  const int mask = (tiling.m < problem.shape.m ? 1 : 0) | (tiling.n < problem.shape.n ? 2 : 0) |
                   (tiling.k < problem.shape.k ? 4 : 0);
  const search::Group g{tiling.m, tiling.n, tiling.k, tiling.single, mask, 0};
  const unsigned streamed = traffic.alone_too_large(g.at(0));
  traffic.set_extents(g.at(0), false);
  return traffic.loose(g, streamed);
}

double search_pair_floor(const arch::Accelerator& acc, const GemmProblem& problem,
                         mapping::Dataflow dataflow, const std::array<long long, 3>& tile, int d,
                         long long upto) {
  validate(problem);
  search::TrafficFloor traffic(acc, problem, dataflow, Options{});
  return traffic.pair_floor(tile, d, upto);
}

}  // namespace detail

long long compute_cycles_floor(const arch::Accelerator& acc, const GemmProblem& problem,
                               mapping::Dataflow dataflow, const mapping::Tiling& tiling) {
  validate(problem);
  return detail::naming_gemm_on_overflow(problem, [&] {
    return detail::Model(acc, problem, dataflow, tiling, Options{}, {false, false})
        .compute_cycles();
  });
}

PlannedCandidate plan_candidate(const arch::Accelerator& acc, const GemmProblem& problem,
                                mapping::Dataflow dataflow, const mapping::Tiling& tiling,
                                const Options& options) {
  return detail::naming_gemm_on_overflow(problem, [&] {
    const detail::Model m(acc, problem, dataflow, tiling, options);
    PlannedCandidate c;
    c.feasible = m.feasible();
    if (!c.feasible) return c;
    c.all_resident = true;
    for (const detail::OperandPlan& x : m.operands()) c.all_resident = c.all_resident && x.resident;
    c.energy = m.energy();
    c.cycles_floor = std::max(m.compute_cycles(), search::cycles_floor(m));
    return c;
  });
}

std::vector<long long> compute_cycles_floors(const arch::Accelerator& acc,
                                             const GemmProblem& problem, mapping::Dataflow dataflow,
                                             const std::vector<mapping::Tiling>& tilings) {
  if (acc.spec().micro.active()) {
    std::vector<long long> out;
    for (const mapping::Tiling& t : tilings)
      out.push_back(compute_cycles_floor(acc, problem, dataflow, t));
    return out;
  }
  return detail::naming_gemm_on_overflow(
      problem, [&] { return detail::search_compute_cycles(acc, problem, dataflow, tilings); });
}

}  // namespace tenet::hw
