// Sweep throughput (docs/sweep.md#performance).
//
//   BM_layer/<dataflow>/<tiling>   one eval::evaluate call per iteration, cycling over the
//                                  distinct matmuls of Llama-2-7B prefill (prompt 2048) and decode
//                                  (context 2048), q4f16_1 on scalable-32x32; no memo. Counter
//                                  evals_per_s_per_core = evaluations / CPU second.
//   BM_layer_sauria/<tiling>       the same on the calibrated SAURIA preset sauria-int8-8x16 (the
//                                  microarchitecture path, docs/hardware.md §3b), int8 x int8 ->
//                                  int32, os; tiling 0 = 64x64x128:knm (one bank each), 1 = auto.
//   BM_sweep/<memo>                a sweep (1 thread): Llama-2-7B prefill (512, 2048) and decode
//                                  (256..2048) x 3 dataflows x 4 schemes x 2 clocks, auto tiling,
//                                  with and without the memo: points, eval::evaluate calls and
//                                  layer costs per CPU second.
//   BM_whole_model                 the issue's figure: Llama-2-7B prefill + decode, all layers,
//                                  4 schemes x 3 dataflows, 2 threads (wall time).
//   BM_choose_tiling/<df>/<obj>    hw::choose_tiling alone on the same 14 quantized problems
//                                  (q4f16_1, scalable-32x32): searches per CPU second, candidates
//                                  and timed candidates per search; obj 0 = latency, 1 = energy.
#include <benchmark/benchmark.h>

#include <ctime>
#include <string>
#include <vector>

#include "llama_shapes.hpp"
#include "sweep/sweep_plan.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_spec.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/quant/quant_json.hpp"

namespace {

using namespace tenet;

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

std::vector<llm::MatmulShape> llama_shapes() {
  std::vector<llm::MatmulShape> shapes;
  for (const auto& [phase, s] : tenet_bench::llama_shapes()) shapes.push_back(s);
  return shapes;
}

const mapping::Dataflow kFlows[] = {mapping::Dataflow::kOutputStationary,
                                    mapping::Dataflow::kWeightStationary,
                                    mapping::Dataflow::kInputStationary};

// One eval::evaluate per iteration, cycling over `shapes`; counter evals_per_s_per_core.
void evaluate_shapes(benchmark::State& state, eval::Request request,
                     const std::vector<llm::MatmulShape>& shapes) {
  std::size_t i = 0;
  const double cpu0 = cpu_seconds();
  for (auto _ : state) {
    request.matmul = shapes[i];
    benchmark::DoNotOptimize(eval::evaluate(request).call_cost());
    i = (i + 1) % shapes.size();
  }
  const double cpu = cpu_seconds() - cpu0;
  state.counters["evals_per_s_per_core"] = state.iterations() / cpu;
}

// range(0): dataflow; range(1): 0 = fixed tiling 512x512x512, 1 = auto (hw::choose_tiling).
void BM_layer(benchmark::State& state) {
  const arch::Accelerator acc = arch::load_accelerator_preset("scalable-32x32");
  const quant::QuantSpec scheme = quant::load_preset("q4f16_1");
  const std::vector<llm::MatmulShape> shapes = llama_shapes();
  eval::Request request;
  request.accelerator = std::make_shared<const arch::Accelerator>(acc);
  request.scheme = std::make_shared<const quant::QuantSpec>(scheme);
  request.dataflow = kFlows[state.range(0)];
  if (state.range(1) == 0) request.tiling = mapping::Tiling{512, 512, 512};
  evaluate_shapes(state, request, shapes);
  state.SetLabel(std::string(mapping::to_string(request.dataflow)) +
                 (request.tiling ? " 512^3" : " auto"));
}
BENCHMARK(BM_layer)->ArgsProduct({{0, 1, 2}, {0, 1}})->Unit(benchmark::kMicrosecond);

// range(0): 0 = fixed tiling 64x64x128:knm, 1 = auto.
void BM_layer_sauria(benchmark::State& state) {
  const std::vector<llm::MatmulShape> shapes = llama_shapes();
  eval::Request request;
  request.accelerator =
      std::make_shared<const arch::Accelerator>(arch::load_accelerator_preset("sauria-int8-8x16"));
  request.bits = {8, 8, 32};
  request.dataflow = mapping::Dataflow::kOutputStationary;
  if (state.range(0) == 0) request.tiling = mapping::parse_tiling("64x64x128:knm", "");
  evaluate_shapes(state, request, shapes);
  state.SetLabel(request.tiling ? "os 64x64x128:knm" : "os auto");
}
BENCHMARK(BM_layer_sauria)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

sweep::SweepPlan plan_of(const std::string& text) {
  sweep::SweepSpec spec = sweep::parse_sweep_spec(
      nlohmann::json::parse(text), std::string(TENET_SOURCE_DIR) + "/workloads/sweeps/bench.json");
  return sweep::make_sweep_plan(spec);
}

// Reuse a real sweep offers: decode at several context lengths shares every weight matmul (only
// the attention matmuls change), and the clock axis changes no cycle or energy count.
const char* kReuseSweep = R"({
  "architectures": {"presets": ["scalable-32x32"], "clock_mhz": [800, 1000]},
  "dataflows": ["os", "ws", "is"],
  "quant": ["q0f16", "q4f16_1", "smoothquant_w8a8", "e4m3_e4m3_f16"],
  "workloads": [{"model": "../models/llama-2-7b.json", "phase": ["prefill", "decode"],
                 "prompt": [512, 2048], "context": [256, 512, 1024, 2048]}]
})";

