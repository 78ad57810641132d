// Mapping search: for one matmul request on one accelerator, the best (dataflow, buffer tile
// sizes, loop order) under an objective, and the Pareto front of latency vs energy
// (docs/sweep.md#tenet-search).
//
// One search, one ranking: the winner is the auto tiling of every command. Each dataflow asked
// for is evaluated through eval::evaluate with the request's tiling left to hw::choose_tiling
// under the objective (the "built-in" mapping of that dataflow: `tenet analyze`'s auto tiling of
// the same request), and the winner is the one hw::search::choose ranks first among them (under
// latency: the fastest; within 2 % of it the fewest DRAM bytes, then the least energy). The same
// request therefore gives the same mapping and numbers from `tenet search`, `tenet analyze`,
// sweeps and Python.
//
// The exact front (latency vs energy) enumerates the same candidate space (hw::tiling_candidates,
// the space of hw::choose_tiling) per dataflow; a candidate must fit the global buffer (every
// operand's tile, x2 when double-buffered, fits its partition, so no operand is refetched from
// DRAM); the built-in mappings compete too, fitting or not. Evaluation in three levels, each a
// lower bound of the next:
//   L0  closed form, no evaluation: compute cycles (fold pipeline, docs/hardware.md) and the MAC
//       energy;
//   L1  the hardware model only (hw::evaluate_gemm of the problem as eval::evaluate stored it,
//       under the request's hw::Options): its cycles, and MAC + SRAM + DRAM energy (the DRAM part
//       of weights dequantized into SRAM left out) + the register-file energy of A and C;
//   L2  the full evaluation (eval::evaluate of the request with the candidate's mapping).
// Candidates are visited in increasing L0 cycles; one is pruned at L0 or L1 when its bound is
// dominated by an evaluated candidate, so the front is exact. Without the front ("winner") only
// the built-in mappings are evaluated.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/eval/defaults.hpp"
#include "tenet/eval/request.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/llm/layer_cost.hpp"
#include "tenet/llm/matmul_shape.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/mapping/tiling.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::sweep {

// What the search minimises: the one objective type of every tiling search
// (hw::TilingObjective: latency, energy, dram_bytes, edp; parse with hw::parse_tiling_objective).

struct Candidate {
  mapping::Dataflow dataflow = mapping::Dataflow::kOutputStationary;
  mapping::Tiling tiling;  // resolved (concrete extents)
  friend bool operator==(const Candidate& a, const Candidate& b) {
    return a.dataflow == b.dataflow && a.tiling == b.tiling;
  }
};

struct EvaluatedCandidate {
  Candidate candidate;
  bool built_in = false;  // a dataflow with hw::choose_tiling's tiling
  bool fits = true;       // every operand tile fits its buffer partition
  llm::LayerCost cost;    // one call (all batch products)
  double seconds = 0;     // cost.cycles / clock
  double objective = 0;   // cycles, pJ, or pJ·s (edp = energy × seconds)
};

struct SearchOptions {
  hw::TilingObjective objective = eval::defaults::kTilingObjective;
  std::vector<mapping::Dataflow> dataflows{eval::defaults::kSearchDataflows.begin(),
                                           eval::defaults::kSearchDataflows.end()};
  bool exact_front = true;  // the exact Pareto front too; false: the winner only
  bool prune = true;        // false: evaluate every candidate of the front fully (tests)
};

struct SearchCounts {
  std::uint64_t candidates = 0;  // generated (built-ins included)
  std::uint64_t too_big = 0;     // left out: a tile does not fit the buffer
  std::uint64_t pruned_l0 = 0;   // pruned on the closed-form bound
  std::uint64_t pruned_l1 = 0;   // pruned on the hardware-model bound
  std::uint64_t evaluated = 0;   // fully evaluated (L2)
  std::uint64_t failed = 0;      // evaluation errors (e.g. a precision the array lacks)
  std::uint64_t pruned() const { return pruned_l0 + pruned_l1; }
};

struct LayerSearch {
  llm::MatmulShape shape;
  hw::TilingObjective objective = hw::TilingObjective::kLatency;
  std::optional<EvaluatedCandidate> best;    // none if no candidate could be evaluated
  std::vector<EvaluatedCandidate> front;     // Pareto front, by increasing latency
  std::vector<EvaluatedCandidate> built_in;  // one per dataflow (evaluated fully)
  SearchCounts counts;
  std::string error;  // the first evaluation error, when nothing could be evaluated
};

// `request`: the matmul's one request (its matmul, accelerator, scheme or bits, dequant rate,
// hw::Options such as edge transfers); the search sets its dataflow, tiling and tiling objective
// and keeps every other field. Throws InputError for a scheme that does not fit the matmul
// (quant::validate), an accelerator without the precision the scheme needs, or no dataflow.
LayerSearch search_layer(const eval::Request& request, const SearchOptions& options = {});

// Objective value of a cost.
double objective_value(hw::TilingObjective o, const llm::LayerCost& cost, double seconds);

}  // namespace tenet::sweep
