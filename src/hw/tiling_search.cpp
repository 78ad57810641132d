#include "tenet/hw/tiling_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <set>
#include <tuple>

#include "detail/checked_int.hpp"
#include "hw/model.hpp"
#include "hw/overflow_context.hpp"
#include "hw/tiling_search_detail.hpp"
#include "tenet/error.hpp"

namespace tenet::hw {
namespace {

using mapping::GemmDim;
using mapping::Tiling;

constexpr long long kStreamUnit = 64;  // tile unit of the streamed dimension
// Whether the search also tries single-buffered tensors (Tiling::single) on the capacity boundary
// they open: about 2x the candidates and 2x the search time (bench_sweep BM_choose_tiling), and
// the least-traffic mappings of LLM prefill GEMMs within 1.11x of the Hong-Kung floor instead of
// 1.24x (bench/hong_kung_ratio.py).
constexpr bool kSingleBufferingCandidates = true;

// Tile extents worth trying for a dimension of `size` cut by the array into pieces of `unit`.
// Sorts a short list of extents and drops repeats.
void sort_extents(std::vector<long long>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

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

const std::array<std::array<GemmDim, 3>, 6> kOrders{{{GemmDim::kM, GemmDim::kN, GemmDim::kK},
                                                     {GemmDim::kN, GemmDim::kM, GemmDim::kK},
                                                     {GemmDim::kM, GemmDim::kK, GemmDim::kN},
                                                     {GemmDim::kK, GemmDim::kM, GemmDim::kN},
                                                     {GemmDim::kN, GemmDim::kK, GemmDim::kM},
                                                     {GemmDim::kK, GemmDim::kN, GemmDim::kM}}};

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

// (built once at start-up: no guarded static on the search's paths)
const std::array<std::vector<int>, 8> kDistinctOrders = distinct_orders();

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

// Tile extents on the capacity boundary, for the least-traffic search: DRAM traffic falls as
// tiles grow, so the best tilings fill the buffer. For every pair of extents from the lists of
// two dimensions (the reduction dimension also with 4- and 8-long chunks), the largest extent
// of the third dimension with which every operand's tile fits its buffer (as the model counts
// footprints: x2 when double-buffered unless the tile never changes), and that extent evened out
// over the same number of tiles. Extents of any value, found by bisection on the footprint.
class FitExtents {
 public:
  FitExtents(const arch::Accelerator& acc, const GemmProblem& problem)
      : spec_(acc.spec()),
        problem_(problem),
        sizes_{problem.shape.m, problem.shape.n, problem.shape.k} {
    const arch::GlobalBuffer& gb = acc.spec().global_buffer;
    double_buffered_ = gb.double_buffered;
    both_banks_ = gb.double_buffered && acc.spec().micro.tile_fits_one_bank;
    for (const Operand& op : problem.operands) {
      bool required = false;
      for (const std::string& role : acc.spec().micro.sram_resident)
        required = required || role == role_key(op.role);
      required_.push_back(required);
    }
    if (gb.partitions.empty()) {
      capacity_.push_back(gb.bytes);
      holder_.assign(problem.operands.size(), 0);
      return;
    }
    for (const auto& [key, part] : gb.partitions) capacity_.push_back(part.bytes);
    for (const Operand& op : problem.operands)  // -1: none holds it (the model rejects it)
      holder_.push_back(detail::holding_partition(gb, op.role));
  }

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
    used_.assign(capacity_.size(), 0);
    for (size_t i = 0; i < problem_.operands.size(); ++i) {
      if (required_only && !required_[i]) continue;
      if (holder_[i] < 0) return false;
      used_[holder_[i]] = detail::add(used_[holder_[i]], footprint(i, tile, single));
      if (used_[holder_[i]] > capacity_[holder_[i]]) return false;
    }
    return true;
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
  bool prepare(const std::array<long long, 3>& tile, int d, Others& o) const {
    const size_t n = problem_.operands.size();
    if (n > kMax || capacity_.size() > kMax) return true;  // largest_slow
    for (size_t i = 0; i < n; ++i) {
      const Operand& op = problem_.operands[i];
      if (holder_[i] < 0) return false;
      long long elements = 1;
      bool changes = false;
      for (int e = 0; e < 3; ++e) {
        const long long g = op.group[e];
        if (e == d || g == 0) continue;
        elements =
            detail::mul(elements, g == 1 ? tile[e] : detail::max_distinct_groups(tile[e], g));
        changes = changes || tile[e] < sizes_[e];
      }
      o.other[i] = elements;
      o.changes[i] = changes;
    }
    return true;
  }

  // An extent of dimension d no buffering's fit exceeds (the operands' factors prepared): the
  // largest whose bytes fit each buffer with every tile taken once (no second copy) and at its
  // fewest elements (other x extent / g: max_distinct_groups is at least that); 0 if none can.
  long long upper(const Others& o, int d) const {
    const size_t n = problem_.operands.size();
    if (n > kMax || capacity_.size() > kParts) return size(d);
    std::array<double, kParts> low{}, slope{};
    for (size_t i = 0; i < n; ++i) {
      const Operand& op = problem_.operands[i];
      const long long g = op.group[d];
      const double w = static_cast<double>(o.other[i]) * op.bits / 8;
      const size_t p = static_cast<size_t>(holder_[i]);
      if (g == 0)
        low[p] += w;
      else
        slope[p] += w / static_cast<double>(g);
    }
    double x = static_cast<double>(size(d));
    for (size_t p = 0; p < capacity_.size(); ++p) {
      const double room = static_cast<double>(capacity_[p]) * (1 + 1e-9) + 1 - low[p];
      if (room < 0) return 0;
      if (slope[p] > 0) x = std::min(x, std::floor(room / slope[p]) + 1);
    }
    return static_cast<long long>(x);
  }

  // largest() with the operands' factors prepared (prepare() true for this tile and d).
  long long largest(const Others& o, std::array<long long, 3> tile, int d, unsigned single,
                    long long below, bool bisect) const {
    const size_t n = problem_.operands.size();
    if (n > kMax || capacity_.size() > kMax) return largest_slow(tile, d, single);
    const std::array<long long, kMax>& other = o.other;
    const std::array<bool, kMax>& changes = o.changes;
    std::array<bool, kMax> doubled;  // (no array is zeroed whole: rep stos is slow on short runs)
    Tiling t;
    t.single = single;
    for (size_t i = 0; i < n; ++i)
      doubled[i] =
          double_buffered_ && !t.single_buffered(detail::buffered_tensor(problem_.operands[i]));
    const auto fits_at = [&](long long extent) {
      std::array<long long, kMax> used;
      if (capacity_.size() <= kParts)  // a fixed count: stored, not a memset (slow on short runs)
        for (size_t p = 0; p < kParts; ++p) used[p] = 0;
      else
        used.fill(0);
      for (size_t i = 0; i < n; ++i) {
        const Operand& op = problem_.operands[i];
        const long long g = op.group[d];
        long long elements = other[i];
        if (g > 0)
          elements =
              detail::mul(elements, g == 1 ? extent : detail::max_distinct_groups(extent, g));
        long long bytes = detail::ceil_bytes(elements, op.bits);
        if (both_banks_ || (doubled[i] && (changes[i] || (g > 0 && extent < sizes_[d]))))
          bytes = detail::mul(bytes, 2);
        long long& u = used[static_cast<size_t>(holder_[i])];
        u = detail::add(u, bytes);
        if (u > capacity_[holder_[i]]) return false;
      }
      return true;
    };
    const long long top = below >= 0 && below < size(d) ? below : size(d);
    if (top < 1) return 0;
    if (top == 1) return fits_at(1) ? 1 : 0;  // (a dimension of size 1: decode's m)
    // Unless `bisect`, the range is narrowed first. On [1, top - 1] (every extent below the size)
    // each operand's bytes lie between two lines of the same slope in the extent x: elements
    // other·h(x) with h(x) = x (g = 1), 1 (g = 0) or max_distinct_groups(x, g) in [x/g, x/g + 2],
    // ceil_bytes adding < 1 byte, doubled as fits_at doubles them there. Per buffer, the largest
    // x whose upper line fits (x_fit) is a fitting extent, the largest whose lower line fits
    // (x_bound) bounds the answer; fits_at is monotone on the range. A point is taken as fitting
    // (or not) without fits_at only when the lines say so with a margin far above the rounding
    // of doubles (1e-9 relative, 1 byte), and only when no count there can leave 64 bits (then
    // fits_at, as the plain bisection calls it, throws nowhere): the result is the plain
    // bisection's.
    long long x_fit = 0, x_bound = top - 1;
    bool fit_known = false, top_out = false, bound_out = false;
    if (!bisect && capacity_.size() <= kParts) {
      std::array<double, kParts> slope{}, low{}, high{}, low_top{};
      const double x_top = static_cast<double>(top);
      bool safe = true;
      for (size_t i = 0; i < n; ++i) {
        const Operand& op = problem_.operands[i];
        const long long g = op.group[d];
        const bool twice = both_banks_ || (doubled[i] && (changes[i] || g > 0));
        const bool twice_top =
            both_banks_ || (doubled[i] && (changes[i] || (g > 0 && top < sizes_[d])));
        const double times = twice ? 2.0 : 1.0;
        const double w = static_cast<double>(other[i]) * op.bits / 8;
        const size_t p = static_cast<size_t>(holder_[i]);
        const double most =
            static_cast<double>(other[i]) * (g == 0   ? 1.0
                                             : g == 1 ? x_top
                                                      : x_top / static_cast<double>(g) + 2);
        safe = safe && most * op.bits < 0x1p58;
        if (g == 0) {
          low[p] += times * w;
          high[p] += times * (w + 1);
          low_top[p] += (twice_top ? 2 : 1) * w;
        } else {
          slope[p] += times * w / static_cast<double>(g);
          high[p] += times * ((g == 1 ? 0 : 2 * w) + 1);
          low_top[p] += (twice_top ? 2 : 1) * w * x_top / static_cast<double>(g);
        }
      }
      const size_t parts = capacity_.size();
      for (size_t p = 0; p < parts && safe; ++p)
        top_out = top_out || low_top[p] * (1 - 1e-9) - 1 > static_cast<double>(capacity_[p]);
      if (top > 1) {
        double fit = static_cast<double>(top - 1), bound = fit;
        for (size_t p = 0; p < parts; ++p) {
          if (slope[p] <= 0) continue;  // the same bytes at every extent: they fit at 1
          const double cap = static_cast<double>(capacity_[p]);
          fit = std::min(fit, std::floor((cap - high[p]) / slope[p]));
          bound = std::min(bound, std::floor((cap - low[p]) / slope[p]));
        }
        if (fit >= 1) x_fit = static_cast<long long>(fit);
        if (bound >= 0) x_bound = static_cast<long long>(bound);
        if (safe && x_fit >= 1) {
          fit_known = true;
          const double x = static_cast<double>(x_fit);
          for (size_t p = 0; p < parts; ++p)
            fit_known = fit_known && (slope[p] * x + high[p]) * (1 + 1e-9) + 1 <=
                                         static_cast<double>(capacity_[p]);
        }
        if (safe && x_bound + 1 <= top - 1) {
          const double x = static_cast<double>(x_bound + 1);
          for (size_t p = 0; p < parts; ++p)
            bound_out = bound_out || (slope[p] * x + low[p]) * (1 - 1e-9) - 1 >
                                         static_cast<double>(capacity_[p]);
        }
      }
    }
    long long lo = 0;  // an extent that fits (0: none known)
    if (x_fit >= 1 && (fit_known || fits_at(x_fit))) lo = x_fit;  // then fits_at(1) too
    if (lo == 0) {
      if (!fits_at(1)) return 0;
      lo = 1;
    }
    if (!top_out && fits_at(top)) return top;
    long long hi = top - 1;  // the answer in [lo, hi]
    if (!bisect && x_bound >= lo && x_bound < hi && (bound_out || !fits_at(x_bound + 1)))
      hi = x_bound;
    while (lo < hi) {
      const long long mid = lo + (hi - lo + 1) / 2;
      if (fits_at(mid))
        lo = mid;
      else
        hi = mid - 1;
    }
    return lo;
  }

 private:
  long long size(int d) const { return sizes_[d]; }
  long long largest_slow(std::array<long long, 3> tile, int d, unsigned single) const {
    long long lo = 0, hi = size(d);  // fits(lo) (or lo = 0), answer in [lo, hi]
    while (lo < hi) {
      const long long mid = lo + (hi - lo + 1) / 2;
      tile[d] = mid;
      if (fits(tile, single))
        lo = mid;
      else
        hi = mid - 1;
    }
    return lo;
  }
  const arch::AcceleratorSpec& spec_;
  const GemmProblem& problem_;
  std::array<long long, 3> sizes_;
  bool double_buffered_ = true;
  bool both_banks_ = false;     // a tile takes two banks whatever it is (tile_fits_one_bank)
  std::vector<bool> required_;  // per operand: must be SRAM-resident
  std::vector<long long> capacity_;
  std::vector<int> holder_;
  mutable std::vector<long long> used_;  // scratch of fits()
};

// Sorts tiles (each extent in [1, size]) and drops repeats: by one 64-bit key when the three
// extents fit in 64 bits together (the key's order is the tiles' order), else element by element.
void sort_unique(std::vector<std::array<long long, 3>>& tiles,
                 const std::array<long long, 3>& size) {
  std::array<int, 3> bits{};
  for (int d = 0; d < 3; ++d)
    bits[d] = 64 - __builtin_clzll(static_cast<unsigned long long>(size[d]));
  if (bits[0] + bits[1] + bits[2] <= 64) {
    thread_local std::vector<unsigned long long> keys;
    keys.clear();
    for (const auto& t : tiles)
      keys.push_back((static_cast<unsigned long long>(t[0]) << (bits[1] + bits[2])) |
                     (static_cast<unsigned long long>(t[1]) << bits[2]) |
                     static_cast<unsigned long long>(t[2]));
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    const unsigned long long mask1 = (1ULL << bits[1]) - 1, mask2 = (1ULL << bits[2]) - 1;
    tiles.clear();
    for (unsigned long long key : keys)
      tiles.push_back({static_cast<long long>(key >> (bits[1] + bits[2])),
                       static_cast<long long>((key >> bits[2]) & mask1),
                       static_cast<long long>(key & mask2)});
    return;
  }
  // (element by element: std::array's operator< compares through memcmp)
  std::sort(tiles.begin(), tiles.end(),
            [](const std::array<long long, 3>& a, const std::array<long long, 3>& b) {
              return a[0] != b[0] ? a[0] < b[0] : a[1] != b[1] ? a[1] < b[1] : a[2] < b[2];
            });
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
}

// The capacity-boundary tiles of each buffering in `singles` (Tiling::single), sorted, into
// `out` (one list per entry of `singles`, in the same order). `keep_pair(d, tile, upto)`: whether
// the tiles with the other two extents of `tile` and an extent of d at most `upto` (the whole
// dimension, then a bound of the fitted extents) are wanted; a pair it refuses is not searched (a
// search skips pairs that cannot hold a winner).
// fit_extents for a dimension d of size 1 (decode's m), with `twins` (singles[0] == 0): every
// pair's tile is (1, ta, tb), whatever the buffering, so a pair's answer is whether that tile
// fits. Where the first buffering's fits, the others' are its twins (left out), and the tile is
// in the grid unless an extent is not listed (`ext`); else each buffering's tile where it fits.
// Below the whole dimension, fitting is monotone in ta and tb (footprints grow with both), so
// each buffering's fitting tbs are counted by a staircase walk: about |A| + |B| fit tests instead
// of one per pair. Only the tiles `keep_pair` takes are kept.
template <typename KeepPair>
void size_one(const FitExtents& fit, const detail::Plan& plan,
              const std::array<std::vector<long long>, 3>& ext,
              const std::array<std::vector<long long>, 3>& lists,
              const std::vector<unsigned>& singles, int d,
              std::vector<std::vector<std::array<long long, 3>>>& out, KeepPair keep_pair) {
  const int a = (d + 1) % 3, b = (d + 2) % 3;
  const std::vector<long long>& lb = lists[b];
  const size_t partial =
      static_cast<size_t>(std::lower_bound(lb.begin(), lb.end(), plan.dim[b].size) - lb.begin());
  const auto listed = [&](int e, long long v) {
    return std::binary_search(ext[e].begin(), ext[e].end(), v);
  };
  const size_t variants = singles.size();
  std::vector<size_t> count(variants, partial), fresh(variants, partial);
  std::vector<signed char> wanted;
  for (long long ta : lists[a]) {
    std::array<long long, 3> tile{};
    tile[d] = 1, tile[a] = ta;
    // (a whole ta needs no second copy of some tiles: counted afresh, the walk kept for the rest)
    std::vector<size_t>& c = ta >= plan.dim[a].size ? fresh : count;
    for (size_t v = 0; v < variants; ++v)
      while (c[v] > 0) {
        tile[b] = lb[c[v] - 1];
        if (fit.fits(tile, singles[v])) break;
        --c[v];
      }
    const bool ta_listed = listed(a, ta);
    // (whether pair i is wanted, asked once: -1 not yet)
    wanted.assign(lb.size(), -1);
    const auto want = [&](size_t i) {
      if (wanted[i] < 0) {
        tile[b] = lb[i];
        wanted[i] = keep_pair(d, tile, 1LL) ? 1 : 0;
      }
      return wanted[i] == 1;
    };
    for (size_t i = 0; i < c[0]; ++i)
      if ((!ta_listed || !listed(b, lb[i])) && want(i)) {
        tile[b] = lb[i];
        out[0].push_back(tile);
      }
    for (size_t v = 1; v < variants; ++v)
      for (size_t i = c[0]; i < c[v]; ++i)
        if (want(i)) {
          tile[b] = lb[i];
          out[v].push_back(tile);
        }
    if (partial < lb.size()) {  // tb whole
      tile[b] = lb[partial];
      if (fit.fits(tile, singles[0])) {
        if ((!ta_listed || !listed(b, lb[partial])) && want(partial)) out[0].push_back(tile);
      } else {
        for (size_t v = 1; v < variants; ++v)
          if (fit.fits(tile, singles[v]) && want(partial)) {
            tile[b] = lb[partial];
            out[v].push_back(tile);
          }
      }
    }
  }
}

// `twins`: leave out the tiles of the other bufferings (singles[v], v > 0) where the first
// (singles[0], every tensor double-buffered) fits the whole dimension: theirs is the same tile,
// which that one dominates (Search::by_latency).
template <typename KeepPair>
void fit_extents(const arch::Accelerator& acc, const GemmProblem& problem, const detail::Plan& plan,
                 const std::array<std::vector<long long>, 3>& ext,
                 const std::vector<unsigned>& singles,
                 std::vector<std::vector<std::array<long long, 3>>>& out, KeepPair keep_pair,
                 bool twins = false) {
  const FitExtents fit(acc, problem);
  std::array<std::vector<long long>, 3> lists = ext;
  for (long long chunk : {4LL, 8LL, 16LL})
    if (chunk < plan.dim[2].size) lists[2].push_back(chunk);
  sort_extents(lists[2]);
  const size_t variants = singles.size();
  out.resize(variants);
  for (auto& o : out) o.clear();
  std::vector<long long> below(variants);
  std::vector<char> none(variants);
  FitExtents::Others others;
  for (int d = 0; d < 3; ++d) {
    const int a = (d + 1) % 3, b = (d + 2) % 3;
    if (twins && singles[0] == 0 && plan.dim[d].size == 1) {
      size_one(fit, plan, ext, lists, singles, d, out, keep_pair);
      continue;
    }
    for (long long ta : lists[a]) {
      // The answer for a smaller tb bounds the next one: footprints grow with every extent, but
      // for a dimension taken whole (a tile that never changes needs no second copy), which is
      // tried on its own.
      std::fill(below.begin(), below.end(), -1);
      std::fill(none.begin(), none.end(), 0);
      for (long long tb : lists[b]) {
        const bool whole = tb >= plan.dim[b].size;
        std::array<long long, 3> tile{};
        tile[a] = ta, tile[b] = tb;
        // (a skipped pair leaves `below` as it was: the answer for a smaller tb still bounds)
        tile[d] = plan.dim[d].size;
        if (!keep_pair(d, tile, plan.dim[d].size)) continue;
        bool prepared = false, held = true;
        long long first = -1;  // variant 0's answer
        for (size_t v = 0; v < variants; ++v) {
          if (twins && v > 0 && singles[0] == 0 && first == plan.dim[d].size) {
            // variant 0 fits the whole dimension: so does this one (its footprints are no
            // larger), the same tile
            if (!whole) below[v] = first, none[v] = 0;
            continue;
          }
          if (none[v] && !whole) continue;
          if (!prepared) {
            held = fit.prepare(tile, d, others), prepared = true;
            // no fitted extent exceeds `upto`: the pair is searched only if one up to it can win
            const long long upto = held ? fit.upper(others, d) : 0;
            if (upto < plan.dim[d].size && (upto <= 0 || !keep_pair(d, tile, upto))) break;
          }
          const long long t =
              held ? fit.largest(others, tile, d, singles[v], whole ? -1 : below[v], false) : 0;
          if (!whole) below[v] = t, none[v] = t <= 0;
          if (v == 0) first = t;
          if (t <= 0) continue;
          const long long size = plan.dim[d].size;
          tile[d] = t;
          out[v].push_back(tile);
          const long long even = detail::ceil_div(size, detail::ceil_div(size, t));
          if (even != t) {
            tile[d] = even;
            out[v].push_back(tile);
          }
        }
      }
    }
  }
  for (auto& o : out) sort_unique(o, {plan.dim[0].size, plan.dim[1].size, plan.dim[2].size});
}

// The search space: the grid of listed extents (every combination of extents_for and
// add_capacity_extents), then the capacity boundary (fit_extents). Groups are numbered
// (Group::first) in that order. A search may leave out parts of the boundary that cannot hold a
// winner (boundary()'s filters): the groups kept keep their relative order, so every comparison by
// enumeration index is the same as over the whole space.
class CandidateSpace {
 public:
  CandidateSpace(const arch::Accelerator& acc, const GemmProblem& problem,
                 mapping::Dataflow dataflow, const Options& options)
      : acc_(acc),
        problem_(problem),
        options_(options),
        // The untiled model gives the array split of every dimension.
        plan_(detail::Model(acc, problem, dataflow, Tiling{}, options, {true, false}).plan()) {
    for (int d = 0; d < 3; ++d)
      ext_[d] =
          extents_for(plan_.dim[d].size, plan_.dim[d].split > 0 ? plan_.dim[d].split : kStreamUnit);
    if (!options.unlimited_buffer) add_capacity_extents(acc, problem, plan_, ext_);
  }

  // The listed extents per dimension (the grid's, in its order).
  const std::array<std::vector<long long>, 3>& extents() const { return ext_; }

  // Fills `groups` (cleared first; the search passes storage its thread keeps) with the grid.
  void grid(std::vector<Group>& groups) {
    groups.clear();
    index_ = 0;
    groups.reserve(ext_[0].size() * ext_[1].size() * ext_[2].size());
    for (long long tm : ext_[0])
      for (long long tn : ext_[1])
        for (long long tk : ext_[2]) add(groups, tm, tn, tk, 0);
  }

  // Appends the capacity boundary's groups (after grid()): only those of the pairs of extents
  // `keep_pair(d, tile, upto)` accepts (fit_extents) and the groups `keep_group(group)` accepts.
  // `twins`: leave out the single-buffered tiles (Tiling::single) whose tiles fit with every
  // tensor double-buffered when that tiling is in the space too (listed, or on the capacity
  // boundary): the same operands are resident at the same counts (the same bytes and energy),
  // and moving the single-buffered tensor's transfers out of the overlapped window into the
  // exposed one never shortens a step (a window's cycles are subadditive), so the
  // double-buffered twin, enumerated first, is never beaten by it. Not under the
  // microarchitecture (its DMA windows).
  template <typename KeepPair, typename KeepGroup>
  void boundary(std::vector<Group>& groups, KeepPair keep_pair, KeepGroup keep_group,
                bool twins = false) {
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
    fit_extents(acc_, problem_, plan_, ext_, singles, fitted, keep_pair, twins);
    std::optional<FitExtents> fit;
    if (twins && singles.size() > 1) fit.emplace(acc_, problem_);
    for (const auto& [tm, tn, tk] : fitted[0])
      if (!(listed(0, tm) && listed(1, tn) && listed(2, tk)))
        add(groups, tm, tn, tk, 0, keep_group);
    for (size_t v = 1; v < singles.size(); ++v) {
      const unsigned single = singles[v];
      for (const auto& [tm, tn, tk] : fitted[v]) {
        const std::array<long long, 3> tile{tm, tn, tk};
        bool changes = false;
        for (const Operand& op : problem_.operands)
          if (single >> static_cast<int>(detail::buffered_tensor(op)) & 1u)
            for (int d = 0; d < 3; ++d)
              changes = changes || (op.group[d] > 0 && tile[d] < plan_.dim[d].size);
        if (!changes) continue;
        if (fit && fit->fits(tile, 0) &&
            ((listed(0, tm) && listed(1, tn) && listed(2, tk)) ||
             std::binary_search(fitted[0].begin(), fitted[0].end(), tile)))
          continue;  // its double-buffered twin dominates it
        add(groups, tm, tn, tk, single, keep_group);
      }
    }
  }

  // The whole space (grid and boundary) into `groups`.
  void all(std::vector<Group>& groups) {
    grid(groups);
    boundary(
        groups, [](int, const std::array<long long, 3>&, long long) { return true; },
        [](const Group&) { return true; });
  }

 private:
  void add(std::vector<Group>& groups, long long tm, long long tn, long long tk, unsigned single) {
    add(groups, tm, tn, tk, single, [](const Group&) { return true; });
  }
  template <typename KeepGroup>
  void add(std::vector<Group>& groups, long long tm, long long tn, long long tk, unsigned single,
           KeepGroup keep) {
    const int mask = (tm < plan_.dim[0].size ? 1 : 0) | (tn < plan_.dim[1].size ? 2 : 0) |
                     (tk < plan_.dim[2].size ? 4 : 0);
    const Group g{tm, tn, tk, single, mask, index_};
    if (!keep(g)) return;
    index_ += g.size();
    groups.push_back(g);
  }

  const arch::Accelerator& acc_;
  const GemmProblem& problem_;
  Options options_;
  detail::Plan plan_;
  std::array<std::vector<long long>, 3> ext_;
  size_t index_ = 0;
};

// The cycles of a tiling that does not fit (Model::feasible), beyond any feasible one.
constexpr long long kInfeasible = std::numeric_limits<long long>::max() / 4;

struct Score {
  long long cycles = 0;  // Result::cycles.total (Model::timing().total)
  long long dram = 0;    // Result::dram_bytes
  double energy = 0;     // Result::energy_pj.total (not under dram_bytes)
  double edp = 0;
  long long tiles = 0;
  size_t index = 0;
  Tiling tiling;
};

bool better(const Score& a, const Score& b, TilingObjective o) {
  switch (o) {
    case TilingObjective::kLatency:  // within the near-tie window (by_latency): bytes first
      return std::tie(a.dram, a.energy, a.cycles, a.tiles, a.index) <
             std::tie(b.dram, b.energy, b.cycles, b.tiles, b.index);
    case TilingObjective::kEnergy:
      return std::tie(a.energy, a.cycles, a.dram, a.tiles, a.index) <
             std::tie(b.energy, b.cycles, b.dram, b.tiles, b.index);
    case TilingObjective::kDramBytes:
      return std::tie(a.dram, a.cycles, a.tiles, a.index) <
             std::tie(b.dram, b.cycles, b.tiles, b.index);
    case TilingObjective::kEdp:
      return std::tie(a.edp, a.cycles, a.dram, a.tiles, a.index) <
             std::tie(b.edp, b.cycles, b.dram, b.tiles, b.index);
  }
  return false;
}

Score score(const detail::Model& m, const Tiling& t, size_t index, TilingObjective o) {
  Score s;
  s.tiling = t, s.index = index, s.tiles = m.tiles();
  if (!m.feasible()) {  // required SRAM residents do not fit: never chosen over a feasible one
    s.cycles = s.dram = kInfeasible;
    s.energy = s.edp = std::numeric_limits<double>::infinity();
    return s;
  }
  if (o == TilingObjective::kEnergy || o == TilingObjective::kEdp) {
    const Result r = m.result();
    s.cycles = r.cycles.total, s.dram = r.dram_bytes, s.energy = r.energy_pj.total;
    s.edp = s.energy * static_cast<double>(s.cycles);
  } else {
    s.cycles = m.timing().total;
    s.dram = m.dram_bytes();
    if (o == TilingObjective::kLatency) s.energy = m.energy().total;  // near-tie breaker
  }
  return s;
}

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
               const Options& options)
      : problem_(problem), fit_(acc, problem), unlimited_(options.unlimited_buffer) {
    const detail::Model whole(acc, problem, dataflow, Tiling{}, options, {false, false});
    for (int d = 0; d < 3; ++d) {
      size_[d] = whole.plan().dim[d].size;
      split_[d] = whole.plan().dim[d].split;
    }
    const detail::Plan& plan = whole.plan();
    stream_ = static_cast<int>(plan.dims.stream);
    if (plan.stream_aligned_only)  // the stream dimension's size follows the tiling's extent
      stream_logical_ = stream_ == 0   ? plan.logical.m
                        : stream_ == 1 ? plan.logical.n
                                       : plan.logical.k;
    stream_multiple_ = plan.stream_multiple;
    for (const Operand& op : problem.operands) {
      distinct_.push_back(static_cast<double>(detail::distinct_elements(op, problem.shape)));
      bytes_.push_back(static_cast<double>(op.bits) / 8);
      output_.push_back(op.output);
      unsigned indep = 0;
      for (int d = 0; d < 3; ++d)
        if (op.group[d] == 0) indep |= 1u << d;
      indep_.push_back(indep);
    }
    const size_t n = problem.operands.size();
    resident_.resize(n), streamed_.resize(n), footprint_.resize(n), cut_.resize(n);
    // The operands some tile of which may not fit alone: two copies of the whole tensor do not
    // fit (alone_too_large asks only them).
    for (size_t i = 0; i < n && i < 32; ++i) {
      const int holder = fit_.holder(i);
      if (holder < 0) {
        unheld_ = true;
        continue;
      }
      double most = 2 * bytes_[i];
      for (int d = 0; d < 3; ++d)
        if (problem.operands[i].group[d] > 0) most *= static_cast<double>(size_[d]);
      if (!(most + 2 < static_cast<double>(fit_.capacity(holder)) * (1 - 1e-9)))
        may_not_fit_ |= 1u << i;
    }
  }

