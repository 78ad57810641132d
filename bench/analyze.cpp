// Speed of the full TENET metric set (analysis::analyze) on LLM-sized GEMMs, split into the isl
// set algebra (Analyzer construction) and the counting (Analyzer::evaluate), plus the per-shape
// cost of a parametric Analyzer and the counting engine against isl's enumeration at 128³.
//
//   build-*/bench/bench_analyze --benchmark_filter=. (medians of 15 repetitions, in ms)
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <isl/set.h>

#include "analysis/analyzer.hpp"
#include "analysis/metric_sets.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/poly/context.hpp"

namespace {

using namespace tenet;

struct Problem {
  workload::Workload workload;
  arch::Architecture arch;
  mapping::Mapping mapping;
};

Problem gemm(long long m, long long n, long long k, mapping::Dataflow flow, long long pes) {
  return {mapping::make_gemm_workload({m, n, k}), mapping::make_systolic_array(pes, pes),
          mapping::make_systolic_mapping(flow, pes, pes)};
}

// The GEMM with its sizes as isl parameters M, N, K (bounded, so that the workload validates).
Problem parametric_gemm(mapping::Dataflow flow, long long pes) {
  Problem p = gemm(1, 1, 1, flow, pes);
  const isl::ctx ctx = poly::thread_context().get();
  const isl::set domain(ctx,
                        "[M,N,K] -> { S[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K and "
                        "1 <= M <= 1048576 and 1 <= N <= 1048576 and 1 <= K <= 1048576 }");
  p.workload = workload::Workload("gemm M×N×K", domain, p.workload.accesses());
  return p;
}

// Counting without the engine's per-thread memo, so that repeated iterations pay full price.
analysis::Options cold() {
  analysis::Options o;
  o.count.memoize = false;
  return o;
}

mapping::Dataflow flow_of(int64_t index) { return static_cast<mapping::Dataflow>(index); }

void set_label(benchmark::State& state, long long m, long long n, long long k, int64_t flow) {
  state.SetLabel(fmt::format("{}x{}x{} {} 16x16", m, n, k, mapping::to_string(flow_of(flow))));
}

// Arguments: M, N, K, dataflow (0 os, 1 ws, 2 is).
void BM_analyze(benchmark::State& state) {
  const Problem p =
      gemm(state.range(0), state.range(1), state.range(2), flow_of(state.range(3)), 16);
  for (auto _ : state)
    benchmark::DoNotOptimize(analysis::analyze(p.workload, p.arch, p.mapping, cold()));
  set_label(state, state.range(0), state.range(1), state.range(2), state.range(3));
}

void BM_set_algebra(benchmark::State& state) {
  const Problem p =
      gemm(state.range(0), state.range(1), state.range(2), flow_of(state.range(3)), 16);
  for (auto _ : state)
    benchmark::DoNotOptimize(analysis::Analyzer(p.workload, p.arch, p.mapping, cold()));
  set_label(state, state.range(0), state.range(1), state.range(2), state.range(3));
}

void BM_counting(benchmark::State& state) {
  const Problem p =
      gemm(state.range(0), state.range(1), state.range(2), flow_of(state.range(3)), 16);
  const analysis::Analyzer analyzer(p.workload, p.arch, p.mapping, cold());
  for (auto _ : state) benchmark::DoNotOptimize(analyzer.evaluate());
  set_label(state, state.range(0), state.range(1), state.range(2), state.range(3));
}

// One parametric Analyzer per dataflow, evaluated at a new shape each iteration.
void BM_parametric_evaluate(benchmark::State& state) {
  const Problem p = parametric_gemm(flow_of(state.range(0)), 16);
  const analysis::Analyzer analyzer(p.workload, p.arch, p.mapping, cold());
  const long long shapes[][3] = {{4096, 11008, 4096},
                                 {4000, 11008, 4095},
                                 {1, 4096, 4096},
                                 {8192, 128000, 4096},
                                 {17, 4099, 333}};
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& s = shapes[i++ % 5];
    benchmark::DoNotOptimize(analyzer.evaluate({{"M", s[0]}, {"N", s[1]}, {"K", s[2]}}));
  }
  state.SetLabel(
      fmt::format("{} 16x16, 5 shapes in turn", mapping::to_string(flow_of(state.range(0)))));
}

void BM_parametric_set_algebra(benchmark::State& state) {
  const Problem p = parametric_gemm(flow_of(state.range(0)), 16);
  for (auto _ : state)
    benchmark::DoNotOptimize(analysis::Analyzer(p.workload, p.arch, p.mapping, cold()));
  state.SetLabel(fmt::format("{} 16x16", mapping::to_string(flow_of(state.range(0)))));
}

// The metric sets of a 128³ GEMM on 16×16, counted by the engine or by isl's enumeration.
std::vector<isl::set> metric_sets_128(int64_t flow) {
  const Problem p = gemm(128, 128, 128, flow_of(flow), 16);
  const auto sets = analysis::detail::build_metric_sets(p.workload, p.arch, p.mapping, {});
  std::vector<isl::set> out{sets.domain, sets.space_time.points, sets.space_time.time_stamps,
                            sets.space_time.active_pes};
  for (const auto& t : sets.tensors)
    for (const isl::set& s : {t.accesses, t.data, t.temporal_reuse, t.spatial_reuse, t.both_reuse})
      out.push_back(s);
  return out;
}

void BM_count_128_engine(benchmark::State& state) {
  const auto sets = metric_sets_128(state.range(0));
  for (auto _ : state)
    for (const isl::set& s : sets) benchmark::DoNotOptimize(poly::count(s, cold().count));
  state.SetLabel(
      fmt::format("{} sets, {} 16x16", sets.size(), mapping::to_string(flow_of(state.range(0)))));
}

void BM_count_128_isl(benchmark::State& state) {
  const auto sets = metric_sets_128(state.range(0));
  for (auto _ : state)
    for (const isl::set& s : sets) benchmark::DoNotOptimize(poly::count_by_enumeration(s));
  state.SetLabel(
      fmt::format("{} sets, {} 16x16", sets.size(), mapping::to_string(flow_of(state.range(0)))));
}

void shapes(benchmark::internal::Benchmark* b) {
  for (int64_t flow : {0, 1, 2}) b->Args({4096, 11008, 4096, flow});
  b->Args({4000, 11008, 4095, 1});
  b->Repetitions(15)->ReportAggregatesOnly(true)->Unit(benchmark::kMillisecond);
}

void flows(benchmark::internal::Benchmark* b) {
  for (int64_t flow : {0, 1, 2}) b->Arg(flow);
  b->Repetitions(15)->ReportAggregatesOnly(true)->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_analyze)->Apply(shapes);
BENCHMARK(BM_set_algebra)->Apply(shapes);
BENCHMARK(BM_counting)->Apply(shapes);
BENCHMARK(BM_parametric_set_algebra)->Apply(flows);
BENCHMARK(BM_parametric_evaluate)->Apply(flows);
BENCHMARK(BM_count_128_engine)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_count_128_isl)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
