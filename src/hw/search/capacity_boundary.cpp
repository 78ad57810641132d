#include <algorithm>
#include <cmath>
#include <tuple>

#include "detail/checked_int.hpp"
#include "hw/search/search_detail.hpp"
#include "tenet/error.hpp"

// The capacity boundary: the largest extent with which every operand's tile fits its buffer
// (FitExtents), for every pair of listed extents (fit_extents).

namespace tenet::hw::search {

FitExtents::FitExtents(const arch::Accelerator& acc, const GemmProblem& problem)
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
  for (size_t i = 0; i < problem.operands.size() && i < kMax; ++i)
    tensor_bit_[i] = 1u << static_cast<int>(detail::buffered_tensor(problem.operands[i]));
  if (gb.partitions.empty()) {
    capacity_.push_back(gb.bytes);
    holder_.assign(problem.operands.size(), 0);
    return;
  }
  for (const auto& [key, part] : gb.partitions) capacity_.push_back(part.bytes);
  for (const Operand& op : problem.operands)  // -1: none holds it (the model rejects it)
    holder_.push_back(detail::holding_partition(gb, op.role));
}

bool FitExtents::prepare(const std::array<long long, 3>& tile, int d, Others& o) const {
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
      elements = detail::mul(elements, g == 1 ? tile[e] : detail::max_distinct_groups(tile[e], g));
      changes = changes || tile[e] < sizes_[e];
    }
    o.other[i] = elements;
    o.changes[i] = changes;
  }
  return true;
}

