// The `bounds` object of every report (docs/output.md#bounds), declared once: its fields, units
// and meanings in output order, and their renderings (JSON, CSV cells, a text line). Internal: the
// reports and the tables render bounds with them; the values are hw::BoundsSum (hw/bounds.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tenet/hw/bounds.hpp"

namespace tenet::hw {

// bounds_json renders the fields: the ratios are achieved / bound (null when the bound is 0),
// capacity_bytes is null when the on-chip capacity is unlimited.
struct BoundsField {
  const char* name;
  const char* unit;
  const char* meaning;
};
const std::vector<BoundsField>& bounds_fields();
nlohmann::ordered_json bounds_json(const BoundsSum& b, const Integer& achieved_cycles,
                                   const Integer& achieved_dram_bytes);
// The same values as CSV cells in bounds_fields() order (empty for null).
std::vector<std::string> bounds_csv_values(const BoundsSum& b, const Integer& achieved_cycles,
                                           const Integer& achieved_dram_bytes);
// One line for text tables: "bounds (modelled mappings, S B usable on chip): DRAM >= ... (achieved
// x.xx x), cycles >= ... (achieved x.xx x; compute ..., DRAM ...); any schedule (T B on chip):
// DRAM >= ...".
std::string bounds_line(const BoundsSum& b, const Integer& achieved_cycles,
                        const Integer& achieved_dram_bytes);

}  // namespace tenet::hw
