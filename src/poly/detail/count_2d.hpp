// Closed-form count of a 2-D constraint system (piecewise floor sums).
//
// For each x the points are the integers y with max_i L_i(x) <= y <= min_k U_k(x). Between two
// consecutive crossings of bound lines the active lower and upper lines are fixed, so the count
// over such a segment is a difference of two floor_sum's plus its length: O(m^2 log) in all.
#pragma once

#include <gmpxx.h>

#include "poly/detail/bounds.hpp"
#include "poly/detail/system.hpp"

namespace tenet::poly::detail {

// s: 2 variables, no equalities, normalized. outer: the variable summed over (0 or 1), with its
// integer range `range` (from variable_bounds).
mpz_class count_2d(const System& s, int outer, const Interval& range);

}  // namespace tenet::poly::detail
