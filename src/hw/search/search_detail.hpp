// The tiling search's internals (hw::choose_tiling, hw::tiling_candidates): the candidate space,
// the capacity boundary, the floors of DRAM bytes and cycles, the searches per objective and the
// one ranking. One file per job (docs/architecture.md); internal to tenet::hw.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "hw/model.hpp"
#include "hw/search/ranking.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/bounds.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::hw::search {

using mapping::GemmDim;
using mapping::Tiling;

constexpr long long kStreamUnit = 64;  // tile unit of the streamed dimension
// Whether the search also tries single-buffered tensors (Tiling::single) on the capacity boundary
// they open: about 2x the candidates and 2x the search time (bench_sweep BM_choose_tiling), and
// the least-traffic mappings of LLM prefill GEMMs within 1.11x of the Hong-Kung floor instead of
// 1.24x (bench/hong_kung_ratio.py).
constexpr bool kSingleBufferingCandidates = true;

// The six loop orders, and per set of cut dimensions (bit d = dimension d has more than one
// tile) the orders that differ once restricted to the cut dimensions (indices into kOrders).
extern const std::array<std::array<GemmDim, 3>, 6> kOrders;
extern const std::array<std::vector<int>, 8> kDistinctOrders;

// Sorts a short list of extents and drops repeats.
void sort_extents(std::vector<long long>& v);

// Tilings with the same extents (hence the same compute cycles), one per distinct loop order;
// `first` is the index of the first of them in the enumeration order.
struct Group {
  long long m = 0, n = 0, k = 0;
  unsigned single = 0;
  int mask = 0;  // the cut dimensions
  size_t first = 0;
  size_t size() const { return kDistinctOrders[mask].size(); }
  Tiling at(size_t i) const { return Tiling{m, n, k, kOrders[kDistinctOrders[mask][i]], single}; }
};

// Filters of the capacity boundary (CandidateSpace::boundary): whether the pairs of extents
// with the other two extents of `tile` and one of dimension d up to `upto` are searched, and
// whether a group is kept.
using KeepPair = std::function<bool(int, const std::array<long long, 3>&, long long)>;
using KeepGroup = std::function<bool(const Group&)>;

// Tile extents on the capacity boundary, for the least-traffic search: DRAM traffic falls as
// tiles grow, so the best tilings fill the buffer. For every pair of extents from the lists of
// two dimensions (the reduction dimension also with 4- and 8-long chunks), the largest extent
// of the third dimension with which every operand's tile fits its buffer (as the model counts
// footprints: x2 when double-buffered unless the tile never changes), and that extent evened out
// over the same number of tiles. Extents of any value, found by bisection on the footprint.
class FitExtents {
 public:
  FitExtents(const arch::Accelerator& acc, const GemmProblem& problem);

  // Buffer bytes of operand i's tile, as Model::plan_operands counts them (`single`: the
  // single-buffered tensors, Tiling::single).
  long long footprint(size_t i, const std::array<long long, 3>& tile, unsigned single) const {
    Tiling t;
    t.single = single;
    return detail::operand_footprint_bytes(
        spec_, problem_.operands[i], tile, sizes_,
        double_buffered_ && !t.single_buffered(detail::buffered_tensor(problem_.operands[i])));
  }
  int holder(size_t i) const { return holder_[i]; }
  long long capacity(int partition) const { return capacity_[partition]; }
  size_t partitions() const { return capacity_.size(); }

  // Whether every operand's tile fits its buffer at once (`required_only`: the operands that
  // must be SRAM-resident, arch::Microarch::sram_resident).
  bool fits(const std::array<long long, 3>& tile, unsigned single,
            bool required_only = false) const {
    if (capacity_.size() > kMax) {
      used_.assign(capacity_.size(), 0);
      return fits_into(used_.data(), tile, single, required_only);
    }
    std::array<long long, kMax> used;  // (not zeroed whole: a memset is slow on short runs)
    for (size_t p = 0; p < capacity_.size(); ++p) used[p] = 0;
    return fits_into(used.data(), tile, single, required_only);
  }

  // The largest extent of dimension d (others as in `tile`) that fits; 0 if none does. By
  // bisection on fits(), with each operand's factor of the other two extents computed once.
  // `below`: an extent known to be at least the answer (e.g. the answer for smaller other
  // extents: footprints grow with every extent).
  // `bisect`: bisect the whole range (the reference the narrowed search is tested against).
  long long largest(std::array<long long, 3> tile, int d, unsigned single, long long below = -1,
                    bool bisect = false) const {
    Others o;
    if (!prepare(tile, d, o)) return 0;
    return largest(o, tile, d, single, below, bisect);
  }

