#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <tuple>

#include "detail/checked_int.hpp"
#include "hw/overflow_context.hpp"
#include "hw/search/search_detail.hpp"
#include "tenet/error.hpp"

// The latency search: branch and bound on cycle floors, then on DRAM-byte floors within the
// near-tie window (docs/hardware.md, "Under latency").

namespace tenet::hw::search {

// (a named namespace: LatencyRun, declared in search_detail.hpp, holds these as members)
namespace latency_detail {

// Loose floors (TrafficFloor::loose) by what they depend on: a group's tile counts (its cut
// dimensions, so its loop orders, follow from them) and the operands taken as streamed. Groups
// alike (the buffering variants of a tile, a tile and its extent evened out) share one. Open
// addressing, at most half full.
class LooseMemo {
 public:
  void clear() {
    slots_.assign(256, Entry{});
    used_ = 0;
  }
  template <typename Compute>
  double get(const std::array<long long, 3>& tiles, unsigned streamed, Compute compute) {
    size_t i = find(tiles, streamed);
    if (slots_[i].floor >= 0) return slots_[i].floor;
    const double floor = compute();
    if (2 * (used_ + 1) > slots_.size()) {
      std::vector<Entry> old(2 * slots_.size(), Entry{});
      old.swap(slots_);
      for (const Entry& e : old)
        if (e.floor >= 0) slots_[find(e.tiles, e.streamed)] = e;
      i = find(tiles, streamed);
    }
    slots_[i] = {tiles, streamed, floor};
    ++used_;
    return floor;
  }

 private:
  struct Entry {
    std::array<long long, 3> tiles{};
    unsigned streamed = 0;
    double floor = -1;  // -1: empty
  };
  size_t find(const std::array<long long, 3>& tiles, unsigned streamed) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = static_cast<size_t>(
             (static_cast<unsigned long long>(tiles[0]) * 0x9E3779B97F4A7C15ULL ^
              static_cast<unsigned long long>(tiles[1]) * 0xC2B2AE3D27D4EB4FULL ^
              static_cast<unsigned long long>(tiles[2]) * 0x165667B19E3779F9ULL ^
              static_cast<unsigned long long>(streamed) * 0x27D4EB2F165667C5ULL) >>
             20);
         ; ++i) {
      const Entry& e = slots_[i & mask];
      if (e.floor < 0 || (e.tiles[0] == tiles[0] && e.tiles[1] == tiles[1] &&
                          e.tiles[2] == tiles[2] && e.streamed == streamed))
        return i & mask;
    }
  }
  std::vector<Entry> slots_;
  size_t used_ = 0;
};

// A binary heap (top: the least under `later`, a "comes after" order) on borrowed storage.
template <typename T, typename Later>
class Heap {
 public:
  Heap(std::vector<T>& store, Later later) : v_(store), later_(later) { v_.clear(); }
  void add(const T& x) { v_.push_back(x); }  // then build()
  void build() { std::make_heap(v_.begin(), v_.end(), later_); }
  void push(const T& x) {
    v_.push_back(x);
    std::push_heap(v_.begin(), v_.end(), later_);
  }
  const T& top() const { return v_.front(); }
  void pop() {
    std::pop_heap(v_.begin(), v_.end(), later_);
    v_.pop_back();
  }
  bool empty() const { return v_.empty(); }

 private:
  std::vector<T>& v_;
  Later later_;
};

}  // namespace latency_detail

using latency_detail::Heap;
using latency_detail::LooseMemo;

// One run of the latency search (Search::by_latency): its state and its phases.
class LatencyRun {
 public:
  LatencyRun(Search& s, CandidateSpace& space, std::vector<Group>& groups)
      : s_(s),
        space_(space),
        groups_(groups),
        traffic_(s.acc_, s.problem_, s.dataflow_, s.options_),
        models_(store().models),
        open_(store().open, ByBound{}),
        left_(store().left, ByFloor{}),
        lazy_(s.edge_floor()),
        floors_(store().floors),
        loose_of_(store().loose_of),
        extra_(store().extra),
        extra_floors_(store().extra_floors),
        deferred_(store().deferred),
        loose_memo_(store().loose_memo) {
    models_.clear();
    models_.reserve(256);
    floors_.clear();
    loose_of_.clear();
    extra_.clear();
    extra_floors_.clear();
    deferred_.clear();
    loose_memo_.clear();
  }

