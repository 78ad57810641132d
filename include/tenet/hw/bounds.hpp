// Physical limits of one GEMM on one accelerator, whatever the mapping: the least DRAM traffic any
// schedule of the model can move with the usable on-chip capacity (a red-blue pebble / Hong–Kung
// style data-movement bound), the compulsory traffic, and the cycles of the compute roofline and
// of the DRAM bandwidth. docs/model.md#physical-limits derives them and states the assumptions.
// Closed forms: the cost does not grow with M, N, K.
#pragma once

#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/poly/count.hpp"

namespace tenet::hw {

// For the problem as the hardware sees it (after quantization: packed bits, scale / zero
// tensors), on this accelerator (its global buffer, PE array, MAC rate and DRAM bandwidth) and
// under the evaluation options (unlimited buffer / DRAM bandwidth, edge transfers). No mapping,
// tiling or dataflow evaluated by evaluate_gemm moves fewer DRAM bytes than `dram_bytes` or takes
// fewer cycles than `cycles` (tests/hw/bounds_test.cpp checks it on random problems). Throws
// InputError as validate(problem) does, and InputError(overflow) if a figure exceeds 64 bits.
Bounds compute_bounds(const arch::Accelerator& acc, const GemmProblem& problem,
                      const Options& options = {});

using poly::Integer;

// The bounds of several products or calls added up (Integer: a whole model's sum may exceed 64
// bits): what reports carry and render.
struct BoundsSum {
  Integer dram_bytes, compulsory_dram_bytes, cycles, compute_cycles, dram_cycles;
  long long capacity_bytes = 0;  // the same accelerator's; -1: unlimited
  Integer schedule_independent_dram_bytes;
  long long on_chip_bytes = 0;  // the same accelerator's; -1: unlimited

  static BoundsSum of(const Bounds& b);
  BoundsSum& operator+=(const BoundsSum& o);
  BoundsSum times(const Integer& n) const;
  friend bool operator==(const BoundsSum& a, const BoundsSum& b);
  friend bool operator!=(const BoundsSum& a, const BoundsSum& b) { return !(a == b); }
};

// Their rendering in reports (fields, units, JSON, CSV, text): src/hw/bounds_format.hpp.

}  // namespace tenet::hw
