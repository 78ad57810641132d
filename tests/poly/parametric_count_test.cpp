// detail::ParametricSystem (the once-per-set reduction behind poly::ParametricCount) against brute
// force: random small parametric constraint systems enumerated point by point, and the
// quantization counts' GEMM sets (packing, scale groups that do not divide K, M tiles) against
// isl's enumeration at many odd shapes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "count_check.hpp"
#include "poly/detail/engine.hpp"
#include "poly/detail/parametric_system.hpp"
#include "tenet/poly/parameters.hpp"

using tenet::poly::CountOptions;
using tenet::poly::detail::Coef;
using tenet::poly::detail::Engine;
using tenet::poly::detail::ParametricSystem;
using tenet::poly::detail::System;
using tenet_test::uniform;

namespace {

// A random parametric system with a known way to enumerate it: `base` variables in a box (their
// upper ends depend on the parameters, through divisors that need not divide them), `derived`
// variables fixed by an equality a y = e(x, p) (a = +-1 mostly, sometimes 2), plus random rows
// coupling variables, rows on one variable and parameters, and guards on the parameters alone.
// Column order: the parameters first, then the variables shuffled.
struct RandomSystem {
  int params = 0;
  std::vector<int> column;  // variable k (base first, then derived) -> its column
  int base = 0, derived = 0;
  System system;
  std::vector<Coef> lows;                    // per base variable: x >= low
  std::vector<std::vector<Coef>> equations;  // per derived variable: row over columns, as stored
  std::string text;                          // the system, for messages
};

RandomSystem random_system(std::mt19937& rng) {
  RandomSystem r;
  r.params = static_cast<int>(uniform(rng, 1, 3));
  r.base = static_cast<int>(uniform(rng, 1, 3));
  r.derived = static_cast<int>(uniform(rng, 0, 2));
  const int vars = r.params + r.base + r.derived;
  std::vector<int> order(r.base + r.derived);
  for (int k = 0; k < static_cast<int>(order.size()); ++k) order[k] = r.params + k;
  std::shuffle(order.begin(), order.end(), rng);
  r.column = order;
  r.system = System(vars);
  auto row = [&] { return std::vector<Coef>(vars + 1, 0); };
  auto param = [&] { return static_cast<int>(uniform(rng, 0, r.params - 1)); };
  for (int k = 0; k < r.base; ++k) {
    const int x = r.column[k];
    std::vector<Coef> lo = row(), hi = row();
    const Coef low = uniform(rng, -3, 2);
    r.lows.push_back(low);
    lo[x] = 1, lo[vars] = -low;  // x >= low
    // a x <= p (+ p') + c, a in 1..5: upper ends floor((p + c)/a)
    hi[x] = -uniform(rng, 1, 5);
    hi[param()] += 1;
    if (uniform(rng, 0, 2) == 0) hi[param()] += 1;
    hi[vars] = uniform(rng, -2, 4);
    r.system.add_inequality(lo.data());
    r.system.add_inequality(hi.data());
  }
  for (int k = 0; k < r.derived; ++k) {
    const int y = r.column[r.base + k];
    std::vector<Coef> e = row();
    e[y] = uniform(rng, 0, 3) == 0 ? 2 : (uniform(rng, 0, 1) ? 1 : -1);
    for (int j = 0; j < r.base + k; ++j) e[r.column[j]] = uniform(rng, -2, 2);
    if (uniform(rng, 0, 1)) e[param()] = uniform(rng, -1, 1);
    e[vars] = uniform(rng, -3, 3);
    r.equations.push_back(e);
    r.system.add_equality(e.data());
  }
  const int extra = static_cast<int>(uniform(rng, 0, 3));
  for (int i = 0; i < extra; ++i) {
    std::vector<Coef> c = row();
    switch (uniform(rng, 0, 3)) {
      case 0:  // a coupling row between two variables
        c[r.column[uniform(rng, 0, r.base + r.derived - 1)]] += uniform(rng, -2, 2);
        c[r.column[uniform(rng, 0, r.base + r.derived - 1)]] += uniform(rng, -2, 2);
        c[param()] = uniform(rng, 0, 1);
        c[vars] = uniform(rng, 0, 8);
        break;
      case 1:  // one variable against the parameters: b x >= p - c
        c[r.column[uniform(rng, 0, r.base + r.derived - 1)]] = uniform(rng, 1, 3);
        c[param()] = -1;
        c[vars] = uniform(rng, 0, 6);
        break;
      case 2:  // a guard on the parameters alone
        c[param()] += 1;
        c[param()] -= 1;
        c[vars] = uniform(rng, -2, 6);
        break;
      default:  // a guard equality on the parameters, true at some values
        c[param()] = 1;
        c[vars] = -uniform(rng, 0, 8);
        r.system.add_equality(c.data());
        continue;
    }
    r.system.add_inequality(c.data());
  }
  std::ostringstream os;
  os << r.system;
  r.text = os.str();
  return r;
}

// The points of r at the parameter values, enumerated: the base variables over their box, each
// derived variable solved from its equation, every row checked.
long brute_force(const RandomSystem& r, const std::vector<long long>& values) {
  const int vars = r.system.vars();
  std::vector<long long> point(vars, 0);
  for (int i = 0; i < r.params; ++i) point[i] = values[i];
  // A box for the base variables: low <= x <= twice the sum of the positive parameters + 8 (a
  // valid upper end: a x <= p (+ p') + c with a >= 1, c <= 4, p' possibly p).
  long long top = 8;
  for (long long v : values) top += v > 0 ? 2 * v : 0;
  long total = 0;
  std::vector<long long> x(r.base);
  for (int k = 0; k < r.base; ++k) x[k] = r.lows[k];
  auto satisfied = [&] {
    for (int k = 0; k < r.base; ++k) point[r.column[k]] = x[k];
    for (int k = 0; k < r.derived; ++k) {
      const std::vector<Coef>& e = r.equations[k];
      const int y = r.column[r.base + k];
      long long rest = e[vars];
      for (int j = 0; j < vars; ++j)
        if (j != y) rest += e[j] * point[j];  // derived variables are solved in order
      if (rest % e[y] != 0) return false;
      point[y] = -rest / e[y];
    }
    for (int i = 0; i < r.system.equalities(); ++i) {
      long long v = r.system.equality(i)[vars];
      for (int j = 0; j < vars; ++j) v += r.system.equality(i)[j] * point[j];
      if (v != 0) return false;
    }
    for (int i = 0; i < r.system.inequalities(); ++i) {
      long long v = r.system.inequality(i)[vars];
      for (int j = 0; j < vars; ++j) v += r.system.inequality(i)[j] * point[j];
      if (v < 0) return false;
    }
    return true;
  };
  while (true) {
    total += satisfied();
    int k = 0;
    while (k < r.base && ++x[k] > top) x[k] = r.lows[k], ++k;
    if (k == r.base) return total;
  }
}

}  // namespace

