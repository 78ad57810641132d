// Normalization of constraint systems: gcd tightening, duplicate removal, implicit equalities.
//
// After normalize() every row has coprime coefficients (inequality constants rounded down, which
// is exact on integer points), no row is trivial, parallel inequalities keep only the tightest,
// opposite inequalities that pin a value become equalities, and rows are sorted canonically, so
// two systems with the same integer points written the same way compare equal (the memo key).
#pragma once

#include <vector>

#include "poly/detail/system.hpp"

namespace tenet::poly::detail {

// Returns false when the system is found to have no integer point.
bool normalize(System& s);

// Tightens, deduplicates and sorts inequality rows of the given width. Opposite rows with
// a.x + c1 >= 0, -a.x + c2 >= 0 and c1 + c2 == 0 are moved to `equalities` (as a.x + c1 == 0)
// when it is non-null, and kept otherwise. Returns false if the rows are infeasible.
bool tighten_inequalities(std::vector<Coef>& rows, int width, std::vector<Coef>* equalities);

// Divides equality rows by their gcd, orients them (first nonzero coefficient positive), sorts
// and deduplicates them. Returns false if they are infeasible on the integers.
bool normalize_equalities(std::vector<Coef>& rows, int width);

// A band of a normalized system: lo <= a.x <= hi, from two opposite rows (adjacent after
// normalize()). `a` points into the system's rows and is valid until the system changes.
struct Band {
  const Coef* a;
  Wide lo, hi;
};
std::vector<Band> find_bands(const System& s);

// Implicit equalities between "bands" (opposite row pairs l <= a.x <= u of a normalized
// system): for two bands a1, a2 the combinations (a1 -+ a2).x lie in an interval which, after
// gcd tightening, may hold a single value. This finds equal lifted divs (floor(e/d) lifted twice)
// without an LP. Appends the equalities found; returns false if the bands are infeasible.
bool add_band_equalities(System& s);

}  // namespace tenet::poly::detail
