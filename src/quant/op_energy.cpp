#include "tenet/quant/op_energy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "tenet/arch/energy_table.hpp"
#include "tenet/error.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::quant {
namespace {

bool integer_family(const DataType& t) { return t.is_integer(); }

// The format a table entry serves `t` under: uint<b> shares int<b>.
DataType table_type(const DataType& t) {
  return t.format() == NumberFormat::kUint ? DataType::signed_int(t.bits()) : t;
}

// The key of a format in the table (the canonical name of its table_type; a name is one format's).
std::string key_of(const DataType& t) { return to_string(table_type(t)); }

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
  auto e = entries_ ? std::make_shared<Entries>(*entries_) : std::make_shared<Entries>();
  e->by_name[key_of(type)] = energy;
  const DataType t = table_type(type);
  auto same = [&](const std::pair<DataType, OpEnergy>& x) { return x.first == t; };
  if (auto it = std::find_if(e->by_type.begin(), e->by_type.end(), same); it != e->by_type.end())
    it->second = energy;
  else
    e->by_type.emplace_back(t, energy);
  entries_ = std::move(e);
}

const std::map<std::string, OpEnergy>& OpEnergyTable::entries() const {
  static const std::map<std::string, OpEnergy> none;
  return entries_ ? entries_->by_name : none;
}

OpEnergy OpEnergyTable::lookup(const DataType& type) const {
  // A tabulated format: its entry (by_type holds the formats of by_name's keys, one each).
  const DataType wanted = table_type(type);
  if (entries_)
    for (const auto& [tabulated, energy] : entries_->by_type)
      if (tabulated == wanted) return energy;
  // Else the narrowest wider format of the family; of two as wide, the first by name.
  const std::map<std::string, OpEnergy>& entries = this->entries();
  const OpEnergy* best = nullptr;
  int best_bits = 0;
  for (const auto& [key, energy] : entries) {
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