  TrafficFloor& traffic() { return traffic_; }

  std::optional<Score> search() {
    phase1();
    return phase2();
  }

  // A floor of the cycles of each group's candidates (the groups generated), and a time up to
  // which the space generated holds every group whose floor does not exceed it.
  const std::vector<long long>& floors() const { return floors_; }
  long long covered() const { return covered_; }
  // The groups generated beyond the window of the fastest time, up to wide(), and their floors.
  const std::vector<Group>& extra() const { return extra_; }
  const std::vector<long long>& extra_floors() const { return extra_floors_; }
  // The pairs of extents whose search the boundary left out with a floor up to `wide` (d and the
  // tile with d's extent 0), and that time.
  std::vector<std::array<long long, 4>>& deferred() { return deferred_; }
  long long wide() const { return wide_; }

  // The loose floors of the groups generated (by index; -1: not asked for).
  const std::vector<double>& loose_of() const { return loose_of_; }
  // loose_floor of group g (index into the groups generated), kept per group (loose_of()).
  double loose_floor_at(size_t g) {
    if (loose_of_.size() <= g) loose_of_.resize(groups_.size(), -1.0);
    if (loose_of_[g] < 0) loose_of_[g] = loose_floor(groups_[g]);
    return loose_of_[g];
  }

  // The loose floor of a group's candidates (TrafficFloor::loose, with the operands whose tile
  // alone does not fit streamed), kept by what it depends on (LooseMemo).
  double loose_floor(const Group& g) {
    const Tiling t = g.at(0);
    const unsigned streamed = traffic_.alone_too_large(t);
    const std::array<long long, 3> counts = traffic_.tile_counts(t);
    return loose_memo_.get(counts, streamed, [&] {
      traffic_.set_counts(counts);  // (set_extents(t, false))
      return traffic_.loose(g, streamed);
    });
  }

 private:
  // (40 bytes: the heaps move nodes)
  struct Node {
    long long bound;        // floor of timing().total
    size_t index;           // enumeration index (group: of its first candidate)
    double floor;           // DRAM-byte floor (levels 1, 2)
    std::uint32_t group;    // index into groups
    std::int32_t model;     // level 2: index into models
    std::uint8_t position;  // loop order within the group (Group::at)
    std::int8_t level;      // 0 group, 1 candidate, 2 planned candidate
    bool partial = false;   // level 0: bounded by the compute cycles only (group_floor later)
    bool operator>(const Node& o) const {
      return std::tie(bound, index, level) > std::tie(o.bound, o.index, o.level);
    }
  };
  struct ByBound {
    bool operator()(const Node& a, const Node& b) const { return a > b; }
  };
  struct ByFloor {
    bool operator()(const Node& a, const Node& b) const {
      return std::tie(a.floor, a.bound, a.index, a.level) >
             std::tie(b.floor, b.bound, b.index, b.level);
    }
  };
  // Storage kept by the thread: a search allocates (and the allocator maps and unmaps) no large
  // block per call. (Models in a vector: a deque of objects this large allocates one block per
  // model.)
  struct Store {
    std::vector<detail::Model> models;
    std::vector<Node> open, left;  // the heaps' storage
    std::vector<long long> floors, extra_floors;
    std::vector<double> loose_of;
    std::vector<Group> extra;
    std::vector<std::array<long long, 4>> deferred;
    LooseMemo loose_memo;
    std::array<std::vector<Search::Memo>, 3> per;  // grid_floors' per extent
  };
  static Store& store() {
    thread_local Store kept;
    return kept;
  }

  // Times a planned candidate; its score.
  const Score& time(const Node& n) {
    if (n.index == timed_first_) return timed_.front();  // timed before the search began
    const Tiling t = groups_[n.group].at(n.position);
    ++s_.evaluated_;
    timed_.push_back(
        score(models_[static_cast<size_t>(n.model)], t, n.index, TilingObjective::kLatency));
    if (!fastest_ || timed_.back().cycles < *fastest_) fastest_ = timed_.back().cycles;
    return timed_.back();
  }

