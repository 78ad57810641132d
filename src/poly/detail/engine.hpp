// The counting engine on integer constraint systems: the strategy chain of docs/counting.md.
//
//   eliminate equalities -> (0-D point | independent components -> product)
//   -> 1-D interval | 2-D floor sums
//   -> >=3-D: sparsify, split again, branch on the cheapest variable; long ranges are cut into
//      chambers at vertex heights and summed by verified quasi-polynomial interpolation, short
//      ranges (and anything interpolation cannot handle) are enumerated slice by slice.
// Throws Overflow / TooComplex (caller falls back to isl; also past CountOptions::max_slices
// slices in one piece) and Unbounded.
#pragma once

#include <gmpxx.h>

#include <vector>

#include "poly/detail/bounds.hpp"
#include "poly/detail/interpolate.hpp"
#include "poly/detail/system.hpp"
#include "tenet/poly/count.hpp"

namespace tenet::poly::detail {

class Engine {
 public:
  explicit Engine(const CountOptions& options) : options_(options) {}

  // Exact number of integer points of s.
  mpz_class count(System s);

  // Per-piece bookkeeping: the most expensive strategy used since begin_piece().
  void begin_piece() {
    worst_ = Strategy::kEmpty;
    piece_slices_ = 0;
  }
  Strategy piece_strategy() const { return worst_; }
  void note(Strategy s);

  // Statistics so far (interpolation figures included).
  const CountReport& report();

 private:
  mpz_class count_reduced(System& s);
  mpz_class count_product(const System& s, const std::vector<std::vector<int>>& components);
  mpz_class count_interval(const System& s);
  mpz_class count_plane(const System& s);
  mpz_class count_polytope(System& s);
  mpz_class count_branching(System& s);
  mpz_class count_along(const System& s, int v, const Interval& range);
  mpz_class count_slices(const System& s, int v, const Interval& range);
  mpz_class count_chambers(const System& s, int v, const Interval& range);
  mpz_class count_slice(const System& s, int v, Wide value);
  struct Branch {
    int var = -1;
    long double cost = 0;
  };
  Branch choose_branch_variable(const System& s, const std::vector<Interval>& ranges) const;
  long double branch_steps(Wide length, int vars) const;
  // Branching on a narrow band lo <= a.x <= hi instead of an axis: the variable j (a_j = +-1) is
  // replaced by w = a.x, whose range is the band. Chosen when cheaper than the best axis.
  struct BandBranch {
    int var = -1;
    Interval range;
    System system;
  };
  BandBranch best_band_branch(const System& s, const std::vector<Interval>& ranges,
                              long double axis_cost) const;

  CountOptions options_;
  CountReport report_;
  InterpolationStats interpolation_;
  Strategy worst_ = Strategy::kEmpty;
  long long piece_slices_ = 0;  // slices of the current piece (CountOptions::max_slices)
};

// Drops every entry of the calling thread's memo (tests use it to force recomputation).
void clear_count_memo();

}  // namespace tenet::poly::detail