  static constexpr size_t kMax = 16;
  static constexpr size_t kParts = 4;  // buffers for which the search range is narrowed
  // Each operand's factor of the tile's extents but for dimension d, and whether its tile
  // changes along them, shared by the searches of every buffering (largest(Others, ...)).
  struct Others {
    std::array<long long, kMax> other{};  // elements of the tile but for dimension d
    std::array<bool, kMax> changes{};
  };
  // False when some operand has no buffer (no extent fits).
  bool prepare(const std::array<long long, 3>& tile, int d, Others& o) const;

  // An extent of dimension d no buffering's fit exceeds (the operands' factors prepared): the
  // largest whose bytes fit each buffer with every tile taken once (no second copy) and at its
  // fewest elements (other x extent / g: max_distinct_groups is at least that); 0 if none can.
  long long upper(const Others& o, int d) const;

  // largest() with the operands' factors prepared (prepare() true for this tile and d).
  long long largest(const Others& o, std::array<long long, 3> tile, int d, unsigned single,
                    long long below, bool bisect) const;

 private:
  long long size(int d) const { return sizes_[d]; }
  // fits() with `used` (one zero per buffer) as its running sums.
  bool fits_into(long long* used, const std::array<long long, 3>& tile, unsigned single,
                 bool required_only) const {
    for (size_t i = 0; i < problem_.operands.size(); ++i) {
      if (required_only && !required_[i]) continue;
      if (holder_[i] < 0) return false;
      long long& u = used[holder_[i]];
      u = detail::add(u, footprint(i, tile, single));
      if (u > capacity_[holder_[i]]) return false;
    }
    return true;
  }
  long long largest_slow(std::array<long long, 3> tile, int d, unsigned single) const;
  const arch::AcceleratorSpec& spec_;
  const GemmProblem& problem_;
  std::array<long long, 3> sizes_;
  bool double_buffered_ = true;
  bool both_banks_ = false;     // a tile takes two banks whatever it is (tile_fits_one_bank)
  std::vector<bool> required_;  // per operand: must be SRAM-resident
  std::vector<long long> capacity_;
  std::vector<int> holder_;
  // per operand (the first kMax): its tensor's bit of Tiling::single
  std::array<unsigned, kMax> tensor_bit_{};
  mutable std::vector<long long> used_;  // scratch of fits() with more than kMax buffers
};

// The capacity-boundary tiles of each buffering in `singles` (Tiling::single), sorted, into
// `out` (one list per entry of `singles`, in the same order). `keep_pair(d, tile, upto)`: whether
// the tiles with the other two extents of `tile` and an extent of d at most `upto` (the whole
// dimension, then a bound of the fitted extents) are wanted; a pair it refuses is not searched (a
// search skips pairs that cannot hold a winner).
// `only` (if given): instead of every pair of listed extents, only these pairs (each d, then the
// tile with d's extent 0), as keep_pair takes them: the same tiles as the whole walk gives for
// them.
void fit_extents(const FitExtents& fit, const detail::Plan& plan,
                 const std::array<std::vector<long long>, 3>& ext,
                 const std::vector<unsigned>& singles,
                 std::vector<std::vector<std::array<long long, 3>>>& out, const KeepPair& keep_pair,
                 bool twins, const std::vector<std::array<long long, 4>>* only = nullptr);

// The search space: the grid of listed extents (every combination of extents_for and
// add_capacity_extents), then the capacity boundary (fit_extents). Groups are numbered
// (Group::first) in that order. A search may leave out parts of the boundary that cannot hold a
// winner (boundary()'s filters): the groups kept keep their relative order, so every comparison by
// enumeration index is the same as over the whole space.
class CandidateSpace {
 public:
  CandidateSpace(const arch::Accelerator& acc, const GemmProblem& problem,
                 mapping::Dataflow dataflow, const Options& options);

  // The listed extents per dimension (the grid's, in its order).
  const std::array<std::vector<long long>, 3>& extents() const { return ext_; }

  // Fills `groups` (cleared first; the search passes storage its thread keeps) with the grid.
  void grid(std::vector<Group>& groups);

  // Appends the capacity boundary's groups (after grid()): only those of the pairs of extents
  // `keep_pair(d, tile, upto)` accepts (fit_extents) and the groups `keep_group(group)` accepts.
  // `twins`: leave out the single-buffered tiles (Tiling::single) whose tiles fit with every
  // tensor double-buffered when that tiling is in the space too (listed, or on the capacity
  // boundary): the same operands are resident at the same counts (the same bytes and energy),
  // and moving the single-buffered tensor's transfers out of the overlapped window into the
  // exposed one never shortens a step (a window's cycles are subadditive), so the
  // double-buffered twin, enumerated first, is never beaten by it. Not under the
  // microarchitecture (its DMA windows).
  // `only` (if given): only the capacity boundary of these pairs of extents (fit_extents), the
  // twins left out as the whole boundary would leave them out against the tiles of these pairs.
  void boundary(std::vector<Group>& groups, const KeepPair& keep_pair, const KeepGroup& keep_group,
                bool twins = false, const std::vector<std::array<long long, 4>>* only = nullptr);

