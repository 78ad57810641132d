// From isl sets to integer constraint systems, and isl's enumeration as the last resort.
#pragma once

#include <gmpxx.h>
#include <isl/cpp.h>

#include <string>
#include <vector>

#include "poly/detail/system.hpp"

namespace tenet::poly::detail {

// The basic sets of a disjoint decomposition of `set` (divs made explicit first).
std::vector<isl::basic_set> disjoint_basic_sets(const isl::set& set);

struct LiftOptions {
  bool detect_equalities = false;    // isl_basic_set_detect_equalities (an LP per piece)
  bool remove_redundancies = false;  // isl_basic_set_remove_redundancies (an LP per piece)
};

// The constraint system of one basic set with its divs lifted to variables (parameters first,
// then set dimensions, then divs), optionally cleaned by isl first.
// Throws Overflow if a coefficient exceeds the engine's limit (2^62), TooComplex if a div
// cannot be lifted.
System lifted_system(const isl::basic_set& bset, const LiftOptions& options);

// isl_set_count_val on one basic set, if its bounding box holds at most max_points points;
// otherwise throws InputError(code) saying why the engine could not count it (`why`, e.g. "its
// coefficients exceed 2^62"). Throws Unbounded if the set is unbounded.
mpz_class count_by_isl_enumeration(const isl::basic_set& bset, long long max_points,
                                   const char* code, const std::string& why);

// True if isl proves the basic set empty.
bool is_empty(const isl::basic_set& bset);

}  // namespace tenet::poly::detail
