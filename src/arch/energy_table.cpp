#include "tenet/arch/energy_table.hpp"

#include <ostream>

namespace tenet::arch {

const std::vector<PrecisionInfo>& known_precisions() {
  static const std::vector<PrecisionInfo> list{
      {"int4", 4, false}, {"int8", 8, false},   {"fp8", 8, true},   {"fp16", 16, true},
      {"bf16", 16, true}, {"int16", 16, false}, {"fp32", 32, true}, {"int32", 32, false}};
  return list;
}

std::optional<PrecisionInfo> find_precision(const std::string& name) {
  for (const PrecisionInfo& p : known_precisions())
    if (name == p.name) return p;
  return std::nullopt;
}

std::optional<OpEnergy45nm> op_energy_45nm(const std::string& precision) {
  // Horowitz, ISSCC 2014 (45 nm).
  if (precision == "int8") return OpEnergy45nm{0.03, 0.2};
  if (precision == "int32") return OpEnergy45nm{0.1, 3.1};
  if (precision == "fp16") return OpEnergy45nm{0.4, 1.1};
  if (precision == "fp32") return OpEnergy45nm{0.9, 3.7};
  return std::nullopt;
}

std::optional<double> default_mac_energy_pj(const std::string& precision) {
  // Multiply at the precision + add of the accumulator (integers accumulate in 32 bits).
  const std::optional<OpEnergy45nm> op = op_energy_45nm(precision);
  if (!op) return std::nullopt;
  const bool integer = precision == "int8" || precision == "int32";
  return op->mul_pj + (integer ? op_energy_45nm("int32")->add_pj : op->add_pj);
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
  for (const auto& [name, pj] : e.mac_pj) os << "\n  MAC " << name << ": " << pj << " pJ";
  print_access(os, "register file", e.register_file);
  print_access(os, "SRAM", e.sram);
  print_access(os, "DRAM", e.dram);
  return os;
}

}  // namespace tenet::arch
