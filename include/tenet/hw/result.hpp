// What a hardware evaluation reports (units in docs/hardware.md): cycles, utilisation, accesses
// per tensor and memory level, DRAM bytes, energy with its breakdown, and the bounding resource.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tenet/mapping/systolic.hpp"
#include "tenet/mapping/tiling.hpp"
#include "tenet/workload/data_type.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::hw {

// The resource whose busy time is the largest (ties go to the earlier one): the one bound of
// every result, chosen by bounding_resource below and nowhere else.
enum class Bound { kCompute, kSram, kDram, kDequant };
const char* to_string(Bound b);  // "compute", "sram", "dram", "dequant"

struct Cycles {
  long long total = 0;    // clock cycles of the GEMM (a count), stalls included
  long long compute = 0;  // the same without any stall (a count)
  // SCALE-Sim's convention: the zero-based index of the cycle of the last output write
  // (= total - 1). Kept for comparisons with SCALE-Sim; never a duration.
  long long last_write_index = 0;
  long long stall = 0;       // total - compute = stall_sram + stall_dram
  long long stall_sram = 0;  // folds stretched by the array-side SRAM bandwidth
  long long stall_dram = 0;  // tiles waiting for double-buffered DRAM transfers
  // Part of stall_dram: the first tile's DRAM fill (edge transfers), before the first fold; what
  // a previous matmul could prefetch (arch::Dram::prefetch_across_matmuls).
  long long edge_fill = 0;
  friend bool operator==(const Cycles& a, const Cycles& b) {
    return a.total == b.total && a.compute == b.compute &&
           a.last_write_index == b.last_write_index && a.stall == b.stall &&
           a.stall_sram == b.stall_sram && a.stall_dram == b.stall_dram &&
           a.edge_fill == b.edge_fill;
  }
};

// Cycles each resource is busy: the array (fold pipeline cycles), the SRAM array-side ports,
// the DRAM channel (transfer windows, latency included).
struct ResourceCycles {
  long long compute = 0, sram = 0, dram = 0;
  friend bool operator==(const ResourceCycles& a, const ResourceCycles& b) {
    return a.compute == b.compute && a.sram == b.sram && a.dram == b.dram;
  }
};

// The bound, chosen here only: the resource with the most busy cycles, ties to the earlier one in
// Bound order (compute, SRAM, DRAM, dequant unit). The hardware model asks it without a dequant
// unit (Result::bound); a product with its dequant unit's busy cycles (quant::ProductResult).
Bound bounding_resource(const ResourceCycles& busy, long long dequant_cycles = 0);

struct TensorEnergy {
  double register_file = 0, sram = 0, dram = 0, total = 0;  // pJ
  friend bool operator==(const TensorEnergy& a, const TensorEnergy& b) {
    return a.register_file == b.register_file && a.sram == b.sram && a.dram == b.dram &&
           a.total == b.total;
  }
};

// Accesses are counted in elements of the tensor.
struct TensorResult {
  std::string name;
  workload::OperandRole role = workload::OperandRole::kOther;
  int bits = 16;
  bool output = false;
  bool stationary = false;        // does not depend on the streamed index (held in the PEs)
  bool resident = true;           // its tile (x2 if double-buffered) fits its global-buffer share
  long long footprint_bytes = 0;  // global-buffer space its tile needs (x2 if double-buffered)
  long long register_reads = 0, register_writes = 0;
  long long sram_reads = 0, sram_writes = 0;  // every SRAM access, array side and DRAM side
  long long sram_array_reads = 0, sram_array_writes = 0;  // the array side only (SCALE-Sim's)
  long long dram_reads = 0, dram_writes = 0;
  long long dram_bytes = 0;  // ceil((dram_reads + dram_writes) * bits / 8)
  TensorEnergy energy_pj;

  friend bool operator==(const TensorResult& a, const TensorResult& b);
};

struct EnergyBreakdown {
  double mac = 0, register_file = 0, sram = 0, dram = 0;
  double total = 0;  // mac + register_file + sram + dram
  friend bool operator==(const EnergyBreakdown& a, const EnergyBreakdown& b) {
    return a.mac == b.mac && a.register_file == b.register_file && a.sram == b.sram &&
           a.dram == b.dram && a.total == b.total;
  }
};

// Physical limits of one GEMM on one accelerator, whatever the mapping (hw::compute_bounds in
// bounds.hpp; docs/model.md#physical-limits).
struct Bounds {
  long long capacity_bytes = 0;         // S: usable on-chip bytes the bound assumes (-1: unlimited)
  long long compulsory_dram_bytes = 0;  // every tensor once: inputs read, outputs written
  // The least traffic of the modelled mapping classes (one level of tiles, the os / ws / is
  // folds): reachable, >= compulsory_dram_bytes; no mapping tenet evaluates moves less.
  long long dram_bytes = 0;
  long long compute_cycles = 0;  // the MACs at the precision's peak rate on every PE
  long long dram_cycles = 0;     // DRAM-bandwidth cycles of dram_bytes
  long long cycles = 0;          // max(compute_cycles, dram_cycles)
  // The schedule-independent lower bound (Hong–Kung form, Smith et al. 2019: 2MNK/sqrt(S) - 2S
  // values, at least compulsory) with S the whole on-chip capacity (every buffer byte and the PE
  // registers, counted at the narrowest operand width): no schedule of any machine with this
  // much storage moves less. <= dram_bytes. -1 capacity: unlimited.
  long long schedule_independent_dram_bytes = 0;
  long long on_chip_bytes = 0;