long long FitExtents::upper(const Others& o, int d) const {
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

// largest() with the operands' factors prepared. Unless `bisect`, the range is narrowed first. On
// [1, top - 1] (every extent below the size) each operand's bytes lie between two lines of the same
// slope in the extent x: elements other·h(x) with h(x) = x (g = 1), 1 (g = 0) or
// max_distinct_groups(x, g) in [x/g, x/g + 2], ceil_bytes adding < 1 byte, doubled as fits_at
// doubles them there. Per buffer, the largest x whose upper line fits (x_fit) is a fitting extent,
// the largest whose lower line fits (x_bound) bounds the answer; fits_at is monotone on the range.
// A point is taken as fitting (or not) without fits_at only when the lines say so with a margin far
// above the rounding of doubles (1e-9 relative, 1 byte), and only when no count there can leave 64
// bits (then fits_at, as the plain bisection calls it, throws nowhere): the result is the plain
// bisection's.
long long FitExtents::largest(const Others& o, std::array<long long, 3> tile, int d,
                              unsigned single, long long below, bool bisect) const {
  const size_t n = problem_.operands.size();
  if (n > kMax || capacity_.size() > kMax) return largest_slow(tile, d, single);
  const std::array<long long, kMax>& other = o.other;
  const std::array<bool, kMax>& changes = o.changes;
  std::array<bool, kMax> doubled;  // (no array is zeroed whole: rep stos is slow on short runs)
  for (size_t i = 0; i < n; ++i)   // (as Tiling::single_buffered)
    doubled[i] = double_buffered_ && (single & tensor_bit_[i]) == 0;
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
        elements = detail::mul(elements, g == 1 ? extent : detail::max_distinct_groups(extent, g));
      // (detail::ceil_bytes, in 64 bits where elements x bits cannot leave them)
      long long bytes = static_cast<unsigned long long>(elements) <= (1ULL << 56) &&
                                static_cast<unsigned>(op.bits) <= 64u
                            ? (elements * op.bits + 7) / 8
                            : detail::ceil_bytes(elements, op.bits);
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
          bound_out = bound_out ||
                      (slope[p] * x + low[p]) * (1 - 1e-9) - 1 > static_cast<double>(capacity_[p]);
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

long long FitExtents::largest_slow(std::array<long long, 3> tile, int d, unsigned single) const {
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

namespace {

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
void size_one(const FitExtents& fit, const detail::Plan& plan,
              const std::array<std::vector<long long>, 3>& ext,
              const std::array<std::vector<long long>, 3>& lists,
              const std::vector<unsigned>& singles, int d,
              std::vector<std::vector<std::array<long long, 3>>>& out, const KeepPair& keep_pair) {
  const int a = (d + 1) % 3, b = (d + 2) % 3;
  const std::vector<long long>& lb = lists[b];
  const size_t partial =
      static_cast<size_t>(std::lower_bound(lb.begin(), lb.end(), plan.dim[b].size) - lb.begin());
  const auto listed = [&](int e, long long v) {
    return std::binary_search(ext[e].begin(), ext[e].end(), v);
  };
  const size_t variants = singles.size();
  // (storage the thread keeps: no allocation per call)
  thread_local std::vector<size_t> count, fresh;
  thread_local std::vector<signed char> wanted;
  // (the tbs not listed, by index: with a listed ta, only their pairs are not in the grid)
  thread_local std::vector<size_t> unlisted;
  unlisted.clear();
  for (size_t i = 0; i < lb.size(); ++i)
    if (!listed(b, lb[i])) unlisted.push_back(i);
  count.assign(variants, partial);
  fresh.assign(variants, partial);
  for (long long ta : lists[a]) {
    std::array<long long, 3> tile{};
    tile[d] = 1, tile[a] = ta;
    // (a whole ta needs no second copy of some tiles: counted afresh, the walk kept for the rest)
    std::vector<size_t>& c = ta >= plan.dim[a].size ? fresh : count;
    // (a buffering's footprints are no larger than the first's, every tensor double-buffered:
    // where that fits, so does this one, untested)
    for (size_t v = 0; v < variants; ++v)
      while (c[v] > 0) {
        if (v > 0 && singles[0] == 0 && c[v] <= c[0]) break;
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
    const auto take = [&](size_t i) {
      if (!want(i)) return;
      tile[b] = lb[i];
      out[0].push_back(tile);
    };
    if (!ta_listed) {
      for (size_t i = 0; i < c[0]; ++i) take(i);
    } else {
      for (size_t i : unlisted) {
        if (i >= c[0]) break;
        take(i);
      }
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
        const bool b_listed = !std::binary_search(unlisted.begin(), unlisted.end(), partial);
        if ((!ta_listed || !b_listed) && want(partial)) out[0].push_back(tile);
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

// One pair of extents (ta of dimension a = d + 1, tb of b = d + 2, mod 3) of a dimension d of
// size 1 (size_one's test, pair by pair: the staircase walk's answer, fitting being monotone).
void size_one_pair(const FitExtents& fit, const std::array<std::vector<long long>, 3>& ext,
                   const std::vector<unsigned>& singles, int d, long long ta, long long tb,
                   std::vector<std::vector<std::array<long long, 3>>>& out,
                   const KeepPair& keep_pair) {
  const int a = (d + 1) % 3, b = (d + 2) % 3;
  std::array<long long, 3> tile{};
  tile[d] = 1, tile[a] = ta, tile[b] = tb;
  if (fit.fits(tile, singles[0])) {
    const bool both_listed = std::binary_search(ext[a].begin(), ext[a].end(), ta) &&
                             std::binary_search(ext[b].begin(), ext[b].end(), tb);
    if (!both_listed && keep_pair(d, tile, 1LL)) out[0].push_back(tile);
    return;
  }
  int wanted = -1;  // (asked once: -1 not yet)
  for (size_t v = 1; v < singles.size(); ++v) {
    if (!fit.fits(tile, singles[v])) continue;
    if (wanted < 0) wanted = keep_pair(d, tile, 1LL) ? 1 : 0;
    if (wanted == 1) out[v].push_back(tile);
  }
}

// Each buffering's answer for the last tb searched with the same d and ta (-1: none; it bounds
// the next, larger, tb's) and whether none fitted there.
struct PairRun {
  std::vector<long long> below;
  std::vector<char> none;
  void reset(size_t variants) {
    if (below.size() != variants) below.resize(variants), none.resize(variants);
    std::fill(below.begin(), below.end(), -1);
    std::fill(none.begin(), none.end(), 0);
  }
};

// The capacity-boundary tiles of one pair of extents (ta of dimension a = d + 1, tb of b = d + 2,
// mod 3), each buffering's into out[v]; `run` carries the answers over increasing tb of one ta.
// keep_pair took the pair with the whole dimension d (`tile`: ta, tb and d's size).
// `twins`: leave out the tiles of the other bufferings (singles[v], v > 0) where the first
// (singles[0], every tensor double-buffered) fits the whole dimension: theirs is the same tile.
void fit_pair(const FitExtents& fit, const detail::Plan& plan, const std::vector<unsigned>& singles,
              int d, std::array<long long, 3> tile, PairRun& run, FitExtents::Others& others,
              std::vector<std::vector<std::array<long long, 3>>>& out, const KeepPair& keep_pair,
              bool twins) {
  const int b = (d + 2) % 3;
  const size_t variants = singles.size();
  std::vector<long long>& below = run.below;
  std::vector<char>& none = run.none;
  const bool whole = tile[b] >= plan.dim[b].size;
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
      if (upto < plan.dim[d].size && (upto <= 0 || !keep_pair(d, tile, upto))) return;
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

}  // namespace

void fit_extents(const FitExtents& fit, const detail::Plan& plan,
                 const std::array<std::vector<long long>, 3>& ext,
                 const std::vector<unsigned>& singles,
                 std::vector<std::vector<std::array<long long, 3>>>& out, const KeepPair& keep_pair,
                 bool twins, const std::vector<std::array<long long, 4>>* only) {
  const size_t variants = singles.size();
  out.resize(variants);
  for (auto& o : out) o.clear();
  thread_local PairRun run;  // (storage the thread keeps)
  FitExtents::Others others;
  const std::array<long long, 3> sizes{plan.dim[0].size, plan.dim[1].size, plan.dim[2].size};
  if (only) {
    // The pairs given, by d, ta, tb (each run of one d and ta by increasing tb, as below).
    thread_local std::vector<std::array<long long, 3>> pairs;
    pairs.clear();
    for (const auto& key : *only) {
      const int d = static_cast<int>(key[0]);
      pairs.push_back({key[0], key[1 + (d + 1) % 3], key[1 + (d + 2) % 3]});
    }
    std::sort(pairs.begin(), pairs.end(),
              [](const std::array<long long, 3>& x, const std::array<long long, 3>& y) {
                return std::tie(x[0], x[1], x[2]) < std::tie(y[0], y[1], y[2]);
              });
    for (size_t i = 0; i < pairs.size(); ++i) {
      const int d = static_cast<int>(pairs[i][0]);
      const long long ta = pairs[i][1], tb = pairs[i][2];
      if (i > 0 && pairs[i] == pairs[i - 1]) continue;  // (asked for twice)
      if (twins && singles[0] == 0 && plan.dim[d].size == 1) {
        size_one_pair(fit, ext, singles, d, ta, tb, out, keep_pair);
        continue;
      }
      if (i == 0 || pairs[i - 1][0] != d || pairs[i - 1][1] != ta) run.reset(variants);
      std::array<long long, 3> tile{};
      tile[(d + 1) % 3] = ta, tile[(d + 2) % 3] = tb, tile[d] = plan.dim[d].size;
      // (a skipped pair leaves `run` as it was: the answer for a smaller tb still bounds)
      if (keep_pair(d, tile, plan.dim[d].size))
        fit_pair(fit, plan, singles, d, tile, run, others, out, keep_pair, twins);
    }
    for (auto& o : out) sort_unique(o, sizes);
    return;
  }
  thread_local std::array<std::vector<long long>, 3> lists;
  for (int d = 0; d < 3; ++d) lists[d].assign(ext[d].begin(), ext[d].end());
  for (long long chunk : {4LL, 8LL, 16LL})
    if (chunk < plan.dim[2].size) lists[2].push_back(chunk);
  sort_extents(lists[2]);
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
      run.reset(variants);
      std::array<long long, 3> tile{};
      tile[a] = ta, tile[d] = plan.dim[d].size;
      for (long long tb : lists[b]) {
        tile[b] = tb;
        // (a skipped pair leaves `run` as it was: the answer for a smaller tb still bounds)
        if (keep_pair(d, tile, plan.dim[d].size))
          fit_pair(fit, plan, singles, d, tile, run, others, out, keep_pair, twins);
      }
    }
  }
  for (auto& o : out) sort_unique(o, sizes);
}

}  // namespace tenet::hw::search