  // The whole space (grid and boundary) into `groups`.
  void all(std::vector<Group>& groups);

 private:
  // (inline: the grid adds every group) `keep`: the boundary's filter, none for the grid
  void add(std::vector<Group>& groups, long long tm, long long tn, long long tk, unsigned single,
           const KeepGroup* keep = nullptr) {
    const int mask = (tm < plan_.dim[0].size ? 1 : 0) | (tn < plan_.dim[1].size ? 2 : 0) |
                     (tk < plan_.dim[2].size ? 4 : 0);
    const Group g{tm, tn, tk, single, mask, index_};
    if (keep && !(*keep)(g)) return;
    index_ += g.size();
    groups.push_back(g);
  }

  const arch::Accelerator& acc_;
  const GemmProblem& problem_;
  Options options_;
  detail::Plan plan_;
  std::array<std::vector<long long>, 3> ext_;
  FitExtents fit_;  // the capacity boundary's footprints (built once per space)
  size_t index_ = 0;
};

// The cycles of a tiling that does not fit (Model::feasible), beyond any feasible one.
constexpr long long kInfeasible = std::numeric_limits<long long>::max() / 4;

// A timed candidate: its rank (cycles = Model::timing().total; energy not under dram_bytes), its
// tiling and its model's timing (the chosen one's Result is made from it: choose_tiling).
struct Score : Rank {
  Tiling tiling;
  detail::Timing timing;  // (all zero when the tiling does not fit)
};

// Floors of timing().total from a planned model (model_floors.cpp): the tiles' DRAM windows from
// the DRAM channel alone (0 with unlimited DRAM bandwidth); the array-side SRAM ports (every
// fold moves its distinct elements per partition); the cycles the array waits for DRAM inside
// the tiles' steps (the transfers of single-buffered resident tiles, or every window when the
// global buffer is not double-buffered; 0 under the microarchitecture); their most with the
// edge windows (cycles_floor); and, for any operand plan of the model's plan that moves at least
// `dram_bytes`, the DRAM-channel time (dram_cycles_floor: every byte crosses the channel in some
// tile's window or an edge window, except with edge transfers off one tile per operand).
double window_bytes_floor(const detail::Model& m, const detail::OperandPlan& x);
double dram_channel_share(const detail::Model& m);  // 1, or 1/2 with separate DMA channels
long long dram_windows_floor(const detail::Model& m);
long long sram_cycles_floor(const detail::Model& m);
long long stall_cycles_floor(const detail::Model& m);
long long cycles_floor(const detail::Model& m);
long long dram_cycles_floor(const detail::Model& m, const GemmProblem& problem, double dram_bytes);

// A candidate's rank under the objective (the model planned, timed when the objective needs it).
Score score(const detail::Model& m, const Tiling& t, size_t index, TilingObjective o);
// Whether a ranks before b (hw::search::better on their ranks).
bool better(const Score& a, const Score& b, TilingObjective o);

// A lower bound of Model::dram_bytes() in closed form, without planning the operands: per
// operand its distinct elements times the tile counts of the loops that bring it back (resident:
// the dimensions it does not depend on, outside its innermost cut one) or at least the fold
// pieces of the dimensions it does not depend on (streamed from DRAM fold by fold); an output
// moves 2 x that - its distinct elements (written, and read back but the first time). The least
// over the sets of operands whose tiles fit their buffers together, as Model::choose_residency
// chooses (the fewest bytes). Exact for ungrouped operands.
class TrafficFloor {
 public:
  TrafficFloor(const arch::Accelerator& acc, const GemmProblem& problem, mapping::Dataflow dataflow,
               const Options& options);

  // The extents of a group of candidates (all loop orders): tile counts and the sets of operands
  // whose tiles fit their buffers together, shared by every order.
  // `sets` false: only the tile counts, for loose() (no set of operands is formed).
  void set_extents(const Tiling& t, bool with_sets = true);

  // Whether the footprints (footprint_, held) of all n operands fit their buffers together.
  bool fits_all(size_t n) const;

  // The tile counts per dimension of a tiling (all set_extents(t, false) and loose() depend on).
  std::array<long long, 3> tile_counts(const Tiling& t) const;

  // The largest sets of operands (bit i: operand i) whose tiles fit their buffers together, with
  // the extents last set (with sets); empty when they were not formed (unlimited buffer, an
  // operand no buffer holds, more than 10 operands).
  const std::vector<unsigned>& sets() const { return masks_; }

