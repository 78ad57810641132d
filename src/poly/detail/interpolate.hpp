// Verified summation of a quasi-polynomial over an interval.
//
// Inside a chamber, f(t) = number of points of the slice x_v = t is a quasi-polynomial of degree
// <= d with period p. For each residue class t = a + r + j*p (j = 0..N-1) we evaluate d+2
// samples, check that the (d+1)-th forward difference vanishes and that the Newton form
// predicts the class's last point, then sum in closed form:
//   sum_{j<N} g(j) = sum_k (Delta^k g)(0) * C(N, k+1).
// A class whose checks fail is summed point by point, so the result is exact either way.
#pragma once

#include <gmpxx.h>

#include <vector>

#include "poly/detail/checked.hpp"
#include "poly/detail/floor_sum.hpp"

namespace tenet::poly::detail {

struct InterpolationStats {
  long chambers = 0;         // chambers summed by interpolation
  long verify_failures = 0;  // residue classes whose checks failed
};

inline mpz_class binomial(const mpz_class& n, unsigned long k) {
  mpz_class r;
  mpz_bin_ui(r.get_mpz_t(), n.get_mpz_t(), k);
  return r;
}

// Forward differences of samples: out[k] = (Delta^k g)(0).
inline std::vector<mpz_class> forward_differences(std::vector<mpz_class> g) {
  std::vector<mpz_class> out;
  out.reserve(g.size());
  for (std::size_t k = 0; k < g.size(); ++k) {
    out.push_back(g[0]);
    for (std::size_t j = 0; j + 1 < g.size() - k; ++j) g[j] = g[j + 1] - g[j];
  }
  return out;
}

// Newton form at j: sum_{k<=degree} diff[k] * C(j, k).
inline mpz_class newton_value(const std::vector<mpz_class>& diff, int degree, const mpz_class& j) {
  mpz_class v = 0;
  for (int k = 0; k <= degree; ++k) v += diff[k] * binomial(j, k);
  return v;
}

// Sum of f(t) over the residue class t = first + j*step, j = 0..count-1.
template <typename F>
mpz_class sum_class(F& f, Wide first, Wide step, Wide count, int degree,
                    InterpolationStats& stats) {
  std::vector<mpz_class> samples;
  samples.reserve(degree + 2);
  for (int j = 0; j < degree + 2; ++j) samples.push_back(f(first + j * step));
  const std::vector<mpz_class> diff = forward_differences(samples);
  const mpz_class n = to_mpz(count);
  const bool vanishes = diff[degree + 1] == 0;
  if (vanishes && newton_value(diff, degree, n - 1) == f(first + (count - 1) * step)) {
    mpz_class total = 0;
    for (int k = 0; k <= degree; ++k) total += diff[k] * binomial(n, k + 1);
    return total;
  }
  ++stats.verify_failures;
  mpz_class total = 0;
  for (Wide j = 0; j < count; ++j) total += f(first + j * step);
  return total;
}

// Sum of f(t) for t in [a, b]. Intervals too short to pay off are summed point by point.
template <typename F>
mpz_class sum_quasi_polynomial(F& f, Wide a, Wide b, Wide period, int degree,
                               InterpolationStats& stats) {
  mpz_class total = 0;
  const Wide length = b - a + 1;
  if (length <= 0) return total;
  if (length <= period * (degree + 3)) {
    for (Wide t = a; t <= b; ++t) total += f(t);
    return total;
  }
  ++stats.chambers;
  for (Wide r = 0; r < period; ++r) {
    const Wide first = a + r;
    const Wide count = floor_div<Wide>(b - first, period) + 1;
    total += sum_class(f, first, period, count, degree, stats);
  }
  return total;
}

}  // namespace tenet::poly::detail
