// The latency search on BM_layer's problems, one search each (docs/sweep.md#performance): per
// problem the candidates generated, planned and timed and the tiling chosen. Fixed work, so its
// instruction count is comparable between builds:
//   valgrind --tool=callgrind --toggle-collect='*hw::choose_tiling*' \
//     build/bench/bench_search_probe scalable-32x32 ws decode
// Arguments (all optional): accelerator preset (scalable-32x32), dataflow (os, ws, is or all),
// phase (prefill, decode or all), rounds R: instead of the searches, R rounds of BM_layer's
// auto-tiled eval::evaluate over the problems (the instructions of one evaluation:
//   valgrind --tool=callgrind --toggle-collect='tenet::eval::evaluate(*' \
//     build/bench/bench_search_probe scalable-32x32 is all R
// for two values of R, the difference over the evaluations between them).
#include <cstdio>
#include <string>
#include <vector>

#include "llama_shapes.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;

int main(int argc, char** argv) {
  const std::string preset = argc > 1 ? argv[1] : "scalable-32x32";
  const std::string flow_filter = argc > 2 ? argv[2] : "all";
  const std::string phase_filter = argc > 3 ? argv[3] : "all";
  const arch::Accelerator acc = arch::load_accelerator_preset(preset);
  const quant::QuantSpec scheme = quant::load_preset("q4f16_1");
  const std::vector<std::pair<std::string, llm::MatmulShape>> shapes = tenet_bench::llama_shapes();
  const int rounds = argc > 4 ? std::stoi(argv[4]) : 0;
  for (const mapping::Dataflow flow :
       {mapping::Dataflow::kOutputStationary, mapping::Dataflow::kWeightStationary,
        mapping::Dataflow::kInputStationary}) {
    if (flow_filter != "all" && flow_filter != mapping::to_string(flow)) continue;
    for (const auto& [phase, s] : shapes) {
      if (phase_filter != "all" && phase_filter != phase) continue;
      if (rounds > 0) {
        eval::Request request;
        request.accelerator = std::make_shared<const arch::Accelerator>(acc);
        request.scheme = std::make_shared<const quant::QuantSpec>(scheme);
        request.dataflow = flow;
        request.matmul = s;
        double sum = 0;
        for (int r = 0; r < rounds; ++r) sum += eval::evaluate(request).call_cost().energy_pj;
        std::printf("%s %-7s %-22s %.0f\n", mapping::to_string(flow), phase.c_str(), s.name.c_str(),
                    sum);
        continue;
      }
      const eval::AppliedScheme applied = eval::apply_quantization(scheme, s);
      const hw::GemmProblem problem =
          quant::make_quant_problem(acc, {s.m, s.n, s.k}, applied.spec, applied.apply);
      hw::TilingSearchStats stats;
      hw::TilingSearchOptions options;
      options.stats = &stats;
      const mapping::Tiling best = hw::choose_tiling(acc, problem, flow, {}, options);
      std::printf(
          "%s %-7s %-22s %6lldx%6lldx%6lld candidates %6lld planned %4lld timed %3lld  %s\n",
          mapping::to_string(flow), phase.c_str(), s.name.c_str(), static_cast<long long>(s.m),
          static_cast<long long>(s.n), static_cast<long long>(s.k), stats.candidates, stats.planned,
          stats.evaluated, mapping::to_string(best).c_str());
    }
  }
  return 0;
}