  // Tile counts per dimension (all set_extents(t, false) and loose() depend on): what every
  // loop order shares per operand, the dimensions it depends on that are cut, and its bytes when
  // streamed (every piece of the dimensions it does not depend on). No sets of operands.
  void set_counts(const std::array<long long, 3>& counts);

  // The operands (bit i: operand i) whose tile alone does not fit its buffer with the extents of
  // `t` (as set_extents counts footprints): no set of operands that fit holds them, so they are
  // streamed (0 where set_extents forms no sets).
  unsigned alone_too_large(const Tiling& t) const;

  // The floor of every candidate with the extents last set (set_extents(t, false) is enough):
  // the least over the loop orders of each operand's cheaper way, without the buffer's sets,
  // but for the operands of `streamed` (alone_too_large of those extents), streamed.
  // (operator() without the sets, each loop order's terms in the same order)
  double loose(const Group& g, unsigned streamed = 0) const;

  // The floor of a candidate with the extents last set.
  double operator()(const Tiling& t) const;

  // loose() with each operand's resident bytes multiplied out per loop order: the reference (with
  // more than two distinct loop orders, loose() takes each operand's cheaper way once per set of
  // the loops that bring it back, shared by the orders, unless some product may round).
  double loose_by_order(const Group& g, unsigned streamed = 0) const;

  // A floor of the bytes of every candidate (any loop order, any buffering) whose extents are
  // those of `tile` but for dimension d, whose extent is at most `upto`: per loop order every
  // operand's cheaper way moves no fewer bytes with more tiles (its resident bytes multiply the
  // tile counts of the loops outside its innermost cut one, which only moves inwards as more
  // dimensions are cut; its streamed bytes the pieces), so loose() with the extent `upto`, over
  // every order, without the buffer's sets. 0 when the stream dimension's size follows the
  // tile's extent (tile_counts: no such order). Sets the extents (as set_extents(t, false)).
  double pair_floor(std::array<long long, 3> tile, int d, long long upto);

 private:
  const GemmProblem& problem_;
  FitExtents fit_;
  bool unlimited_;
  std::array<long long, 3> size_{}, split_{};
  // the stream dimension, and with pad_stream_aligned_tiles_only its logical size (else 0)
  int stream_ = 2;
  long long stream_logical_ = 0, stream_multiple_ = 1;
  std::vector<double> distinct_;
  std::vector<double> bytes_;    // per operand: bytes per element
  std::vector<char> output_;     // per operand
  std::vector<unsigned> indep_;  // per operand: the dimensions it does not depend on (bits)
  std::vector<unsigned> cut_;    // per operand: the cut dimensions it depends on (set_extents)
  std::array<double, 3> tiles_{}, pieces_{};
  static constexpr long long kFull = 1LL << 62;  // a sum of footprints beyond any buffer
  std::vector<unsigned> masks_;                  // the largest sets of operands that fit
  std::vector<char> fits_;                       // per set of operands
  std::vector<long long> sum_;                   // per set: bytes in one buffer
  mutable std::vector<double> resident_;         // scratch, per operand
  std::vector<double> streamed_;                 // per operand: bytes when streamed (set_extents)
  std::vector<long long> footprint_;
  unsigned may_not_fit_ = 0;              // operands some tile of which may not fit alone (bit i)
  bool unheld_ = false;                   // an operand no buffer holds
  std::array<double, 3> whole_pieces_{};  // per dimension with a split: its pieces untiled
  // alone_too_large's test of each operand of may_not_fit_ (up to 10): its tile's elements (as
  // tile_footprint_bytes counts them: a product of weights, one per dimension it depends on)
  // against the most that fit its buffer, with one copy and with two.
  struct Alone {
    size_t i = 0;
    std::array<signed char, 3> weight{};  // per dimension: its weight's index (-1: none)
    unsigned dims = 0;                    // the dimensions it depends on (bits)
    unsigned single = 0;                  // the Tiling::single bit of its tensor
    bool double_buffered = false;         // the buffer is (a tile that changes is kept twice)
    bool both_banks = false;              // two copies whatever the tile (tile_fits_one_bank)
    std::array<long long, 2> most{};      // elements that fit with one copy, with two
    long long safe = 0;  // elements up to which the bytes count without overflow (else slowly)
  };
  std::array<Alone, 10> alone_{};
  size_t alones_ = 0;
  // The weights: 0..2 each dimension's extent (group 1), then max_distinct_groups of a
  // dimension's extent for each group (d, g) some operand has.
  std::array<std::pair<int, long long>, 33> grouped_{};  // (3 + 3 per operand)
  size_t weights_ = 3;
  bool alone_slow(size_t i, const std::array<long long, 3>& extent, unsigned single) const;
  // Per loop order (kOrders) and set of cut dimensions (bit d): the dimensions at or outside the
  // innermost cut one (none cut: none), whose loops bring a resident operand back.
  std::array<std::array<unsigned char, 8>, 6> outside_{};
  // Into cheaper_, per operand not in `streamed` and set of the dimensions it does not depend on
  // whose loops bring it back (bit d): its cheaper way (resident or streamed bytes), with the
  // tile counts set (exact_: the products in any order).
  void set_cheaper(unsigned streamed) const;
  mutable std::vector<std::array<double, 8>> cheaper_;  // scratch of loose()
  // Per operand: the dimensions it does not depend on, in increasing order.
  struct IndepDims {
    int count = 0;
    std::array<unsigned char, 3> dim{};
  };
  std::vector<IndepDims> indep_dims_;
  double most_distinct_ = 0;  // the most distinct elements of an operand
  // most_distinct_ times every tile count below 2^53 (set_counts): every product of an
  // operand's distinct elements and tile counts is an exact integer, whatever its order.
  bool exact_ = false;
};

