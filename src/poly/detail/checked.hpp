// Checked integer arithmetic for the counting engine.
//
// Constraint coefficients are stored as 64-bit integers; every operation on them is carried out in
// 128 bits and narrowed back with a check. Nothing overflows silently: a result that does not fit
// throws Overflow, which the engine catches per basic set and answers with a safe path (isl's
// enumeration under a point budget, see docs/counting.md).
#pragma once

#include <cstdint>
#include <exception>

namespace tenet::poly::detail {

using Coef = std::int64_t;
using Wide = __int128;

// A coefficient or an intermediate value does not fit its checked type.
struct Overflow : std::exception {
  const char* what() const noexcept override { return "integer overflow in exact counting"; }
};

[[noreturn]] inline void throw_overflow() { throw Overflow(); }

// Coefficients are kept within +-2^62 so that |a*b + c*d| always fits 128 bits and negation and
// absolute values never overflow.
inline constexpr Coef kCoefLimit = Coef{1} << 62;

inline bool fits_coef(Wide v) { return v <= kCoefLimit && v >= -kCoefLimit; }

inline Coef narrow(Wide v) {
  if (!fits_coef(v)) throw_overflow();
  return static_cast<Coef>(v);
}

inline Wide checked_add(Wide a, Wide b) {
  Wide r;
  if (__builtin_add_overflow(a, b, &r)) throw_overflow();
  return r;
}

inline Wide checked_sub(Wide a, Wide b) {
  Wide r;
  if (__builtin_sub_overflow(a, b, &r)) throw_overflow();
  return r;
}

inline Wide checked_mul(Wide a, Wide b) {
  Wide r;
  if (__builtin_mul_overflow(a, b, &r)) throw_overflow();
  return r;
}

// a*b + c*d for 64-bit inputs, narrowed to a coefficient.
inline Coef combine(Coef a, Coef b, Coef c, Coef d) {
  return narrow(checked_add(static_cast<Wide>(a) * b, static_cast<Wide>(c) * d));
}

// Floor and ceiling division (b != 0), rounding towards -inf / +inf.
template <typename T>
T floor_div(T a, T b) {
  T q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

template <typename T>
T ceil_div(T a, T b) {
  T q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0))) ++q;
  return q;
}

template <typename T>
T abs_value(T a) {
  return a < 0 ? -a : a;
}

template <typename T>
T gcd(T a, T b) {
  a = abs_value(a);
  b = abs_value(b);
  while (b != 0) {
    T t = a % b;
    a = b;
    b = t;
  }
  return a;
}

}  // namespace tenet::poly::detail
