// A parametric Analyzer (sizes as isl parameters) evaluated at many shapes.
#include <random>

#include "analysis/analyzer.hpp"
#include "cases.hpp"
#include "tenet/error.hpp"

namespace {

using cases::Flow;
using tenet::analysis::Analyzer;

tenet::workload::Workload parametric_gemm() {
  auto w = cases::gemm_workload({1, 1, 1});
  return tenet::workload::Workload(
      "gemm",
      cases::set_of("[M,N,K] -> { S[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K and "
                    "0 <= M <= 100000 and 0 <= N <= 100000 and 0 <= K <= 100000 }"),
      w.accesses());
}

}  // namespace

TEST_CASE("a parametric GEMM analyzer equals brute force at every shape",
          "[analysis][parametric]") {
  std::mt19937 rng(99);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (Flow f : {Flow::os, Flow::ws, Flow::is}) {
    const long long R = pick(1, 4), C = pick(2, 4);
    const Analyzer analyzer(parametric_gemm(), cases::grid_arch(R, C),
                            cases::gemm_mapping(f, R, C));
    CHECK(analyzer.parameters() == std::vector<std::string>{"K", "M", "N"});
    for (int shape = 0; shape < 5; ++shape) {
      const cases::Gemm g{pick(1, 11), pick(1, 10), pick(1, 9)};
      INFO(cases::name_of(f) << " " << R << "x" << C << " at " << g.m << "x" << g.n << "x" << g.k);
      const auto report = analyzer.evaluate({{"M", g.m}, {"N", g.n}, {"K", g.k}});
      cases::check_report(report, brute::evaluate(cases::gemm_problem(g, f, R, C), {}));
    }
  }
}

TEST_CASE("a parametric analyzer agrees with the concrete analysis at larger shapes",
          "[analysis][parametric]") {
  for (Flow f : {Flow::os, Flow::ws, Flow::is}) {
    const Analyzer analyzer(parametric_gemm(), cases::grid_arch(4, 3),
                            cases::gemm_mapping(f, 4, 3));
    for (const cases::Gemm g : {cases::Gemm{37, 50, 21}, cases::Gemm{64, 9, 130}}) {
      INFO(cases::name_of(f) << " at " << g.m << "x" << g.n << "x" << g.k);
      const auto concrete = tenet::analysis::analyze(
          cases::gemm_workload(g), cases::grid_arch(4, 3), cases::gemm_mapping(f, 4, 3));
      CHECK(analyzer.evaluate({{"M", g.m}, {"N", g.n}, {"K", g.k}}) == concrete);
    }
  }
}

TEST_CASE("parameter values are checked", "[analysis][parametric][errors]") {
  const Analyzer analyzer(parametric_gemm(), cases::grid_arch(2, 2),
                          cases::gemm_mapping(Flow::os, 2, 2));
  auto code_of = [&](const tenet::analysis::ParameterValues& values) {
    try {
      analyzer.evaluate(values);
    } catch (const tenet::InputError& e) {
      return e.code() + " " + e.where();
    }
    return std::string("no error");
  };
  CHECK(code_of({{"M", 2}, {"N", 2}}) == "missing-field /parameters/K");
  CHECK(code_of({}) == "missing-field /parameters/K");
  CHECK(code_of({{"M", 2}, {"N", 2}, {"K", 2}, {"X", 1}}) == "unknown-name /parameters/X");
  CHECK(code_of({{"M", 0}, {"N", 2}, {"K", 2}}) == "range /workload/domain");
  CHECK(code_of({{"M", 2}, {"N", 2}, {"K", 2}}) == "no error");
  // analyze() has no way to give values
  try {
    tenet::analysis::analyze(parametric_gemm(), cases::grid_arch(2, 2),
                             cases::gemm_mapping(Flow::os, 2, 2));
    FAIL("expected an InputError");
  } catch (const tenet::InputError& e) {
    CHECK(e.code() == "missing-field");
  }
}

TEST_CASE("a mapping that is partial only for some sizes fails only for those",
          "[analysis][parametric][errors]") {
  const tenet::mapping::Mapping partial(
      "partial", cases::map_of("{ S[i,j,k] -> PE[i mod 2, j mod 2] : i < 5 }"),
      cases::map_of("{ S[i,j,k] -> T[floor(i/2), floor(j/2), (i mod 2) + (j mod 2) + k] }"));
  const Analyzer analyzer(parametric_gemm(), cases::grid_arch(2, 2), partial);
  CHECK_NOTHROW(analyzer.evaluate({{"M", 5}, {"N", 3}, {"K", 2}}));
  try {
    analyzer.evaluate({{"M", 7}, {"N", 3}, {"K", 2}});
    FAIL("expected a partial-mapping error");
  } catch (const tenet::InputError& e) {
    CHECK(e.code() == "partial-mapping");
    const std::string message = e.message();
    const isl::set missing = cases::set_of(message.substr(message.find('{')));
    CHECK(
        missing.is_equal(cases::set_of("{ S[i,j,k] : 5 <= i < 7 and 0 <= j < 3 and 0 <= k < 2 }")));
  }
}
