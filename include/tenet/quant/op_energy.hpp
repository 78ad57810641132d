// Energy of one arithmetic operation as a function of the number format.
//
// Defaults: the 45 nm figures of arch::op_energy_45nm (the one table; Horowitz, ISSCC 2014): int8
// add 0.03 pJ, mult 0.2 pJ; int32 add 0.1 pJ, mult 3.1 pJ; fp16 add 0.4 pJ, mult 1.1 pJ; fp32 add
// 0.9 pJ, mult 3.7 pJ. A format without its own entry takes the entry of the narrowest tabulated
// format of the same family that is at least as wide (int4 → int8, int16 → int32, bf16/fp8/fp4/nf4
// → fp16): a conservative choice, not a measurement. Every entry can be overridden or added (e.g.
// by the architecture's energy table).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tenet/workload/data_type.hpp"

namespace tenet::quant {

using workload::DataType;
using workload::NumberFormat;
using workload::parse_data_type;
using workload::to_string;

struct OpEnergy {
  double add_pj = 0;
  double mul_pj = 0;
  friend bool operator==(const OpEnergy& a, const OpEnergy& b) {
    return a.add_pj == b.add_pj && a.mul_pj == b.mul_pj;
  }
};

class OpEnergyTable {
 public:
  static OpEnergyTable defaults_45nm();

  // Sets the entry of one format (its canonical name; int<b> also serves uint<b>).
  void set(const DataType& type, const OpEnergy& energy);
  // The entry for `type` by the fallback rule above. Throws InputError(missing-field) if no
  // tabulated format of the family is wide enough.
  OpEnergy lookup(const DataType& type) const;
  const std::map<std::string, OpEnergy>& entries() const;

  friend bool operator==(const OpEnergyTable& a, const OpEnergyTable& b) {
    return a.entries() == b.entries();
  }

 private:
  // The entries, shared between copies (every evaluation copies the defaults into its options;
  // set() copies before it writes): by canonical name, and by format (uint<b> as int<b>) for a
  // lookup of a tabulated format without building its name.
  struct Entries {
    std::map<std::string, OpEnergy> by_name;
    std::vector<std::pair<DataType, OpEnergy>> by_type;
  };
  std::shared_ptr<const Entries> entries_;
};

// One multiply at the wider of the two multiplier inputs (a float input wins over an integer
// one) plus one add at the accumulator's format. int8×int8 + int32: 0.2 + 0.1 = 0.3 pJ;
// fp16×fp16 + fp16: 1.5 pJ.
double mac_energy_pj(const OpEnergyTable& table, const DataType& a, const DataType& b,
                     const DataType& accumulate);

}  // namespace tenet::quant
