// Unit tests of the engine's pieces against plain loops: floor sums, normalization, equality
// elimination, sparsification, 2-D closed form, chambers, overflow handling, the report.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <functional>
#include <random>
#include <vector>

#include "count_check.hpp"
#include "poly/detail/chambers.hpp"
#include "poly/detail/checked.hpp"
#include "poly/detail/count_2d.hpp"
#include "poly/detail/eliminate.hpp"
#include "poly/detail/engine.hpp"
#include "poly/detail/floor_sum.hpp"
#include "poly/detail/normalize.hpp"
#include "poly/detail/sparsify.hpp"
#include "tenet/error.hpp"

using namespace tenet::poly::detail;
using tenet_test::uniform;

namespace {

bool satisfies(const System& s, const std::vector<Coef>& x) {
  for (int r = 0; r < s.inequalities(); ++r) {
    Wide v = s.inequality(r)[s.vars()];
    for (int j = 0; j < s.vars(); ++j) v += static_cast<Wide>(s.inequality(r)[j]) * x[j];
    if (v < 0) return false;
  }
  for (int r = 0; r < s.equalities(); ++r) {
    Wide v = s.equality(r)[s.vars()];
    for (int j = 0; j < s.vars(); ++j) v += static_cast<Wide>(s.equality(r)[j]) * x[j];
    if (v != 0) return false;
  }
  return true;
}

// Plain loops over the box [-bound, bound]^n (the system must lie inside it).
long brute_force(const System& s, long bound) {
  std::vector<Coef> x(s.vars(), -bound);
  long total = 0;
  std::function<void(int)> rec = [&](int j) {
    if (j == s.vars()) {
      total += satisfies(s, x);
      return;
    }
    for (x[j] = -bound; x[j] <= bound; ++x[j]) rec(j + 1);
  };
  rec(0);
  return total;
}

// A random system inside the box [-box, box]^n (box rows included) with extra random rows.
System random_system(std::mt19937& rng, int n, long box, int extra_ineq, int extra_eq, int coef) {
  System s(n);
  std::vector<Coef> row(n + 1);
  for (int j = 0; j < n; ++j) {
    std::fill(row.begin(), row.end(), 0);
    row[j] = 1;
    row[n] = uniform(rng, 0, box);
    s.add_inequality(row.data());
    row[j] = -1;
    row[n] = uniform(rng, 0, box);
    s.add_inequality(row.data());
  }
  for (int k = 0; k < extra_ineq + extra_eq; ++k) {
    for (int j = 0; j < n; ++j) row[j] = uniform(rng, -coef, coef);
    row[n] = uniform(rng, -2, coef * box / 2 + 2);
    if (k < extra_ineq)
      s.add_inequality(row.data());
    else {
      row[n] = uniform(rng, -3, 3);
      s.add_equality(row.data());
    }
  }
  return s;
}

long engine_count(const System& s, tenet::poly::CountOptions options = {}) {
  options.memoize = false;
  Engine engine(options);
  return engine.count(s).get_si();
}

}  // namespace

TEST_CASE("floor_sum equals the loop", "[count][parts]") {
  std::mt19937 rng(1);
  for (int i = 0; i < 3000; ++i) {
    const long n = uniform(rng, 0, 40), m = uniform(rng, 1, 30), a = uniform(rng, -50, 50),
               b = uniform(rng, -200, 200);
    long expected = 0;
    for (long x = 0; x < n; ++x) expected += floor_div(a * x + b, m);
    INFO(n << " " << m << " " << a << " " << b);
    REQUIRE(floor_sum<Wide>(n, m, a, b) == expected);
    REQUIRE(floor_sum<mpz_class>(n, m, a, b) == expected);
    const long first = uniform(rng, -20, 20);
    long shifted = 0;
    for (long x = first; x < first + n; ++x) shifted += floor_div(a * x + b, m);
    REQUIRE(sum_floor_linear(first, first + n - 1, a, b, m) == shifted);
  }
}

