// Choosing a buffer-level tiling: tile extents and loop order, scored by the full hardware model
// (evaluate_gemm: total cycles with SRAM / DRAM stalls, DRAM bytes, energy) under an objective.
#pragma once

#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::hw {

// What the search minimises; ties are broken as listed, then by fewer tiles, then by the first
// candidate in the enumeration order of tiling_candidates().
enum class TilingObjective {
  kLatency,    // Result::cycles.total, then Result::dram_bytes (the default)
  kEnergy,     // Result::energy_pj.total, then cycles, then DRAM bytes
  kDramBytes,  // Result::dram_bytes, then cycles
  kEdp,        // energy_pj.total x cycles.total, then cycles, then DRAM bytes
};
const char* to_string(TilingObjective objective);  // "latency", "energy", "dram_bytes", "edp"
// Throws InputError(unknown-name, "", option) naming the accepted values.
TilingObjective parse_tiling_objective(const std::string& text,
                                       const std::string& option = "--tiling-objective");

// How much work one search did.
struct TilingSearchStats {
  long long candidates = 0;  // tilings in the search space
  long long evaluated = 0;   // scored with the full model (timing / result)
  long long pruned = 0;      // skipped: their lower bound could not beat the best
  long long planned = 0;     // dram_bytes: operands planned for the exact bytes (no timing)
};

struct TilingSearchOptions {
  TilingObjective objective = TilingObjective::kLatency;
  TilingSearchStats* stats = nullptr;  // filled in when not null
};

// The search space, resolved against the shape. Per dimension: the whole dimension, multiples
// of the array extent it is mapped to (x 2^e; 64 for the streamed dimension), powers of two
// above that extent and near-even splits into 2..4 pieces rounded up to it, all below the
// dimension; then every loop order that differs on the dimensions with more than one tile.
// Under kDramBytes also extents sized by the buffer: the output tile's sides near
// sqrt(usable elements) (x 0.71 and 1.41; as is, rounded to the array extent, and evened out over
// the tiles), 16-long chunks of the streamed dimension, and extents on the capacity boundary (for
// every pair of listed extents of two dimensions, the largest extent of the third with which every
// operand's tile fits, and that extent evened out over its tiles; docs/hardware.md).
std::vector<mapping::Tiling> tiling_candidates(
    const arch::Accelerator& acc, const GemmProblem& problem, mapping::Dataflow dataflow,
    TilingObjective objective = TilingObjective::kLatency);

// The candidate that minimises the objective (same result as evaluating every candidate with
// evaluate_gemm). Under kLatency a best-first search on lower bounds (compute cycles, a
// DRAM-channel bound, exact DRAM bytes) times only candidates that can still win
// (docs/hardware.md). Returned resolved against the shape.
mapping::Tiling choose_tiling(const arch::Accelerator& acc, const GemmProblem& problem,
                              mapping::Dataflow dataflow, const Options& options = {},
                              const TilingSearchOptions& search = {});

}  // namespace tenet::hw
