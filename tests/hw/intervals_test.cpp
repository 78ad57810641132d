// The hardware model's interval sums against brute force: floor_sum (both its 64-bit path for
// arguments below 2^31 and its 128-bit path), distinct_groups and uniform_group_sum, on random
// small and large arguments.
#include "hw/intervals.hpp"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <random>

#include "tenet/error.hpp"

namespace hw_intervals_test {
namespace {

using tenet::hw::detail::distinct_groups;
using tenet::hw::detail::floor_sum;
using tenet::hw::detail::uniform_group_sum;

long long pick(std::mt19937_64& rng, long long lo, long long hi) {
  return std::uniform_int_distribution<long long>(lo, hi)(rng);
}

// sum_{x=0}^{n-1} floor((a x + b) / m), term by term in 128 bits.
__int128 brute_floor_sum(long long n, long long m, long long a, long long b) {
  __int128 sum = 0;
  for (long long x = 0; x < n; ++x) sum += (static_cast<__int128>(a) * x + b) / m;
  return sum;
}

TEST_CASE("floor_sum equals the term-by-term sum on both of its paths", "[hw][intervals]") {
  std::mt19937_64 rng(7);
  long long small = 0, large = 0;
  for (int i = 0; i < 20000; ++i) {
    // magnitudes up to 2^12, up to 2^31 - 1 (the 64-bit path's limit) and up to 2^45
    const int scale = i % 3;
    const long long top = scale == 0 ? (1LL << 12) : scale == 1 ? (1LL << 31) - 1 : (1LL << 45);
    const long long n = pick(rng, 0, 300), m = pick(rng, 1, top), a = pick(rng, 0, top),
                    b = pick(rng, 0, top);
    INFO(n << " " << m << " " << a << " " << b);
    const __int128 expected = brute_floor_sum(n, m, a, b);
    REQUIRE(static_cast<__int128>(floor_sum(n, m, a, b)) == expected);
    (scale == 2 ? large : small) += 1;
  }
  // the edges of the 64-bit path: every argument at 2^31 - 1, and one of them at 2^31
  const long long e = (1LL << 31) - 1;
  for (const auto& [n, m, a, b] :
       {std::array<long long, 4>{200, e, e, e}, std::array<long long, 4>{200, e + 1, e, e},
        std::array<long long, 4>{200, e, e + 1, e}, std::array<long long, 4>{200, e, e, e + 1},
        std::array<long long, 4>{200, 1, e, e}}) {
    INFO(n << " " << m << " " << a << " " << b);
    REQUIRE(static_cast<__int128>(floor_sum(n, m, a, b)) == brute_floor_sum(n, m, a, b));
  }
  CHECK(small > 10000);
  CHECK(large > 5000);
  // a sum beyond 64 bits is an overflow error, not a wrapped count
  CHECK_THROWS_AS(floor_sum(1LL << 30, 1, (1LL << 31) - 1, 0), tenet::InputError);
  CHECK_THROWS_AS(floor_sum(-1, 1, 0, 0), tenet::InternalError);
}

TEST_CASE("uniform_group_sum counts the distinct groups of every piece", "[hw][intervals]") {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    const long long offset = pick(rng, 0, i % 2 ? 5000 : (1LL << 40));
    const long long length = pick(rng, 1, 400), piece = pick(rng, 1, 60), g = pick(rng, 1, 70);
    long long expected = 0;
    for (long long start = offset; start < offset + length; start += piece) {
      const long long len = std::min(piece, offset + length - start);
      long long groups = 0;  // distinct values of floor(x / g) over the piece, one by one
      for (long long x = start; x < start + len; ++x)
        if (x == start || x / g != (x - 1) / g) ++groups;
      REQUIRE(distinct_groups(start, len, g) == groups);
      expected += groups;
    }
    INFO(offset << " " << length << " " << piece << " " << g);
    REQUIRE(uniform_group_sum(offset, length, piece, g) == expected);
  }
}

// distinct_groups summed over the pieces, one by one
long long brute_group_sum(long long offset, long long length, long long piece, long long g) {
  long long sum = 0;
  for (long long start = offset; start < offset + length; start += piece)
    sum += distinct_groups(start, std::min(piece, offset + length - start), g);
  return sum;
}

// The closed form for an offset on a group boundary (below 2^31) and the floor sums of any other
// offset, with groups that are powers of two (the gcd by the piece's lowest bit) and not.
TEST_CASE("uniform_group_sum on and off a group boundary", "[hw][intervals]") {
  std::mt19937_64 rng(13);
  int closed = 0;
  for (int i = 0; i < 20000; ++i) {
    const long long g = i % 2 ? 1LL << pick(rng, 0, 8) : pick(rng, 1, 300);
    const long long piece = pick(rng, 1, 600), length = pick(rng, 1, 3000);
    // on a boundary below 2^31, on one beyond it, next to one
    const int where = static_cast<int>(i % 3);
    long long offset = g * pick(rng, 0, where == 1 ? (1LL << 40) / g : 50);
    if (where == 2) offset += pick(rng, 1, g);
    INFO(offset << " " << length << " " << piece << " " << g);
    REQUIRE(uniform_group_sum(offset, length, piece, g) ==
            brute_group_sum(offset, length, piece, g));
    closed += offset % g == 0 && offset < (1LL << 31) ? 1 : 0;
  }
  CHECK(closed > 5000);
}

// DimPlan's sums over all tiles and all fold pieces (Model::plan_operands) against the pieces
// walked one by one.
TEST_CASE("DimPlan tile_sum and fold_sum equal the walk over the tiles", "[hw][intervals]") {
  std::mt19937_64 rng(17);
  for (int i = 0; i < 5000; ++i) {
    tenet::hw::detail::DimPlan dp;
    dp.size = pick(rng, 1, 700);
    dp.tile = pick(rng, 1, dp.size);
    dp.split = pick(rng, 0, 3) ? pick(rng, 1, 40) : 0;
    const long long g = i % 2 ? 1LL << pick(rng, 0, 7) : pick(rng, 0, 90);
    long long tiles = 0, folds = 0;
    for (long long q = 0; q < dp.tiles(); ++q) {
      const long long start = dp.tile_start(q), extent = dp.tile_extent(q);
      tiles += tenet::hw::detail::interval_weight(start, extent, g);
      const long long piece = dp.split > 0 ? dp.split : extent;
      for (long long s = start; s < start + extent; s += piece)
        folds += tenet::hw::detail::interval_weight(s, std::min(piece, start + extent - s), g);
    }
    INFO(dp.size << " " << dp.tile << " " << dp.split << " " << g);
    REQUIRE(dp.tile_sum(g) == tiles);
    REQUIRE(dp.fold_sum(g) == folds);
  }
}

}  // namespace
}  // namespace hw_intervals_test
