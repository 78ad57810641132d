// Speed of a fused-kernel evaluation (eval::evaluate_kernel: the blocking search, each distinct
// matmul tile through eval::evaluate) on Llama-3-8B shapes, scalable-32x32, q0f16. Target: <= 1 ms
// each (issue 36).
//
//   build/bench/bench_kernel --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "tenet/eval/kernel.hpp"

#include <benchmark/benchmark.h>

#include "tenet/eval/settings.hpp"

namespace {

using namespace tenet;

eval::KernelRequest request(fused::Kernel k, const char* quant) {
  eval::Settings s;
  s.arch = "scalable-32x32";
  s.quant = quant;
  return {std::move(k), eval::make_request(s), {}};
}

// Arguments: Q (= KV for prefill; 1 for decode with KV 4096).
void BM_fused_attention(benchmark::State& state) {
  const std::int64_t q = state.range(0);
  const eval::KernelRequest r = request(fused::AttentionKernel{32, 8, q, 4096, 128, true}, "q0f16");
  for (auto _ : state) benchmark::DoNotOptimize(eval::evaluate_kernel(r));
  state.SetLabel(q == 1 ? "decode 32,8,1,4096,128" : "prefill 32,8,4096,4096,128 causal");
}
BENCHMARK(BM_fused_attention)->Arg(4096)->Arg(1)->Unit(benchmark::kMillisecond);

// Arguments: S tokens, quantized (1: q4f16_1).
void BM_fused_mlp(benchmark::State& state) {
  const eval::KernelRequest r =
      request(fused::FfnKernel{state.range(0), 4096, 14336, fused::Activation::kSiluGated, false},
              state.range(1) ? "q4f16_1" : "q0f16");
  for (auto _ : state) benchmark::DoNotOptimize(eval::evaluate_kernel(r));
  state.SetLabel(std::string("ffn ") + std::to_string(state.range(0)) + ",4096,14336 " +
                 (state.range(1) ? "q4f16_1" : "q0f16"));
}
BENCHMARK(BM_fused_mlp)->Args({4096, 0})->Args({1, 1})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
