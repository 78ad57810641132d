// Property tests: count() == isl_set_count_val on thousands of random sets (fixed seeds).
// A mismatch prints the set, both counts and the strategy report.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "count_check.hpp"
#include "dataflow_sets.hpp"
#include "tenet/poly/parameters.hpp"

using tenet::poly::CountOptions;
using tenet_test::Tally;
using tenet_test::uniform;

namespace {

const char* kVars[] = {"a", "b", "c", "d", "e"};

std::string var_list(int dims) {
  std::string s;
  for (int k = 0; k < dims; ++k) s += (k ? "," : "") + std::string(kVars[k]);
  return s;
}

// "3a" / " - 2b" style terms, as isl reads them.
std::string term(long a, const char* var, bool first) {
  const std::string mag =
      (a == 1 || a == -1) ? std::string(var) : std::to_string(a < 0 ? -a : a) + var;
  if (first) return (a < 0 ? "-" : "") + mag;
  return (a < 0 ? " - " : " + ") + mag;
}

// Random affine expression sum a_k x_k with small coefficients; never 0.
std::string random_affine(std::mt19937& rng, int dims, int max_coef) {
  std::string s;
  for (int k = 0; k < dims; ++k) {
    const long a = uniform(rng, -max_coef, max_coef);
    if (a != 0) s += term(a, kVars[k], s.empty());
  }
  if (s.empty()) s = term(uniform(rng, 1, max_coef), kVars[uniform(rng, 0, dims - 1)], true);
  return s;
}

std::string random_box(std::mt19937& rng, int dims, long max_len) {
  std::string s;
  for (int k = 0; k < dims; ++k) {
    const long lo = uniform(rng, -4, 3);
    const long len = uniform(rng, 1, max_len);
    s += (k ? " and " : "") + std::to_string(lo) + " <= " + kVars[k] + " < " +
         std::to_string(lo + len);
  }
  return s;
}

// One random floor / mod / existential / linear constraint.
std::string random_constraint(std::mt19937& rng, int dims) {
  const std::string e = random_affine(rng, dims, 3);
  const long m = uniform(rng, 2, 7);
  switch (uniform(rng, 0, 5)) {
    case 0:
      return e + " <= " + std::to_string(uniform(rng, -3, 12));
    case 1:
      return "(" + e + ") mod " + std::to_string(m) + " = " +
             std::to_string(uniform(rng, 0, m - 1));
    case 2:
      return "(" + e + ") mod " + std::to_string(m) +
             " <= " + std::to_string(uniform(rng, 0, m - 1));
    case 3:
      return "floor((" + e + ")/" + std::to_string(m) +
             ") >= " + std::to_string(uniform(rng, -3, 3));
    case 4:
      return "(exists q : " + e + " = " + std::to_string(m) + "q + " +
             std::to_string(uniform(rng, 0, m - 1)) + ")";
    default:
      return "(exists q : " + std::to_string(m) + "q <= " + e + " <= " + std::to_string(m) +
             "q + " + std::to_string(uniform(rng, 0, m - 2)) +
             " and q >= " + std::to_string(uniform(rng, -2, 1)) + ")";
  }
}

std::string random_floor_mod_set(std::mt19937& rng) {
  const int dims = static_cast<int>(uniform(rng, 1, 4));
  std::string s = "{ [" + var_list(dims) + "] : " + random_box(rng, dims, dims <= 2 ? 14 : 8);
  for (long c = uniform(rng, 1, 3); c > 0; --c) s += " and " + random_constraint(rng, dims);
  return s + " }";
}

// A map with quasi-affine outputs, counted through its wrapped set.
std::string random_quasi_affine_map(std::mt19937& rng) {
  const int dims = static_cast<int>(uniform(rng, 1, 3));
  std::string out;
  for (long o = uniform(rng, 1, 3), k = 0; k < o; ++k) {
    const std::string e = random_affine(rng, dims, 2);
    const long m = uniform(rng, 2, 5);
    const long kind = uniform(rng, 0, 2);
    out += (k ? ", " : "") + (kind == 0   ? e
                              : kind == 1 ? "floor((" + e + ")/" + std::to_string(m) + ")"
                                          : "(" + e + ") mod " + std::to_string(m));
  }
  return "{ [" + var_list(dims) + "] -> Out[" + out + "] : " + random_box(rng, dims, 12) + " }";
}

std::string random_piece(std::mt19937& rng, int dims) {
  std::string s = "[" + var_list(dims) + "] : " + random_box(rng, dims, 10);
  for (long c = uniform(rng, 0, 2); c > 0; --c) s += " and " + random_constraint(rng, dims);
  return s;
}

// Random coupled polytope: a box plus 2-3 constraints coupling several variables; ranges long
// enough for chambers to be interpolated, short enough for isl's enumeration (the reference).
std::string random_coupled_polytope(std::mt19937& rng, int dims) {
  std::vector<long> len(dims);
  for (int k = 0; k < dims; ++k) {
    len[k] = dims == 3   ? uniform(rng, 20, 45)
             : dims == 4 ? uniform(rng, 14, 18)
                         : uniform(rng, 10, 12);
  }
  std::string s = "{ [" + var_list(dims) + "] : ";
  for (int k = 0; k < dims; ++k)
    s += (k ? " and " : "") + std::string("0 <= ") + kVars[k] + " <= " + std::to_string(len[k]);
  for (long c = uniform(rng, 2, 3); c > 0; --c) {
    std::string e;
    long reach = 0;  // max of the expression over the box
    for (int k = 0; k < dims; ++k) {
      // Mostly unit coefficients: small periods, so chambers are long enough to interpolate.
      const long choices[] = {-1, 1, 1, 2, 0};
      const long a = choices[uniform(rng, 0, k < 2 ? 3 : 4)];  // couple at least two variables
      if (a == 0) continue;
      reach += a > 0 ? a * len[k] : 0;
      e += term(a, kVars[k], e.empty());
    }
    s += " and " + e + " <= " + std::to_string(reach * uniform(rng, 3, 8) / 10);
  }
  return s + " }";
}

}  // namespace

