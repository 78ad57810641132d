#include "tenet/llm/layer_cost.hpp"

#include <ostream>

namespace tenet::llm {

bool operator==(const LayerCost& a, const LayerCost& b) {
  return a.cycles == b.cycles && a.bound == b.bound && a.utilization == b.utilization &&
         a.dram_bytes == b.dram_bytes && a.sram_bytes == b.sram_bytes &&
         a.energy_pj == b.energy_pj && a.bounds == b.bounds && a.scheme == b.scheme &&
         a.precision_fallback == b.precision_fallback &&
         a.prefetchable_cycles == b.prefetchable_cycles &&
         a.link_idle_cycles == b.link_idle_cycles && a.array_use == b.array_use &&
         a.array_rows == b.array_rows && a.array_cols == b.array_cols &&
         a.array_note == b.array_note;
}

std::ostream& operator<<(std::ostream& os, const LayerCost& c) {
  return os << c.cycles << " cycles (" << c.bound << "-bound, utilization " << c.utilization
            << "), DRAM " << c.dram_bytes << " B, SRAM " << c.sram_bytes << " B, " << c.energy_pj
            << " pJ" << (c.array_note.empty() ? "" : "; " + c.array_note);
}

}  // namespace tenet::llm
