// Mapping search: for one matmul on one accelerator under one quantization scheme, the best
// (dataflow, buffer tile sizes, loop order) under an objective, and the Pareto front of latency
// vs energy (docs/sweep.md#tenet-search).
//
// Candidates: every dataflow asked for x the tilings of hw::tiling_candidates — the one candidate
// space of hw::choose_tiling (`--tile auto` of every command) and of this search: per GEMM
// dimension the whole dimension, the array extent times 2^e, powers of two above it and near-even
// splits into 2..4 pieces rounded up to it, x the distinct loop orders. A
// candidate must fit the global buffer: every operand's tile (x2 when double-buffered) fits its
// partition, so no operand is refetched from DRAM. The built-in mappings (each dataflow with
// hw::choose_tiling's tiling, what `tenet sweep` / `tenet model` evaluate) are always evaluated
// and compete too, fitting or not, so the winner is never worse than the best built-in.
//
// Evaluation in three levels, each a lower bound of the next:
//   L0  closed form, no evaluation: compute cycles (fold pipeline, docs/hardware.md) and the MAC
//       energy;
//   L1  the hardware model only (hw::evaluate_gemm of the quantized problem): its cycles, and
//       MAC + SRAM + DRAM energy (the DRAM part of weights dequantized into SRAM left out) + the
//       register-file energy of A and C;
//   L2  the full evaluation (eval::evaluate).
// Candidates are visited in increasing L0 objective; one is pruned at L0 or L1 when its bound is
// dominated by an evaluated candidate (front mode), or cannot beat the best one (winner mode).
// Either way the winner is exact; in front mode the front is exact as well.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/eval/defaults.hpp"
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
  bool exact_front = true;     // prune by dominance (exact front) or by the objective (winner only)
  bool prune = true;           // false: evaluate every candidate fully (for tests and comparisons)
  long long dequant_rate = 0;  // dequant unit elements/cycle; 0 = the default rule (eval::defaults)
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

// Throws InputError for a scheme that does not fit the matmul (quant::validate) or an
// accelerator without the precision the scheme needs.
LayerSearch search_layer(const arch::Accelerator& acc, const quant::QuantSpec& scheme,
                         const llm::MatmulShape& shape, const SearchOptions& options = {});

// Objective value of a cost.
double objective_value(hw::TilingObjective o, const llm::LayerCost& cost, double seconds);

}  // namespace tenet::sweep
