// Why a tiling breaks a residency or bank rule of the accelerator's microarchitecture: the
// operands that must stay SRAM-resident (arch::Microarch::sram_resident) do not fit their
// global-buffer partition, or one bank of it (tile_fits_one_bank). Internal to tenet::hw; the
// pipeline names it when no automatic tiling fits.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::hw {

struct MisfitOperand {
  std::string name;  // "B", "B.scale", ...
  workload::OperandRole role = workload::OperandRole::kOther;
  int bits = 0;                   // bits per element as stored in the buffer
  long long footprint_bytes = 0;  // its tile's share of the partition (x2: double-buffered)
};

struct Misfit {
  std::string partition;                // global-buffer partition key ("shared": no partitions)
  long long capacity_bytes = 0;         // the partition's bytes (every bank)
  long long needed_bytes = 0;           // what the operands below need together
  std::vector<MisfitOperand> operands;  // the partition's operands that must be SRAM-resident
};

// "the operands that must be SRAM-resident need N bytes of global-buffer partition "P" (C
// bytes): B (weight) 65536 bytes, ...".
std::string describe(const Misfit& m);

// The misfit of a tiling (resolved or not), nothing when it keeps every rule.
std::optional<Misfit> tiling_misfit(const arch::Accelerator& acc, const GemmProblem& problem,
                                    mapping::Dataflow dataflow, const mapping::Tiling& tiling,
                                    const Options& options = {});

// The smallest tile of the search space (tiling_candidates: per dimension its least extent; the
// operands' footprints grow with every extent, so no candidate needs less) with its misfit,
// nothing when it fits.
std::optional<std::pair<mapping::Tiling, Misfit>> smallest_tile_misfit(const arch::Accelerator& acc,
                                                                       const GemmProblem& problem,
                                                                       mapping::Dataflow dataflow,
                                                                       const Options& options = {});

}  // namespace tenet::hw
