// Geometry for chamber decomposition along a branch variable x_v.
//
// Slices {x : x_v = t} of a polytope change combinatorial type only at the heights t of its
// vertices. Between two such heights (a chamber) the number of integer points of a slice is a
// quasi-polynomial in t of degree <= n-1 whose period divides the lcm of the (n-1)-minors of the
// constraint matrix without column v (the denominators of the slice vertices).
#pragma once

#include <vector>

#include "poly/detail/system.hpp"

namespace tenet::poly::detail {

struct Rational {
  Wide num = 0, den = 1;  // den > 0
};

// The x_v coordinates of all vertices of the rational polytope of s (no equalities), sorted
// and deduplicated. Throws TooComplex if more than max_subsets row subsets would be tried and
// Overflow if a determinant does not fit 128 bits.
std::vector<Rational> vertex_heights(const System& s, int v, long max_subsets);

// lcm of |det| over all (n-1)-row minors of the matrix without column v, or 0 if it exceeds
// `cap` (or more than max_subsets minors would be needed).
Wide slice_period(const System& s, int v, Wide cap, long max_subsets);

// Number of k-subsets of m elements, saturating at limit + 1.
long subsets_count(int m, int k, long limit);

// Determinant of a k x k matrix (row-major) by fraction-free elimination; Overflow if too big.
Wide determinant(std::vector<Wide> a, int k);

}  // namespace tenet::poly::detail
