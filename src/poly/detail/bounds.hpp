// Bounds of one variable by Fourier-Motzkin projection (with integer tightening of the projected
// rows, which is exact on integer points).
#pragma once

#include <exception>
#include <vector>

#include "poly/detail/system.hpp"

namespace tenet::poly::detail {

// The rational relaxation has no bound in some direction.
struct Unbounded : std::exception {
  const char* what() const noexcept override { return "unbounded set"; }
};

// A subproblem grew beyond the engine's limits (too many projected rows).
struct TooComplex : std::exception {
  const char* what() const noexcept override { return "constraint system too complex"; }
};

// One piece needed more than CountOptions::max_slices slices counted one by one.
struct SliceBudget : TooComplex {
  const char* what() const noexcept override { return "more slices than the budget"; }
};

struct Interval {
  Wide lo = 0, hi = -1;
  bool empty() const { return lo > hi; }
  Wide length() const { return empty() ? 0 : hi - lo + 1; }
};

// Integer range of x_v over the system (inequalities only). Empty if the system is infeasible.
// Throws Unbounded if x_v has no lower or no upper bound, TooComplex on row explosion.
Interval variable_bounds(const System& s, int v);

// variable_bounds for every variable; stops early (returning false) at the first empty range.
bool all_bounds(const System& s, std::vector<Interval>& out);

}  // namespace tenet::poly::detail
