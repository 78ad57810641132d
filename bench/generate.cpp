// A whole generation request end to end (report::render_generate, the code `tenet generate`
// runs): Llama-3-8B, a 2048-token prompt then 256 generated tokens at batch 8 on the default
// accelerator, q4f16_1 and q0f16. Target: <= 0.5 s per request (issue 24). The decode steps share
// every matmul whose shape does not change with the context (the weight matmuls are evaluated
// once per distinct shape); only the attention matmuls are evaluated per context.
//
//   bench_generate
#include <benchmark/benchmark.h>

#include <string>

#include "report/generate_report.hpp"

namespace {

void BM_generate(benchmark::State& state, const char* quant, long tp) {
  tenet::report::GenerateRequest r;
  r.model = std::string(TENET_SOURCE_DIR) + "/workloads/models/llama-3-8b.json";
  r.options.prompt = 2048;
  r.options.tokens = 256;
  r.options.batch = 8;
  r.options.tp = tp;
  r.cost.quant = quant;
  for (auto _ : state)
    benchmark::DoNotOptimize(tenet::report::render_generate(r, tenet::io::ReportFormat::kJson));
}

BENCHMARK_CAPTURE(BM_generate, llama3_8b_2048_256_b8_q4f16_1, "q4f16_1", 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_generate, llama3_8b_2048_256_b8_q0f16, "q0f16", 1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_generate, llama3_8b_2048_256_b8_q4f16_1_tp2, "q4f16_1", 2)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
