// Exact elimination of equalities by unimodular changes of variables.
//
// An equality with a unit coefficient is solved for that variable and substituted. Otherwise
// unimodular column operations (x_p = y_p - f*y_q) reduce it, Euclid-style, to a single nonzero
// coefficient, which then fixes one new variable. Unimodular maps are bijections of Z^n, so the
// number of integer points is preserved exactly.
#pragma once

#include "poly/detail/system.hpp"

namespace tenet::poly::detail {

// Normalizes s and removes every equality (and every implicit equality normalization finds).
// Returns false if the system has no integer point.
bool eliminate_equalities(System& s);

}  // namespace tenet::poly::detail
