#include "tenet/hw/result.hpp"

#include <algorithm>
#include <ostream>

#include "hw/format.hpp"
#include "tenet/error.hpp"

namespace tenet::hw {

const char* to_string(Bound b) {
  switch (b) {
    case Bound::kCompute:
      return "compute";
    case Bound::kSram:
      return "sram";
    case Bound::kDram:
      return "dram";
    case Bound::kDequant:
      return "dequant";
  }
  return "?";
}

Bound bounding_resource(const ResourceCycles& busy, long long dequant_cycles) {
  const long long most = std::max({busy.compute, busy.sram, busy.dram, dequant_cycles});
  if (busy.compute == most) return Bound::kCompute;
  if (busy.sram == most) return Bound::kSram;
  return busy.dram == most ? Bound::kDram : Bound::kDequant;
}

bool operator==(const TensorResult& a, const TensorResult& b) {
  return a.name == b.name && a.role == b.role && a.bits == b.bits && a.output == b.output &&
         a.stationary == b.stationary && a.resident == b.resident &&
         a.footprint_bytes == b.footprint_bytes && a.register_reads == b.register_reads &&
         a.register_writes == b.register_writes && a.sram_reads == b.sram_reads &&
         a.sram_writes == b.sram_writes && a.sram_array_reads == b.sram_array_reads &&
         a.sram_array_writes == b.sram_array_writes && a.dram_reads == b.dram_reads &&
         a.dram_writes == b.dram_writes && a.dram_bytes == b.dram_bytes &&
         a.energy_pj == b.energy_pj;
}

bool operator==(const ArrayUse& a, const ArrayUse& b) {
  return a.row_dim == b.row_dim && a.col_dim == b.col_dim && a.stream_dim == b.stream_dim &&
         a.row_size == b.row_size && a.col_size == b.col_size && a.stream_size == b.stream_size &&
         a.row_tile == b.row_tile && a.col_tile == b.col_tile && a.stream_tile == b.stream_tile &&
         a.row_lanes == b.row_lanes && a.rows_used == b.rows_used && a.cols_used == b.cols_used &&
         a.row_share == b.row_share && a.col_share == b.col_share &&
         a.compute_share == b.compute_share && a.pipeline_share == b.pipeline_share &&
         a.stream_cycles == b.stream_cycles && a.fold_overhead_cycles == b.fold_overhead_cycles;
}

bool operator==(const Result& a, const Result& b) {
  return a.accelerator == b.accelerator && a.dataflow == b.dataflow && a.shape == b.shape &&
         a.accumulate == b.accumulate && a.tiling == b.tiling && a.rows == b.rows &&
         a.cols == b.cols && a.precision == b.precision && a.macs_per_cycle == b.macs_per_cycle &&
         a.cycles_per_mac == b.cycles_per_mac && a.macs == b.macs && a.folds == b.folds &&
         a.tiles == b.tiles && a.cycles == b.cycles && a.busy == b.busy &&
         a.utilization == b.utilization && a.mapping_efficiency == b.mapping_efficiency &&
         a.array_use == b.array_use && a.bound == b.bound && a.seconds == b.seconds &&
         a.tensors == b.tensors && a.dram_bytes == b.dram_bytes && a.energy_pj == b.energy_pj;
}

const TensorResult& Result::tensor(const std::string& name) const {
  for (const TensorResult& t : tensors)
    if (t.name == name) return t;
  throw InternalError("hw::Result has no tensor \"" + name + "\"");
}

std::ostream& operator<<(std::ostream& os, const Result& r) { return os << format_table(r); }

}  // namespace tenet::hw
