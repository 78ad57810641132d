// The one checked arithmetic of sizes and counts (internal): 64-bit sums and products, and exact
// counts narrowed to 64 bits, that report overflow as an InputError naming the figure instead of
// wrapping (undefined behaviour) or failing as an internal error. Sizes are the user's: a figure
// too large for 64 bits is bad input.
#pragma once

#include <gmpxx.h>

#include <cstdint>
#include <string>

#include "tenet/error.hpp"

namespace tenet::detail {

// Where a figure comes from and what it is, for the error ("B·S", at "--prompt" or "/K").
struct Figure {
  std::string what;
  std::string file = "";
  std::string where = "";
};

[[noreturn]] inline void throw_overflow(const Figure& f, const std::string& value) {
  throw InputError(error_code::kOverflow, f.file, f.where,
                   f.what + " = " + value + " does not fit in 64 bits");
}

// a·b and a+b without overflow; true when the result fits (then in `out`).
inline bool mul_fits(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_mul_overflow(a, b, &out);
}
inline bool add_fits(std::int64_t a, std::int64_t b, std::int64_t& out) {
  return !__builtin_add_overflow(a, b, &out);
}

inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const Figure& f) {
  std::int64_t r = 0;
  if (!mul_fits(a, b, r)) throw_overflow(f, std::to_string(a) + "·" + std::to_string(b));
  return r;
}

inline std::int64_t checked_add(std::int64_t a, std::int64_t b, const Figure& f) {
  std::int64_t r = 0;
  if (!add_fits(a, b, r)) throw_overflow(f, std::to_string(a) + "+" + std::to_string(b));
  return r;
}

// The same with a figure named by a literal alone (checked_mul(a, b, {"MACs"}) picks these): the
// Figure is built only for the error, not on every call.
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t r = 0;
  if (!mul_fits(a, b, r)) throw_overflow({what}, std::to_string(a) + "·" + std::to_string(b));
  return r;
}

inline std::int64_t checked_add(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t r = 0;
  if (!add_fits(a, b, r)) throw_overflow({what}, std::to_string(a) + "+" + std::to_string(b));
  return r;
}

// An exact count (GMP) as a 64-bit integer, or InputError(overflow) naming the figure.
inline std::int64_t narrow_count(const mpz_class& v, const Figure& f) {
  if (!v.fits_slong_p()) throw_overflow(f, v.get_str());
  return v.get_si();
}

}  // namespace tenet::detail
