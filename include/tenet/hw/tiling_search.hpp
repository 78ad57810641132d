// Choosing a buffer-level tiling: tile extents and loop order such that the tiles fit the
// global buffer, minimising DRAM traffic, then cycles, then the number of tiles.
#pragma once

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/problem.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::hw {

// Candidates per dimension: the whole dimension, multiples of the array extent the dimension is
// mapped to (x 2^e), and near-even splits into 2..8 pieces; all six loop orders. When the whole
// GEMM fits, the untiled run is chosen.
mapping::Tiling choose_tiling(const arch::Accelerator& acc, const GemmProblem& problem,
                              mapping::Dataflow dataflow, const Options& options = {});

}  // namespace tenet::hw
