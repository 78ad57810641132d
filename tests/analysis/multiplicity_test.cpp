// Mappings that put several instances on one (PE, time stamp): the repeats count in the total
// volume and show up as temporal reuse; the multiplicity report says how many.
#include "cases.hpp"

namespace {

using cases::Flow;

// A GEMM case whose time map drops a loop (given as isl strings and as formulas).
cases::Case folded_gemm(const cases::Gemm& g, Flow f, long long R, long long C) {
  cases::Case c = cases::gemm_case(g, f, R, C);
  std::string time;
  switch (f) {
    case Flow::os:  // k is folded: all of k on one point
      time = fmt::format("{{ S[i,j,k] -> T[floor(i/{0}), floor(j/{1})] }}", R, C);
      c.problem.time = [R, C](const brute::Tuple& s) { return brute::Tuple{s[0] / R, s[1] / C}; };
      break;
    case Flow::ws:  // i is folded
      time = fmt::format("{{ S[i,j,k] -> T[floor(j/{1}), floor(k/{0})] }}", R, C);
      c.problem.time = [R, C](const brute::Tuple& s) { return brute::Tuple{s[1] / C, s[2] / R}; };
      break;
    case Flow::is:  // pairs of j share a point
      time = fmt::format("{{ S[i,j,k] -> T[floor(i/{1}), floor(k/{0}), floor(j/2)] }}", R, C);
      c.problem.time = [R, C](const brute::Tuple& s) {
        return brute::Tuple{s[0] / C, s[2] / R, s[1] / 2};
      };
      break;
  }
  c.mapping = tenet::mapping::Mapping("folded", c.mapping.space_map(), cases::map_of(time));
  c.label += " folded";
  return c;
}

}  // namespace

TEST_CASE("non-injective GEMM mappings under os/ws/is", "[analysis][multiplicity]") {
  const cases::Gemm shapes[] = {{5, 4, 3}, {7, 3, 6}, {3, 7, 5}};
  for (Flow f : {Flow::os, Flow::ws, Flow::is})
    for (const auto& g : shapes)
      for (const brute::Neighbourhood nb :
           {brute::Neighbourhood{}, brute::Neighbourhood{0, true, true},
            brute::Neighbourhood{2, false, true}}) {
        const auto c = folded_gemm(g, f, 2, 3);
        INFO(c.label << ", hops " << nb.hops << ", same " << nb.same_time);
        const auto report =
            tenet::analysis::analyze(c.workload, c.arch, c.mapping, cases::options_for(nb));
        cases::check_report(report, brute::evaluate(c.problem, nb));
        CHECK_FALSE(report.multiplicity.injective);
        CHECK(report.multiplicity.average > 1);
      }
}

TEST_CASE("the multiplicity of an injective mapping is one", "[analysis][multiplicity]") {
  const auto c = cases::gemm_case({5, 6, 7}, Flow::ws, 3, 2);
  const auto report = tenet::analysis::analyze(c.workload, c.arch, c.mapping);
  CHECK(report.multiplicity.injective);
  CHECK(report.multiplicity.instances == 5 * 6 * 7);
  CHECK(report.multiplicity.space_time_points == 5 * 6 * 7);
  CHECK(report.multiplicity.average == 1.0);
  for (const auto& t : report.tensors) CHECK(t.space_time_volume == t.total_volume);
}

TEST_CASE("os mapping that folds all of k onto one point: hand-derived volumes",
          "[analysis][multiplicity]") {
  // 2x2x3 GEMM on a 1x1 array, T[i, j]: 4 points with 3 instances each. A[i,k] and B[k,j]: 12
  // (instance, element) pairs but 12 distinct (point, element) pairs; C[i,j]: 12 pairs, 4 distinct.
  const auto c = folded_gemm({2, 2, 3}, Flow::os, 1, 1);
  const auto report = tenet::analysis::analyze(c.workload, c.arch, c.mapping);
  CHECK(report.multiplicity.instances == 12);
  CHECK(report.multiplicity.space_time_points == 4);
  CHECK(report.multiplicity.average == 3.0);
  REQUIRE(report.tensors.size() == 3);
  CHECK(report.tensors[0].total_volume == 12);
  CHECK(report.tensors[0].space_time_volume == 12);
  CHECK(report.tensors[2].total_volume == 12);
  CHECK(report.tensors[2].space_time_volume == 4);
  CHECK(report.tensors[2].unique_volume == 4);          // no time stamp repeats C[i,j]
  CHECK(report.tensors[2].temporal_reuse_volume == 8);  // the 8 repeats inside a point
}