  // The extents of a group of candidates (all loop orders): tile counts and the sets of operands
  // whose tiles fit their buffers together, shared by every order.
  // `sets` false: only the tile counts, for loose() (no set of operands is formed).
  void set_extents(const Tiling& t, bool with_sets = true) {
    const std::array<long long, 3> extent{t.m > 0 ? t.m : size_[0], t.n > 0 ? t.n : size_[1],
                                          t.k > 0 ? t.k : size_[2]};
    set_counts(tile_counts(t));
    if (!with_sets) return;
    const size_t n = problem_.operands.size();
    bool held = true;
    for (size_t i = 0; i < n && !unlimited_; ++i) {
      footprint_[i] = fit_.footprint(i, extent, t.single);
      held = held && fit_.holder(i) >= 0;
    }
    if (unlimited_ || !held || n > 10) return;  // then each operand's cheaper way counts
    const unsigned sets = 1u << n;
    // Every operand fits at once (often): that set is the only largest one.
    if (fits_all(n)) {
      masks_.push_back(sets - 1);
      return;
    }
    // bytes of each set of operands in each buffer, one operand added to a smaller set at a time
    fits_.assign(sets, 1);
    for (size_t p = 0; p < fit_.partitions(); ++p) {
      sum_.assign(sets, 0);
      for (unsigned mask = 1; mask < sets; ++mask) {
        const int i = __builtin_ctz(mask);
        const long long add = fit_.holder(i) == static_cast<int>(p) ? footprint_[i] : 0;
        const long long before = sum_[mask & (mask - 1)];
        sum_[mask] = add >= kFull - before ? kFull : before + add;  // capped: no overflow
        if (sum_[mask] > fit_.capacity(static_cast<int>(p))) fits_[mask] = 0;
      }
    }
    // Keeping an operand never moves more than streaming it (resident <= streamed below), so the
    // fewest bytes are those of a largest set that fits: one that takes no further operand.
    for (unsigned mask = 0; mask < sets; ++mask) {
      if (!fits_[mask]) continue;
      bool largest = true;
      for (size_t i = 0; i < n && largest; ++i)
        largest = ((mask >> i) & 1u) || !fits_[mask | (1u << i)];
      if (largest) masks_.push_back(mask);
    }
  }

