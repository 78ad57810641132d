// Exact elimination of equalities by unimodular changes of variables.
//
// An equality with a unit coefficient is solved for that variable and substituted. Otherwise
// unimodular column operations (x_p = y_p - f*y_q) reduce it, Euclid-style, to a single nonzero
// coefficient, which then fixes one new variable. Unimodular maps are bijections of Z^n, so the
// number of integer points is preserved exactly.
#pragma once

#include <vector>

#include "poly/detail/system.hpp"

namespace tenet::poly::detail {

// Normalizes s and removes every equality (and every implicit equality normalization finds).
// Returns false if the system has no integer point.
bool eliminate_equalities(System& s);

// Among the unit coefficients of e at variables from `from` on, the variable that occurs in the
// fewest inequalities; -1 if none.
int pick_unit_variable(const System& s, const std::vector<Coef>& e, int from = 0);

// x_j = -e_j * (sum_{k != j} e_k x_k + c) in every row of `rows` (rows of `width` coefficients),
// valid because e_j = +-1; overflow checked.
void substitute_rows(std::vector<Coef>& rows, int width, const std::vector<Coef>& e, int j);

}  // namespace tenet::poly::detail