  friend bool operator==(const Bounds& a, const Bounds& b) {
    return a.capacity_bytes == b.capacity_bytes &&
           a.compulsory_dram_bytes == b.compulsory_dram_bytes && a.dram_bytes == b.dram_bytes &&
           a.compute_cycles == b.compute_cycles && a.dram_cycles == b.dram_cycles &&
           a.cycles == b.cycles &&
           a.schedule_independent_dram_bytes == b.schedule_independent_dram_bytes &&
           a.on_chip_bytes == b.on_chip_bytes;
  }
  friend bool operator!=(const Bounds& a, const Bounds& b) { return !(a == b); }
};

// How the folds of a GEMM occupy the PE array (docs/output.md#array-use): which GEMM dimension
// the rows, the columns and the stream take, how many rows and columns the folds use, and where
// the array's busy cycles go. With array_use_note below it says why a compute-bound matmul runs
// at a low utilization (an M = 1 matmul keeps one row of an output-stationary array busy).
struct ArrayUse {
  mapping::GemmDim row_dim = mapping::GemmDim::kM;     // the dimension the array rows take
  mapping::GemmDim col_dim = mapping::GemmDim::kN;     // the dimension the columns take
  mapping::GemmDim stream_dim = mapping::GemmDim::kK;  // the dimension streamed in time
  // Those dimensions' sizes (the matmul's, unpadded) and tile extents (<= the sizes).
  long long row_size = 0, col_size = 0, stream_size = 0;
  long long row_tile = 0, col_tile = 0, stream_tile = 0;
  long long row_lanes = 1;  // MAC lanes per PE along the row dimension (K packed on rows), else 1
  long long rows_used = 0;  // the most array rows a fold occupies (<= rows)
  long long cols_used = 0;  // the most array columns a fold occupies (<= cols)
  // Over all folds: the mean fraction of the row lanes / columns that hold the matmul's own
  // elements (no padding), 0..1. row_share x col_share = Result::mapping_efficiency when no
  // microarchitecture pads the shape.
  double row_share = 0, col_share = 0;
  // The MACs at the PEs' rate over the array's busy cycles on every lane (MACs x cycles_per_mac /
  // (busy.compute x rows x cols x macs_per_cycle)), 0..1: what the array alone achieves.
  double compute_share = 0;
  // compute_share / (row_share x col_share), at most 1: the share of the busy cycles of the used
  // lanes that stream MACs (the rest: fill, drain, preload, tile overheads).
  double pipeline_share = 0;
  long long stream_cycles = 0;  // the longest fold's streamed cycles
  long long fold_overhead_cycles =
      0;  // cycles each fold pays besides its stream (hw::fold_overhead)
  friend bool operator==(const ArrayUse& a, const ArrayUse& b);
};

struct Result {
  std::string accelerator;
  mapping::Dataflow dataflow = mapping::Dataflow::kOutputStationary;
  mapping::GemmShape shape;
  bool accumulate = false;  // C = C + A·B (GemmProblem::accumulate)
  mapping::Tiling tiling;   // resolved: concrete tile extents
  long long rows = 0, cols = 0;
  workload::DataType precision;
  long long macs_per_cycle = 1, cycles_per_mac = 1;  // per PE at that precision
  long long macs = 0;                                // M·N·K
  long long folds = 0;                               // array folds, over all tiles
  long long tiles = 0;                               // buffer tiles
  Cycles cycles;
  ResourceCycles busy;
  // MACs x cycles_per_mac / (cycles.total x rows x cols x macs_per_cycle), at most 1.
  double utilization = 0;
  double mapping_efficiency = 0;  // used PE lanes / offered PE lanes over all folds, 0..1
  ArrayUse array_use;
  Bound bound = Bound::kCompute;
  double seconds = 0;  // cycles.total / clock
  std::vector<TensorResult> tensors;
  long long dram_bytes = 0;  // sum over tensors
  EnergyBreakdown energy_pj;

  // Throws InternalError if there is no such tensor.
  const TensorResult& tensor(const std::string& name) const;
  friend bool operator==(const Result& a, const Result& b);
  friend bool operator!=(const Result& a, const Result& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const Result& r);
};

// Why a matmul whose bound is `bound` (the product's: compute, SRAM, DRAM or dequant unit) runs
// below the array's peak when the reason is the mapping's under-use of the array, not its MAC
// rate: "compute, 1 of 32 rows busy: M = 1". Empty unless the bound is compute and the array's
// busy cycles are at least twice what its MACs need at the peak rate (compute_share <= 0.5);
// then each under-used part of at most half its share: rows, columns, the pipeline (rule and
// wording: docs/output.md#array-use).
std::string array_use_note(const ArrayUse& use, long long rows, long long cols, Bound bound);
// "m" -> "M": the dimension as the notes name it.
const char* dimension_name(mapping::GemmDim d);

}  // namespace tenet::hw