  // Whether the footprints (footprint_, held) of all n operands fit their buffers together.
  bool fits_all(size_t n) const {
    for (size_t p = 0; p < fit_.partitions(); ++p) {
      long long sum = 0;
      for (size_t i = 0; i < n; ++i) {
        if (fit_.holder(i) != static_cast<int>(p)) continue;
        sum = footprint_[i] >= kFull - sum ? kFull : sum + footprint_[i];  // capped: no overflow
      }
      if (sum > fit_.capacity(static_cast<int>(p))) return false;
    }
    return true;
  }

  // The tile counts per dimension of a tiling (all set_extents(t, false) and loose() depend on).
  std::array<long long, 3> tile_counts(const Tiling& t) const {
    std::array<long long, 3> size = size_;
    if (stream_logical_ > 0)  // an off-word stream tile runs the dimension unpadded (retile)
      size[stream_] = detail::padded_stream_size(stream_logical_,
                                                 t.extent(static_cast<mapping::GemmDim>(stream_)),
                                                 stream_multiple_, true);
    const std::array<long long, 3> extent{t.m > 0 ? t.m : size[0], t.n > 0 ? t.n : size[1],
                                          t.k > 0 ? t.k : size[2]};
    std::array<long long, 3> n{};
    for (int d = 0; d < 3; ++d) n[d] = detail::ceil_div(size[d], std::min(extent[d], size[d]));
    return n;
  }

