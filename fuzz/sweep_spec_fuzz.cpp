// Sweep spec JSON (docs/sweep.md): parse, plan (loads the presets, models and logs it names,
// relative to workloads/sweeps/ as for the bundled examples), evaluate the first and last point.
#include "fuzz_common.hpp"
#include "io/json_reader.hpp"
#include "sweep/point_evaluator.hpp"
#include "sweep/sweep_plan.hpp"
#include "sweep/sweep_point.hpp"
#include "sweep/sweep_spec.hpp"
#include "tenet/input/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tenet;
  const std::string file = std::string(TENET_SOURCE_DIR) + "/workloads/sweeps/fuzz.json";
  fuzz::expect_contract([&] {
    const sweep::SweepPlan plan = sweep::make_sweep_plan(
        sweep::parse_sweep_spec(io::parse_json(fuzz::as_text(data, size), file), file));
    if (plan.size() == 0) return;
    sweep::PointEvaluator evaluator(plan, nullptr);
    for (std::uint64_t index : {std::uint64_t{0}, plan.size() - 1}) {
      const sweep::PointMetrics m = evaluator.evaluate(sweep::make_point(plan, index));
      fuzz::check(m.status == "ok" || m.status == "error", "sweep: status " + m.status);
      if (m.status != "ok") continue;
      if (m.request) {  // a generation request: its timeline, not the matmul-only sums
        fuzz::check(
            m.request->ttft_seconds > 0 && m.request->e2e_seconds >= m.request->ttft_seconds,
            "sweep: a request with TTFT <= 0 or end-to-end time below it");
        continue;
      }
      fuzz::check(m.cycles > 0 && m.macs > 0 && m.calls > 0, "sweep: a count <= 0");
      fuzz::check(
          std::isfinite(m.energy_pj) && std::isfinite(m.seconds) && std::isfinite(m.utilization),
          "sweep: a metric not finite");
    }
  });
  return 0;
}
