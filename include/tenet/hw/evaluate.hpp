// The hardware evaluator: cycles (SCALE-Sim conventions plus bandwidth stalls), accesses per
// memory level, DRAM traffic and energy of one GEMM on one accelerator. Closed forms whose cost
// does not grow with M, N, K (docs/hardware.md gives every rule).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/hw/result.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::hw {

struct Options {
  bool unlimited_sram_bandwidth = false;  // no SRAM stalls whatever the configured bandwidth
  bool unlimited_dram_bandwidth = false;  // no DRAM stalls whatever the configured bandwidth
  bool unlimited_buffer = false;          // every operand resident whatever its size
  // Charge the first tile's DRAM fill (resident inputs, before the first fold) and the last
  // tile's write-back (resident outputs, after the last fold) to cycles.total, as DRAM stall:
  // a matmul starts with nothing of it on chip, so no time is below DRAM bytes / bandwidth.
  // On by default; off is SCALE-Sim's convention (both lie outside the counted cycles).
  bool edge_transfers = true;
  // Charge the accelerator's fixed cost of a kernel call (arch::Chip::kernel_launch_ns) to this
  // evaluation. Off for the tiles eval::evaluate_kernel costs: a fused kernel is one call and pays
  // it once (docs/model.md#fused-kernels).
  bool kernel_launch = true;
};

// The array's pipeline cycles beside the streamed length: every fold pays `per_fold` (fill and
// drain: R + C - 2; ws / is also the R-cycle preload of the stationary tile), the whole GEMM
// `once` more (the first fold's preload when the PEs double-buffer the stationary operand, whose
// later preloads overlap the previous fold). The one fold-timing rule of the model, the tiling
// search and the sweep's mapping search.
struct FoldOverhead {
  long long per_fold = 0;
  long long once = 0;
};
FoldOverhead fold_overhead(const arch::Accelerator& acc, mapping::Dataflow dataflow);

// The MAC precision of a problem: `problem.precision`, or Accelerator::select_precision of the
// widest activation / weight operand (of any input if there is none of those; 16 bits if no
// input).
workload::DataType mac_precision(const arch::Accelerator& acc, const GemmProblem& problem);

// `tiling` is resolved against the shape (0 = whole dimension). The default, untiled run with
// unlimited bandwidths reproduces SCALE-Sim v2's cycles and array-side SRAM reads.
Result evaluate_gemm(const arch::Accelerator& acc, const GemmProblem& problem,
                     mapping::Dataflow dataflow, const mapping::Tiling& tiling = {},
                     const Options& options = {});

// Result::tensors of evaluate_gemm (per tensor its accesses, DRAM bytes and energy) without the
// timing, which they do not depend on: for a caller that reads no cycles. Throws as
// evaluate_gemm.
std::vector<TensorResult> evaluate_gemm_tensors(const arch::Accelerator& acc,
                                                const GemmProblem& problem,
                                                mapping::Dataflow dataflow,
                                                const mapping::Tiling& tiling = {},
                                                const Options& options = {});

// evaluate_gemm, or nothing when the tiling breaks a residency or bank rule of the accelerator's
// microarchitecture (the tiles of the operands that must stay SRAM-resident,
// arch::Microarch::sram_resident, do not fit their partition, or one bank of it:
// tile_fits_one_bank), for which evaluate_gemm throws InputError(range, "tile"). What a search
// asks of a candidate it generated (no tiling the user gave).
std::optional<Result> evaluate_gemm_if_fits(const arch::Accelerator& acc,
                                            const GemmProblem& problem, mapping::Dataflow dataflow,
                                            const mapping::Tiling& tiling,
                                            const Options& options = {});

}  // namespace tenet::hw