  // The largest sets of operands (bit i: operand i) whose tiles fit their buffers together, with
  // the extents last set (with sets); empty when they were not formed (unlimited buffer, an
  // operand no buffer holds, more than 10 operands).
  const std::vector<unsigned>& sets() const { return masks_; }

  // Tile counts per dimension (all set_extents(t, false) and loose() depend on): what every
  // loop order shares per operand, the dimensions it depends on that are cut, and its bytes when
  // streamed (every piece of the dimensions it does not depend on). No sets of operands.
  void set_counts(const std::array<long long, 3>& counts) {
    for (int d = 0; d < 3; ++d) {
      tiles_[d] = static_cast<double>(counts[d]);
      pieces_[d] =
          split_[d] > 0
              ? std::max(tiles_[d], static_cast<double>(detail::ceil_div(size_[d], split_[d])))
              : tiles_[d];
    }
    const size_t n = problem_.operands.size();
    for (size_t i = 0; i < n; ++i) {
      const Operand& op = problem_.operands[i];
      unsigned cut = 0;
      double streamed = distinct_[i];
      for (int d = 0; d < 3; ++d) {
        if (op.group[d] > 0) {
          if (tiles_[d] > 1) cut |= 1u << d;
        } else {
          streamed *= pieces_[d];
        }
      }
      if (op.output) streamed = 2 * streamed - distinct_[i];
      cut_[i] = cut;
      streamed_[i] = streamed * bytes_[i];
    }
    masks_.clear();
  }