TEST_CASE("count matches isl on random floor/mod/existential sets", "[count][property]") {
  std::mt19937 rng(20240611);
  Tally tally;
  for (int i = 0; i < 700; ++i) {
    const std::string text = random_floor_mod_set(rng);
    CountOptions options;
    options.isl_detect_equalities = i % 5 == 0;  // isl's cleanups must not change counts
    options.isl_remove_redundancies = i % 4 == 1;
    options.enum_max = i % 3 == 0 ? 4 : 48;
    tenet_test::expect_count_matches(text, options, tally, "floor/mod #" + std::to_string(i));
  }
  for (int i = 0; i < 250; ++i)
    tenet_test::expect_count_matches(random_quasi_affine_map(rng), {}, tally,
                                     "quasi-affine map #" + std::to_string(i));
  CHECK(tally.mismatches == 0);
  CHECK(tally.cases == 950);
  CHECK(tally.nonzero > tally.cases / 2);
}

TEST_CASE("count matches isl on unions and differences", "[count][property]") {
  std::mt19937 rng(777);
  Tally tally;
  isl::ctx ctx = tenet::poly::thread_context().get();
  for (int i = 0; i < 250; ++i) {
    const int dims = static_cast<int>(uniform(rng, 1, 3));
    const isl::set a(ctx, "{ " + random_piece(rng, dims) + " }");
    const isl::set b(ctx, "{ " + random_piece(rng, dims) + " }");
    const isl::set c(ctx, "{ " + random_piece(rng, dims) + "; " + random_piece(rng, dims) + " }");
    switch (i % 4) {
      case 0:
        tenet_test::expect_count_matches(a.unite(b), {}, tally, "union");
        break;
      case 1:
        tenet_test::expect_count_matches(a.subtract(b), {}, tally, "difference");
        break;
      case 2:
        tenet_test::expect_count_matches(a.unite(b).subtract(c), {}, tally, "union minus union");
        break;
      default:
        tenet_test::expect_count_matches(c.intersect(a.unite(b)), {}, tally, "intersection");
        break;
    }
  }
  CHECK(tally.mismatches == 0);
  CHECK(tally.cases == 250);
  CHECK(tally.nonzero > tally.cases / 2);
}

