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

// An extent of dimension d (the others as in `tile`) that no buffering's fitted extent exceeds
// (largest_fitting_extent for every Tiling::single), from the footprints' linear bounds; 0 when
// none can fit. The search skips capacity-boundary pairs by it.
long long fitting_extent_bound(const arch::Accelerator& acc, const GemmProblem& problem,
                               const std::array<long long, 3>& tile, int d);

// The latency search's floor of the compute cycles of every tile with the extents of `tile` but
// for dimension d, whose extent is at most `upto` (>= 1); not under a microarchitecture.
long long search_compute_floor_upto(const arch::Accelerator& acc, const GemmProblem& problem,
                                    mapping::Dataflow dataflow,
                                    const std::array<long long, 3>& tile, int d, long long upto);

// The latency search's loose DRAM-byte floor of a group of candidates (every loop order of the
// resolved `tiling`, its extents and buffering): each operand's cheaper way without the buffer's
// sets, but those whose tile alone does not fit streamed.
double search_loose_floor(const arch::Accelerator& acc, const GemmProblem& problem,
                          mapping::Dataflow dataflow, const mapping::Tiling& tiling);

// The cap's floor of the DRAM bytes of every candidate (any loop order and buffering) whose
// extents are those of `tile` but for dimension d, whose extent is at most `upto` (>= 1)
// (TrafficFloor::pair_floor).
double search_pair_floor(const arch::Accelerator& acc, const GemmProblem& problem,
                         mapping::Dataflow dataflow, const std::array<long long, 3>& tile, int d,
                         long long upto);

}  // namespace tenet::hw::detail