  // Level 0 -> its candidates with their traffic floors, each to `push`.
  template <typename Push>
  void expand(const Node& n, Push push) {
    const Group& g = groups_[n.group];
    const detail::Model plan = s_.plan_only(g.at(0));
    traffic_.set_extents(g.at(0));
    // (with the edge windows of the operands that fit, when not all of them do)
    const long long bound =
        s_.edge_floor() && !traffic_.sets().empty()
            ? std::max(n.bound, detail::add(s_.compute_cycles_of(g.at(0)),
                                            s_.least_edge_windows(plan.plan(), traffic_.sets())))
            : n.bound;
    for (size_t i = 0; i < g.size(); ++i) {
      const double floor = traffic_(g.at(i));
      push({std::max(bound, dram_cycles_floor(plan, s_.problem_, floor)), g.first + i, floor,
            n.group, -1, static_cast<std::uint8_t>(i), 1});
    }
  }

  // Level 1 -> planned (exact bytes and energy, the model's cycle bound).
  Node plan(const Node& n) {
    models_.push_back(s_.model(groups_[n.group].at(n.position)));
    ++s_.planned_;
    const detail::Model& m = models_.back();
    if (models_.size() > static_cast<size_t>(std::numeric_limits<std::int32_t>::max()))
      detail::count_overflow();
    return Node{std::max(n.bound, cycles_floor(m)),
                n.index,
                static_cast<double>(m.dram_bytes()),
                n.group,
                static_cast<std::int32_t>(models_.size() - 1),
                n.position,
                2};
  }

  // A group waits with its compute cycles (kept per extent: cheap) and gets its group_floor
  // when first taken out; if that is higher, it waits again.
  long long floor_of(const Group& g) const {
    return lazy_ ? s_.compute_cycles_of(g.at(0)) : s_.group_floor(g.at(0));
  }

  // The floors of the grid's groups (lazy: the compute cycles, from each dimension's extents
  // once).
  void grid_floors() {
    if (!lazy_) {
      for (const Group& g : groups_) floors_.push_back(floor_of(g));
      return;
    }
    const std::array<std::vector<long long>, 3>& ext = space_.extents();
    std::array<std::vector<Search::Memo>, 3>& per = store().per;
    for (int d = 0; d < 3; ++d) {
      per[d].clear();
      for (long long e : ext[d]) per[d].push_back(s_.extent_cycles(d, e));
    }
    floors_.reserve(per[0].size() * per[1].size() * per[2].size());
    if (unchecked_fold_cycles(s_.base_, per, floors_)) return;
    const int stream = static_cast<int>(s_.base_.dims.stream);
    for (const Search::Memo& x : per[0])
      for (const Search::Memo& y : per[1])
        for (const Search::Memo& z : per[2]) {
          const long long streamed = stream == 0   ? x.streamed
                                     : stream == 1 ? y.streamed
                                                   : z.streamed;
          floors_.push_back(
              detail::fold_pipeline_cycles(s_.base_, {x.folds, y.folds, z.folds}, streamed));
        }
  }

  // Within the near-tie window of the fastest time found so far (an upper bound of C*'s).
  bool hopeful(long long floor) const { return !fastest_ || near(floor, *fastest_); }

  // The near-tie window of the accelerator file (search::near_tie_percent).
  bool near(long long cycles, long long fastest) const { return s_.near(cycles, fastest); }

  Node node(size_t g) const {
    if (g > std::numeric_limits<std::uint32_t>::max()) detail::count_overflow();
    return Node{floors_[g], groups_[g].first, 0.0, static_cast<std::uint32_t>(g), -1, 0, 0, lazy_};
  }

  // A partial group taken out: its floor with the DRAM-channel time of its loose traffic floor
  // (as search::dram_cycles_floor: edge transfers charged, one channel, not under the
  // microarchitecture, as group floors wait lazily only then). False: it waits again.
  bool complete(Node& n) {
    n.partial = false;
    const Group& g = groups_[n.group];
    const std::array<long long, 3> counts = traffic_.tile_counts(g.at(0));
    const long long tiles = detail::mul(detail::mul(counts[0], counts[1]), counts[2]);
    n.floor = loose_floor_at(n.group);  // (kept for phase 2)
    const long long floor =
        std::max(s_.group_floor(g.at(0)),
                 detail::dram_channel_cycles_floor(s_.acc_.spec().dram, n.floor, 1.0, tiles));
    if (floor <= n.bound) return true;
    n.bound = floor;
    open_.push(n);
    return false;
  }