  // The operands (bit i: operand i) whose tile alone does not fit its buffer with the extents of
  // `t` (as set_extents counts footprints): no set of operands that fit holds them, so they are
  // streamed (0 where set_extents forms no sets).
  unsigned alone_too_large(const Tiling& t) const {
    const size_t n = problem_.operands.size();
    if (unlimited_ || n > 10 || unheld_) return 0;
    const std::array<long long, 3> extent{t.m > 0 ? t.m : size_[0], t.n > 0 ? t.n : size_[1],
                                          t.k > 0 ? t.k : size_[2]};
    unsigned out = 0;
    for (unsigned left = may_not_fit_; left != 0; left &= left - 1) {
      const size_t i = static_cast<size_t>(__builtin_ctz(left));
      const int holder = fit_.holder(i);
      // (two copies of every element of its tile fit: so does its footprint)
      double most = 2 * bytes_[i];
      for (int d = 0; d < 3; ++d)
        if (problem_.operands[i].group[d] > 0) most *= static_cast<double>(extent[d]);
      if (most + 2 < static_cast<double>(fit_.capacity(holder)) * (1 - 1e-9)) continue;
      if (fit_.footprint(i, extent, t.single) > fit_.capacity(holder)) out |= 1u << i;
    }
    return out;
  }

  // The floor of every candidate with the extents last set (set_extents(t, false) is enough):
  // the least over the loop orders of each operand's cheaper way, without the buffer's sets,
  // but for the operands of `streamed` (alone_too_large of those extents), streamed.
  // (operator() without the sets, each loop order's terms in the same order)
  double loose(const Group& g, unsigned streamed = 0) const {
    const size_t n = problem_.operands.size();
    double least = -1;
    for (const int o : kDistinctOrders[g.mask]) {
      const int o0 = static_cast<int>(kOrders[o][0]), o1 = static_cast<int>(kOrders[o][1]),
                o2 = static_cast<int>(kOrders[o][2]);
      double sum = 0;
      for (size_t i = 0; i < n; ++i) {
        if (streamed >> i & 1u) {
          sum += streamed_[i];
          continue;
        }
        // resident: brought back by the loops it does not depend on outside its innermost cut one
        const unsigned cut = cut_[i], indep = indep_[i];
        const int innermost = (cut >> o2 & 1u)   ? 2
                              : (cut >> o1 & 1u) ? 1
                              : (cut >> o0 & 1u) ? 0
                                                 : -1;
        double resident = distinct_[i];
        if (innermost >= 0 && (indep >> o0 & 1u)) resident *= tiles_[o0];
        if (innermost >= 1 && (indep >> o1 & 1u)) resident *= tiles_[o1];
        if (innermost >= 2 && (indep >> o2 & 1u)) resident *= tiles_[o2];
        if (output_[i]) resident = 2 * resident - distinct_[i];
        sum += std::min(resident * bytes_[i], streamed_[i]);
      }
      if (least < 0 || sum < least) least = sum;
    }
    return least * (1 - 1e-9);  // below the integer byte counts despite rounding
  }

