// What the evaluation of a fused kernel returns (eval::evaluate_kernel; units in docs/output.md#
// tenet-kernel): time and its links, DRAM and SRAM bytes, per-tensor traffic, every intermediate
// on chip or spilled, the stages on the array and the vector unit, and the blocking the search
// chose.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tenet/fused/kernel.hpp"

namespace tenet::fused {

// One tile shape of a matmul stage and what the array spends on it (eval::evaluate of the tile,
// operands on chip).
struct TileCost {
  std::array<std::int64_t, 3> shape{};  // m, n, k
  std::int64_t count = 0;               // tiles of this shape
  std::int64_t cycles = 0;              // clock cycles of one tile (compute, SRAM stalls, dequant)
  std::string bound;                    // the tile's bound: compute, sram or dequant
  // eval::evaluate's energy of one tile alone, picojoules: the array, SRAM, dequant and its
  // operands moved once at the DRAM energy (the fused model has no energy of its own yet).
  double energy_pj = 0;
  std::int64_t compute_floor_cycles = 0;  // the tile's compute roofline (hw::compute_bounds)
};

struct StageResult {
  std::string name;       // "qk", "pv", "up", "down" (array); "softmax", "activation" (vector unit)
  std::string unit;       // "matrix" | "vector"
  std::int64_t macs = 0;  // matrix stages: multiply-accumulates
  std::int64_t ops = 0;   // vector stages: elementary operations
  double cycles = 0;      // busy cycles of its unit
  std::int64_t sram_bytes = 0;  // bytes through SRAM ports (array side, or the vector unit's port)
  std::vector<TileCost> tiles;  // matrix stages
};

struct TensorResult {
  std::string name;                // Q, K, V, O, S, P / X, W1, b1, H1, A, W2, b2, Y
  std::string kind;                // input, output, intermediate (spill traffic)
  std::int64_t dram_elements = 0;  // element transfers between DRAM and the chip
  std::int64_t dram_bytes = 0;     // in storage format (scale and zero tensors included)
};

struct IntermediateResult {
  std::string name;
  std::int64_t produced = 0, on_chip = 0, spilled = 0;  // elements
};

struct KernelResult {
  Kernel kernel;
  Blocking blocking;                 // the search's choice
  bool spilled = false;              // the intermediates went through DRAM
  std::string placement;             // "on_chip", "spilled" (did not fit) or "dram" (--scores dram)
  std::int64_t footprint_bytes = 0;  // on-chip bytes the blocking holds at once
  std::int64_t capacity_bytes = 0;   // the global buffer (-1: unlimited)
  double clock_hz = 0;
  std::int64_t cycles = 0;  // clock cycles of the call (a count)
  double seconds = 0;       // cycles / clock
  std::string bound;        // compute | sram | dequant (the array's stages) | vector | dram | heads
  double matrix_cycles = 0;   // the array's busy cycles (sum of the matrix stages)
  double vector_cycles = 0;   // the vector unit's busy cycles
  double dram_cycles = 0;     // the DRAM link's busy cycles (bytes / bandwidth + latency)
  double exposed_cycles = 0;  // the first block's load and the last block's write-back
  double launch_cycles = 0;   // the call's fixed cost (kernel_launch_ns), paid once per call
  // The chip's attention kernel's fixed costs (per block, per row, per call: the accelerator's
  // "fusion": {"attention"}), 0 elsewhere
  double overhead_cycles = 0;
  // Materialised scores: the least busy time of the heads (query heads x query blocks x the
  // accelerator's fusion.materialised_attention.head_ns, x clock), 0 elsewhere
  double head_cycles = 0;
  std::int64_t macs = 0;
  std::int64_t dram_bytes = 0;             // sum over tensors
  std::int64_t sram_bytes = 0;             // sum over stages
  std::int64_t compulsory_dram_bytes = 0;  // every input read once, every output written once
  std::vector<TensorResult> tensors;
  std::vector<IntermediateResult> intermediates;
  std::vector<StageResult> stages;
  // Asked for (eval::KernelRequest::relation_centric): the chosen blocking counted from the
  // chain's isl relations, equal to the closed forms above (checked): "<tensor>" -> element
  // transfers of each input and output, "<intermediate>" -> its elements, "macs" -> MACs.
  std::map<std::string, std::int64_t> relation_counts;
  std::int64_t candidates = 0;  // blockings the search considered
  std::int64_t evaluated = 0;   // of those, evaluated (the others' floor was beyond the window)
};

}  // namespace tenet::fused