class LatencyRun;

// The space a latency run generated (Search::cap_traffic): besides its groups, a floor of the
// cycles of each group's candidates (`floors`), which hold every group whose floor is at most
// `covered`; beyond that up to `wide`, the groups it generated but set aside (`extra`) with
// their floors, and the pairs of extents of the capacity boundary it did not search (`deferred`,
// sorted: d, then the tile with d's extent 0).
struct RunSpace {
  const std::vector<long long>& floors;
  const std::vector<double>& loose_of;  // the groups' loose floors found (-1: none; may be short)
  const std::vector<Group>& extra;
  const std::vector<long long>& extra_floors;
  const std::vector<std::array<long long, 4>>& deferred;
  long long covered, wide;
};

// The loose traffic floor of a group's candidates (TrafficFloor::loose with the operands whose
// tile alone does not fit streamed).
using LooseFloor = std::function<double(const Group&)>;

class Search {
 public:
  Search(const arch::Accelerator& acc, const GemmProblem& problem, mapping::Dataflow dataflow,
         const Options& options, TilingObjective objective)
      : acc_(acc),
        problem_(problem),
        dataflow_(dataflow),
        options_(options),
        objective_(objective),
        base_(detail::Model(acc, problem, dataflow, Tiling{}, options, {false, false}).plan()),
        micro_(acc.spec().micro.active()),
        fit_(acc, problem) {}

  // A floor of timing().total shared by every candidate with these extents (any loop order),
  // from the plan alone: the compute cycles, plus the edge windows (edge transfers) when every
  // operand's tile fits its buffer — then every operand is resident (keeping an operand never
  // moves more than streaming it, and Model::choose_residency keeps the most operands among the
  // cheapest sets), so the windows are exactly Model::edge_transfer_cycles'.
  // A group whose operands that must be SRAM-resident do not fit (infeasible: never chosen over a
  // feasible one, Model::feasible) waits behind every other with kInfeasible.
  long long group_floor(const Tiling& t) const;

  // The edge windows (latency + bytes / bandwidth each) of the operands `kept(i)` takes, with the
  // tile extents of `plan`: their inputs' first tiles and their outputs' last tiles.
  template <typename Kept>
  long long edge_windows(const detail::Plan& plan, Kept kept) const {
    const detail::TileIndex first{0, 0, 0};
    const detail::TileIndex last{plan.dim[0].tiles() - 1, plan.dim[1].tiles() - 1,
                                 plan.dim[2].tiles() - 1};
    double fill = 0, drain = 0;
    for (size_t i = 0; i < problem_.operands.size(); ++i) {
      if (!kept(i)) continue;
      const Operand& op = problem_.operands[i];
      const double bytes =
          static_cast<double>(detail::tile_volume(plan, op, op.output ? last : first)) * op.bits /
          8.0;
      (op.output ? drain : fill) += bytes;
    }
    const arch::Dram& dram = acc_.spec().dram;
    return detail::add(detail::dram_window_cycles(dram, fill),
                       detail::dram_window_cycles(dram, drain));
  }

  // A floor of the edge windows (Model::edge_transfer_cycles) of every candidate with the extents
  // of `plan` (retiled), edge transfers charged (edge_floor()): Model::choose_residency keeps one
  // of `sets`, the largest sets of operands whose tiles fit their buffers together
  // (TrafficFloor::sets): keeping an operand never moves more than streaming it, and among the
  // cheapest sets it takes one with the most operands, which no operand that fits beside them can
  // join. The windows grow with the bytes, so the least over `sets` of the windows of their
  // inputs' first tiles and their outputs' last tiles bounds them.
  long long least_edge_windows(const detail::Plan& plan, const std::vector<unsigned>& sets) const;

  // Whether group_floor adds more than the compute cycles (compute_cycles_of) to the floor.
  bool edge_floor() const {
    return !micro_ && options_.edge_transfers && !options_.unlimited_dram_bandwidth &&
           !acc_.spec().dram.bandwidth.unlimited;
  }

