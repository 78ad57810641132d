#include "hw/intervals.hpp"

#include <algorithm>
#include <numeric>

#include "detail/checked_int.hpp"
#include "tenet/error.hpp"

namespace tenet::hw::detail {
namespace {

long long narrow(__int128 v) {
  if (v > static_cast<__int128>(INT64_MAX) || v < static_cast<__int128>(INT64_MIN))
    count_overflow();
  return static_cast<long long>(v);
}

}  // namespace

void count_overflow() {
  throw InputError(error_code::kOverflow, "", "", "a count does not fit in 64 bits");
}

namespace {

// floor_sum with every argument below 2^31: each step's a·n + b stays below 2^62 (n and m only
// shrink), so the divisions are 64-bit; the sum is kept in 128 bits.
long long floor_sum_small(long long n, long long m, long long a, long long b) {
  __int128 ans = 0;
  while (n > 0) {
    if (a >= m) {
      ans += static_cast<__int128>((n - 1) * n / 2) * (a / m);
      a %= m;
    }
    if (b >= m) {
      ans += static_cast<__int128>(n) * (b / m);
      b %= m;
    }
    const long long y_max = a * n + b;
    if (y_max < m) break;
    n = y_max / m;
    b = y_max % m;
    std::swap(m, a);
  }
  return narrow(ans);
}

}  // namespace

long long floor_sum(long long n_in, long long m_in, long long a_in, long long b_in) {
  if (n_in < 0 || m_in < 1 || a_in < 0 || b_in < 0) throw InternalError("floor_sum: bad arguments");
  constexpr long long kSmall = 1LL << 31;
  if (n_in < kSmall && m_in < kSmall && a_in < kSmall && b_in < kSmall)
    return floor_sum_small(n_in, m_in, a_in, b_in);
  __int128 n = n_in, m = m_in, a = a_in, b = b_in, ans = 0;
  while (n > 0) {
    if (a >= m) {
      ans += (n - 1) * n / 2 * (a / m);
      a %= m;
    }
    if (b >= m) {
      ans += n * (b / m);
      b %= m;
    }
    const __int128 y_max = a * n + b;
    if (y_max < m) break;
    n = y_max / m;
    b = y_max % m;
    std::swap(m, a);
  }
  return narrow(ans);
}

// With the offset on a group boundary, floor((offset + x) / g) = offset / g + floor(x / g), and a
// piece [s, e) has floor((e - 1) / g) - floor(s / g) + 1 groups, floor((e - 1) / g) being
// floor(e / g) less one when g divides e: over the full pieces the floors telescope to
// floor(full · piece / g), less the piece ends j · piece (j = 1..full) that g divides, those j
// that are multiples of g / gcd(g, piece). Below 2^31 (offset and length) the floor sums of the
// general form cannot overflow either, so both give the same count.
long long uniform_group_sum(long long offset, long long length, long long piece, long long g) {
  const long long full = length / piece, rest = length % piece;
  constexpr long long kSmall = 1LL << 31;
  if (offset % g == 0 && offset < kSmall && length < kSmall) {
    // (gcd of a power of two g: the lowest set bit of the piece, at most g)
    const long long common = (g & (g - 1)) == 0 ? std::min(g, piece & -piece) : std::gcd(g, piece);
    const long long ends = full / (g / common);  // piece ends on a group boundary
    long long sum = full * piece / g - ends + full;
    if (rest > 0) sum += distinct_groups(offset + full * piece, rest, g);
    return sum;
  }
  // sum over full pieces r of floor((offset + r*piece + piece - 1)/g) - floor((offset + r*piece)/g)
  // + 1
  long long sum = add(floor_sum(full, g, piece, offset + piece - 1), full);
  sum = add(sum, -floor_sum(full, g, piece, offset));
  if (rest > 0) sum = add(sum, distinct_groups(offset + full * piece, rest, g));
  return sum;
}

long long DimPlan::fold_intervals() const {
  const long long n = tiles();
  return add(mul(n - 1, pieces_in(tile)), pieces_in(tile_extent(n - 1)));
}

long long DimPlan::tile_sum(long long g) const {
  if (g == 0) return tiles();
  if (g == 1) return size;
  return uniform_group_sum(0, size, tile, g);
}

long long DimPlan::fold_sum(long long g) const {
  if (g == 0) return fold_intervals();
  if (g == 1) return size;
  if (split == 0) return tile_sum(g);
  if (tile % split == 0) return uniform_group_sum(0, size, split, g);
  // Full tiles each cut into rho pieces, then the last (partial) tile.
  const long long full_tiles = size / tile, last = size - full_tiles * tile;
  const long long rho = ceil_div(tile, split);
  long long sum = 0;
  if (full_tiles <= rho) {
    for (long long q = 0; q < full_tiles; ++q)
      sum = add(sum, uniform_group_sum(q * tile, tile, split, g));
  } else {
    for (long long r = 0; r < rho; ++r) {
      const long long s = r * split, e = std::min(s + split, tile);
      sum = add(sum, floor_sum(full_tiles, g, tile, e - 1) - floor_sum(full_tiles, g, tile, s));
      sum = add(sum, full_tiles);
    }
  }
  if (last > 0) sum = add(sum, uniform_group_sum(full_tiles * tile, last, split, g));
  return sum;
}

long long DimPlan::fold_sum_in_tile(long long q, long long g) const {
  const long long start = tile_start(q), extent = tile_extent(q);
  if (g == 0) return pieces_in(extent);
  if (g == 1) return extent;
  return uniform_group_sum(start, extent, split > 0 ? split : extent, g);
}

CountedPairs DimPlan::piece_lengths(long long extent) const {
  CountedPairs out;
  if (split == 0) {
    out.emplace_back(extent, 1);
    return out;
  }
  if (extent / split > 0) out.emplace_back(split, extent / split);
  if (extent % split > 0) out.emplace_back(extent % split, 1);
  return out;
}

CountedPairs DimPlan::tile_classes() const {
  const long long n = tiles();
  CountedPairs out;
  if (n <= 3) {
    for (long long q = 0; q < n; ++q) out.emplace_back(q, 1);
    return out;
  }
  out.emplace_back(0, 1);
  out.emplace_back(1, n - 3);
  out.emplace_back(n - 2, 1);
  out.emplace_back(n - 1, 1);
  return out;
}

}  // namespace tenet::hw::detail
