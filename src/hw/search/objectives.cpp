#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "detail/checked_int.hpp"
#include "hw/overflow_context.hpp"
#include "hw/search/search_detail.hpp"
#include "tenet/error.hpp"

// The searches under dram_bytes, energy and edp; the objectives' names; hw::choose_tiling.

namespace tenet::hw::search {

long long Search::fewest_bytes(const std::vector<Group>& groups, double upper,
                               const LooseFloor* loose, std::vector<LeastTraffic>& least,
                               const std::vector<double>* known, TrafficFloor* traffic) {
  std::optional<TrafficFloor> own;
  if (!traffic) traffic = &own.emplace(acc_, problem_, dataflow_, options_);
  TrafficFloor& floor = *traffic;
  struct Entry {
    double floor;
    size_t index;
    Tiling tiling;
  };
  std::vector<Entry> entries;
  if (upper < 0) entries.reserve(groups.empty() ? 0 : groups.back().first + groups.back().size());
  for (size_t j = 0; j < groups.size(); ++j) {
    const Group& g = groups[j];
    if (upper >= 0) {  // a group whose loose floor exceeds `upper` holds no candidate under it
      const Tiling t = g.at(0);
      double bound = 0;
      if (known && (*known)[j] >= 0) {
        bound = (*known)[j];
      } else if (loose) {
        bound = (*loose)(g);
      } else {
        const unsigned streamed = floor.alone_too_large(t);
        floor.set_extents(t, false);
        bound = floor.loose(g, streamed);
      }
      if (bound > upper) continue;
    }
    floor.set_extents(g.at(0));
    for (size_t i = 0; i < g.size(); ++i) {
      const Tiling t = g.at(i);
      const double f = floor(t);
      if (upper < 0 || f <= upper) entries.push_back({f, g.first + i, t});
    }
  }
  // A heap: usually few entries are taken out before the floor exceeds the fewest bytes.
  const auto later = [](const Entry& a, const Entry& b) {
    return std::tie(a.floor, a.index) > std::tie(b.floor, b.index);
  };
  std::make_heap(entries.begin(), entries.end(), later);
  least.clear();
  long long fewest = -1;
  while (!entries.empty()) {
    std::pop_heap(entries.begin(), entries.end(), later);
    const Entry e = entries.back();
    entries.pop_back();
    if (fewest >= 0 && e.floor > static_cast<double>(fewest)) break;
    const detail::Model m = model(e.tiling);
    ++planned_;
    if (!m.feasible()) continue;  // never chosen over a feasible candidate
    const long long dram = m.dram_bytes();
    if (fewest >= 0 && dram > fewest) continue;
    if (dram != fewest) least.clear();
    fewest = dram;
    least.push_back({m.compute_cycles(), e.index, e.tiling});
  }
  std::sort(least.begin(), least.end(), [](const LeastTraffic& a, const LeastTraffic& b) {
    return std::tie(a.bound, a.index) < std::tie(b.bound, b.index);
  });
  return fewest;
}

void Search::by_dram(const std::vector<Group>& groups, double upper, const LooseFloor* loose,
                     TrafficFloor* traffic) {
  std::vector<LeastTraffic> least;
  fewest_bytes(groups, upper, loose, least, nullptr, traffic);
  for (const LeastTraffic& p : least) {
    if (beaten(p.bound)) break;
    consider(model(p.tiling), p.tiling, p.index, TilingObjective::kDramBytes);
  }
  if (!best_ && !groups.empty() && upper < 0)  // none is feasible: the first (result() refuses)
    consider(model(groups.front().at(0)), groups.front().at(0), 0, TilingObjective::kDramBytes);
}

void Search::by_energy(const std::vector<Group>& groups) {
  struct Entry {
    double key;
    long long bound, dram_bytes, tiles;
    size_t index;
    const Group* group;
    size_t position;
    auto score() const { return std::tie(key, bound, dram_bytes, tiles, index); }
  };
  std::vector<Entry> entries;
  for (const Group& g : groups) {
    const long long compute = micro_ ? compute_cycles(g.at(0)) : compute_cycles_of(g.at(0));
    for (size_t i = 0; i < g.size(); ++i) {
      const detail::Model m = model(g.at(i));
      Entry e{0, std::max(compute, cycles_floor(m)), m.dram_bytes(), m.tiles(), g.first + i, &g, i};
      const double energy = m.energy().total;
      e.key =
          objective_ == TilingObjective::kEnergy ? energy : energy * static_cast<double>(e.bound);
      entries.push_back(e);
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.score() < b.score(); });
  for (const Entry& e : entries) {
    if (best_) {
      const double best_key =
          objective_ == TilingObjective::kEnergy ? best_->energy_pj : best_->edp();
      if (std::tie(e.key, e.bound, e.dram_bytes, e.tiles, e.index) >
          std::tie(best_key, best_->cycles, best_->dram_bytes, best_->tiles, best_->index))
        break;
    }
    const Tiling t = e.group->at(e.position);
    consider(model(t), t, e.index);
  }
}

}  // namespace tenet::hw::search