TEST_CASE("ParametricSystem equals brute force on random parametric systems",
          "[count][parametric]") {
  std::mt19937 rng(1919);
  int cases = 0, mismatches = 0, reduced = 0, closed = 0, residual = 0, nonzero = 0;
  for (int i = 0; i < 400; ++i) {
    const RandomSystem r = random_system(rng);
    const std::optional<ParametricSystem> p = ParametricSystem::reduce(r.system, r.params);
    if (!p) continue;
    ++reduced;
    closed += p->closed_form();
    residual += !p->closed_form();
    for (int v = 0; v < 6; ++v) {
      std::vector<long long> values(r.params);
      for (long long& value : values) value = uniform(rng, -1, 17);
      const long want = brute_force(r, values);
      Engine engine(CountOptions{});
      tenet::poly::Integer got = 0;
      p->add_count(values.data(), engine, got);
      // The engine on the system with the values substituted, as ParametricCount did before.
      System fixed = r.system;
      for (int k = r.params - 1; k >= 0; --k) fixed.fix_variable(k, values[k]);
      const tenet::poly::Integer engine_count = engine.count(fixed);
      ++cases;
      nonzero += want != 0;
      if (got != want || engine_count != want) {
        ++mismatches;
        std::string at;
        for (long long value : values) at += " " + std::to_string(value);
        FAIL_CHECK("at" << at << ": reduced " << got.get_str() << ", engine "
                        << engine_count.get_str() << ", brute force " << want << "\n"
                        << r.text);
      }
    }
  }
  CHECK(mismatches == 0);
  INFO(cases << " cases, " << nonzero << " nonzero; " << reduced << " systems reduced, " << closed
             << " in closed form, " << residual << " with residual groups");
  // The generator covers every path: closed forms, residual groups, and systems left whole.
  CHECK(reduced >= 300);
  CHECK(reduced < 400);
  CHECK(closed >= 200);
  CHECK(residual >= 50);
  CHECK(cases == 6 * reduced);
  CHECK(nonzero > cases / 3);
}