  // detail::compute_cycles of the plan retiled to `t` (resolved; not under the
  // microarchitecture), the same checked sums, with each dimension's fold intervals and the
  // stream dimension's streamed cycles kept per tile extent: a search asks for few distinct
  // extents per dimension.
  long long compute_cycles_of(const Tiling& t) const {
    std::array<long long, 3> fold{};
    long long streamed = 0;
    const int stream = static_cast<int>(base_.dims.stream);
    for (int d = 0; d < 3; ++d) {
      const Memo& e = extent_cycles(d, t.extent(static_cast<GemmDim>(d)));
      fold[d] = e.folds;
      if (d == stream) streamed = e.streamed;
    }
    return detail::fold_pipeline_cycles(base_, fold, streamed);
  }

  // A floor of compute_cycles_of over the tiles with the extents of `tile` but for dimension d,
  // whose extent is at most `upto` (>= 1): d's fold pieces are at least those of the whole
  // dimension (DimPlan::fold_intervals: ceil is superadditive) and at least its tile count, its
  // streamed cycles at least the whole dimension's (Plan::stream_cycles likewise), and the cycles
  // grow with both (fold_pipeline_cycles).
  long long compute_floor_upto(const std::array<long long, 3>& tile, int d, long long upto) const {
    return floor_upto(floor_parts(tile, d), d, upto);
  }
  // compute_floor_upto in two steps, the first not depending on `upto` (a caller asking for one
  // tile with several bounds takes it once): the fold pieces of the other two extents of `tile`
  // and of the whole dimension d, and the stream dimension's streamed cycles.
  struct FloorParts {
    std::array<long long, 3> fold{};
    long long streamed = 0;
  };
  FloorParts floor_parts(const std::array<long long, 3>& tile, int d) const {
    FloorParts p;
    for (int e = 0; e < 3; ++e) set_fold(p, e, e == d ? 0 : tile[e]);
    return p;
  }
  // Dimension e's part of `p` with tile extent `extent` (0: whole).
  void set_fold(FloorParts& p, int e, long long extent) const {
    const Memo& m = extent_cycles(e, extent);
    p.fold[e] = m.folds;
    if (e == static_cast<int>(base_.dims.stream)) p.streamed = m.streamed;
  }
  long long floor_upto(const FloorParts& parts, int d, long long upto) const {
    std::array<long long, 3> fold = parts.fold;
    if (upto < base_.dim[d].size)
      fold[d] = std::max(fold[d], detail::ceil_div(base_.dim[d].size, upto));
    return detail::fold_pipeline_cycles(base_, fold, parts.streamed);
  }

  // Dimension d's fold pieces and (the stream dimension's) streamed cycles with tile extent
  // `extent` (0: whole), kept per extent: a search asks for few distinct extents per dimension.
  struct Memo {
    long long extent = -1, folds = 0, streamed = 0;
  };
  const Memo& extent_cycles(int d, long long extent) const {
    // as retile: a tile covering the whole (logical) dimension covers its padding too
    const long long logical = d == 0 ? base_.logical.m : d == 1 ? base_.logical.n : base_.logical.k;
    if (extent == 0 || extent >= logical) extent = base_.dim[d].size;
    Memo& e = memo_[d][static_cast<size_t>(
        (static_cast<unsigned long long>(extent) * 0x9E3779B97F4A7C15ULL) >> 58)];
    if (e.extent != extent) {
      detail::DimPlan dp = base_.dim[d];
      dp.tile = extent;
      e.extent = extent;
      e.folds = dp.fold_intervals();
      if (d == static_cast<int>(base_.dims.stream)) e.streamed = detail::streamed_cycles(base_, dp);
    }
    return e;
  }

  // The problem was validated once by choose_tiling.
  detail::Model model(const Tiling& t) const {
    return detail::Model(acc_, problem_, base_.dataflow, t, options_, {false, true, &base_});
  }
  detail::Model plan_only(const Tiling& t) const {
    return detail::Model(acc_, problem_, base_.dataflow, t, options_, {false, false, &base_});
  }
  long long compute_cycles(const Tiling& t) const { return plan_only(t).compute_cycles(); }

  // (`o`: the objective ranked by, the search's own unless given)
  void consider(const detail::Model& m, const Tiling& t, size_t index,
                std::optional<TilingObjective> o = std::nullopt) {
    ++evaluated_;
    const Score s = score(m, t, index, o.value_or(objective_));
    if (!best_ || better(s, *best_, o.value_or(objective_))) best_ = s;
  }

  // Candidates whose compute cycles (a lower bound of their total cycles) exceed the best total
  // cannot win when cycles come first.
  bool beaten(long long compute_cycles) const { return best_ && compute_cycles > best_->cycles; }

