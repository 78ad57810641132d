#include "tenet/quant/op_energy.hpp"

#include <fmt/format.h>

#include <optional>

#include "tenet/arch/energy_table.hpp"
#include "tenet/error.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::quant {
namespace {

bool integer_family(const DataType& t) { return t.is_integer(); }

// The key of a format in the table: uint<b> shares int<b>.
std::string key_of(const DataType& t) {
  if (t.format() == NumberFormat::kUint) return to_string(DataType::signed_int(t.bits()));
  return to_string(t);
}

std::optional<DataType> parse_key(const std::string& key) {
  try {
    return parse_data_type(key);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

}  // namespace

OpEnergyTable OpEnergyTable::defaults_45nm() {
  // The figures of arch::op_energy_45nm, the one 45 nm table (built once: every evaluation asks).
  static const OpEnergyTable table = [] {
    OpEnergyTable t;
    for (const DataType& type :
         {DataType::signed_int(8), DataType::signed_int(32), DataType::fp16(), DataType::fp32()}) {
      const arch::OpEnergy45nm e = *arch::op_energy_45nm(type);
      t.set(type, {e.add_pj, e.mul_pj});
    }
    return t;
  }();
  return table;
}

void OpEnergyTable::set(const DataType& type, const OpEnergy& energy) {
  entries_[key_of(type)] = energy;
}

OpEnergy OpEnergyTable::lookup(const DataType& type) const {
  if (auto it = entries_.find(key_of(type)); it != entries_.end()) return it->second;
  const OpEnergy* best = nullptr;
  int best_bits = 0;
  for (const auto& [key, energy] : entries_) {
    const auto t = parse_key(key);
    if (!t || integer_family(*t) != integer_family(type) || t->bits() < type.bits()) continue;
    if (!best || t->bits() < best_bits) {
      best = &energy;
      best_bits = t->bits();
    }
  }
  if (!best)
    throw InputError(error_code::kMissingField, "", "",
                     fmt::format("no operation energy for {} and no wider {} format in the table",
                                 to_string(type), integer_family(type) ? "integer" : "float"));
  return *best;
}

double mac_energy_pj(const OpEnergyTable& table, const DataType& a, const DataType& b,
                     const DataType& accumulate) {
  return table.lookup(MacPrecision{a, b, accumulate}.multiplier()).mul_pj +
         table.lookup(accumulate).add_pj;
}

}  // namespace tenet::quant
