// Table-driven counting cases: isl string in, count out. Every expected value is derived by hand
// or by a closed formula written here (binomials, arithmetic series), never taken from count().
#include <gmpxx.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "count_check.hpp"
#include "tenet/error.hpp"

using tenet::poly::count;
using tenet::poly::CountOptions;
using tenet::poly::CountReport;
using tenet::poly::Integer;
using tenet::poly::Strategy;

namespace {

Integer binomial(unsigned long n, unsigned long k) {
  mpz_class r;
  mpz_bin_uiui(r.get_mpz_t(), n, k);
  return r;
}

Integer count_text(const std::string& text, const CountOptions& options = {},
                   CountReport* report = nullptr) {
  return count(tenet_test::parse_set_or_map(text), options, report);
}

struct Case {
  std::string text;
  Integer expected;
};

// Points of the d-simplex x >= 0, sum x <= n: C(n + d, d).
std::string simplex(int d, long n) {
  std::string vars, cons;
  for (int k = 0; k < d; ++k) {
    vars += (k ? "," : "") + std::string("x") + std::to_string(k);
    cons += "x" + std::to_string(k) + " >= 0 and ";
  }
  std::string sum;
  for (int k = 0; k < d; ++k) sum += (k ? " + " : "") + std::string("x") + std::to_string(k);
  return "{ [" + vars + "] : " + cons + sum + " <= " + std::to_string(n) + " }";
}

}  // namespace

TEST_CASE("table: boxes, triangles, simplices, lattices", "[count][table]") {
  const std::vector<Case> cases = {
      {"{ [i,j,k] : 0 <= i < 7 and 0 <= j < 11 and 0 <= k < 13 }", 7 * 11 * 13},
      {"{ [i,j,k] : -5 <= i <= 5 and 3 <= j < 9 and k = 4 }", 11 * 6},
      {"{ [i,j] : 0 <= j <= i < 100 }", 100 * 101 / 2},
      {"{ [i,j] : 0 <= j < i < 100 }", 100 * 99 / 2},
      {"{ [i,j,k] : 0 <= k <= j <= i < 20 }", binomial(22, 3)},
      {simplex(3, 30), binomial(33, 3)},
      {simplex(4, 25), binomial(29, 4)},
      {simplex(5, 4096), binomial(4101, 5)},
      {simplex(3, 1000000), binomial(1000003, 3)},
      {"{ [i] : 0 <= i < 1000 and i mod 7 = 3 }", (999 - 3) / 7 + 1},
      {"{ [i] : exists e : i = 3e and 0 <= i <= 99 }", 34},
      {"{ [i,j] : 0 <= i < 100 and j = floor(i/8) }", 100},
      {"{ [i,j] : 0 <= i < 64 and 0 <= j < 64 and (i + j) mod 4 = 0 }", 64 * 64 / 4},
      {"{ [i,j] : 0 <= i < 300000000 and 0 <= 3j <= i }",
       Integer(3) * 100000000 * (100000000 + 1) / 2},
      {"{ [i,j] : 0 <= i < 10 and 0 <= j < 10 ; [i,j] : 5 <= i < 15 and 5 <= j < 15 }",
       100 + 100 - 25},
      {"{ [] }", 1},
      {"{ [] : 1 = 0 }", 0},
      {"{ [i] : 0 <= i < 0 }", 0},
      {"{ [i,j] : 0 <= i < 10 and 2i = 2j + 1 }", 0},
      {"[N] -> { [i,j] : 0 <= i < N and 0 <= j < N and N = 4096 }", Integer(4096) * 4096},
      {"[N,M] -> { [i] : M <= i < N and N = 10 and M = N - 4 }", 4},
      {"{ [i] -> [j] : 0 <= i < 10 and i <= j < 10 }", 55},
      {"{ [i] -> [floor(i/4), i mod 4] : 0 <= i < 1001 }", 1001},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK(count_text(c.text).get_str() == c.expected.get_str());
  }
}

TEST_CASE("table: TENET GEMM sets at LLM sizes are counted without enumeration", "[count][table]") {
  // os on R x C, M and N multiples of R and C: |Theta(D)| = MNK, |P_D| = RC,
  // |T_D| = (M/R)(N/C)(R + C + K - 2) (the skewed wavefront of each tile).
  struct Shape {
    long m, n, k, r, c;
  };
  for (const Shape& s : {Shape{4096, 11008, 4096, 16, 16}, Shape{8192, 128000, 14336, 16, 16},
                         Shape{8192, 128000, 14336, 32, 32}}) {
    const std::string M = std::to_string(s.m), N = std::to_string(s.n), K = std::to_string(s.k);
    const std::string R = std::to_string(s.r), C = std::to_string(s.c);
    const std::string theta = "{ S[i,j,k] -> [PE[i mod " + R + ", j mod " + C + "] -> T[floor(i/" +
                              R + "), floor(j/" + C + "), (i mod " + R + ") + (j mod " + C +
                              ") + k]] : 0 <= i < " + M + " and 0 <= j < " + N + " and 0 <= k < " +
                              K + " }";
    isl::map th(tenet::poly::thread_context().get(), theta);
    INFO(theta);
    CountReport report;
    CHECK(count(th.range(), {}, &report).get_str() == Integer(Integer(s.m) * s.n * s.k).get_str());
    CHECK(count(th.wrap()).get_str() == Integer(Integer(s.m) * s.n * s.k).get_str());
    CHECK(count(th.range().unwrap().domain()) == s.r * s.c);
    const Integer td = Integer(s.m / s.r) * (s.n / s.c) * (s.r + s.c + s.k - 2);
    CHECK(count(th.range().unwrap().range()).get_str() == td.get_str());
    CHECK(report.slices == 0);
    CHECK(report.used(Strategy::kIslFallback) == 0);
  }
}

TEST_CASE("table: union_set and union_map sum their spaces", "[count][table]") {
  isl::ctx ctx = tenet::poly::thread_context().get();
  isl::union_set us(ctx, "{ A[i] : 0 <= i < 5; B[i,j] : 0 <= i < 3 and 0 <= j < 4 }");
  CHECK(count(us) == 5 + 12);
  isl::union_map um(
      ctx, "{ A[i] -> B[j] : 0 <= i < 3 and 0 <= j < 2; A[i] -> C[j] : 0 <= i < 2 and j = i }");
  CHECK(count(um) == 6 + 2);
  CHECK(count(isl::union_set(ctx, "{ }")) == 0);
}

TEST_CASE("unbounded sets are an input error", "[count][errors]") {
  for (const char* text :
       {"{ [i] : i >= 0 }", "[N] -> { [i] : 0 <= i < N }", "{ [i,j] : 0 <= i < 10 and j >= i }",
        "{ [i,j,k] : 0 <= i < 4 and 0 <= j < 4 and k >= i + j }"}) {
    INFO(text);
    try {
      count_text(text);
      FAIL("no error for an unbounded set");
    } catch (const tenet::InputError& e) {
      CHECK(e.code() == tenet::error_code::kUnbounded);
      CHECK(e.message().find("unbounded") != std::string::npos);
    }
  }
  // Rationally unbounded but without integer points: no error, zero.
  CHECK(count_text("{ [i,j] : i >= 0 and 2i = 4j + 1 }") == 0);
}