  // Whether `cycles` (timing().total) lies within the near-tie window of the fastest,
  // `fastest`: total cycles at most near_percent_ % (2 % by default) above the fastest total.
  bool near(long long cycles, long long fastest) const {
    return search::near(cycles, fastest, near_percent_);
  }

  // kLatency: the fastest candidate C* (least timing().total), then among the candidates within
  // 2 % of it (near()) the fewest DRAM bytes, then the least energy, cycles, tiles, index
  // (docs/hardware.md, "Under latency").
  // Phase 1, branch and bound on cycle floors, best-first: a group (same extents) is bounded by
  // its compute cycles (plan alone), then by its edge windows and the DRAM time of its loose
  // traffic floor; its candidates (loop orders) by the DRAM-channel time of their closed-form
  // traffic floor (search::dram_cycles_floor of TrafficFloor); a planned candidate by
  // search::cycles_floor(); a candidate is timed when taken out planned. C* lies between the
  // least floor left and the fastest time found: phase 1 stops once the fastest time is within
  // 2 % of that floor (every time up to it is then within the window of C*), and goes on later
  // only when a time's place in the window must be known. Phase 2, branch and bound on traffic
  // among what is left within 2 % of the fastest time: nodes in increasing order of their
  // DRAM-byte floor (a group: its loose floor; planned: exact), timed only while they can still
  // beat the best (bytes, energy, cycle floor) of the window.
  // The space is generated here (into `groups`): first the grid, whose group with the least
  // floor gives a first time (first_time), an upper bound of C*'s; then only the parts of the
  // capacity boundary whose floor lies within the near-tie window of that time (fit_extents'
  // pairs by compute_floor_upto) and not dominated by a twin (CandidateSpace::boundary). What is
  // left out is beyond the window of C*, or loses to a candidate kept.
  void by_latency(CandidateSpace& space, std::vector<Group>& groups);

  // kLatency, after the latency run (the window's choice X, best_): the cap (hw::search::choose,
  // step 2). `groups` and `run`: the space the run generated (RunSpace).
  // X is kept when it moves at most 1.5x the bytes no mapping moves fewer of
  // (hw::compute_bounds); or when D, the least-traffic candidate of S, a set of groups holding
  // every candidate within 2 % of X's cycles (W; the run's groups, those it set aside and those
  // of the pairs it deferred whose floor lies within 2 % of X, or the space generated again if
  // `run` does not cover them), moves at least 2/3 of X's bytes, or lies beyond 2 % of X, or
  // some candidate outside S moves fewer bytes than D: then the least-traffic candidate L is not
  // lean or lies beyond the window. Else L of the whole space (by_dram into `groups`), and if
  // over_cap(X, L), the choice is fastest_within(L).
  // `loose`: the loose traffic floor of a group's candidates (TrafficFloor::loose, kept per
  // search); `traffic`: the run's TrafficFloor, which `loose` may set (every use sets its extents
  // first).
  void cap_traffic(CandidateSpace& space, std::vector<Group>& groups, const RunSpace& run,
                   const LooseFloor& loose, TrafficFloor& traffic);

  // cap_traffic's S when the run's space does not hold it: the whole space generated again into
  // `groups`, its groups whose floor is at most `limit` into near_groups, the others into others.
  void window_again(CandidateSpace& space, std::vector<Group>& groups, long long limit,
                    std::vector<Group>& near_groups, std::vector<Group>& others);

  // cap_traffic's last steps, D (moving `fewest` bytes) in W and lean, no candidate of the groups
  // asked so far leaner: the rest of the capacity boundary asked for a leaner candidate (as it
  // is generated, but for the pairs of extents none of whose tiles can move fewer bytes); if
  // none, L over the whole space (by_dram into `groups`) and, if over_cap(choice, L),
  // fastest_within(L) into best_.
  void cap_beyond_s(CandidateSpace& space, std::vector<Group>& groups, TrafficFloor& traffic,
                    const Score& choice, long long fewest, const LooseFloor& loose);

  // Whether some candidate of the group moves fewer than `bytes` DRAM bytes (by its loose and
  // closed-form traffic floors, then planned).
  bool leaner(TrafficFloor& traffic, const Group& g, long long bytes, const LooseFloor& loose);

  // The candidate of `groups` (the whole space) faster() ranks first among those moving at most
  // 1.5x the bytes of `least` (the least-traffic candidate, one of them): by increasing floor of
  // their cycles (compute cycles; the DRAM-channel time of their traffic floor), those whose
  // traffic floor exceeds the cap left out, planned and timed while the floor does not exceed the
  // best time.
  Score fastest_within(const std::vector<Group>& groups, const Score& least);

