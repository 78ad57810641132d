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

std::optional<double> default_mac_energy_pj(const std::string& precision) {
  // Horowitz, ISSCC 2014 (45 nm): multiply + add of the accumulator.
  if (precision == "int8") return 0.2 + 0.1;   // 8-bit mult, 32-bit add
  if (precision == "int32") return 3.1 + 0.1;  // 32-bit mult, 32-bit add
  if (precision == "fp16") return 1.1 + 0.4;   // fp16 mult, fp16 add
  if (precision == "fp32") return 3.7 + 0.9;   // fp32 mult, fp32 add
  return std::nullopt;
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
