#include <algorithm>
#include <tuple>

#include "hw/search/search_detail.hpp"
#include "tenet/hw/bounds.hpp"

// The latency rule's traffic cap (hw::search::choose, step 2; docs/hardware.md, "The latency
// rule"): after the window's choice, the least-traffic candidate of the whole space, and when the
// choice breaks the cap against it, the fastest candidate within the cap.

namespace tenet::hw::search {

void Search::cap_traffic(CandidateSpace& space, std::vector<Group>& groups) {
  if (!best_ || best_->cycles >= kInfeasible) return;  // (none fits: nothing to cap)
  // The least-traffic candidate moves at least the bytes no mapping moves fewer of
  // (hw::compute_bounds): a choice within 1.5x those is within the cap whatever that candidate is.
  if (within_cap(best_->dram_bytes, compute_bounds(acc_, problem_, options_).dram_bytes)) return;
  const Score choice = *best_;
  // The least-traffic candidate: the dram_bytes search over the whole space (the same as
  // choose_tiling under dram_bytes).
  space.all(groups);
  best_.reset();
  by_dram(groups);
  const Score least = *best_;
  best_ = choice;
  if (!over_cap(choice, least)) return;
  best_ = fastest_within(groups, least);
}

Score Search::fastest_within(const std::vector<Group>& groups, const Score& least) {
  // The incumbent: the least-traffic candidate itself, ranked with its energy.
  Score best = score(model(least.tiling), least.tiling, least.index, TilingObjective::kLatency);
  ++evaluated_;
  // Candidates by a floor of their cycles (the compute cycles, then with the DRAM-channel time of
  // their traffic floor), those whose traffic floor exceeds the cap left out; each planned and
  // timed while its floor can still tie or beat the best (faster(): cycles first).
  const double cap = 1.5 * static_cast<double>(least.dram_bytes) * (1 + 1e-12);
  TrafficFloor traffic(acc_, problem_, dataflow_, options_);
  struct Entry {
    long long bound;
    size_t index;
    Tiling tiling;
  };
  std::vector<Entry> entries;
  for (const Group& g : groups) {
    const Tiling first = g.at(0);
    const long long compute = micro_ ? compute_cycles(first) : compute_cycles_of(first);
    if (compute > best.cycles) continue;
    const detail::Model plan = plan_only(first);
    traffic.set_extents(first);
    for (size_t i = 0; i < g.size(); ++i) {
      const Tiling t = g.at(i);
      const double floor = traffic(t);
      if (floor > cap) continue;
      const long long bound = std::max(compute, dram_cycles_floor(plan, problem_, floor));
      if (bound <= best.cycles) entries.push_back({bound, g.first + i, t});
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.bound, a.index) < std::tie(b.bound, b.index);
  });
  for (const Entry& e : entries) {
    if (e.bound > best.cycles) break;
    if (e.index == best.index) continue;
    const detail::Model m = model(e.tiling);
    ++planned_;
    if (!m.feasible() || !within_cap(m.dram_bytes(), least.dram_bytes)) continue;
    if (cycles_floor(m) > best.cycles) continue;
    ++evaluated_;
    const Score s = score(m, e.tiling, e.index, TilingObjective::kLatency);
    if (faster(s, best)) best = s;
  }
  return best;
}

}  // namespace tenet::hw::search
