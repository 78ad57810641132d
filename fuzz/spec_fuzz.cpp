// The JSON spec (docs/formats.md): parse, build the isl problem, run the TENET analysis.
#include "fuzz_common.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/input/problem.hpp"
#include "tenet/input/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tenet;
  fuzz::expect_contract([&] {
    const input::Spec spec = input::parse_spec_text(fuzz::as_text(data, size), "spec.json");
    const input::Problem p = input::build_problem(spec, "spec.json");
    const analysis::Report r =
        analysis::analyze(p.workload, p.architecture, p.mapping, input::analysis_options(p));
    fuzz::check(r.macs >= 0 && r.time_stamps >= 0 && r.active_pes >= 0, "spec: negative count");
    fuzz::check(std::isfinite(r.energy) && std::isfinite(r.avg_active_pes),
                "spec: energy / avg_active_pes not finite");
  });
  return 0;
}