TEST_CASE("ParametricSystem leaves what it cannot reduce for all values to the engine",
          "[count][parametric]") {
  // 2x = p + 1: no unit coefficient on a variable.
  System even(2);
  even.add_equality({-1, 2, -1});
  even.add_inequality({0, 1, 0});
  even.add_inequality({1, -1, 0});
  CHECK_FALSE(ParametricSystem::reduce(even, 1));
  // x >= p with no upper end: unbounded.
  System open(2);
  open.add_inequality({-1, 1, 0});
  CHECK_FALSE(ParametricSystem::reduce(open, 1));
  // 0 <= x < p and 0 <= y <= x: one group of two variables, counted by the engine.
  System triangle(3);
  triangle.add_inequality({0, 1, 0, 0});
  triangle.add_inequality({1, -1, 0, -1});
  triangle.add_inequality({0, 0, 1, 0});
  triangle.add_inequality({0, 1, -1, 0});
  const auto t = ParametricSystem::reduce(triangle, 1);
  REQUIRE(t);
  CHECK_FALSE(t->closed_form());
  for (long long p = -1; p <= 9; ++p) {
    Engine engine(CountOptions{});
    tenet::poly::Integer got = 0;
    t->add_count(&p, engine, got);
    CHECK(got == static_cast<long>(p > 0 ? p * (p + 1) / 2 : 0));
  }
  // A value beyond the engine's coefficient range is an Overflow (the caller falls back).
  System interval(2);
  interval.add_inequality({0, 1, 0});
  interval.add_inequality({1, -1, -1});
  const auto line = ParametricSystem::reduce(interval, 1);
  REQUIRE(line);
  CHECK(line->closed_form());
  Engine engine(CountOptions{});
  tenet::poly::Integer got = 0;
  const long long huge = (1LL << 62) + 1;
  CHECK_THROWS_AS(line->add_count(&huge, engine, got), tenet::poly::detail::Overflow);
  CHECK(got == 0);
  const long long big = 1LL << 61;
  line->add_count(&big, engine, got);
  CHECK(got == tenet::poly::Integer(std::to_string(big)));
}

// The sets the quantization counts take (quant/quant_costs.cpp), written out: the GEMM domain,
// an operand, its packed words, per-group scales (groups need not divide K), (output, scale)
// pairs and (B element, M tile) pairs, with the parametric GEMM's bounds on M, N, K.
TEST_CASE("ParametricCount counts the quantization GEMM sets in closed form, exactly",
          "[count][parametric]") {
  using tenet::poly::ParameterFix;
  using tenet::poly::ParametricCount;
  const isl::ctx ctx = tenet::poly::thread_context().get();
  const std::string bounds =
      "0 < M <= 1000000000 and 0 < N <= 1000000000 and 0 < K <= 1000000000 and 0 <= i < M and "
      "0 <= j < N and 0 <= k < K";
  std::mt19937 rng(35);
  int cases = 0;
  for (long g : {3L, 5L, 8L, 32L}) {
    for (long t : {2L, 7L}) {
      const std::vector<std::string> maps = {
          "{ S[i, j, k] -> S[i, j, k] : " + bounds + " }",
          "{ S[i, j, k] -> B[k, j] : " + bounds + " }",
          "{ S[i, j, k] -> B_word[floor(k/8), j] : " + bounds + " }",
          "{ S[i, j, k] -> B_scale[j, floor(k/" + std::to_string(g) + ")] : " + bounds + " }",
          "{ S[i, j, k] -> [C[i, j] -> B_scale[j, floor(k/" + std::to_string(g) +
              ")]] : " + bounds + " }",
          "{ S[i, j, k] -> [B[k, j] -> Mtile[floor(i/" + std::to_string(t) + ")]] : " + bounds +
              " }",
          "{ S[i, j, k] -> R[N - 1 - j, k + 2i] : " + bounds + " }",
          "{ S[i, j, k] -> T[i, i + k] : " + bounds + " }",  // a group of 2 variables
      };
      for (const std::string& body : maps) {
        const isl::set set = isl::map(ctx, "[M, N, K] -> " + body).range();
        const ParametricCount counter(set);
        INFO(body);
        const bool coupled = body.find("R[") != std::string::npos ||  // k + 2i: odd gaps if K = 1
                             body.find("T[") != std::string::npos;
        CHECK(counter.closed_form() == !coupled);
        for (int v = 0; v < 5; ++v) {
          const long long m = uniform(rng, 1, 13), n = uniform(rng, 1, 11), k = uniform(rng, 1, 70);
          const ParameterFix fix({"K", "M", "N"}, {{"M", m}, {"N", n}, {"K", k}});
          const tenet::poly::Integer want = tenet::poly::count_by_enumeration(fix.apply(set));
          ++cases;
          CHECK(counter.count(fix) == want);
        }
      }
    }
  }
  CHECK(cases == 4 * 2 * 8 * 5);
}