TEST_CASE("count matches isl on coupled 3-5-D polytopes with interpolation forced",
          "[count][property]") {
  std::mt19937 rng(4242);
  Tally tally;
  CountOptions forced;
  forced.enum_max = 3;     // every long range goes to chamber interpolation
  forced.memoize = false;  // no shortcut through the memo
  forced.sparsify = true;
  const int per_dim[] = {150, 70, 20};
  long interpolated_by_dim[3] = {0, 0, 0};
  for (int dims = 3; dims <= 5; ++dims) {
    const long before = tally.interpolated_cases;
    for (int i = 0; i < per_dim[dims - 3]; ++i)
      tenet_test::expect_count_matches(random_coupled_polytope(rng, dims), forced, tally,
                                       std::to_string(dims) + "-D coupled #" + std::to_string(i));
    interpolated_by_dim[dims - 3] = tally.interpolated_cases - before;
  }
  CHECK(tally.mismatches == 0);
  CHECK(tally.cases == 240);  // 150 + 70 + 20
  CHECK(tally.nonzero > tally.cases * 9 / 10);
  // The interpolation path must really be exercised, in every dimension (the other cases have
  // chambers too short to pay off and are enumerated slice by slice).
  CHECK(tally.report.chambers > 100);
  CHECK(tally.interpolated_cases > tally.cases * 2 / 5);
  for (int d = 0; d < 3; ++d) {
    INFO("dimension " << d + 3);
    CHECK(interpolated_by_dim[d] > per_dim[d] / 5);
  }
  WARN("coupled polytopes: " << tally.report.chambers << " chambers interpolated in "
                             << tally.interpolated_cases << " of " << tally.cases
                             << " cases (3/4/5-D: " << interpolated_by_dim[0] << "/"
                             << interpolated_by_dim[1] << "/" << interpolated_by_dim[2] << "), "
                             << tally.report.verify_failures
                             << " residue-class verification failures");
}

TEST_CASE("count matches isl on sets with parameters fixed by equalities", "[count][property]") {
  std::mt19937 rng(99);
  Tally tally;
  for (int i = 0; i < 100; ++i) {
    const long p = uniform(rng, 1, 12), q = uniform(rng, -3, 6);
    const std::string text = "[P, Q] -> { [a, b] : 0 <= a < P and Q <= b <= a + Q + " +
                             std::to_string(uniform(rng, 0, 4)) + " and " +
                             random_constraint(rng, 2) + " and P = " + std::to_string(p) +
                             " and Q = " + std::to_string(q) + " }";
    tenet_test::expect_count_matches(text, {}, tally, "parameters #" + std::to_string(i));
  }
  CHECK(tally.mismatches == 0);
  CHECK(tally.cases == 100);
}

TEST_CASE("count matches isl on empty sets", "[count][property]") {
  std::mt19937 rng(5);
  Tally tally;
  for (int i = 0; i < 60; ++i) {
    const int dims = static_cast<int>(uniform(rng, 1, 4));
    std::string text = "{ [" + var_list(dims) + "] : " + random_box(rng, dims, 8);
    switch (i % 3) {
      case 0:
        text += " and a >= 100";
        break;
      case 1:
        text += dims > 1 ? " and 2a = 4b + 1" : " and 2a = 1";
        break;
      default:
        text += " and exists q : a = 6q + 1 and a = 3q + " + std::to_string(uniform(rng, 0, 2)) +
                " + 3q + 3";
        break;
    }
    tenet_test::expect_count_matches(text + " }", {}, tally, "empty #" + std::to_string(i));
  }
  CHECK(tally.mismatches == 0);
  CHECK(tally.nonzero == 0);
}

// Random odd-sized GEMM dataflow configuration: sizes not multiples of the array.
struct GemmConfig {
  std::string dataflow;
  long m, n, k, r, c;
  std::string label() const {
    return dataflow + " " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
           " on " + std::to_string(r) + "x" + std::to_string(c) + ": ";
  }
};

GemmConfig random_gemm_config(std::mt19937& rng, int i) {
  const char* dataflows[] = {"os", "ws", "is"};
  GemmConfig g;
  g.dataflow = dataflows[i % 3];
  g.r = uniform(rng, 2, 5);
  g.c = uniform(rng, 2, 5);
  // r*q + (1..r-1): never a multiple of the array size.
  g.m = g.r * uniform(rng, 1, 3) + uniform(rng, 1, g.r - 1);
  g.n = g.c * uniform(rng, 1, 3) + uniform(rng, 1, g.c - 1);
  g.k = uniform(rng, 2, 9);
  return g;
}

