// The GEMM / systolic generator of mapping/systolic.hpp, analysed: same metrics as the isl
// strings written out in cases.hpp, and as brute force.
#include "cases.hpp"
#include "tenet/mapping/systolic.hpp"

namespace {

using cases::Flow;
namespace m = tenet::mapping;

m::Dataflow dataflow_of(Flow f) {
  return f == Flow::os   ? m::Dataflow::kOutputStationary
         : f == Flow::ws ? m::Dataflow::kWeightStationary
                         : m::Dataflow::kInputStationary;
}

}  // namespace

TEST_CASE("generated GEMMs on generated systolic arrays equal brute force",
          "[analysis][systolic]") {
  const cases::Gemm shapes[] = {{5, 7, 3, 8, 4, 32}, {9, 2, 6, 16, 16, 16}, {4, 4, 4, 8, 8, 8}};
  for (Flow f : {Flow::os, Flow::ws, Flow::is})
    for (const auto& g : shapes) {
      const long long R = 3, C = 2;
      INFO(m::to_string(dataflow_of(f)) << " " << g.m << "x" << g.n << "x" << g.k);
      const auto report = tenet::analysis::analyze(
          m::make_gemm_workload({g.m, g.n, g.k}, {g.a_bits, g.b_bits, g.c_bits}),
          m::make_systolic_array(R, C, 48, 3), m::make_systolic_mapping(dataflow_of(f), R, C));
      auto problem = cases::gemm_problem(g, f, R, C);
      problem.bandwidth = 48;
      problem.latency = 3;
      cases::check_report(report, brute::evaluate(problem, {}));
    }
}

TEST_CASE("the generator's mappings give the same report as the written-out isl strings",
          "[analysis][systolic]") {
  for (Flow f : {Flow::os, Flow::ws, Flow::is}) {
    const cases::Gemm g{11, 6, 7, 16, 16, 16};
    const auto written = cases::gemm_case(g, f, 4, 3);
    const auto generated = tenet::analysis::analyze(m::make_gemm_workload({g.m, g.n, g.k}),
                                                    m::make_systolic_array(4, 3),
                                                    m::make_systolic_mapping(dataflow_of(f), 4, 3));
    CHECK(generated == tenet::analysis::analyze(written.workload, written.arch, written.mapping));
  }
}

TEST_CASE("systolic dataflows show their stationary operand", "[analysis][systolic]") {
  // The stationary tensor is reused in time only, the two streamed ones in space only.
  const char* stationary[] = {"C", "B", "A"};
  int index = 0;
  for (Flow f : {Flow::os, Flow::ws, Flow::is}) {
    const auto r =
        tenet::analysis::analyze(m::make_gemm_workload({8, 8, 8}), m::make_systolic_array(4, 4),
                                 m::make_systolic_mapping(dataflow_of(f), 4, 4));
    for (const auto& t : r.tensors) {
      INFO(m::to_string(dataflow_of(f)) << " tensor " << t.name);
      const bool is_stationary = t.name == stationary[index];
      CHECK((t.temporal_reuse_volume > 0) == is_stationary);
      CHECK((t.spatial_reuse_volume > 0) == !is_stationary);
    }
    ++index;
  }
}
