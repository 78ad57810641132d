// The physical limits and the least-traffic curve (issue 13): the closed-form bound of one GEMM,
// a 32-point ski slope of a 4096x11008x4096 GEMM (bound only, and with the least-traffic mapping
// searched per size over three dataflows), and a whole Llama-2-7B prefill curve. Run:
//   cmake --build build --target bench_bound && build/bench/bench_bound
#include <benchmark/benchmark.h>

#include "tenet/eval/settings.hpp"
#include "tenet/eval/traffic_curve.hpp"
#include "tenet/hw/bounds.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"

using namespace tenet;

namespace {

eval::Request request(const char* quant) {
  eval::Settings s;
  s.quant = quant;
  return eval::make_request(s);
}

llm::MatmulShape gemm(long long m, long long n, long long k) {
  llm::MatmulShape s;
  s.name = "gemm";
  s.m = m, s.n = n, s.k = k;
  return s;
}

void BM_bounds_one_gemm(benchmark::State& state) {
  const eval::Request r = request("q4f16_1");
  const hw::GemmProblem p = hw::make_gemm_problem({4096, 11008, 4096});
  for (auto _ : state) benchmark::DoNotOptimize(hw::compute_bounds(*r.accelerator, p));
}
BENCHMARK(BM_bounds_one_gemm)->Unit(benchmark::kMicrosecond);

// arg 0: bound only; 1: with the least-traffic mapping of three dataflows per size.
void BM_curve_gemm_32_points(benchmark::State& state) {
  const eval::Request r = request("q4f16_1");
  const auto buffers = eval::buffer_sizes(64 << 10, 64 << 20, 32);
  eval::CurveOptions o;
  o.bound_only = state.range(0) == 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(eval::traffic_curve(r, {gemm(4096, 11008, 4096)}, buffers, o));
}
BENCHMARK(BM_curve_gemm_32_points)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_curve_llama2_7b_prefill(benchmark::State& state) {
  const eval::Request r = request("q0f16");
  llm::GenerationOptions g;
  g.phase = llm::Phase::kPrefill;
  g.prompt = 2048;
  const auto matmuls = llm::generate_matmuls(
      llm::load_model_config(std::string(TENET_SOURCE_DIR) + "/workloads/models/llama-2-7b.json"),
      g);
  const auto buffers = eval::buffer_sizes(64 << 10, 64 << 20, 32);
  eval::CurveOptions o;
  o.bound_only = state.range(0) == 0;
  for (auto _ : state) benchmark::DoNotOptimize(eval::traffic_curve(r, matmuls, buffers, o));
}
BENCHMARK(BM_curve_llama2_7b_prefill)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