TEST_CASE("count matches isl on tiled GEMM dataflow sets (os/ws/is, odd sizes)",
          "[count][property][gemm]") {
  std::mt19937 rng(31337);
  Tally tally;
  isl::ctx ctx = tenet::poly::thread_context().get();
  // Domain, space-time sets, accesses, A^st and (time, data) sets: cheap to build, many configs.
  tenet_test::DataflowOptions plain;
  plain.with_neighbourhood = false;
  CountOptions cleaned;
  cleaned.isl_detect_equalities = true;
  cleaned.isl_remove_redundancies = true;
  for (int i = 0; i < 45; ++i) {
    const GemmConfig g = random_gemm_config(rng, i);
    for (const auto& named :
         tenet_test::gemm_dataflow_sets(ctx, g.dataflow, g.m, g.n, g.k, g.r, g.c, plain))
      tenet_test::expect_count_matches(named.set, i % 4 == 3 ? cleaned : CountOptions{}, tally,
                                       g.label() + named.name);
  }
  CHECK(tally.cases == 45 * 14);
  // With the prev-time (lexmax) neighbourhood: unique volumes, reuse intersections.
  for (int i = 0; i < 12; ++i) {
    const GemmConfig g = random_gemm_config(rng, i);
    for (const auto& named :
         tenet_test::gemm_dataflow_sets(ctx, g.dataflow, g.m, g.n, g.k, g.r, g.c))
      if (named.name.find("unique") == 0 || named.name.find("reuse") != std::string::npos ||
          named.name == "prev")
        tenet_test::expect_count_matches(named.set, {}, tally, g.label() + named.name);
  }
  CHECK(tally.cases == 45 * 14 + 12 * 13);
  CHECK(tally.mismatches == 0);
  CHECK(tally.nonzero > tally.cases * 3 / 4);
}

// ParametricCount: a parametric set lifted once, its parameters substituted per value, against
// isl's enumeration of the set with the parameters fixed (the quantization counts take this path).
TEST_CASE("ParametricCount matches isl on random parametric floor/mod sets at many sizes",
          "[count][property][parametric]") {
  using tenet::poly::ParameterFix;
  using tenet::poly::ParametricCount;
  std::mt19937 rng(2026);
  int cases = 0, mismatches = 0;
  for (int i = 0; i < 60; ++i) {
    const int dims = static_cast<int>(uniform(rng, 1, 3));
    const long g = uniform(rng, 2, 9);
    // sizes as parameters, a bound in groups of g, a floor / mod / existential constraint
    std::string body = "0 <= a < P";
    if (dims >= 2) body += " and 0 <= b < Q";
    if (dims >= 3) body += " and 0 <= c <= floor((P + Q)/" + std::to_string(g) + ")";
    body += " and " + random_constraint(rng, dims);
    const std::string vars = "[" + var_list(dims) + "]";
    const bool image = uniform(rng, 0, 2) == 0;  // the distinct groups a tile touches
    const std::string text = image ? "[P, Q] -> { S" + vars + " -> G[floor(a/" + std::to_string(g) +
                                         ")] : " + body + " }"
                                   : "[P, Q] -> { " + vars + " : " + body + " }";
    const isl::ctx ctx = tenet::poly::thread_context().get();
    const isl::set set = image ? isl::map(ctx, text).range() : isl::set(ctx, text);
    const ParametricCount prepared(set);
    for (int v = 0; v < 8; ++v) {
      const long long p = uniform(rng, 0, 40), q = uniform(rng, 0, 25);
      const ParameterFix fix({"P", "Q"}, {{"P", p}, {"Q", q}});
      const tenet::poly::Integer want = tenet::poly::count_by_enumeration(fix.apply(set));
      const tenet::poly::Integer got = prepared.count(fix);
      ++cases;
      if (got != want) {
        ++mismatches;
        UNSCOPED_INFO(text << " at P=" << p << ", Q=" << q << ": " << got << " != " << want);
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(cases == 480);
}