namespace tenet::hw {

const char* to_string(TilingObjective objective) {
  switch (objective) {
    case TilingObjective::kLatency:
      return "latency";
    case TilingObjective::kEnergy:
      return "energy";
    case TilingObjective::kDramBytes:
      return "dram_bytes";
    case TilingObjective::kEdp:
      return "edp";
  }
  return "?";
}

std::string describe(TilingObjective objective) {
  if (objective == TilingObjective::kLatency)
    return "latency: fastest; within 2 % of it, fewest DRAM bytes, then least energy; capped at "
           "1.5x the least traffic when that is within 2 %";
  return to_string(objective);
}

std::string describe(TilingObjective objective, long long near_tie_percent) {
  if (objective != TilingObjective::kLatency || near_tie_percent == 2) return describe(objective);
  if (near_tie_percent == 0)
    return "latency: the fastest; among equally fast, fewest DRAM bytes, then least energy; "
           "capped at 1.5x the least traffic when that is within 2 %";
  return fmt::format(
      "latency: fastest; within {0} % of it, fewest DRAM bytes, then least energy; capped at "
      "1.5x the least traffic when that is within 2 %",
      near_tie_percent);
}

TilingObjective parse_tiling_objective(const std::string& text, const std::string& option) {
  for (TilingObjective o : {TilingObjective::kLatency, TilingObjective::kEnergy,
                            TilingObjective::kDramBytes, TilingObjective::kEdp})
    if (text == to_string(o)) return o;
  throw InputError(error_code::kUnknownName, "", option,
                   "unknown tiling objective \"" + text +
                       "\"; expected one of latency, energy, dram_bytes, edp");
}

mapping::Tiling choose_tiling(const arch::Accelerator& acc, const GemmProblem& problem,
                              mapping::Dataflow dataflow, const Options& options,
                              const TilingSearchOptions& search) {
  validate(problem);
  return detail::naming_gemm_on_overflow(problem, [&] {
    // storage kept by the thread: no large block allocated and returned to the system per search
    thread_local std::vector<search::Group> groups;
    search::CandidateSpace space(acc, problem, dataflow, options);
    search::Search s(acc, problem, dataflow, options, search.objective);
    switch (search.objective) {
      case TilingObjective::kLatency:
        s.by_latency(space, groups);
        break;
      case TilingObjective::kDramBytes:
        space.all(groups);
        s.by_dram(groups);
        break;
      case TilingObjective::kEnergy:
      case TilingObjective::kEdp:
        space.all(groups);
        s.by_energy(groups);
        break;
    }
    if (search.stats) {
      long long candidates = 0;
      for (const search::Group& g : groups) candidates += static_cast<long long>(g.size());
      *search.stats = {candidates, s.evaluated(), candidates - s.evaluated(), s.planned()};
    }
    if (search.bounds && s.bounds()) *search.bounds = s.bounds();
    const mapping::Tiling chosen = search::returned_tiling(acc, problem, dataflow, s.best());
    // The chosen tiling's Result: evaluate_gemm's model of it (validated above) with the timing
    // the search gave it (the same plan and operands: not timed again).
    if (search.result && s.best_score().cycles < search::kInfeasible)
      *search.result = detail::Model(acc, problem, dataflow, chosen, options, {false, true})
                           .result(s.best_score().timing);
    return chosen;
  });
}

}  // namespace tenet::hw
