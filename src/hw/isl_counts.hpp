// Access counts of the tiled systolic dataflow as exact counts of isl relations (tenet::poly),
// the relation-defined counterpart of the closed forms in evaluate_gemm.
#pragma once

#include "tenet/hw/gemm_problem.hpp"
#include "tenet/mapping/tiling.hpp"
#include "tenet/poly/count.hpp"

namespace tenet::hw {

struct IslAccessCounts {
  // |{ (fold, element) : some instance of the fold accesses the element }|, fold = make_fold_map:
  // the array-side SRAM accesses (reads of an input, writes of an output).
  poly::Integer sram;
  // |{ (q_0..q_r, element) }| with q the tile coordinates of the loops down to the innermost
  // loop over an index of the tensor that has more than one tile: the DRAM traffic of a tensor
  // kept in the global buffer (reads of an input, writes of an output).
  poly::Integer dram_resident;
  // |tensor elements accessed|.
  poly::Integer unique;
};

// One MAC per PE per cycle (no precision packing).
IslAccessCounts count_accesses_isl(mapping::Dataflow dataflow, long long rows, long long cols,
                                   const mapping::GemmShape& shape, const mapping::Tiling& tiling,
                                   const Operand& operand);

}  // namespace tenet::hw