  // An upper bound of the fastest time: the grid's group with the least floor (`floors`, one per
  // group), its loop order with the least traffic floor, timed (its score under latency); none if
  // it does not fit. When that time is more than 0.5 % above the floor (the group is often a
  // small tile, slowed by its per-tile windows), also the group within the near-tie window of the
  // least floor whose tiles are largest while every operand's fits its buffer; the faster.
  std::optional<Score> first_time(const std::vector<Group>& groups,
                                  const std::vector<long long>& floors, TrafficFloor& traffic);

  // kDramBytes: branch and bound on a closed-form lower bound of each candidate's DRAM bytes
  // (TrafficFloor), taken out of a heap in increasing order of it: a candidate is planned (its
  // exact bytes) only while its floor does not exceed the fewest bytes found; then, among the
  // candidates with the fewest bytes, the cycles decide (timed while their compute cycles can
  // still win). The result is that of evaluating every candidate.
  // `upper` (>= 0): the bytes of some candidate (an upper bound of the fewest): candidates whose
  // floor exceeds it are left out (a group by its loose floor first, `loose`).
  // `traffic` (if given): a TrafficFloor of this search to use (else one is made).
  void by_dram(const std::vector<Group>& groups, double upper = -1,
               const LooseFloor* loose = nullptr, TrafficFloor* traffic = nullptr);

  // by_dram's first step: the fewest DRAM bytes of a feasible candidate of `groups` (-1: none;
  // `upper`, `loose` as there), and into `least` the candidates moving them with their compute
  // cycles (a floor of their time), by those, then enumeration index. None is timed.
  struct LeastTraffic {
    long long bound;
    size_t index;
    Tiling tiling;
  };
  // `known` (parallel to `groups`, if given): loose floors already found (-1: none).
  // `traffic` (if given): a TrafficFloor of this search to use (else one is made).
  long long fewest_bytes(const std::vector<Group>& groups, double upper, const LooseFloor* loose,
                         std::vector<LeastTraffic>& least,
                         const std::vector<double>* known = nullptr,
                         TrafficFloor* traffic = nullptr);
  // The candidates of `candidates` (by increasing `bound`, a floor of their cycles) that may take
  // at most `limit` cycles (timing().total), planned: while their bound does not exceed `limit`,
  // those whose planned cycle floor (search::cycles_floor) does not either.
  std::vector<detail::Model> maybe_within(const std::vector<LeastTraffic>& candidates,
                                          long long limit);

  // kEnergy, kEdp: energy and DRAM bytes are exact without timing (they depend on access
  // counts only). Every candidate is planned; ordered by a lower bound of its score (energy or
  // energy x cycle bound, then the cycle bound, bytes, tiles, index), they are timed until the
  // next bound loses to the best score.
  void by_energy(const std::vector<Group>& groups);

  // The bytes no mapping moves fewer of (hw::compute_bounds), computed once.
  long long least_bytes_bound();
  // hw::compute_bounds of the search's arguments if least_bytes_bound() computed them.
  const std::optional<Bounds>& bounds() const { return bounds_; }

  Tiling best() const { return best_->tiling; }
  const Score& best_score() const { return *best_; }
  long long evaluated() const { return evaluated_; }
  long long planned() const { return planned_; }

 private:
  friend class LatencyRun;  // the latency search's phases (latency.cpp)
  const arch::Accelerator& acc_;
  const GemmProblem& problem_;
  mapping::Dataflow dataflow_;
  Options options_;
  TilingObjective objective_;
  long long near_percent_ = near_tie_percent(acc_);  // the near-tie window, %
  detail::Plan base_;  // the untiled plan: candidates' plans are retiled from it
  bool micro_ = false;
  FitExtents fit_;
  mutable std::array<std::array<Memo, 64>, 3> memo_{};  // compute_cycles_of, per dimension
  std::optional<Score> best_;
  std::optional<Bounds> bounds_;  // least_bytes_bound()
  long long evaluated_ = 0;
  long long planned_ = 0;
};

// The latency search's grid floors (fold_pipeline_cycles of `p` with the folds and streamed
// cycles of every combination of the extents of `per`, dimension 0 outermost) appended to `out`
// without the overflow checks, when they cannot overflow: the terms with each dimension's most
// folds and the most streamed cycles fit 64 bits (all of them >= 0), so the integers are the
// checked ones. False (nothing appended) otherwise.
bool unchecked_fold_cycles(const detail::Plan& p,
                           const std::array<std::vector<Search::Memo>, 3>& per,
                           std::vector<long long>& out);

// The tiling a search returns: resolved against the problem's sizes, the stream tile's padded
// extent kept under arch::Microarch::pad_stream_aligned_tiles_only (candidate_space.cpp).
mapping::Tiling returned_tiling(const arch::Accelerator& acc, const GemmProblem& problem,
                                mapping::Dataflow dataflow, const mapping::Tiling& raw);

}  // namespace tenet::hw::search