  // Phase 1 runs until C* is bounded closely enough: C* lies in [min(least floor left, fastest),
  // fastest], so it stops once every time up to `cycles` (-1: the fastest found) lies within
  // the window of any C* there (near() of the least floor left), or C* is exact.
  void run(long long cycles) {
    while (!open_.empty()) {
      if (fastest_) {
        const long long floor = open_.top().bound;
        if (floor >= *fastest_ || near(cycles < 0 ? *fastest_ : cycles, floor)) break;
        if (cycles >= 0 && !near(cycles, *fastest_)) break;  // known beyond the window
      }
      Node n = open_.top();
      open_.pop();
      if (n.partial && !complete(n)) continue;
      if (n.level == 0)
        expand(n, [&](const Node& c) { open_.push(c); });
      else if (n.level == 1)
        open_.push(plan(n));
      else
        time(n);
    }
  }

  // The grid, a first timed candidate (the incumbent: only floors below its time are taken
  // out), phase 1 on the grid (its fastest candidate, exact), then on what of the capacity
  // boundary lies within the window of that time.
  void phase1() {
    space_.grid(groups_);
    grid_floors();
    const std::optional<Score> first_score = s_.first_time(groups_, floors_, traffic_);
    if (first_score) {
      ++s_.evaluated_;
      timed_.push_back(*first_score);
      fastest_ = first_score->cycles;
      timed_first_ = first_score->index;
    }
    const long long limit =
        fastest_ ? near_limit(*fastest_, s_.near_percent_) : std::numeric_limits<long long>::max();
    for (size_t g = 0; g < groups_.size(); ++g)
      if (floors_[g] <= limit) open_.add(node(g));
    open_.build();
    run(-1);
    const size_t grid = groups_.size();
    if (fastest_) {
      covered_ = window_limit(*fastest_, s_.near_percent_);
      // the window, then the cap's 2 % above it: 1.0404 C* at the default 2 %
      const __int128 w = (100 + s_.near_percent_) * (100 + kCapPercent);
      wide_ = static_cast<long long>(static_cast<__int128>(*fastest_) * w / 10000);
    }
    // What lies beyond the window but within 2 % above it (`wide`: the cap's groups within 2 % of
    // the choice, which is within 2 % of C*, at most that time, lie below) is kept for the cap:
    // the groups generated (extra()) and the pairs of extents not searched (deferred()).
    // (compute_floor_upto's parts for the last pair asked: fit_extents asks for each pair of
    // one d and ta by increasing tb, each with the whole dimension, then a bound of its extents)
    Search::FloorParts parts;
    std::array<long long, 3> parts_of{-1, -1, -1};  // d, ta, tb
    // (hopeful(floor) as one comparison: the fastest stays while the boundary is walked)
    const long long hope =
        fastest_ ? near_limit(*fastest_, s_.near_percent_) : std::numeric_limits<long long>::max();
    space_.boundary(
        groups_,
        [&](int d, const std::array<long long, 3>& tile, long long upto) {
          if (s_.micro_) return true;
          const int a = d == 2 ? 0 : d + 1, b = d == 0 ? 2 : d - 1;  // (d + 1, d + 2 mod 3)
          if (parts_of[0] != d || parts_of[1] != tile[a]) {
            parts = s_.floor_parts(tile, d);
            parts_of = {d, tile[a], tile[b]};
          } else if (parts_of[2] != tile[b]) {
            s_.set_fold(parts, b, tile[b]);
            parts_of[2] = tile[b];
          }
          const long long floor = s_.floor_upto(parts, d, upto);
          if (floor <= hope) return true;  // hopeful(floor)
          if (floor <= wide_) defer(d, tile);
          return false;
        },
        [&](const Group& g) {
          const long long floor = floor_of(g);
          if (hopeful(floor)) {
            floors_.push_back(floor);
            return true;
          }
          if (floor <= wide_) extra_.push_back(g), extra_floors_.push_back(floor);
          return false;
        },
        true);
    for (size_t g = grid; g < groups_.size(); ++g) open_.push(node(g));
    run(-1);
  }