  // The floor of a candidate with the extents last set.
  double operator()(const Tiling& t) const {
    const size_t n = problem_.operands.size();
    const std::array<int, 3> order{static_cast<int>(t.order[0]), static_cast<int>(t.order[1]),
                                   static_cast<int>(t.order[2])};
    double least = 0;
    for (size_t i = 0; i < n; ++i) {
      const unsigned cut = cut_[i];
      const unsigned indep = indep_[i];
      // resident: brought back by the loops it does not depend on outside its innermost cut one
      const int innermost = (cut >> order[2] & 1u)   ? 2
                            : (cut >> order[1] & 1u) ? 1
                            : (cut >> order[0] & 1u) ? 0
                                                     : -1;
      double resident = distinct_[i];
      for (int p = 0; p <= innermost; ++p)
        if (indep >> order[p] & 1u) resident *= tiles_[order[p]];
      if (output_[i]) resident = 2 * resident - distinct_[i];
      resident_[i] = resident * bytes_[i];
      least += std::min(resident_[i], streamed_[i]);
    }
    if (!masks_.empty()) {
      // the fewest bytes over the sets of operands that fit
      double best = -1;
      for (unsigned mask : masks_) {
        double cost = 0;
        for (size_t i = 0; i < n; ++i) cost += (mask >> i) & 1u ? resident_[i] : streamed_[i];
        if (best < 0 || cost < best) best = cost;
      }
      least = std::max(least, best);
    }
    return least * (1 - 1e-9);  // below the integer byte counts despite rounding
  }

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
  unsigned may_not_fit_ = 0;  // operands some tile of which may not fit alone (bit i)
  bool unheld_ = false;       // an operand no buffer holds
};

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
  long long group_floor(const Tiling& t) const {
    const detail::Plan plan = detail::retile(base_, t);
    const std::array<long long, 3> extent{plan.dim[0].tile, plan.dim[1].tile, plan.dim[2].tile};
    if (micro_ && !options_.unlimited_buffer && !fit_.fits(extent, t.single, true))
      return kInfeasible;
    const long long compute =
        micro_ ? detail::compute_cycles(plan, &acc_.spec().micro) : compute_cycles_of(plan.tiling);
    if (!edge_floor()) return compute;
    if (!options_.unlimited_buffer && !fit_.fits(extent, t.single)) return compute;
    return detail::add(compute, edge_windows(plan, [](size_t) { return true; }));
  }

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
  long long least_edge_windows(const detail::Plan& plan, const std::vector<unsigned>& sets) const {
    long long least = -1;
    for (unsigned set : sets) {
      const long long edges = edge_windows(plan, [set](size_t i) { return (set >> i & 1u) != 0; });
      if (least < 0 || edges < least) least = edges;
    }
    return least < 0 ? 0 : least;
  }

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
    std::array<long long, 3> fold{};
    long long streamed = 0;
    const int stream = static_cast<int>(base_.dims.stream);
    for (int e = 0; e < 3; ++e) {
      const Memo& m = extent_cycles(e, e == d ? 0 : tile[e]);
      fold[e] = m.folds;
      if (e == stream) streamed = m.streamed;
    }
    if (upto < base_.dim[d].size)
      fold[d] = std::max(fold[d], detail::ceil_div(base_.dim[d].size, upto));
    return detail::fold_pipeline_cycles(base_, fold, streamed);
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
    return detail::Model(acc_, problem_, base_, t, options_, true);
  }
  detail::Model plan_only(const Tiling& t) const {
    return detail::Model(acc_, problem_, base_, t, options_, false);
  }
  long long compute_cycles(const Tiling& t) const { return plan_only(t).compute_cycles(); }

  void consider(const detail::Model& m, const Tiling& t, size_t index) {
    ++evaluated_;
    const Score s = score(m, t, index, objective_);
    if (!best_ || better(s, *best_, objective_)) best_ = s;
  }

  // Candidates whose compute cycles (a lower bound of their total cycles) exceed the best total
  // cannot win when cycles come first.
  bool beaten(long long compute_cycles) const { return best_ && compute_cycles > best_->cycles; }

  // Whether `cycles` (timing().total) lies within the near-tie window of the fastest,
  // `fastest`: total cycles at most 2 % above the fastest total.
  static bool near(long long cycles, long long fastest) {
    return static_cast<__int128>(cycles) * 100 <= static_cast<__int128>(fastest) * 102;
  }

  // kLatency: the fastest candidate C* (least timing().total), then among the candidates within
  // 2 % of it (near()) the fewest DRAM bytes, then the least energy, cycles, tiles, index
  // (docs/hardware.md, "Under latency").
  // Phase 1, branch and bound on cycle floors, best-first: a group (same extents) is bounded by
  // its compute cycles (plan alone), then by its edge windows and the DRAM time of its loose
  // traffic floor; its candidates (loop orders) by the DRAM-channel time of their closed-form
  // traffic floor (Model::dram_cycles_floor of TrafficFloor); a planned candidate by
  // Model::cycles_lower_bound(); a candidate is timed when taken out planned. C* lies between the
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
  void by_latency(CandidateSpace& space, std::vector<Group>& groups) {
    TrafficFloor traffic(acc_, problem_, dataflow_, options_);
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
    // (a vector: a deque of objects this large allocates one block per model)
    thread_local std::vector<detail::Model> models_store;
    std::vector<detail::Model>& models = models_store;
    models.clear();
    models.reserve(256);
    std::vector<Score> timed;
    std::optional<long long> fastest;
    std::optional<size_t> timed_first;  // the enumeration index of the first timed candidate
    // Times a planned candidate; its score.
    const auto time = [&](const Node& n) -> const Score& {
      if (n.index == timed_first) return timed.front();  // timed before the search began
      const Tiling t = groups[n.group].at(n.position);
      ++evaluated_;
      timed.push_back(
          score(models[static_cast<size_t>(n.model)], t, n.index, TilingObjective::kLatency));
      if (!fastest || timed.back().cycles < *fastest) fastest = timed.back().cycles;
      return timed.back();
    };
    // Level 0 -> its candidates with their traffic floors.
    const auto expand = [&](const Node& n, const std::function<void(const Node&)>& push) {
      const Group& g = groups[n.group];
      const detail::Model plan = plan_only(g.at(0));
      traffic.set_extents(g.at(0));
      // (with the edge windows of the operands that fit, when not all of them do)
      const long long bound =
          edge_floor() && !traffic.sets().empty()
              ? std::max(n.bound, detail::add(compute_cycles_of(g.at(0)),
                                              least_edge_windows(plan.plan(), traffic.sets())))
              : n.bound;
      for (size_t i = 0; i < g.size(); ++i) {
        const double floor = traffic(g.at(i));
        push({std::max(bound, plan.dram_cycles_floor(problem_, floor)), g.first + i, floor, n.group,
              -1, static_cast<std::uint8_t>(i), 1});
      }
    };
    // Level 1 -> planned (exact bytes and energy, the model's cycle bound).
    const auto plan = [&](const Node& n) {
      models.push_back(model(groups[n.group].at(n.position)));
      ++planned_;
      const detail::Model& m = models.back();
      if (models.size() > static_cast<size_t>(std::numeric_limits<std::int32_t>::max()))
        detail::count_overflow();
      return Node{std::max(n.bound, m.cycles_lower_bound()),
                  n.index,
                  static_cast<double>(m.dram_bytes()),
                  n.group,
                  static_cast<std::int32_t>(models.size() - 1),
                  n.position,
                  2};
    };

    // Min-heaps on storage kept by the thread: a search allocates (and the allocator maps and
    // unmaps) no large block per call.
    const auto by_bound = [](const Node& a, const Node& b) { return a > b; };
    const auto by_floor = [](const Node& a, const Node& b) {
      return std::tie(a.floor, a.bound, a.index, a.level) >
             std::tie(b.floor, b.bound, b.index, b.level);
    };
    thread_local std::vector<Node> open_store, left_store;
    Heap<Node, decltype(by_bound)> open(open_store, by_bound);
    Heap<Node, decltype(by_floor)> left(left_store, by_floor);
    // A group waits with its compute cycles (kept per extent: cheap) and gets its group_floor
    // when first taken out; if that is higher, it waits again.
    const bool lazy = edge_floor();
    const auto floor_of = [&](const Group& g) {
      return lazy ? compute_cycles_of(g.at(0)) : group_floor(g.at(0));
    };
    thread_local std::vector<long long> floors;
    floors.clear();
    space.grid(groups);
    if (lazy) {  // the compute cycles of the grid, from each dimension's extents once
      const std::array<std::vector<long long>, 3>& ext = space.extents();
      std::array<std::vector<Memo>, 3> per;
      for (int d = 0; d < 3; ++d)
        for (long long e : ext[d]) per[d].push_back(extent_cycles(d, e));
      const int stream = static_cast<int>(base_.dims.stream);
      for (const Memo& x : per[0])
        for (const Memo& y : per[1])
          for (const Memo& z : per[2]) {
            const long long streamed = stream == 0   ? x.streamed
                                       : stream == 1 ? y.streamed
                                                     : z.streamed;
            floors.push_back(
                detail::fold_pipeline_cycles(base_, {x.folds, y.folds, z.folds}, streamed));
          }
    } else {
      for (const Group& g : groups) floors.push_back(floor_of(g));
    }
    // The first timed candidate is the incumbent: only floors below its time are taken out.
    const std::optional<Score> first_score = first_time(groups, floors, traffic);
    if (first_score) {
      ++evaluated_;
      timed.push_back(*first_score);
      fastest = first_score->cycles;
      timed_first = first_score->index;
    }
    // Within the near-tie window of the fastest time found so far (an upper bound of C*'s).
    const auto hopeful = [&](long long floor) { return !fastest || near(floor, *fastest); };
    const auto node = [&](size_t g) {
      if (g > std::numeric_limits<std::uint32_t>::max()) detail::count_overflow();
      return Node{floors[g], groups[g].first, 0.0, static_cast<std::uint32_t>(g), -1, 0, 0, lazy};
    };
    // The loose floor of a group's candidates (TrafficFloor::loose, with the operands whose tile
    // alone does not fit streamed), kept by what it depends on (LooseMemo).
    thread_local LooseMemo loose_memo;
    loose_memo.clear();
    const auto loose_floor = [&](const Group& g) {
      const Tiling t = g.at(0);
      const unsigned streamed = traffic.alone_too_large(t);
      return loose_memo.get(traffic.tile_counts(t), streamed, [&] {
        traffic.set_extents(t, false);
        return traffic.loose(g, streamed);
      });
    };
    // Phase 1 runs until C* is bounded closely enough: C* lies in [min(least floor left, fastest),
    // fastest], so it stops once every time up to `cycles` (-1: the fastest found) lies within
    // the window of any C* there (near() of the least floor left), or C* is exact.
    const auto run = [&](long long cycles) {
      while (!open.empty()) {
        if (fastest) {
          const long long floor = open.top().bound;
          if (floor >= *fastest || near(cycles < 0 ? *fastest : cycles, floor)) break;
          if (cycles >= 0 && !near(cycles, *fastest)) break;  // known beyond the window
        }
        Node n = open.top();
        open.pop();
        if (n.partial) {
          n.partial = false;
          // with the DRAM-channel time of the group's loose traffic floor (as
          // Model::dram_cycles_floor: edge transfers charged, one channel, not under the
          // microarchitecture, as group floors wait lazily only then)
          const Group& g = groups[n.group];
          const std::array<long long, 3> counts = traffic.tile_counts(g.at(0));
          const long long tiles = detail::mul(detail::mul(counts[0], counts[1]), counts[2]);
          n.floor = loose_floor(g);  // (kept for phase 2)
          const long long floor =
              std::max(group_floor(g.at(0)),
                       detail::dram_channel_cycles_floor(acc_.spec().dram, n.floor, 1.0, tiles));
          if (floor > n.bound) {
            n.bound = floor;
            open.push(n);
            continue;
          }
        }
        if (n.level == 0)
          expand(n, [&](const Node& c) { open.push(c); });
        else if (n.level == 1)
          open.push(plan(n));
        else
          time(n);
      }
    };
    // Phase 1 on the grid: its fastest candidate, exact.
    for (size_t g = 0; g < groups.size(); ++g)
      if (hopeful(floors[g])) open.add(node(g));
    open.build();
    run(-1);
    // Then on what of the capacity boundary lies within the window of that time.
    const size_t grid = groups.size();
    space.boundary(
        groups,
        [&](int d, const std::array<long long, 3>& tile, long long upto) {
          return micro_ || hopeful(compute_floor_upto(tile, d, upto));
        },
        [&](const Group& g) {
          const long long floor = floor_of(g);
          if (!hopeful(floor)) return false;
          floors.push_back(floor);
          return true;
        },
        true);
    for (size_t g = grid; g < groups.size(); ++g) open.push(node(g));
    run(-1);
    // Whether a time lies within the window of C* (phase 1 goes on until that is known).
    const auto in_window = [&](long long cycles) {
      if (!near(cycles, *fastest)) return false;  // C* <= fastest
      run(cycles);
      // (run stopped: C* exact, the time within the window of the least floor left, or the
      // fastest found since puts it beyond)
      return near(cycles, *fastest);
    };
    // Phase 2: what is left within the window of C*, by DRAM-byte floor.
    std::optional<Score> best;
    const auto key = [](const Score& s) {
      return std::tie(s.dram, s.energy, s.cycles, s.tiles, s.index);
    };
    const auto keep = [&](const Node& c) {
      if (near(c.bound, *fastest)) left.push(c);
    };
    // A group waits with the loose floor of its candidates and is expanded when taken out.
    // (left's order is total: it does not depend on the order nodes are added in)
    for (Node n : open_store) {
      if (!near(n.bound, *fastest)) continue;
      if (n.level == 0 && (n.partial || !lazy))
        n.floor = loose_floor(groups[n.group]);  // (else kept)
      left.add(n);
    }
    left.build();
    // The candidates timed so far are not in `left` (those timed later, if phase 1 goes on, are):
    // by key, the first within the window.
    thread_local std::vector<Score> seeds;
    seeds = timed;
    std::sort(seeds.begin(), seeds.end(),
              [&](const Score& a, const Score& b) { return key(a) < key(b); });
    for (const Score& s : seeds)
      if (in_window(s.cycles)) {
        best = s;
        break;
      }
    while (!left.empty()) {
      const Node n = left.top();
      left.pop();
      if (n.floor > static_cast<double>(best->dram)) break;
      if (n.level == 0) {
        expand(n, keep);
        continue;
      }
      if (n.level == 1) {
        keep(plan(n));
        continue;
      }
      const detail::Model& m = models[static_cast<size_t>(n.model)];
      if (m.dram_bytes() == best->dram) {
        const double energy = m.energy().total;
        if (energy > best->energy || (energy == best->energy && n.bound > best->cycles)) continue;
      }
      const Score s = time(n);  // (a copy: phase 1 may go on and time more)
      if (key(s) < key(*best) && in_window(s.cycles)) best = s;
    }
    best_ = best;
  }

  // An upper bound of the fastest time: the grid's group with the least floor (`floors`, one per
  // group), its loop order with the least traffic floor, timed (its score under latency); none if
  // it does not fit. When that time is more than 0.5 % above the floor (the group is often a
  // small tile, slowed by its per-tile windows), also the group within the near-tie window of the
  // least floor whose tiles are largest while every operand's fits its buffer; the faster.
  std::optional<Score> first_time(const std::vector<Group>& groups,
                                  const std::vector<long long>& floors, TrafficFloor& traffic) {
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
    if (best &&
        static_cast<__int128>(best->cycles) * 1000 <= static_cast<__int128>(floors[g]) * 1005)
      return best;
    std::optional<size_t> large;
    double volume = 0;
    for (size_t i = 0; i < groups.size(); ++i) {
      const Group& x = groups[i];
      if (!near(floors[i], floors[g])) continue;
      const double v =
          static_cast<double>(x.m) * static_cast<double>(x.n) * static_cast<double>(x.k);
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

  // kDramBytes: branch and bound on a closed-form lower bound of each candidate's DRAM bytes
  // (TrafficFloor), taken out of a heap in increasing order of it: a candidate is planned (its
  // exact bytes) only while its floor does not exceed the fewest bytes found; then, among the
  // candidates with the fewest bytes, the cycles decide (timed while their compute cycles can
  // still win). The result is that of evaluating every candidate.
  void by_dram(const std::vector<Group>& groups) {
    TrafficFloor floor(acc_, problem_, dataflow_, options_);
    struct Entry {
      double floor;
      size_t index;
      Tiling tiling;
    };
    std::vector<Entry> entries;
    entries.reserve(groups.empty() ? 0 : groups.back().first + groups.back().size());
    for (const Group& g : groups) {
      floor.set_extents(g.at(0));
      for (size_t i = 0; i < g.size(); ++i) {
        const Tiling t = g.at(i);
        entries.push_back({floor(t), g.first + i, t});
      }
    }
    // A heap: usually few entries are taken out before the floor exceeds the fewest bytes.
    const auto later = [](const Entry& a, const Entry& b) {
      return std::tie(a.floor, a.index) > std::tie(b.floor, b.index);
    };
    std::make_heap(entries.begin(), entries.end(), later);
    struct Planned {
      long long dram, bound;
      size_t index;
      Tiling tiling;
    };
    std::vector<Planned> planned;
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
      fewest = dram;
      planned.push_back({dram, m.compute_cycles(), e.index, e.tiling});
    }
    planned.erase(std::remove_if(planned.begin(), planned.end(),
                                 [&](const Planned& p) { return p.dram != fewest; }),
                  planned.end());
    std::sort(planned.begin(), planned.end(), [](const Planned& a, const Planned& b) {
      return std::tie(a.bound, a.index) < std::tie(b.bound, b.index);
    });
    for (const Planned& p : planned) {
      if (beaten(p.bound)) break;
      consider(model(p.tiling), p.tiling, p.index);
    }
    if (!best_ && !groups.empty())  // none is feasible: the first, which result() refuses
      consider(model(groups.front().at(0)), groups.front().at(0), 0);
  }

  // kEnergy, kEdp: energy and DRAM bytes are exact without timing (they depend on access
  // counts only). Every candidate is planned; ordered by a lower bound of its score (energy or
  // energy x cycle bound, then the cycle bound, bytes, tiles, index), they are timed until the
  // next bound loses to the best score.
  void by_energy(const std::vector<Group>& groups) {
    struct Entry {
      double key;
      long long bound, dram, tiles;
      size_t index;
      const Group* group;
      size_t position;
      auto score() const { return std::tie(key, bound, dram, tiles, index); }
    };
    std::vector<Entry> entries;
    for (const Group& g : groups) {
      const long long compute = micro_ ? compute_cycles(g.at(0)) : compute_cycles_of(g.at(0));
      for (size_t i = 0; i < g.size(); ++i) {
        const detail::Model m = model(g.at(i));
        Entry e{0,
                std::max(compute, m.cycles_lower_bound()),
                m.dram_bytes(),
                m.tiles(),
                g.first + i,
                &g,
                i};
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
        const double best_key = objective_ == TilingObjective::kEnergy ? best_->energy : best_->edp;
        if (std::tie(e.key, e.bound, e.dram, e.tiles, e.index) >
            std::tie(best_key, best_->cycles, best_->dram, best_->tiles, best_->index))
          break;
      }
      const Tiling t = e.group->at(e.position);
      consider(model(t), t, e.index);
    }
  }

  Tiling best() const { return best_->tiling; }
  long long evaluated() const { return evaluated_; }
  long long planned() const { return planned_; }

 private:
  const arch::Accelerator& acc_;
  const GemmProblem& problem_;
  mapping::Dataflow dataflow_;
  Options options_;
  TilingObjective objective_;
  detail::Plan base_;  // the untiled plan: candidates' plans are retiled from it
  bool micro_ = false;
  FitExtents fit_;
  mutable std::array<std::array<Memo, 64>, 3> memo_{};  // compute_cycles_of, per dimension
  std::optional<Score> best_;
  long long evaluated_ = 0;
  long long planned_ = 0;
};

}  // namespace

