// Small GEMMs under os / ws / is: every metric equals the brute-force evaluation.
#include <random>

#include "cases.hpp"
#include "tenet/analysis/tenet_metrics.hpp"

namespace {

using cases::Flow;

void check_case(const cases::Case& c, const brute::Neighbourhood& nb) {
  INFO(c.label << ", hops " << nb.hops << ", same " << nb.same_time << ", prev " << nb.prev_time);
  const auto report =
      tenet::analysis::analyze(c.workload, c.arch, c.mapping, cases::options_for(nb));
  cases::check_report(report, brute::evaluate(c.problem, nb));
}

}  // namespace

TEST_CASE("GEMM on an exact 2x2 array, default neighbourhood", "[analysis][gemm]") {
  for (Flow f : {Flow::os, Flow::ws, Flow::is})
    check_case(cases::gemm_case({4, 4, 4}, f, 2, 2), {});
}

TEST_CASE("random small GEMMs, sizes not multiples of the array, default neighbourhood",
          "[analysis][gemm][random]") {
  std::mt19937 rng(20240601);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int iteration = 0; iteration < 90; ++iteration) {
    const cases::Gemm g{pick(1, 13), pick(1, 11), pick(1, 9),
                        pick(1, 16), pick(1, 16), pick(1, 32)};
    const Flow f = static_cast<Flow>(iteration % 3);
    check_case(cases::gemm_case(g, f, pick(1, 4), pick(1, 5)), {});
  }
}

TEST_CASE("random small GEMMs under every neighbourhood option", "[analysis][gemm][random]") {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const brute::Neighbourhood options[] = {{0, true, true},  {0, false, true},  {1, true, false},
                                          {1, false, true}, {1, false, false}, {2, true, true},
                                          {2, false, true}, {3, true, false}};
  int iteration = 0;
  for (const auto& nb : options)
    for (Flow f : {Flow::os, Flow::ws, Flow::is})
      for (int repeat = 0; repeat < 2; ++repeat) {
        const cases::Gemm g{pick(1, 9), pick(1, 8), pick(1, 7)};
        check_case(cases::gemm_case(g, f, pick(1, 4), pick(2, 5)), nb);
        ++iteration;
      }
  CHECK(iteration == 48);
}

TEST_CASE("the compute delay of the tutorial branch uses floor(AvgActivePE)", "[analysis][gemm]") {
  const auto c = cases::gemm_case({7, 5, 3}, Flow::os, 3, 2);
  auto options = cases::options_for({});
  options.compute_delay = tenet::analysis::ComputeDelayConvention::kAvgActivePes;
  const auto report = tenet::analysis::analyze(c.workload, c.arch, c.mapping, options);
  cases::check_report(report, brute::evaluate(c.problem, {}), true);
}

TEST_CASE("bandwidth and latency enter ingress and egress", "[analysis][gemm]") {
  auto c = cases::gemm_case({6, 5, 4}, Flow::ws, 2, 3);
  c.arch = cases::grid_arch(2, 3, false, 7, 5);
  c.problem.bandwidth = 7;
  c.problem.latency = 5;
  check_case(c, {});
}
