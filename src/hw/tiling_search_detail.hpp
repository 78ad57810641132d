// Internals of the tiling search exposed to its tests (internal to tenet::hw).
#pragma once

#include <array>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::hw::detail {

// The compute cycles the latency search bounds groups with (not under a microarchitecture:
// arch::Microarch::active() false), one search's per-extent tables asked for each tiling in turn;
// each must equal Model::compute_cycles().
std::vector<long long> search_compute_cycles(const arch::Accelerator& acc,
                                             const GemmProblem& problem, mapping::Dataflow dataflow,
                                             const std::vector<mapping::Tiling>& tilings);

// The largest extent of dimension d (the others as in `tile`) with which every operand's tile
// fits its buffer (as the model counts footprints; `single`: Tiling::single), 0 if none does;
// at most `below` when below >= 0. The search's capacity-boundary extents. `bisect`: by plain
// bisection over the whole range (the reference); else the range is narrowed first.
long long largest_fitting_extent(const arch::Accelerator& acc, const GemmProblem& problem,
                                 const std::array<long long, 3>& tile, int d, unsigned single,
                                 long long below, bool bisect);

}  // namespace tenet::hw::detail
