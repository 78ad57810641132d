#include "hw/vector_unit.hpp"

#include <map>

#include "tenet/error.hpp"

namespace tenet::hw {

arch::VectorUnit vector_unit_of(const arch::Accelerator& acc) {
  if (acc.spec().serving.vector_unit) return *acc.spec().serving.vector_unit;
  return arch::default_vector_unit(acc.cols());
}

VectorCycles vector_op_cycles(const arch::Accelerator& acc, const arch::VectorUnit& unit,
                              const std::vector<std::pair<std::string, std::int64_t>>& ops,
                              std::int64_t sram_bytes, std::int64_t dram_bytes) {
  std::map<double, std::int64_t> by_rate;  // kinds of one rate share their lanes' cycles
  for (const auto& [kind, n] : ops) {
    auto rate = unit.ops_per_lane_cycle.find(kind);
    if (rate == unit.ops_per_lane_cycle.end())
      throw InputError(error_code::kUnknownName, "", "/vector_unit/ops_per_lane_cycle",
                       "the vector unit has no rate for operator kind \"" + kind + "\"");
    by_rate[rate->second] += n;
  }
  VectorCycles c;
  for (const auto& [rate, n] : by_rate)
    c.cycles += static_cast<double>(n) / (static_cast<double>(unit.lanes) * rate);
  c.bound = "compute";
  const double sram = static_cast<double>(sram_bytes) / unit.sram_bytes_per_cycle;
  if (sram > c.cycles) c.cycles = sram, c.bound = "sram";
  const arch::Dram& dram = acc.spec().dram;
  if (dram_bytes > 0) {
    const double transfer = dram.bandwidth.unlimited
                                ? 0.0
                                : static_cast<double>(dram_bytes) / dram.bandwidth.bytes_per_cycle;
    const double with_latency = transfer + static_cast<double>(dram.latency_cycles);
    if (with_latency > c.cycles) c.cycles = with_latency, c.bound = "dram";
  }
  return c;
}

VectorCycles vector_op_cycles(const arch::Accelerator& acc, const arch::VectorUnit& unit,
                              const std::string& kind, std::int64_t ops, std::int64_t sram_bytes,
                              std::int64_t dram_bytes) {
  return vector_op_cycles(acc, unit, {{kind, ops}}, sram_bytes, dram_bytes);
}

}  // namespace tenet::hw