  // A pair of extents (dimension d's left out) the boundary did not search, kept for the cap.
  void defer(int d, std::array<long long, 3> tile) {
    tile[d] = 0;
    const std::array<long long, 4> key{d, tile[0], tile[1], tile[2]};
    if (deferred_.empty() || deferred_.back() != key) deferred_.push_back(key);
  }

  // Whether a time lies within the window of C* (phase 1 goes on until that is known: C* exact,
  // the time within the window of the least floor left, or the fastest found since puts it
  // beyond).
  bool in_window(long long cycles) {
    if (!near(cycles, *fastest_)) return false;  // C* <= fastest
    run(cycles);
    return near(cycles, *fastest_);
  }

  // At least the bytes of phase 2's best (-> a bound of the floors it takes out): the fewest of
  // the fastest candidates timed (infinity if none). Phase 1 stopped with C* at least the least
  // floor left, within the window of which the fastest time lies (or C* exact): every time found
  // later is at least C*, so the fastest candidates stay within the window. The best is the first
  // seed within the window in rank order (bytes first), at most their bytes, then only fewer.
  double most_bytes() const {
    double most = std::numeric_limits<double>::infinity();
    for (const Score& s : timed_)
      if (s.cycles == *fastest_) most = std::min(most, static_cast<double>(s.dram_bytes));
    return most;
  }

  // Phase 2: what is left within the window of C*, by DRAM-byte floor, ranked by better().
  std::optional<Score> phase2() {
    std::optional<Score> best;
    const auto before = [](const Score& a, const Score& b) {
      return better(a, b, TilingObjective::kLatency);
    };
    const auto keep = [&](const Node& c) {
      if (near(c.bound, *fastest_)) left_.push(c);
    };
    // A group waits with the loose floor of its candidates and is expanded when taken out.
    // (left's order is total: it does not depend on the order nodes are added in)
    // A node whose floor exceeds `most` is never taken out (below), so it is not added.
    const double most = most_bytes();
    for (Node n : store().open) {
      if (!near(n.bound, *fastest_)) continue;
      if (n.level == 0 && (n.partial || !lazy_)) n.floor = loose_floor_at(n.group);  // (else kept)
      if (n.floor <= most) left_.add(n);
    }
    left_.build();
    // The candidates timed so far are not in `left` (those timed later, if phase 1 goes on,
    // are): in rank order, the first within the window.
    std::vector<Score> seeds = timed_;
    std::sort(seeds.begin(), seeds.end(), before);
    for (const Score& s : seeds)
      if (in_window(s.cycles)) {
        best = s;
        break;
      }
    while (!left_.empty()) {
      const Node n = left_.top();
      left_.pop();
      if (n.floor > static_cast<double>(best->dram_bytes)) break;
      if (n.level == 0) {
        expand(n, keep);
        continue;
      }
      if (n.level == 1) {
        keep(plan(n));
        continue;
      }
      const detail::Model& m = models_[static_cast<size_t>(n.model)];
      if (m.dram_bytes() == best->dram_bytes) {
        const double energy = m.energy().total;
        if (energy > best->energy_pj || (energy == best->energy_pj && n.bound > best->cycles))
          continue;
      }
      const Score s = time(n);  // (a copy: phase 1 may go on and time more)
      if (before(s, *best) && in_window(s.cycles)) best = s;
    }
    return best;
  }

  Search& s_;
  CandidateSpace& space_;
  std::vector<Group>& groups_;
  TrafficFloor traffic_;
  std::vector<detail::Model>& models_;
  std::vector<Score> timed_;
  std::optional<long long> fastest_;
  std::optional<size_t> timed_first_;  // the enumeration index of the first timed candidate
  long long covered_ = std::numeric_limits<long long>::max();  // covered()
  Heap<Node, ByBound> open_;
  Heap<Node, ByFloor> left_;
  bool lazy_ = false;
  std::vector<long long>& floors_;
  std::vector<double>& loose_of_;  // loose_of()
  std::vector<Group>& extra_;
  std::vector<long long>& extra_floors_;
  std::vector<std::array<long long, 4>>& deferred_;
  long long wide_ = std::numeric_limits<long long>::max();  // wide()
  LooseMemo& loose_memo_;
};

