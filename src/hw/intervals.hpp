// Exact sums over the intervals a tiling cuts one GEMM dimension into (internal to tenet::hw).
//
// A dimension of size n is cut into tiles of T (the last may be shorter); each tile is cut again
// into pieces of `split` (array rows or columns; 0 = not cut). An operand indexed by
// floor(x / g) touches distinct_groups(...) elements of an interval; the sums below add that
// over every tile or every fold piece in O(log) time (floor sums), so no cost grows with n.
#pragma once

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace tenet::hw::detail {

// Throws InputError(overflow): "a count does not fit in 64 bits".
[[noreturn]] void count_overflow();

// Checked 64-bit arithmetic: throws InputError(overflow) instead of wrapping. Inline: the tiling
// search and the timing call them in their innermost loops.
inline long long add(long long a, long long b) {
  long long r;
  if (__builtin_add_overflow(a, b, &r)) count_overflow();
  return r;
}
inline long long mul(long long a, long long b) {
  long long r;
  if (__builtin_mul_overflow(a, b, &r)) count_overflow();
  return r;
}
inline long long ceil_div(long long a, long long b) {  // a >= 0, b > 0
  return a / b + (a % b != 0 ? 1 : 0);
}

// sum_{i=0}^{n-1} floor((a*i + b) / m) for n >= 0, m >= 1, a, b >= 0.
long long floor_sum(long long n, long long m, long long a, long long b);

// Distinct values of floor(x / g) for x in [start, start + length), length >= 1, g >= 1.
inline long long distinct_groups(long long start, long long length, long long g) {
  return (start + length - 1) / g - start / g + 1;
}
// The largest distinct_groups over all starts (the footprint bound of a window of `length`).
inline long long max_distinct_groups(long long length, long long g) {
  if (length <= 1) return length;
  const long long groups = ceil_div(length - 1, g) + 1;
  return groups < length ? groups : length;
}
// sum over the pieces of [offset, offset + length) cut every `piece` (last shorter) of
// distinct_groups(piece).
long long uniform_group_sum(long long offset, long long length, long long piece, long long g);

// The weight of an interval for an operand with group g: 0 -> 1 (the operand does not depend on
// the dimension, it counts once per interval), 1 -> its length, g -> distinct groups.
inline long long interval_weight(long long start, long long length, long long g) {
  if (g == 0) return 1;
  if (g == 1) return length;
  return distinct_groups(start, length, g);
}

// Up to four (value, count) pairs, iterated like a vector; no allocation (the timing asks for
// them per tile class).
struct CountedPairs {
  std::array<std::pair<long long, long long>, 4> items{};
  int n = 0;
  void emplace_back(long long value, long long count) { items[n++] = {value, count}; }
  const std::pair<long long, long long>* begin() const { return items.data(); }
  const std::pair<long long, long long>* end() const { return items.data() + n; }
  size_t size() const { return static_cast<size_t>(n); }
};

struct DimPlan {
  long long size = 1;   // n
  long long tile = 1;   // T, 1..n
  long long split = 0;  // piece size inside a tile, 0 = not cut

  long long tiles() const { return ceil_div(size, tile); }  // ceil(n / T)
  long long tile_start(long long q) const { return q * tile; }
  // T, or what is left for the last tile
  long long tile_extent(long long q) const {
    const long long left = size - q * tile;
    return tile < left ? tile : left;
  }
  // fold pieces in a tile of that extent
  long long pieces_in(long long extent) const { return split > 0 ? ceil_div(extent, split) : 1; }
  long long fold_intervals() const;  // fold pieces over all tiles
  // sum of interval_weight over all fold pieces / over all tiles.
  long long fold_sum(long long g) const;
  long long tile_sum(long long g) const;
  // sum of interval_weight over the fold pieces of tile q.
  long long fold_sum_in_tile(long long q, long long g) const;
  // The fold pieces of a tile of that extent: (length, how many).
  CountedPairs piece_lengths(long long extent) const;
  // Representative tile indices with the number of tiles they stand for: the first, the middle
  // ones, the last but one and the last (next/previous tiles of a class have equal extents).
  CountedPairs tile_classes() const;
};

}  // namespace tenet::hw::detail