TEST_CASE("floor_sum overflow is detected and redone exactly in GMP", "[count][parts][overflow]") {
  const Wide big = static_cast<Wide>(1) << 62;
  // sum_{x=0}^{n-1} floor(a x / 1) = a n (n-1) / 2 with a n^2 ~ 2^186: beyond 128 bits.
  CHECK_THROWS_AS(floor_sum<Wide>(big, 1, big, 0), Overflow);
  const mpz_class n = to_mpz(big), a = to_mpz(big);
  CHECK(sum_floor_linear(0, big - 1, big, 0, 1) == a * n * (n - 1) / 2);
  CHECK_THROWS_AS(narrow(static_cast<Wide>(kCoefLimit) + 1), Overflow);
  CHECK(narrow(-static_cast<Wide>(kCoefLimit)) == -kCoefLimit);
  CHECK_THROWS_AS(checked_mul(big * 4, big * 4), Overflow);
  CHECK(to_mpz(-big * 3).get_str() == "-13835058055282163712");
}

TEST_CASE("normalize tightens, deduplicates and finds implicit equalities", "[count][parts]") {
  System s(2);
  s.add_inequality({2, 0, -3});  // 2x >= 3  -> x >= 2
  s.add_inequality({4, 0, -6});  // duplicate after tightening
  s.add_inequality({-1, 0, 2});  // x <= 2    -> with x >= 2: x == 2
  s.add_inequality({0, 3, 7});   // y >= -7/3 -> y >= -2
  s.add_inequality({0, -1, 5});
  REQUIRE(normalize(s));
  CHECK(s.equalities() == 1);
  CHECK(s.equality(0)[0] == 1);
  CHECK(s.equality(0)[2] == -2);
  CHECK(s.inequalities() == 2);
  CHECK(s.inequality(0)[1] == 1);
  CHECK(s.inequality(0)[2] == 2);

  System empty(1);
  empty.add_inequality({3, -1});  // x >= 1/3 -> x >= 1
  empty.add_inequality({-3, 2});  // x <= 2/3 -> x <= 0
  CHECK_FALSE(normalize(empty));
  System parity(2);
  parity.add_equality({2, -4, 1});
  CHECK_FALSE(normalize(parity));
}

TEST_CASE("equality elimination preserves the number of integer points", "[count][parts]") {
  std::mt19937 rng(2);
  int nonempty = 0;
  for (int i = 0; i < 400; ++i) {
    const int n = static_cast<int>(uniform(rng, 2, 4));
    const System s = random_system(rng, n, 4, static_cast<int>(uniform(rng, 0, 2)),
                                   static_cast<int>(uniform(rng, 1, 2)), 3);
    const long expected = brute_force(s, 4);
    System reduced = s;
    const bool feasible = eliminate_equalities(reduced);
    INFO(s);
    if (!feasible) {
      CHECK(expected == 0);
      continue;
    }
    CHECK(reduced.equalities() == 0);
    CHECK(reduced.vars() < n);
    nonempty += expected > 0;
    CHECK(engine_count(reduced) == expected);
  }
  CHECK(nonempty > 50);
}

TEST_CASE("sparsification is unimodular and preserves counts", "[count][parts]") {
  std::mt19937 rng(3);
  int applied = 0;
  for (int i = 0; i < 300; ++i) {
    const int n = static_cast<int>(uniform(rng, 2, 4));
    // x_{n-1} is bounded only through a skewed band 0 <= x_{n-1} - sum c_k x_k <= w, like the
    // time stamp t = p0 + p1 + k of a systolic dataflow: sparsification should decouple it.
    System s = random_system(rng, n - 1, 3, static_cast<int>(uniform(rng, 0, 1)), 0, 2);
    System t0(n);
    std::vector<Coef> row(n + 1, 0);
    for (int r = 0; r < s.inequalities(); ++r) {
      std::copy(s.inequality(r), s.inequality(r) + n - 1, row.begin());
      row[n - 1] = 0;
      row[n] = s.inequality(r)[n - 1];
      t0.add_inequality(row.data());
    }
    for (int k = 0; k + 1 < n; ++k) row[k] = -uniform(rng, 0, 1);
    row[n - 1] = 1;
    row[n] = 0;
    t0.add_inequality(row.data());
    for (int k = 0; k < n; ++k) row[k] = -row[k];
    row[n] = uniform(rng, 0, 3);
    t0.add_inequality(row.data());
    s = t0;
    const long before = brute_force(s, 12);
    Transform u = Transform::Identity(n, n);
    System t = s;
    applied += sparsify(t, &u) > 0;
    INFO(s);
    const Eigen::MatrixXd ud = u.cast<double>();
    CHECK(std::abs(std::abs(ud.determinant()) - 1.0) < 1e-9);
    // New rows = old rows * U (coefficients), constants unchanged.
    for (int r = 0; r < s.inequalities(); ++r)
      for (int j = 0; j < n; ++j) {
        long long v = 0;
        for (int k = 0; k < n; ++k) v += s.inequality(r)[k] * u(k, j);
        CHECK(t.inequality(r)[j] == v);
      }
    CHECK(engine_count(t) == before);
  }
  CHECK(applied > 150);
}