bool unchecked_fold_cycles(const detail::Plan& p,
                           const std::array<std::vector<Search::Memo>, 3>& per,
                           std::vector<long long>& out) {
  const int stream = static_cast<int>(p.dims.stream), rows = static_cast<int>(p.dims.rows),
            cols = static_cast<int>(p.dims.cols);
  std::array<long long, 3> most{};
  long long streamed = 0;
  for (int d = 0; d < 3; ++d)
    for (const Search::Memo& e : per[d]) {
      if (e.folds < 0 || e.streamed < 0) return false;
      most[d] = std::max(most[d], e.folds);
      if (d == stream) streamed = std::max(streamed, e.streamed);
    }
  long long folds = 0, spatial = 0, work = 0;
  if (p.base < 0 || p.once < 0 || p.units < 1 || __builtin_mul_overflow(most[0], most[1], &folds) ||
      __builtin_mul_overflow(folds, most[2], &folds) ||
      __builtin_mul_overflow(folds, p.base, &folds) ||
      __builtin_mul_overflow(most[rows], most[cols], &spatial) ||
      __builtin_mul_overflow(spatial, streamed, &spatial) ||
      __builtin_add_overflow(folds, spatial, &work) || __builtin_add_overflow(work, p.once, &work))
    return false;
  const size_t at = out.size();
  out.resize(at + per[0].size() * per[1].size() * per[2].size());
  long long* next = out.data() + at;
  for (const Search::Memo& x : per[0])
    for (const Search::Memo& y : per[1])
      for (const Search::Memo& z : per[2]) {
        const std::array<long long, 3> f{x.folds, y.folds, z.folds};
        const long long s = stream == 0 ? x.streamed : stream == 1 ? y.streamed : z.streamed;
        const long long w = f[0] * f[1] * f[2] * p.base + f[rows] * f[cols] * s;
        *next++ = (p.units > 1 ? detail::ceil_div(w, p.units) : w) + p.once;
      }
  return true;
}

void Search::by_latency(CandidateSpace& space, std::vector<Group>& groups) {
  LatencyRun run(*this, space, groups);
  best_ = run.search();
  std::vector<std::array<long long, 4>>& deferred = run.deferred();
  std::sort(deferred.begin(), deferred.end());
  cap_traffic(
      space, groups,
      {run.floors(), run.loose_of(), run.extra(), run.extra_floors(), deferred, run.covered(),
       run.wide()},
      [&run](const Group& g) { return run.loose_floor(g); }, run.traffic());
}

std::optional<Score> Search::first_time(const std::vector<Group>& groups,
                                        const std::vector<long long>& floors,
                                        TrafficFloor& traffic) {
  if (groups.empty()) return std::nullopt;
  const size_t g =
      static_cast<size_t>(std::min_element(floors.begin(), floors.end()) - floors.begin());
  if (floors[g] >= kInfeasible) return std::nullopt;
  const auto time_group = [&](const Group& group) -> std::optional<Score> {
    traffic.set_extents(group.at(0));
    size_t order = 0;
    double least = 0;
    for (size_t o = 0; o < group.size(); ++o) {
      const double f = traffic(group.at(o));
      if (o == 0 || f < least) order = o, least = f;
    }
    const detail::Model m = model(group.at(order));
    if (!m.feasible()) return std::nullopt;
    return score(m, group.at(order), group.first + order, TilingObjective::kLatency);
  };
  std::optional<Score> best = time_group(groups[g]);
  if (best && static_cast<__int128>(best->cycles) * 1000 <= static_cast<__int128>(floors[g]) * 1005)
    return best;
  std::optional<size_t> large;
  double volume = 0;
  const long long limit = near_limit(floors[g], near_percent_);  // (near() against floors[g])
  for (size_t i = 0; i < groups.size(); ++i) {
    const Group& x = groups[i];
    if (floors[i] > limit) continue;
    const double v = static_cast<double>(x.m) * static_cast<double>(x.n) * static_cast<double>(x.k);
    if (v <= volume || (!options_.unlimited_buffer && !fit_.fits({x.m, x.n, x.k}, x.single)))
      continue;
    large = i, volume = v;
  }
  if (!large || *large == g) return best;
  const std::optional<Score> other = time_group(groups[*large]);
  if (other &&
      (!best || std::tie(other->cycles, other->index) < std::tie(best->cycles, best->index)))
    best = other;
  return best;
}

}  // namespace tenet::hw::search
