#include <algorithm>
#include <tuple>

#include "hw/search/search_detail.hpp"
#include "tenet/hw/bounds.hpp"

// The latency rule's traffic cap (hw::search::choose, step 2; docs/hardware.md, "The latency
// rule"): after the window's choice, the least-traffic candidate of the whole space, and when the
// choice breaks the cap against it, the fastest candidate within the cap.

namespace tenet::hw::search {

void Search::cap_traffic(CandidateSpace& space, std::vector<Group>& groups, const RunSpace& run,
                         const LooseFloor& loose, TrafficFloor& traffic) {
  if (!best_ || best_->cycles >= kInfeasible) return;  // (none fits: nothing to cap)
  // The least-traffic candidate L moves at least the bytes no mapping moves fewer of
  // (hw::compute_bounds): a choice within 1.5x those is within the cap whatever L is.
  if (within_cap(best_->dram_bytes, least_bytes_bound())) return;
  const Score choice = *best_;
  // W: the candidates within 2 % of the choice's cycles (near()); each lies in a group whose
  // floor is at most `limit`: S, those groups (of the space generated, or generated again).
  const long long limit = window_limit(choice.cycles, kCapPercent);
  // Lean: a candidate moving less than 2/3 of the choice's bytes (the choice breaks the cap
  // against no other).
  const double lean = 2.0 * static_cast<double>(choice.dram_bytes) / 3.0 * (1 + 1e-12);
  // S (near_groups), and the groups beyond `limit` generated here (others); those of the run
  // beyond `limit` are not copied (run_others: the candidates outside S are theirs too).
  std::vector<Group> near_groups, others;
  bool run_others = false;
  near_groups.reserve(groups.size() + run.extra.size());
  std::vector<double> near_known;  // the run's loose floors of near_groups (-1: none)
  near_known.reserve(groups.size());
  const auto floor_of = [&](const Group& g) {
    return micro_ ? group_floor(g.at(0)) : compute_cycles_of(g.at(0));
  };
  // The pairs of extents the run deferred (RunSpace::deferred), searched now and left for later.
  std::vector<std::array<long long, 4>> near_pairs, far_pairs;
  // Generates the groups of `pairs`, but for the pairs none of whose tiles can move fewer than
  // `bytes` (`fewer`) or at most `bytes` (TrafficFloor::pair_floor): each group is taken as
  // generated, into near_groups or others by its floor.
  const auto generate = [&](const std::vector<std::array<long long, 4>>& pairs, double bytes,
                            bool fewer) {
    std::vector<Group> unused;  // (kept out: the groups are taken as generated)
    space.boundary(
        unused,
        [&](int d, const std::array<long long, 3>& tile, long long upto) {
          const double f = traffic.pair_floor(tile, d, upto);
          return fewer ? f < bytes : f <= bytes;
        },
        [&](const Group& g) {
          (floor_of(g) <= limit ? near_groups : others).push_back(g);
          return false;
        },
        true, &pairs);
  };
  if (limit <= run.wide) {
    // S need only hold W and lie in the space (each test below holds for any such set): the
    // run's groups and those it set aside, by their floors, and the groups of the pairs it did
    // not search (their enumeration indices are not those of the whole space; nothing below ranks
    // by them).
    run_others = true;
    for (size_t g = 0; g < groups.size(); ++g) {
      if (run.floors[g] > limit) continue;
      near_groups.push_back(groups[g]);
      near_known.push_back(g < run.loose_of.size() ? run.loose_of[g] : -1.0);
    }
    for (size_t e = 0; e < run.extra.size(); ++e)
      if (run.extra_floors[e] <= limit) near_groups.push_back(run.extra[e]);
    if (limit > run.covered && !run.deferred.empty()) {
      // Now only the pairs whose tiles' compute cycles may not exceed `limit` (their floor with
      // d's extent up to the whole dimension, compute_floor_upto): every group of S among them.
      // The others' groups lie beyond `limit` (no group's floor is below its pair's), outside
      // S; they are generated only when the candidates outside S are asked for. A
      // single-buffered tile whose double-buffered twin is among those lies beyond `limit` too,
      // so S and its order are those of all the pairs generated at once.
      for (const std::array<long long, 4>& key : run.deferred) {
        const int d = static_cast<int>(key[0]);
        const std::array<long long, 3> tile{key[1], key[2], key[3]};
        (compute_floor_upto(tile, d, base_.dim[d].size) <= limit ? near_pairs : far_pairs)
            .push_back(key);
      }
      // Of those, none from the pairs none of whose tiles is lean (D below is the same, or lean
      // neither way): S then holds every lean candidate of W. (A single-buffered tile whose
      // twin's pair is left out is kept: it moves its twin's bytes, not lean.)
      if (!near_pairs.empty()) generate(near_pairs, lean, false);
    }
  } else {  // (not reached: the choice is within 2 % of C*, at most the run's first time)
    window_again(space, groups, limit, near_groups, others);
  }
  // D: the least-traffic candidate of S, if lean (else no candidate of W is lean, and neither is
  // L if it lies in W). Its bytes (`fewest`), and the candidates of S that move them.
  std::vector<LeastTraffic> least_of_s;
  near_known.resize(near_groups.size(), -1.0);  // (the groups added after the run's: none known)
  const long long fewest =
      fewest_bytes(near_groups, lean, &loose, least_of_s, &near_known, &traffic);
  if (fewest < 0 || within_cap(choice.dram_bytes, fewest)) return;
  // D beyond the window (D: of those the fastest; none within 2 % of X): every candidate of W
  // moves more than D (on equal bytes W's fewer cycles would rank first), so L (at most D's
  // bytes) is not in W: L is more than 2 % slower. So too when a candidate outside S moves fewer
  // bytes than D (then D, in W, is the least of W). Either holds (neither is preferred): D's
  // candidates planned first, by increasing compute cycles while those do not exceed 2 % above
  // X; those whose cycle floor (search::cycles_floor) does not either are timed only once no
  // candidate of the far pairs' groups moves fewer bytes than D.
  const std::vector<detail::Model> maybe = maybe_within(least_of_s, limit);
  if (maybe.empty()) return;
  // Candidates outside S moving fewer bytes than D, larger tiles first (fewer bytes): the far
  // pairs' groups (with them, twins of candidates outside S, of the same bytes; none from the
  // pairs none of whose tiles moves fewer bytes than D), then those of the near pairs beyond
  // `limit`, then the run's beyond `limit`, last first (as when all were generated at once).
  const size_t near_others = others.size();
  if (!far_pairs.empty()) generate(far_pairs, static_cast<double>(fewest), true);
  for (size_t g = others.size(); g-- > near_others;)
    if (leaner(traffic, others[g], fewest, loose)) return;
  const auto within = [&](const detail::Model& m) {
    ++evaluated_;
    return m.timing().total <= limit;
  };
  if (std::none_of(maybe.begin(), maybe.end(), within)) return;
  for (size_t g = near_others; g-- > 0;)
    if (leaner(traffic, others[g], fewest, loose)) return;
  if (run_others) {
    for (size_t e = run.extra.size(); e-- > 0;)
      if (run.extra_floors[e] > limit && leaner(traffic, run.extra[e], fewest, loose)) return;
    for (size_t g = groups.size(); g-- > 0;)
      if (run.floors[g] > limit && leaner(traffic, groups[g], fewest, loose)) return;
  }
  cap_beyond_s(space, groups, traffic, choice, fewest, loose);
}

void Search::window_again(CandidateSpace& space, std::vector<Group>& groups, long long limit,
                          std::vector<Group>& near_groups, std::vector<Group>& others) {
  const auto floor_of = [&](const Group& g) {
    return micro_ ? group_floor(g.at(0)) : compute_cycles_of(g.at(0));
  };
  space.grid(groups);
  space.boundary(
      groups,
      [&](int d, const std::array<long long, 3>& tile, long long upto) {
        return micro_ || compute_floor_upto(tile, d, upto) <= limit;
      },
      [&](const Group& g) { return floor_of(g) <= limit; }, true);
  for (const Group& g : groups) (floor_of(g) <= limit ? near_groups : others).push_back(g);
}

void Search::cap_beyond_s(CandidateSpace& space, std::vector<Group>& groups, TrafficFloor& traffic,
                          const Score& choice, long long fewest, const LooseFloor& loose) {
  // The same over the rest of the capacity boundary, as it is generated (and no further once
  // such a candidate is found), but for the pairs of extents none of whose tiles can move fewer
  // bytes (TrafficFloor::pair_floor).
  bool found = false;
  std::vector<Group> rest;  // (none kept)
  space.boundary(
      rest,
      [&](int d, const std::array<long long, 3>& tile, long long upto) {
        return !found && traffic.pair_floor(tile, d, upto) < static_cast<double>(fewest);
      },
      [&](const Group& g) {
        if (!found) found = leaner(traffic, g, fewest, loose);
        return false;
      });
  if (found) return;
  // D in W and lean: L of the whole space (at most D's bytes).
  space.all(groups);
  best_.reset();
  by_dram(groups, static_cast<double>(fewest) * (1 + 1e-12), &loose, &traffic);
  const Score least = *best_;
  best_ = choice;
  if (over_cap(choice, least)) best_ = fastest_within(groups, least);
}

std::vector<detail::Model> Search::maybe_within(const std::vector<LeastTraffic>& candidates,
                                                long long limit) {
  std::vector<detail::Model> out;
  for (const LeastTraffic& c : candidates) {
    if (c.bound > limit) break;
    detail::Model m = model(c.tiling);
    ++planned_;
    if (cycles_floor(m) <= limit) out.push_back(std::move(m));
  }
  return out;
}

long long Search::least_bytes_bound() {
  if (!bounds_) bounds_ = compute_bounds(acc_, problem_, options_);
  return bounds_->dram_bytes;
}

bool Search::leaner(TrafficFloor& traffic, const Group& g, long long bytes,
                    const LooseFloor& loose) {
  const double below = static_cast<double>(bytes);
  const Tiling first = g.at(0);
  if (loose(g) >= below) return false;
  traffic.set_extents(first);
  for (size_t i = 0; i < g.size(); ++i) {
    const Tiling t = g.at(i);
    if (traffic(t) >= below) continue;
    const detail::Model m = model(t);
    ++planned_;
    if (m.feasible() && m.dram_bytes() < bytes) return true;
  }
  return false;
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