TEST_CASE("2-D closed form equals enumeration", "[count][parts]") {
  std::mt19937 rng(4);
  for (int i = 0; i < 1500; ++i) {
    System s = random_system(rng, 2, 12, static_cast<int>(uniform(rng, 1, 4)), 0, 5);
    const long expected = brute_force(s, 12);
    INFO(s);
    if (!normalize(s) || s.equalities() > 0) continue;
    const Interval r0 = variable_bounds(s, 0);
    if (r0.empty()) {
      CHECK(expected == 0);
      continue;
    }
    CHECK(count_2d(s, 0, r0) == expected);
    const Interval r1 = variable_bounds(s, 1);
    if (!r1.empty()) CHECK(count_2d(s, 1, r1) == expected);
  }
}

TEST_CASE("engine on random 3-4-D systems, with and without interpolation", "[count][parts]") {
  std::mt19937 rng(6);
  tenet::poly::CountOptions forced;
  forced.enum_max = 2;
  for (int i = 0; i < 200; ++i) {
    const int n = static_cast<int>(uniform(rng, 3, 4));
    const long box = n == 3 ? 9 : 5;
    const System s = random_system(rng, n, box, static_cast<int>(uniform(rng, 1, 3)),
                                   static_cast<int>(uniform(rng, 0, 1)), 2);
    const long expected = brute_force(s, box);
    INFO(s);
    CHECK(engine_count(s) == expected);
    CHECK(engine_count(s, forced) == expected);
  }
}

TEST_CASE("vertex heights and slice periods of simple polytopes", "[count][parts]") {
  // Triangle x >= 0, y >= 0, 2x + 3y <= 12: vertices (0,0), (6,0), (0,4).
  System s(2);
  s.add_inequality({1, 0, 0});
  s.add_inequality({0, 1, 0});
  s.add_inequality({-2, -3, 12});
  const auto hx = vertex_heights(s, 0, 1000);
  REQUIRE(hx.size() == 2);
  CHECK((hx[0].num == 0 && hx[1].num == 6 && hx[1].den == 1));
  // Slices x = t: 0 <= 3y <= 12 - 2t, vertices with denominator 3.
  CHECK(slice_period(s, 0, 512, 1000) == 3);
  CHECK(determinant({2, 1, 1, 3}, 2) == 5);
  CHECK(subsets_count(10, 3, 1000) == 120);
}