namespace detail {

std::vector<long long> search_compute_cycles(const arch::Accelerator& acc,
                                             const GemmProblem& problem, mapping::Dataflow dataflow,
                                             const std::vector<Tiling>& tilings) {
  validate(problem);
  const Search s(acc, problem, dataflow, Options{}, TilingObjective::kLatency);
  std::vector<long long> out;
  for (const Tiling& t : tilings) out.push_back(s.compute_cycles_of(t));
  return out;
}

long long largest_fitting_extent(const arch::Accelerator& acc, const GemmProblem& problem,
                                 const std::array<long long, 3>& tile, int d, unsigned single,
                                 long long below, bool bisect) {
  return FitExtents(acc, problem).largest(tile, d, single, below, bisect);
}

long long fitting_extent_bound(const arch::Accelerator& acc, const GemmProblem& problem,
                               const std::array<long long, 3>& tile, int d) {
  const FitExtents fit(acc, problem);
  FitExtents::Others others;
  if (!fit.prepare(tile, d, others)) return 0;
  return fit.upper(others, d);
}

long long search_compute_floor_upto(const arch::Accelerator& acc, const GemmProblem& problem,
                                    mapping::Dataflow dataflow,
                                    const std::array<long long, 3>& tile, int d, long long upto) {
  validate(problem);
  const Search s(acc, problem, dataflow, Options{}, TilingObjective::kLatency);
  return s.compute_floor_upto(tile, d, upto);
}

double search_loose_floor(const arch::Accelerator& acc, const GemmProblem& problem,
                          mapping::Dataflow dataflow, const Tiling& tiling) {
  validate(problem);
  TrafficFloor traffic(acc, problem, dataflow, Options{});
  const int mask = (tiling.m < problem.shape.m ? 1 : 0) | (tiling.n < problem.shape.n ? 2 : 0) |
                   (tiling.k < problem.shape.k ? 4 : 0);
  const Group g{tiling.m, tiling.n, tiling.k, tiling.single, mask, 0};
  const unsigned streamed = traffic.alone_too_large(g.at(0));
  traffic.set_extents(g.at(0), false);
  return traffic.loose(g, streamed);
}

}  // namespace detail

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
    return "latency: fastest; within 2 % of it, fewest DRAM bytes, then least energy";
  return to_string(objective);
}

