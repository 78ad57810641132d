// The one ranking of mappings (docs/hardware.md, "minimises, then ties broken by"): what auto
// tiling (hw::choose_tiling, under every objective), `tenet search`, the sweeps and Python rank
// candidates by. Internal to tenet (hw and the areas above it).
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "tenet/arch/accelerator.hpp"
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

// The near-tie window's width in percent: the accelerator file's compiler.tiling_near_tie_percent
// (default 2; docs/hardware.md, "The latency rule").
long long near_tie_percent(const arch::Accelerator& acc);

// Whether `cycles` lies within the near-tie window of the fastest time `fastest`: at most
// `percent` % above it (cycles <= (1 + percent / 100) fastest, exactly; 2 % unless the
// accelerator file says otherwise).
inline bool near(long long cycles, long long fastest, long long percent) {
  return static_cast<__int128>(cycles) * 100 <= static_cast<__int128>(fastest) * (100 + percent);
}

// The largest time within `percent` % of `cycles` (cycles x (100 + percent) / 100, rounded down).
inline long long window_limit(long long cycles, long long percent) {
  return static_cast<long long>(static_cast<__int128>(cycles) * (100 + percent) / 100);
}

// The most cycles near() takes against `fastest`: 100 x cycles <= fastest x (100 + percent) holds
// for the integers up to the floor of the right side / 100 (clamped to 64 bits).
inline long long near_limit(long long fastest, long long percent) {
  const __int128 most = static_cast<__int128>(fastest) * (100 + percent);
  const __int128 limit = most / 100 - (most % 100 < 0 ? 1 : 0);  // (floor)
  return limit > std::numeric_limits<long long>::max()   ? std::numeric_limits<long long>::max()
         : limit < std::numeric_limits<long long>::min() ? std::numeric_limits<long long>::min()
                                                         : static_cast<long long>(limit);
}

// The latency rule's traffic cap applies against a least-traffic tiling at most this much slower
// than the choice, whatever the near-tie window (docs/hardware.md, "The latency rule").
inline constexpr long long kCapPercent = 2;

// The latency rule's traffic cap: whether `bytes` is at most 1.5x `least` (2 bytes <= 3 least,
// exactly).
inline bool within_cap(long long bytes, long long least) {
  return static_cast<__int128>(bytes) * 2 <= static_cast<__int128>(least) * 3;
}

// Whether the window's choice `choice` breaks the cap against the least-traffic candidate `least`
// (the one better() ranks first under dram_bytes, over the same candidates): it moves more than
// 1.5x the bytes of `least` while `least` is within kCapPercent (2 %) of its cycles.
inline bool over_cap(const Rank& choice, const Rank& least) {
  return near(least.cycles, choice.cycles, kCapPercent) &&
         !within_cap(choice.dram_bytes, least.dram_bytes);
}

// Whether `a` ranks before `b` under the objective: latency — among candidates within the
// near-tie window of the fastest (near(); the caller's part) the fewest DRAM bytes, then the
// least energy, then cycles; dram_bytes — bytes, then cycles; energy — energy, cycles, bytes;
// edp — energy x cycles, cycles, bytes; then fewer tiles, then the lower index.
bool better(TilingObjective objective, const Rank& a, const Rank& b);

// The order of the latency rule's capped step: fewer cycles, then fewer DRAM bytes, the least
// energy, fewer tiles, the lower index.
bool faster(const Rank& a, const Rank& b);

// The position in `ranks` (not empty) of the candidate the objective chooses; else better().
// Under latency (docs/hardware.md, "The latency rule"):
//  1. the window: the fastest time C*, then better() among the candidates within 2 % of C*: X;
//  2. the cap: L, the least-traffic candidate (better() under dram_bytes). If over_cap(X, L) —
//     X moves more than 1.5x L's bytes and L is within 2 % of X's cycles — the choice is the
//     candidate ranked first by faster() among those moving at most 1.5x L's bytes (L is one);
//     else X.
// Either way the choice moves at most 1.5x L's bytes or L is more than 2 % slower than it (the
// capped choice is within the cap; X is kept only when it is within it or L is beyond its
// window): one step, no iteration. The capped choice is at most as slow as L, so at most 2 %
// slower than X (4.04 % slower than C*).
// `percent`: the near-tie window (near_tie_percent(), 2 by default).
std::size_t choose(TilingObjective objective, const std::vector<Rank>& ranks, long long percent);

}  // namespace tenet::hw::search