TEST_CASE("coefficients beyond 2^62 fall back to isl enumeration", "[count][parts][overflow]") {
  tenet::poly::CountReport report;
  // The input itself holds a coefficient of 2^70.
  const isl::set huge = tenet_test::parse_set_or_map(
      "{ [i,j] : 0 <= i <= 5 and 0 <= j - 1180591620717411303424 i <= 3 }");
  CHECK(tenet::poly::count(huge, {}, &report) == 24);
  CHECK(report.fallbacks == 1);
  CHECK(report.used(tenet::poly::Strategy::kIslFallback) == 1);
  // Coefficients that fit but overflow inside the engine (products of ~2^61 values).
  tenet::poly::CountReport report2;
  const isl::set mid = tenet_test::parse_set_or_map(
      "{ [i,j] : 0 <= i <= 3 and 0 <= j <= 3 and 0 <= 2305843009213693951 i - 2305843009213693950 "
      "j + "
      "3 and 2305843009213693949 i + 2305843009213693951 j <= 4611686018427387903 }");
  CHECK(tenet::poly::count(mid, {}, &report2) == tenet::poly::count_by_enumeration(mid));
  // Over budget: an explicit error instead of a silent wrong answer.
  tenet::poly::CountOptions tight;
  tight.isl_fallback_max_points = 10;
  const isl::set wide = tenet_test::parse_set_or_map(
      "{ [i,j,k] : 0 <= i < 100 and 0 <= k < 100 and 0 <= j - 1180591620717411303424 i <= 3 }");
  try {
    tenet::poly::count(wide, tight);
    FAIL("no error over the enumeration budget");
  } catch (const tenet::InputError& e) {
    CHECK(e.code() == tenet::error_code::kOverflow);
  }
}

TEST_CASE("a piece needing more than max_slices slices is counted by isl, exactly",
          "[count][parts]") {
  clear_count_memo();
  const isl::set s = tenet_test::parse_set_or_map(
      "{ [i,j,k] : 0 <= i < 30 and 0 <= j < 30 and 0 <= k <= i + j and k <= 40 }");
  tenet::poly::CountOptions slices;  // enumeration only: one slice per value of each level
  slices.interpolate = false;
  slices.memoize = false;
  const tenet::poly::Integer expected = tenet::poly::count_by_enumeration(s);
  tenet::poly::CountReport enumerated;
  CHECK(tenet::poly::count(s, slices, &enumerated) == expected);
  CHECK(enumerated.fallbacks == 0);
  REQUIRE(enumerated.slices > 20);
  slices.max_slices = 20;
  tenet::poly::CountReport report;
  CHECK(tenet::poly::count(s, slices, &report) == expected);
  CHECK(report.fallbacks == 1);
  // Over isl's budget too: a range error that says why, not the 2^62 message.
  slices.isl_fallback_max_points = 10;
  try {
    tenet::poly::count(s, slices);
    FAIL("no error over both budgets");
  } catch (const tenet::InputError& e) {
    CHECK(e.code() == tenet::error_code::kRange);
    CHECK(e.message().find("more than 20 of them (CountOptions::max_slices)") != std::string::npos);
  }
}

TEST_CASE("the report says which strategy counted what", "[count][parts]") {
  clear_count_memo();
  tenet::poly::CountReport report;
  const isl::set s = tenet_test::parse_set_or_map(
      "{ [i,j] : 0 <= i < 10 and 0 <= j <= i; [i,j] : 20 <= i < 30 and 0 <= j < 5 }");
  CHECK(tenet::poly::count(s, {}, &report) == 55 + 50);
  CHECK(report.basic_sets == 2);
  REQUIRE(report.pieces.size() == 2);
  CHECK(report.pieces[0].count + report.pieces[1].count == 105);
  CHECK(report.used(tenet::poly::Strategy::kClosedForm2D) +
            report.used(tenet::poly::Strategy::kProduct) ==
        2);
  CHECK(report.summary().find("2 basic sets") == 0);

  tenet::poly::CountOptions forced;
  forced.enum_max = 3;
  tenet::poly::CountReport interp;
  const isl::set simplex = tenet_test::parse_set_or_map(
      "{ [a,b,c] : a >= 0 and b >= 0 and c >= 0 and a + 2b + 3c <= 200 }");
  const auto n = tenet::poly::count(simplex, forced, &interp);
  CHECK(n == tenet::poly::count_by_enumeration(simplex));
  CHECK(interp.chambers > 0);
  CHECK(interp.nodes[static_cast<int>(tenet::poly::Strategy::kInterpolation)] > 0);
  CHECK(interp.summary().find("interpolated chambers") != std::string::npos);
  // The same system again: answered from the memo.
  tenet::poly::CountReport again;
  CHECK(tenet::poly::count(simplex, forced, &again) == n);
  CHECK(again.cache_hits >= 1);
  CHECK(again.slices == 0);
}
