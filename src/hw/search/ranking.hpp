// The one ranking of mappings (docs/hardware.md, "minimises, then ties broken by"): what auto
// tiling (hw::choose_tiling, under every objective), `tenet search`, the sweeps and Python rank
// candidates by. Internal to tenet (hw and the areas above it).
#pragma once

#include <cstddef>
#include <vector>

#include "tenet/hw/tiling_search.hpp"

namespace tenet::hw::search {

// What a mapping is ranked by.
struct Rank {
  long long cycles = 0;      // Result::cycles.total (a call's cycles above hw)
  long long dram_bytes = 0;  // Result::dram_bytes
  double energy_pj = 0;      // Result::energy_pj.total
  long long tiles = 0;       // fewer tiles first on full ties
  std::size_t index = 0;     // then the earlier candidate (enumeration order)
  double edp() const { return energy_pj * static_cast<double>(cycles); }
};

// Whether `cycles` lies within the near-tie window of the fastest time `fastest`: at most 2 %
// above it (cycles <= 1.02 fastest, exactly).
inline bool near(long long cycles, long long fastest) {
  return static_cast<__int128>(cycles) * 100 <= static_cast<__int128>(fastest) * 102;
}

// Whether `a` ranks before `b` under the objective: latency — among candidates within the
// near-tie window of the fastest (near(); the caller's part) the fewest DRAM bytes, then the
// least energy, then cycles; dram_bytes — bytes, then cycles; energy — energy, cycles, bytes;
// edp — energy x cycles, cycles, bytes; then fewer tiles, then the lower index.
bool better(TilingObjective objective, const Rank& a, const Rank& b);

// The position in `ranks` (not empty) of the candidate the objective chooses: under latency the
// fastest time C* first, then better() among those within the window of C*; else better().
std::size_t choose(TilingObjective objective, const std::vector<Rank>& ranks);

}  // namespace tenet::hw::search