TilingObjective parse_tiling_objective(const std::string& text, const std::string& option) {
  for (TilingObjective o : {TilingObjective::kLatency, TilingObjective::kEnergy,
                            TilingObjective::kDramBytes, TilingObjective::kEdp})
    if (text == to_string(o)) return o;
  throw InputError(error_code::kUnknownName, "", option,
                   "unknown tiling objective \"" + text +
                       "\"; expected one of latency, energy, dram_bytes, edp");
}

namespace {

// The tiling a search returns: resolved against the problem's sizes, except that with
// arch::Microarch::pad_stream_aligned_tiles_only a stream tile taking the whole dimension keeps
// its padded extent (above the logical size), so that evaluating it pads the dimension as the
// search timed it (detail::padded_stream_size: an extent equal to an off-word logical size runs
// unpadded, in the search as in the evaluation).
Tiling returned_tiling(const arch::Accelerator& acc, const GemmProblem& problem,
                       mapping::Dataflow dataflow, const Tiling& raw) {
  Tiling t = mapping::resolve_tiling(raw, problem.shape);
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

}  // namespace

std::vector<Tiling> tiling_candidates(const arch::Accelerator& acc, const GemmProblem& problem,
                                      mapping::Dataflow dataflow) {
  std::vector<Tiling> out;
  std::vector<Group> groups;
  CandidateSpace(acc, problem, dataflow, Options{}).all(groups);
  for (const Group& g : groups)
    for (size_t i = 0; i < g.size(); ++i)
      out.push_back(returned_tiling(acc, problem, dataflow, g.at(i)));
  return out;
}

long long compute_cycles_floor(const arch::Accelerator& acc, const GemmProblem& problem,
                               mapping::Dataflow dataflow, const Tiling& tiling) {
  validate(problem);
  return detail::naming_gemm_on_overflow(problem, [&] {
    return detail::Model(acc, problem, dataflow, tiling, Options{}, {false, false})
        .compute_cycles();
  });
}

PlannedCandidate plan_candidate(const arch::Accelerator& acc, const GemmProblem& problem,
                                mapping::Dataflow dataflow, const Tiling& tiling,
                                const Options& options) {
  return detail::naming_gemm_on_overflow(problem, [&] {
    const detail::Model m(acc, problem, dataflow, tiling, options);
    PlannedCandidate c;
    c.feasible = m.feasible();
    if (!c.feasible) return c;
    c.all_resident = true;
    for (const detail::OperandPlan& x : m.operands()) c.all_resident = c.all_resident && x.resident;
    c.energy = m.energy();
    c.cycles_floor = std::max(m.compute_cycles(), m.cycles_lower_bound());
    return c;
  });
}

std::vector<long long> compute_cycles_floors(const arch::Accelerator& acc,
                                             const GemmProblem& problem, mapping::Dataflow dataflow,
                                             const std::vector<Tiling>& tilings) {
  if (acc.spec().micro.active()) {
    std::vector<long long> out;
    for (const Tiling& t : tilings) out.push_back(compute_cycles_floor(acc, problem, dataflow, t));
    return out;
  }
  return detail::naming_gemm_on_overflow(
      problem, [&] { return detail::search_compute_cycles(acc, problem, dataflow, tilings); });
}

Tiling choose_tiling(const arch::Accelerator& acc, const GemmProblem& problem,
                     mapping::Dataflow dataflow, const Options& options,
                     const TilingSearchOptions& search) {
  validate(problem);
  return detail::naming_gemm_on_overflow(problem, [&] {
    // storage kept by the thread: no large block allocated and returned to the system per search
    thread_local std::vector<Group> groups;
    CandidateSpace space(acc, problem, dataflow, options);
    Search s(acc, problem, dataflow, options, search.objective);
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
      for (const Group& g : groups) candidates += static_cast<long long>(g.size());
      *search.stats = {candidates, s.evaluated(), candidates - s.evaluated(), s.planned()};
    }
    return returned_tiling(acc, problem, dataflow, s.best());
  });
}

}  // namespace tenet::hw
