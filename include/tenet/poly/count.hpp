// Exact counting of integer points, with a cost that does not grow with the sizes.
//
// count() takes a bounded isl set (parameters, if any, must be fixed by its constraints) and
// returns its exact number of integer points as a GMP integer. The strategy chain per disjoint
// basic set is described in docs/counting.md; CountReport says which strategy counted what.
#pragma once

#include <gmpxx.h>
#include <isl/cpp.h>

#include <array>
#include <string>

namespace tenet::poly {

using Integer = mpz_class;

// How a piece was counted. Ordered from cheapest to most expensive.
enum class Strategy {
  kEmpty,          // infeasible after normalization
  kPoint,          // zero-dimensional after eliminating equalities
  kInterval,       // one dimension: closed form
  kProduct,        // independent components multiplied
  kClosedForm2D,   // two dimensions: floor sums
  kInterpolation,  // >=3 dimensions: verified per-chamber quasi-polynomial interpolation
  kEnumeration,    // slices enumerated one by one
  kIslFallback,    // isl's own enumeration (last resort, under a point budget)
};
inline constexpr int kStrategyCount = 8;
const char* to_string(Strategy s);

struct CountOptions {
  long enum_max = 48;          // ranges up to this length are enumerated slice by slice
  int max_period = 512;        // larger quasi-polynomial periods fall back to enumeration
  bool interpolate = true;     // allow chamber interpolation
};

struct CountReport {
  std::array<long, kStrategyCount> uses{};  // indexed by Strategy
  long basic_sets = 0;
  long slices = 0;              // slices counted individually
  long chambers = 0;            // chambers summed by interpolation
  long verify_failures = 0;     // interpolation checks that failed (chamber then enumerated)
  void add(const CountReport& other);
  std::string summary() const;  // e.g. "3 basic sets: 2 closed-form-2d, 1 interpolation (4 chambers)"
};

Integer count(const isl::set& set, const CountOptions& options = {}, CountReport* report = nullptr);
Integer count(const isl::map& map, const CountOptions& options = {}, CountReport* report = nullptr);
Integer count(const isl::union_set& set, const CountOptions& options = {}, CountReport* report = nullptr);
Integer count(const isl::union_map& map, const CountOptions& options = {}, CountReport* report = nullptr);

// isl's own enumeration (isl_set_count_val). Exact but slow; the reference in tests.
Integer count_by_enumeration(const isl::set& set);

// Conversions of exact counts.
Integer to_integer(const isl::val& v);        // v must be an integer
bool fits_int64(const Integer& v);
long long to_int64(const Integer& v);         // throws InternalError if it does not fit

}  // namespace tenet::poly
