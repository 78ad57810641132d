// Exact sums of floors of linear functions: the closed form behind 2-D counting.
//
//   floor_sum(n, m, a, b) = sum_{i=0}^{n-1} floor((a*i + b) / m),   n >= 0, m > 0, any a, b.
//
// Euclid-like recursion, O(log max(a, m)) steps. The 128-bit version checks every operation and
// throws Overflow; floor_sum_exact() then redoes the sum with GMP.
#pragma once

#include <gmpxx.h>

#include "poly/detail/checked.hpp"

namespace tenet::poly::detail {

namespace floor_sum_ops {
inline Wide mul(Wide a, Wide b) { return checked_mul(a, b); }
inline Wide add(Wide a, Wide b) { return checked_add(a, b); }
inline Wide sub(Wide a, Wide b) { return checked_sub(a, b); }
inline mpz_class mul(const mpz_class& a, const mpz_class& b) { return a * b; }
inline mpz_class add(const mpz_class& a, const mpz_class& b) { return a + b; }
inline mpz_class sub(const mpz_class& a, const mpz_class& b) { return a - b; }
}  // namespace floor_sum_ops

// n*(n-1)/2 without overflowing the intermediate product.
template <typename Int>
Int pairs(const Int& n) {
  using namespace floor_sum_ops;
  if (n % 2 == 0) return mul(Int(n / 2), Int(n - 1));
  return mul(n, Int((n - 1) / 2));
}

template <typename Int>
Int floor_sum(Int n, Int m, Int a, Int b) {
  using namespace floor_sum_ops;
  if (n <= 0) return Int(0);
  Int total = 0;
  if (a < 0 || a >= m) {
    const Int q = floor_div(a, m);
    total = add(total, mul(pairs(n), q));
    a = sub(a, mul(q, m));
  }
  if (b < 0 || b >= m) {
    const Int q = floor_div(b, m);
    total = add(total, mul(n, q));
    b = sub(b, mul(q, m));
  }
  // Now 0 <= a, b < m.
  while (true) {
    if (a >= m) {
      total = add(total, mul(pairs(n), Int(a / m)));
      a %= m;
    }
    if (b >= m) {
      total = add(total, mul(n, Int(b / m)));
      b %= m;
    }
    const Int y = add(mul(a, n), b);
    if (y < m) break;
    n = y / m;
    b = y % m;
    std::swap(m, a);
  }
  return total;
}

inline mpz_class to_mpz(Wide v) {
  const bool negative = v < 0;
  unsigned __int128 u =
      negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  mpz_class r = static_cast<unsigned long>(u >> 64);
  r <<= 64;
  r += static_cast<unsigned long>(u & 0xffffffffffffffffULL);
  return negative ? mpz_class(-r) : r;
}

// sum_{x=first}^{last} floor((a*x + c) / m) for m > 0, exact whatever the magnitudes: 128-bit
// arithmetic when it suffices, GMP otherwise.
inline mpz_class sum_floor_linear(Wide first, Wide last, Wide a, Wide c, Wide m) {
  if (last < first) return 0;
  try {
    const Wide n = checked_add(checked_sub(last, first), 1);
    return to_mpz(floor_sum<Wide>(n, m, a, checked_add(checked_mul(a, first), c)));
  } catch (const Overflow&) {
    const mpz_class n = to_mpz(last) - to_mpz(first) + 1;
    return floor_sum<mpz_class>(n, to_mpz(m), to_mpz(a), to_mpz(a) * to_mpz(first) + to_mpz(c));
  }
}

}  // namespace tenet::poly::detail
