#include "hw/search/ranking.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "hw/search/search_detail.hpp"

namespace tenet::hw::search {

bool better(TilingObjective objective, const Rank& a, const Rank& b) {
  switch (objective) {
    case TilingObjective::kLatency:  // within the near-tie window: bytes first
      return std::tie(a.dram_bytes, a.energy_pj, a.cycles, a.tiles, a.index) <
             std::tie(b.dram_bytes, b.energy_pj, b.cycles, b.tiles, b.index);
    case TilingObjective::kEnergy:
      return std::tie(a.energy_pj, a.cycles, a.dram_bytes, a.tiles, a.index) <
             std::tie(b.energy_pj, b.cycles, b.dram_bytes, b.tiles, b.index);
    case TilingObjective::kDramBytes:
      return std::tie(a.dram_bytes, a.cycles, a.tiles, a.index) <
             std::tie(b.dram_bytes, b.cycles, b.tiles, b.index);
    case TilingObjective::kEdp: {
      const double ea = a.edp(), eb = b.edp();
      return std::tie(ea, a.cycles, a.dram_bytes, a.tiles, a.index) <
             std::tie(eb, b.cycles, b.dram_bytes, b.tiles, b.index);
    }
  }
  return false;
}

bool faster(const Rank& a, const Rank& b) {
  return std::tie(a.cycles, a.dram_bytes, a.energy_pj, a.tiles, a.index) <
         std::tie(b.cycles, b.dram_bytes, b.energy_pj, b.tiles, b.index);
}

long long near_tie_percent(const arch::Accelerator& acc) {
  return acc.spec().chip.tiling_near_tie_percent;
}

std::size_t choose(TilingObjective objective, const std::vector<Rank>& ranks, long long percent) {
  long long fastest = ranks.front().cycles;
  for (const Rank& r : ranks) fastest = std::min(fastest, r.cycles);
  std::size_t best = ranks.size();
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (objective == TilingObjective::kLatency && !near(ranks[i].cycles, fastest, percent))
      continue;
    if (best == ranks.size() || better(objective, ranks[i], ranks[best])) best = i;
  }
  if (objective != TilingObjective::kLatency) return best;
  std::size_t least = 0;  // the cap
  for (std::size_t i = 1; i < ranks.size(); ++i)
    if (better(TilingObjective::kDramBytes, ranks[i], ranks[least])) least = i;
  if (!over_cap(ranks[best], ranks[least])) return best;
  best = least;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (within_cap(ranks[i].dram_bytes, ranks[least].dram_bytes) && faster(ranks[i], ranks[best]))
      best = i;
  return best;
}

bool better(const Score& a, const Score& b, TilingObjective o) {
  return better(o, static_cast<const Rank&>(a), static_cast<const Rank&>(b));
}

Score score(const detail::Model& m, const Tiling& t, size_t index, TilingObjective o) {
  Score s;
  s.tiling = t, s.index = index, s.tiles = m.tiles();
  if (!m.feasible()) {  // required SRAM residents do not fit: never chosen over a feasible one
    s.cycles = s.dram_bytes = kInfeasible;
    s.energy_pj = std::numeric_limits<double>::infinity();
    return s;
  }
  s.timing = m.timing();
  if (o == TilingObjective::kEnergy || o == TilingObjective::kEdp) {
    const Result r = m.result(s.timing);
    s.cycles = r.cycles.total, s.dram_bytes = r.dram_bytes, s.energy_pj = r.energy_pj.total;
  } else {
    s.cycles = s.timing.total;
    s.dram_bytes = m.dram_bytes();
    if (o == TilingObjective::kLatency) s.energy_pj = m.energy().total;  // near-tie breaker
  }
  return s;
}

}  // namespace tenet::hw::search
