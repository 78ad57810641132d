// Physical limits of one GEMM on one accelerator, whatever the mapping: the least DRAM traffic any
// schedule of the model can move with the usable on-chip capacity (a red-blue pebble / Hong–Kung
// style data-movement bound), the compulsory traffic, and the cycles of the compute roofline and
// of the DRAM bandwidth. docs/model.md#physical-limits derives them and states the assumptions.
// Closed forms: the cost does not grow with M, N, K.
#pragma once

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/gemm_problem.hpp"

namespace tenet::hw {

struct Bounds {
  long long capacity_bytes = 0;         // S: usable on-chip bytes the bound assumes (-1: unlimited)
  long long compulsory_dram_bytes = 0;  // every tensor once: inputs read, outputs written
  long long dram_bytes = 0;             // data-movement lower bound, >= compulsory_dram_bytes
  long long compute_cycles = 0;         // the MACs at the precision's peak rate on every PE
  long long dram_cycles = 0;            // DRAM-bandwidth cycles of the bound traffic
  long long cycles = 0;                 // max(compute_cycles, dram_cycles)

  friend bool operator==(const Bounds& a, const Bounds& b) {
    return a.capacity_bytes == b.capacity_bytes &&
           a.compulsory_dram_bytes == b.compulsory_dram_bytes && a.dram_bytes == b.dram_bytes &&
           a.compute_cycles == b.compute_cycles && a.dram_cycles == b.dram_cycles &&
           a.cycles == b.cycles;
  }
  friend bool operator!=(const Bounds& a, const Bounds& b) { return !(a == b); }
};

// For the problem as the hardware sees it (after quantization: packed bits, scale / zero
// tensors), on this accelerator (its global buffer, PE array, MAC rate and DRAM bandwidth) and
// under the evaluation options (unlimited buffer / DRAM bandwidth, edge transfers). No mapping,
// tiling or dataflow evaluated by evaluate_gemm moves fewer DRAM bytes than `dram_bytes` or takes
// fewer cycles than `cycles` (tests/hw/bounds_test.cpp checks it on random problems). Throws
// InputError as validate(problem) does, and InputError(overflow) if a figure exceeds 64 bits.
Bounds compute_bounds(const arch::Accelerator& acc, const GemmProblem& problem,
                      const Options& options = {});

}  // namespace tenet::hw
