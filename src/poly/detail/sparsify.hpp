// Greedy unimodular sparsification.
//
// Repeatedly applies the column operation col_b -= c * col_a (the substitution
// x_a = y_a - c*y_b, a bijection of Z^n) that removes the most nonzero coefficients, e.g. it turns
// (i, floor(i/8)) into (i mod 8, floor(i/8)) and t - p0 - p1 into a free variable, which often
// splits a system into independent components.
#pragma once

#include <Eigen/Core>

#include "poly/detail/system.hpp"

namespace tenet::poly::detail {

// x = U y: the accumulated change of variables (integer, determinant +-1).
using Transform = Eigen::Matrix<long long, Eigen::Dynamic, Eigen::Dynamic>;

// Sparsifies the inequalities of s in place; returns the number of column operations applied.
// If transform is non-null it must be vars x vars and is multiplied on the right by each step.
int sparsify(System& s, Transform* transform = nullptr);

// The change of variables that makes w = a.x the new variable j (a[j] must be +-1; the other
// variables are unchanged): x_j = a_j * (w - sum_{k != j} a_k x_k). Unimodular.
System substitute_direction(const System& s, const Coef* a, int j);

}  // namespace tenet::poly::detail
