// Choosing a buffer-level tiling: tile extents and loop order, scored by the full hardware model
// (evaluate_gemm: total cycles with SRAM / DRAM stalls, DRAM bytes, energy) under an objective.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/bounds.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::hw {

// What the search minimises; ties are broken as listed, then by fewer tiles, then by the first
// candidate in the enumeration order of tiling_candidates().
enum class TilingObjective {
  kLatency,    // the default: the least Result::cycles.total (C*); among the candidates within 2 %
               // of C* (total <= 1.02 C*), the fewest Result::dram_bytes, then the least energy,
               // then cycles. Its cycles are never above 1.01 x any candidate's.
  kEnergy,     // Result::energy_pj.total, then cycles, then DRAM bytes
  kDramBytes,  // Result::dram_bytes, then cycles
  kEdp,        // energy_pj.total x cycles.total, then cycles, then DRAM bytes
};
const char* to_string(TilingObjective objective);  // "latency", "energy", "dram_bytes", "edp"
// The name and, for latency, its rule, as report cost-model lines state it: "latency: fastest;
// within 2 % of it, fewest DRAM bytes, then least energy"; the others as to_string.
std::string describe(TilingObjective objective);
// The same, with the accelerator file's near-tie window (compiler.tiling_near_tie_percent; 2 %
// gives describe(objective) exactly, 0 "latency: the fastest; ...").
std::string describe(TilingObjective objective, long long near_tie_percent);
// Throws InputError(unknown-name, "", option) naming the accepted values.
TilingObjective parse_tiling_objective(const std::string& text,
                                       const std::string& option = "--tiling-objective");

// How much work one search did.
struct TilingSearchStats {
  // tilings the search generated: the whole space (tiling_candidates), but under latency, which
  // does not generate the parts of the capacity boundary whose cycle floor lies beyond the
  // near-tie window of a first timed candidate (they cannot be chosen)
  long long candidates = 0;
  long long evaluated = 0;  // scored with the full model (timing / result)
  long long pruned = 0;     // skipped: their lower bound could not beat the best
  long long planned = 0;    // dram_bytes: operands planned for the exact bytes (no timing)
};

struct TilingSearchOptions {
  TilingObjective objective = TilingObjective::kLatency;
  TilingSearchStats* stats = nullptr;  // filled in when not null
  // When not null: set to compute_bounds(acc, problem, options) of the search's arguments when
  // the search computes them (the latency rule's cap does, docs/hardware.md), else left as it
  // is. A caller that needs the bounds too (eval::evaluate's physical limits) takes them from here
  // instead of computing them again: the same function of the same arguments.
  std::optional<Bounds>* bounds = nullptr;
  // When not null: set to evaluate_gemm(acc, problem, dataflow, <the tiling returned>, options),
  // the search's own timing of the tiling it chose (not timed again), when that tiling fits;
  // else left as it is (evaluate_gemm would throw). eval::evaluate's product stage takes it.
  std::optional<Result>* result = nullptr;
};

// The search space, resolved against the shape: one space for every objective. Per dimension:
// the whole dimension, multiples of the array extent it is mapped to (x 2^e; 64 for the streamed
// dimension), powers of two above that extent and near-even splits into 2..4 pieces rounded up
// to it, all below the dimension; unless the buffer is unlimited, also extents sized by the
// buffer: the output tile's sides near sqrt(usable elements) (x 0.71 and 1.41; as is, rounded to
// the array extent, and evened out over the tiles), 16-long chunks of the streamed dimension, and
// extents on the capacity boundary (for every pair of listed extents of two dimensions, the
// largest extent of the third with which every operand's tile fits, and that extent evened out
// over its tiles; docs/hardware.md); then every loop order that differs on the dimensions with
// more than one tile.
std::vector<mapping::Tiling> tiling_candidates(const arch::Accelerator& acc,
                                               const GemmProblem& problem,
                                               mapping::Dataflow dataflow);

// The compute cycles of a tiling (the fold pipeline without stalls, Result::cycles.compute): a
// floor of Result::cycles.total, from the hardware model's own fold timing.
long long compute_cycles_floor(const arch::Accelerator& acc, const GemmProblem& problem,
                               mapping::Dataflow dataflow, const mapping::Tiling& tiling);
// compute_cycles_floor of each tiling in turn (the same values), from one search's per-extent
// tables: what `tenet search` bounds its candidates with.
std::vector<long long> compute_cycles_floors(const arch::Accelerator& acc,
                                             const GemmProblem& problem, mapping::Dataflow dataflow,
                                             const std::vector<mapping::Tiling>& tilings);

// What a search knows of a tiling before timing it (the hardware model planned, not timed).
struct PlannedCandidate {
  bool feasible = false;       // evaluate_gemm_if_fits would give a result
  bool all_resident = false;   // every operand's tile is kept in the global buffer
  EnergyBreakdown energy;      // Result::energy_pj (exact: access counts only; when feasible)
  long long cycles_floor = 0;  // at most Result::cycles.total (the model's cycle bound)
};
PlannedCandidate plan_candidate(const arch::Accelerator& acc, const GemmProblem& problem,
                                mapping::Dataflow dataflow, const mapping::Tiling& tiling,
                                const Options& options = {});

// The candidate that minimises the objective (same result as evaluating every candidate with
// evaluate_gemm). Under kLatency branch and bound on cycle floors (compute cycles, the DRAM
// channel time of a closed-form traffic floor, the model's cycle bound), then on DRAM-byte floors
// within the near-tie window; under kDramBytes on DRAM-byte floors (docs/hardware.md). Returned
// resolved against the shape.
mapping::Tiling choose_tiling(const arch::Accelerator& acc, const GemmProblem& problem,
                              mapping::Dataflow dataflow, const Options& options = {},
                              const TilingSearchOptions& search = {});

}  // namespace tenet::hw
