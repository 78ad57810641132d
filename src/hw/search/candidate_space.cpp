#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "detail/checked_int.hpp"
#include "hw/search/search_detail.hpp"
#include "tenet/error.hpp"

// The candidate space: the grid of listed extents and (CandidateSpace::boundary) the capacity
// boundary; the public hw::tiling_candidates.

namespace tenet::hw::search {

void sort_extents(std::vector<long long>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

namespace {

// Tile extents worth trying for a dimension of `size` cut by the array into pieces of `unit`.

std::vector<long long> extents_for(long long size, long long unit) {
  unit = std::min(unit, size);
  std::vector<long long> out{size};
  // Doubling stops at the size: t·2 may not fit 64 bits for sizes near 2^63.
  auto doubled = [size](long long t) {
    std::int64_t next = 0;
    return ::tenet::detail::mul_fits(t, 2, next) && next < size ? next : size;
  };
  for (long long t = unit; t < size; t = doubled(t)) out.push_back(t);
  for (long long p = 1; p < size; p = doubled(p))
    if (p > unit) out.push_back(p);
  for (long long parts = 2; parts <= 4; ++parts) {
    const long long even = detail::ceil_div(detail::ceil_div(size, parts), unit) * unit;
    if (even < size) out.push_back(even);
  }
  sort_extents(out);
  return out;
}

// Per set of cut dimensions (bit d = dimension d has more than one tile): the loop orders that
// differ once restricted to the cut dimensions (the first of each class), as indices of kOrders.
const std::array<std::vector<int>, 8>& distinct_orders() {
  static const std::array<std::vector<int>, 8> table = [] {
    std::array<std::vector<int>, 8> out;
    for (int mask = 0; mask < 8; ++mask) {
      std::set<std::vector<GemmDim>> seen;
      for (int o = 0; o < static_cast<int>(kOrders.size()); ++o) {
        std::vector<GemmDim> key;
        for (GemmDim d : kOrders[o])
          if (mask & (1 << static_cast<int>(d))) key.push_back(d);
        if (seen.insert(key).second) out[mask].push_back(o);
      }
    }
    return out;
  }();
  return table;
}

}  // namespace

const std::array<std::array<GemmDim, 3>, 6> kOrders{{{GemmDim::kM, GemmDim::kN, GemmDim::kK},
                                                     {GemmDim::kN, GemmDim::kM, GemmDim::kK},
                                                     {GemmDim::kM, GemmDim::kK, GemmDim::kN},
                                                     {GemmDim::kK, GemmDim::kM, GemmDim::kN},
                                                     {GemmDim::kN, GemmDim::kK, GemmDim::kM},
                                                     {GemmDim::kK, GemmDim::kN, GemmDim::kM}}};

const std::array<std::vector<int>, 8> kDistinctOrders = distinct_orders();

namespace {

// Extents sized by the buffer, for the least-traffic search: with the output tile kept and short
// chunks of the reduction streamed, DRAM traffic falls as the output tile's sides grow towards
// sqrt(usable elements) (docs/model.md §7), a value that is rarely a power of two or a multiple
// of the array. Per array-mapped dimension: side x 0.71 and x 1.41 (so that the two sides of a
// tile can trade against each other around the square), as is, rounded down to the array extent
// and evened out over the same number of tiles; per streamed dimension: 16-long chunks. (Side x 1
// and 32-long chunks were measured to add nothing on the LLM shapes of bench/bound.cpp.)
void add_capacity_extents(const arch::Accelerator& acc, const GemmProblem& problem,
                          const detail::Plan& plan, std::array<std::vector<long long>, 3>& ext) {
  const arch::GlobalBuffer& gb = acc.spec().global_buffer;
  long long bytes = gb.partitions.empty() ? gb.bytes : 0;
  for (const auto& [key, part] : gb.partitions) bytes = std::max(bytes, part.bytes);
  if (gb.double_buffered) bytes /= 2;
  int bits = 8;
  for (const Operand& op : problem.operands)
    if (op.output) bits = std::max(bits, op.bits);
  const double side = std::sqrt(static_cast<double>(bytes) * 8.0 / bits);
  for (int d = 0; d < 3; ++d) {
    const long long size = plan.dim[d].size;
    std::vector<long long>& extra = ext[d];
    if (plan.dim[d].split > 0) {
      const long long unit = std::min(plan.dim[d].split, size);
      for (double f : {0.71, 1.41}) {
        const long long t = std::llround(side * f);
        if (t < 1 || t >= size) continue;
        extra.push_back(t);
        extra.push_back(std::max(unit, t / unit * unit));
        // the same number of tiles with the extent evened out over them
        const long long tiles = detail::ceil_div(size, t);
        extra.push_back(detail::ceil_div(size, tiles));
      }
    } else {
      for (long long chunk : {16LL})
        if (chunk < size) extra.push_back(chunk);
    }
    sort_extents(extra);
  }
}

}  // namespace

CandidateSpace::CandidateSpace(const arch::Accelerator& acc, const GemmProblem& problem,
                               mapping::Dataflow dataflow, const Options& options)
    : acc_(acc),
      problem_(problem),
      options_(options),
      // The untiled model gives the array split of every dimension.
      plan_(detail::Model(acc, problem, dataflow, Tiling{}, options, {true, false}).plan()),
      fit_(acc, problem) {
  for (int d = 0; d < 3; ++d)
    ext_[d] =
        extents_for(plan_.dim[d].size, plan_.dim[d].split > 0 ? plan_.dim[d].split : kStreamUnit);
  if (!options.unlimited_buffer) add_capacity_extents(acc, problem, plan_, ext_);
}

void CandidateSpace::grid(std::vector<Group>& groups) {
  groups.clear();
  index_ = 0;
  groups.reserve(ext_[0].size() * ext_[1].size() * ext_[2].size());
  // as add() each, with each dimension's bit of the mask and the sizes looked up once
  std::array<size_t, 8> sizes;
  for (size_t mask = 0; mask < 8; ++mask) sizes[mask] = kDistinctOrders[mask].size();
  for (long long tm : ext_[0]) {
    const int m = tm < plan_.dim[0].size ? 1 : 0;
    for (long long tn : ext_[1]) {
      const int mn = m | (tn < plan_.dim[1].size ? 2 : 0);
      for (long long tk : ext_[2]) {
        const int mask = mn | (tk < plan_.dim[2].size ? 4 : 0);
        groups.push_back(Group{tm, tn, tk, 0, mask, index_});
        index_ += sizes[static_cast<size_t>(mask)];
      }
    }
  }
}

void CandidateSpace::all(std::vector<Group>& groups) {
  grid(groups);
  boundary(
      groups, [](int, const std::array<long long, 3>&, long long) { return true; },
      [](const Group&) { return true; });
}

void CandidateSpace::boundary(std::vector<Group>& groups, const KeepPair& keep_pair,
                              const KeepGroup& keep_group, bool twins,
                              const std::vector<std::array<long long, 4>>* only) {
  if (options_.unlimited_buffer) return;
  const auto listed = [&](int d, long long v) {
    return std::binary_search(ext_[d].begin(), ext_[d].end(), v);
  };
  // Single buffering (Tiling::single), one tensor at a time: its tile is kept once, so larger
  // tiles fit, and its transfers stall the array. Only on the capacity boundary it opens, and
  // only where that tensor's tile changes (else the buffering makes no difference).
  // Not when every tile takes both banks (Microarch::tile_fits_one_bank): a single-buffered
  // tile fits no more there, and its transfers stall the array, so it never wins.
  thread_local std::vector<unsigned> singles;
  thread_local std::vector<std::vector<std::array<long long, 3>>> fitted;
  singles.assign(1, 0u);
  if (kSingleBufferingCandidates && acc_.spec().global_buffer.double_buffered &&
      !acc_.spec().micro.tile_fits_one_bank)
    for (const mapping::BufferedTensor b :
         {mapping::BufferedTensor::kC, mapping::BufferedTensor::kA, mapping::BufferedTensor::kB})
      singles.push_back(1u << static_cast<int>(b));
  twins = twins && !acc_.spec().micro.active();
  fit_extents(fit_, plan_, ext_, singles, fitted, keep_pair, twins, only);
  const bool twin_test = twins && singles.size() > 1;
  // Whether the twin test may ask fits() last: each tile of fitted[v] fits with its buffering,
  // so with every tensor double-buffered no operand's bytes exceed twice a buffer's capacity and
  // fits() adds at most three capacities: no count leaves 64 bits (fits() throws nowhere) when
  // every capacity is at most 2^61 bytes. Else it is asked first, as it may throw.
  bool fits_last = true;
  for (size_t p = 0; p < fit_.partitions(); ++p)
    fits_last = fits_last && fit_.capacity(static_cast<int>(p)) <= (1LL << 61);
  // (fitted[0] is sorted: its tiles are looked up by binary search, compared element by element)
  const auto in_fitted = [&](const std::array<long long, 3>& tile) {
    return std::binary_search(
        fitted[0].begin(), fitted[0].end(), tile,
        [](const std::array<long long, 3>& a, const std::array<long long, 3>& b) {
          return a[0] != b[0] ? a[0] < b[0] : a[1] != b[1] ? a[1] < b[1] : a[2] < b[2];
        });
  };
  for (const auto& [tm, tn, tk] : fitted[0])
    if (!(listed(0, tm) && listed(1, tn) && listed(2, tk))) add(groups, tm, tn, tk, 0, &keep_group);
  for (size_t v = 1; v < singles.size(); ++v) {
    const unsigned single = singles[v];
    // the dimensions along which a single-buffered operand's tile changes when cut
    std::array<bool, 3> along{};
    for (const Operand& op : problem_.operands)
      if (single >> static_cast<int>(detail::buffered_tensor(op)) & 1u)
        for (int d = 0; d < 3; ++d) along[d] = along[d] || op.group[d] > 0;
    for (const auto& [tm, tn, tk] : fitted[v]) {
      const std::array<long long, 3> tile{tm, tn, tk};
      bool changes = false;
      for (int d = 0; d < 3; ++d) changes = changes || (along[d] && tile[d] < plan_.dim[d].size);
      if (!changes) continue;
      if (twin_test) {
        const auto twin_in_space = [&] {  // (by `tile`: C++17 lambdas capture no bindings)
          return (listed(0, tile[0]) && listed(1, tile[1]) && listed(2, tile[2])) ||
                 in_fitted(tile);
        };
        // (a tile of fitted[0] fits with every tensor double-buffered: it need not be asked)
        if (fits_last ? in_fitted(tile) ||
                            (listed(0, tm) && listed(1, tn) && listed(2, tk) && fit_.fits(tile, 0))
                      : fit_.fits(tile, 0) && twin_in_space())
          continue;  // its double-buffered twin dominates it
      }
      add(groups, tm, tn, tk, single, &keep_group);
    }
  }
}

// The tiling a search returns: resolved against the problem's sizes, except that with
// arch::Microarch::pad_stream_aligned_tiles_only a stream tile taking the whole dimension keeps
// its padded extent (above the logical size), so that evaluating it pads the dimension as the
// search timed it (detail::padded_stream_size: an extent equal to an off-word logical size runs
// unpadded, in the search as in the evaluation).
mapping::Tiling returned_tiling(const arch::Accelerator& acc, const GemmProblem& problem,
                                mapping::Dataflow dataflow, const mapping::Tiling& raw) {
  mapping::Tiling t = mapping::resolve_tiling(raw, problem.shape);
  const arch::Microarch& u = acc.spec().micro;
  if (!u.pad_stream_aligned_tiles_only) return t;
  const mapping::GemmDim st = mapping::dataflow_dims(dataflow).stream;
  long long& extent = st == mapping::GemmDim::kM ? t.m : st == mapping::GemmDim::kN ? t.n : t.k;
  const long long logical = st == mapping::GemmDim::kM   ? problem.shape.m
                            : st == mapping::GemmDim::kN ? problem.shape.n
                                                         : problem.shape.k;
  const long long given = raw.extent(st);
  if (given == 0 || given > logical)  // whole (padded_stream_size); the logical size as is
    extent = detail::padded_stream_size(logical, 0, u.pad_stream_multiple, true);
  return t;
}

}  // namespace tenet::hw::search

namespace tenet::hw {

std::vector<mapping::Tiling> tiling_candidates(const arch::Accelerator& acc,
                                               const GemmProblem& problem,
                                               mapping::Dataflow dataflow) {
  std::vector<mapping::Tiling> out;
  std::vector<search::Group> groups;
  search::CandidateSpace(acc, problem, dataflow, Options{}).all(groups);
  for (const search::Group& g : groups)
    for (size_t i = 0; i < g.size(); ++i)
      out.push_back(search::returned_tiling(acc, problem, dataflow, g.at(i)));
  return out;
}

}  // namespace tenet::hw
