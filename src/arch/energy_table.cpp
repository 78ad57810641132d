#include "tenet/arch/energy_table.hpp"

#include <ostream>

namespace tenet::arch {

std::optional<OpEnergy45nm> op_energy_45nm(const workload::DataType& precision) {
  using workload::DataType;
  // Horowitz, ISSCC 2014 (45 nm).
  if (precision == DataType::signed_int(8)) return OpEnergy45nm{0.03, 0.2};
  if (precision == DataType::signed_int(32)) return OpEnergy45nm{0.1, 3.1};
  if (precision == DataType::fp16()) return OpEnergy45nm{0.4, 1.1};
  if (precision == DataType::fp32()) return OpEnergy45nm{0.9, 3.7};
  return std::nullopt;
}

std::optional<double> default_mac_energy_pj(const workload::DataType& precision) {
  // Multiply at the precision + add of the accumulator (integers accumulate in 32 bits).
  const std::optional<OpEnergy45nm> op = op_energy_45nm(precision);
  if (!op) return std::nullopt;
  const double add_pj = precision.is_integer()
                            ? op_energy_45nm(workload::DataType::signed_int(32))->add_pj
                            : op->add_pj;
  return op->mul_pj + add_pj;
}

AccessEnergy default_sram_energy() { return {5.0, 5.0, 32}; }
AccessEnergy default_dram_energy() { return {640.0, 640.0, 32}; }
AccessEnergy default_register_file_energy() { return {5.0 / 6.0, 5.0 / 6.0, 32}; }

namespace {
void print_access(std::ostream& os, const char* level, const AccessEnergy& e) {
  os << "\n  " << level << ": read " << e.read_pj << " pJ, write " << e.write_pj << " pJ per "
     << e.access_bits << " bits";
}
}  // namespace

std::ostream& operator<<(std::ostream& os, const EnergyTable& e) {
  os << "energy table:";
  for (const auto& [type, pj] : e.mac_pj) os << "\n  MAC " << type << ": " << pj << " pJ";
  print_access(os, "register file", e.register_file);
  print_access(os, "SRAM", e.sram);
  print_access(os, "DRAM", e.dram);
  return os;
}

}  // namespace tenet::arch
