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
#include <vector>

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
  long enum_max = 48;       // ranges up to this length are enumerated slice by slice
  int max_period = 512;     // larger quasi-polynomial periods fall back to enumeration
  bool interpolate = true;  // allow chamber interpolation
  bool sparsify = true;     // greedy unimodular sparsification of >=3-D systems
  bool memoize = true;      // reuse counts of identical normalized >=3-D systems (per thread)
  long max_vertex_subsets = 20000;  // cap on row subsets tried in vertex/period computations
  // Clean every lifted piece with isl's detect_equalities / remove_redundancies first.
  // Exactness does not depend on either (the engine finds implicit equalities and tolerates
  // redundant rows); each is an LP per piece, 0.2-0.5 ms, several times the engine's cost.
  bool isl_detect_equalities = false;
  bool isl_remove_redundancies = false;
  // Budget of isl's enumeration (the last resort, used when coefficients exceed 2^62 or a
  // system is too complex): at most this many points of work per piece, estimated as the
  // product of its bounding-box ranges except the largest. Over budget: InputError(overflow).
  long long isl_fallback_max_points = 20000000;
  // Slices counted one by one (the enumeration strategy, all levels of one piece together).
  // Beyond it the engine gives up on the piece, which goes to isl's enumeration as a too complex
  // one does. The test suite's sets need at most 1,800; a fuzzed map whose slices cannot be
  // interpolated needed 660,958 (1 s in Release, 80 us a slice under the sanitizers).
  long long max_slices = 10000;
};

// One disjoint basic set of the input and how it was counted.
struct CountPiece {
  int dims = 0;                          // dimensions after lifting divs (set dims + params + divs)
  Strategy strategy = Strategy::kEmpty;  // the most expensive strategy used inside it
  Integer count;
};

struct CountReport {
  std::array<long, kStrategyCount> uses{};   // basic sets, by the most expensive strategy used
  std::array<long, kStrategyCount> nodes{};  // subsystems (incl. components, slices) per strategy
  long basic_sets = 0;
  long slices = 0;           // slices counted individually (each a recursive count)
  long chambers = 0;         // chambers summed by interpolation
  long verify_failures = 0;  // residue classes whose interpolation check failed (then enumerated)
  long cache_hits = 0;       // >=3-D subsystems answered from the memo
  long fallbacks = 0;        // basic sets counted by isl enumeration (overflow / too complex)
  std::vector<CountPiece> pieces;  // one entry per basic set, in order
  void add(const CountReport& other);
  long used(Strategy s) const { return uses[static_cast<int>(s)]; }
  std::string summary()
      const;  // e.g. "3 basic sets: 2 closed-form-2d, 1 interpolation (4 chambers)"
};

Integer count(const isl::set& set, const CountOptions& options = {}, CountReport* report = nullptr);
Integer count(const isl::map& map, const CountOptions& options = {}, CountReport* report = nullptr);
Integer count(const isl::union_set& set, const CountOptions& options = {},
              CountReport* report = nullptr);
Integer count(const isl::union_map& map, const CountOptions& options = {},
              CountReport* report = nullptr);

// isl's own enumeration (isl_set_count_val). Exact but slow; the reference in tests.
Integer count_by_enumeration(const isl::set& set);

// Conversions of exact counts.
Integer to_integer(const isl::val& v);  // v must be an integer
bool fits_int64(const Integer& v);
long long to_int64(const Integer& v);  // throws InternalError if it does not fit

}  // namespace tenet::poly