// range(0): 1 = memo, 0 = none.
void BM_sweep(benchmark::State& state) {
  const sweep::SweepPlan plan = plan_of(kReuseSweep);
  sweep::RunOptions options;
  options.memo = state.range(0) == 1;
  std::uint64_t points = 0, evaluations = 0, requests = 0;
  const double cpu0 = cpu_seconds();
  for (auto _ : state) {
    const sweep::RunSummary s = sweep::run_sweep(plan, options, [](const sweep::SweepRow&) {});
    points += s.written, evaluations += s.layer_evaluations, requests += s.layer_requests;
  }
  const double cpu = cpu_seconds() - cpu0;
  state.counters["points"] = static_cast<double>(plan.size());
  state.counters["points_per_cpu_s"] = points / cpu;
  state.counters["evaluations_per_cpu_s"] = evaluations / cpu;
  state.counters["layer_costs_per_cpu_s"] = requests / cpu;
  state.SetLabel(options.memo ? "memo" : "no memo");
}
BENCHMARK(BM_sweep)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->Iterations(1);

const char* kWholeModel = R"({
  "architectures": {"presets": ["scalable-32x32"]},
  "dataflows": ["os", "ws", "is"],
  "quant": ["q0f16", "q4f16_1", "smoothquant_w8a8", "e4m3_e4m3_f16"],
  "workloads": [{"model": "../models/llama-2-7b.json", "phase": ["prefill", "decode"],
                 "prompt": 2048, "context": 2048}]
})";

void BM_whole_model(benchmark::State& state) {
  const sweep::SweepPlan plan = plan_of(kWholeModel);
  sweep::RunOptions options;
  options.threads = 2;
  std::uint64_t evaluations = 0, requests = 0;
  for (auto _ : state) {
    const sweep::RunSummary s = sweep::run_sweep(plan, options, [](const sweep::SweepRow&) {});
    evaluations = s.layer_evaluations, requests = s.layer_requests;
  }
  state.counters["points"] = static_cast<double>(plan.size());
  state.counters["evaluations"] = static_cast<double>(evaluations);
  state.counters["layer_costs"] = static_cast<double>(requests);
}
BENCHMARK(BM_whole_model)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// range(0): dataflow; range(1): 0 = latency, 1 = energy objective.
void BM_choose_tiling(benchmark::State& state) {
  const arch::Accelerator acc = arch::load_accelerator_preset("scalable-32x32");
  const quant::QuantSpec scheme = quant::load_preset("q4f16_1");
  std::vector<hw::GemmProblem> problems;
  for (const llm::MatmulShape& s : llama_shapes()) {
    const eval::AppliedScheme a = eval::apply_quantization(scheme, s);
    problems.push_back(quant::make_quant_problem(acc, {s.m, s.n, s.k}, a.spec, a.apply));
  }
  const mapping::Dataflow flow = kFlows[state.range(0)];
  hw::TilingSearchStats stats;
  hw::TilingSearchOptions options;
  options.objective =
      state.range(1) == 0 ? hw::TilingObjective::kLatency : hw::TilingObjective::kEnergy;
  options.stats = &stats;
  long long candidates = 0, timed = 0;
  std::size_t i = 0;
  const double cpu0 = cpu_seconds();
  for (auto _ : state) {
    benchmark::DoNotOptimize(hw::choose_tiling(acc, problems[i], flow, {}, options));
    candidates += stats.candidates, timed += stats.evaluated;
    i = (i + 1) % problems.size();
  }
  const double cpu = cpu_seconds() - cpu0;
  const double n = static_cast<double>(state.iterations());
  state.counters["searches_per_s_per_core"] = n / cpu;
  state.counters["candidates_per_search"] = candidates / n;
  state.counters["timed_per_search"] = timed / n;
  state.SetLabel(std::string(mapping::to_string(flow)) + " " + hw::to_string(options.objective));
}
BENCHMARK(BM_choose_tiling)->ArgsProduct({{0, 1, 2}, {0, 1}})->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
