// Speed of the hardware model on an LLM-shaped layer: GEMM M=2048, N=4096, K=11008 on the
// 128x128 systolic preset, weight stationary, with a buffer-level tiling.
//
//   bench_hw --benchmark_filter=.   (medians over 10 repetitions are printed as *_median)
#include <benchmark/benchmark.h>

#include <string>

#include "tenet/arch/accelerator_json.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"

namespace {

using namespace tenet;

const arch::Accelerator& accelerator() {
  static const arch::Accelerator acc =
      arch::load_accelerator(std::string(TENET_SOURCE_DIR) + "/configs/arch/systolic-128x128.json");
  return acc;
}

const hw::GemmProblem& problem() {
  static const hw::GemmProblem p = hw::make_gemm_problem({2048, 4096, 11008});
  return p;
}

void BM_EvaluateTiledLlmLayer(benchmark::State& state) {
  const mapping::Tiling tiling = mapping::parse_tiling("1024x1024x2048:nmk");
  for (auto _ : state) {
    hw::Result r =
        hw::evaluate_gemm(accelerator(), problem(), mapping::Dataflow::kWeightStationary, tiling);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_EvaluateTiledLlmLayer)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(10)
    ->ReportAggregatesOnly(true);

void BM_EvaluateSearchedTilingLlmLayer(benchmark::State& state) {
  const mapping::Tiling tiling =
      hw::choose_tiling(accelerator(), problem(), mapping::Dataflow::kWeightStationary);
  state.SetLabel("tiling " + mapping::to_string(tiling));
  for (auto _ : state) {
    hw::Result r =
        hw::evaluate_gemm(accelerator(), problem(), mapping::Dataflow::kWeightStationary, tiling);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_EvaluateSearchedTilingLlmLayer)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(10)
    ->ReportAggregatesOnly(true);

void BM_EvaluateUntiledLlmLayer(benchmark::State& state) {
  for (auto _ : state) {
    hw::Result r =
        hw::evaluate_gemm(accelerator(), problem(), mapping::Dataflow::kWeightStationary);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_EvaluateUntiledLlmLayer)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(10)
    ->ReportAggregatesOnly(true);

void BM_ChooseTilingLlmLayer(benchmark::State& state) {
  for (auto _ : state) {
    mapping::Tiling t =
        hw::choose_tiling(accelerator(), problem(), mapping::Dataflow::kWeightStationary);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_ChooseTilingLlmLayer)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
