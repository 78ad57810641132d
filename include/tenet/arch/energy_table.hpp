// Energy per operation and per memory access of an accelerator, in picojoules.
//
// Memory levels (register file, global-buffer SRAM, DRAM) give the energy of one access of
// `access_bits` bits; an element of b bits costs b / access_bits of it (linear in the width).
// MAC energy is given per MAC at a precision (a workload::DataType: int8, fp16, ...). Defaults come
// from the 45 nm figures of Horowitz (ISSCC 2014) as commonly quoted; see docs/hardware.md for
// every number.
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tenet/workload/data_type.hpp"

namespace tenet::arch {

struct AccessEnergy {
  double read_pj = 0;   // one read of access_bits bits
  double write_pj = 0;  // one write of access_bits bits
  int access_bits = 32;

  double read_pj_for(int element_bits) const { return read_pj * element_bits / access_bits; }
  double write_pj_for(int element_bits) const { return write_pj * element_bits / access_bits; }

  friend bool operator==(const AccessEnergy& a, const AccessEnergy& b) {
    return a.read_pj == b.read_pj && a.write_pj == b.write_pj && a.access_bits == b.access_bits;
  }
  friend bool operator!=(const AccessEnergy& a, const AccessEnergy& b) { return !(a == b); }
};

// The one table of 45 nm arithmetic energies (Horowitz, ISSCC 2014): an add and a multiply at a
// precision ("int8": 0.03 / 0.2 pJ, "int32": 0.1 / 3.1, "fp16": 0.4 / 1.1, "fp32": 0.9 / 3.7);
// none for other precisions. The MAC defaults below and quant::OpEnergyTable::defaults_45nm (the
// energy of dequantization, rescaling and epilogue ops) are both built from it.
struct OpEnergy45nm {
  double add_pj = 0, mul_pj = 0;
};
std::optional<OpEnergy45nm> op_energy_45nm(const workload::DataType& precision);

// 45 nm defaults. A MAC default exists only where the reference table has both the multiply and
// the add (int8: 0.2 + 0.1 (32-bit accumulate), int32: 3.1 + 0.1, fp16: 1.1 + 0.4,
// fp32: 3.7 + 0.9); other precisions have no default and must be given.
std::optional<double> default_mac_energy_pj(const workload::DataType& precision);
AccessEnergy default_sram_energy();           // 5 pJ per 32-bit access (8 KB SRAM, 10 pJ / 64 b)
AccessEnergy default_dram_energy();           // 640 pJ per 32-bit access (Han et al. 2015)
AccessEnergy default_register_file_energy();  // SRAM / 6 (Eyeriss RF:GLB = 1:6)

struct EnergyTable {
  std::map<workload::DataType, double> mac_pj;  // MAC precision -> pJ per MAC
  AccessEnergy register_file = default_register_file_energy();
  AccessEnergy sram = default_sram_energy();
  AccessEnergy dram = default_dram_energy();

  friend bool operator==(const EnergyTable& a, const EnergyTable& b) {
    return a.mac_pj == b.mac_pj && a.register_file == b.register_file && a.sram == b.sram &&
           a.dram == b.dram;
  }
  friend bool operator!=(const EnergyTable& a, const EnergyTable& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const EnergyTable& e);
};

}  // namespace tenet::arch
