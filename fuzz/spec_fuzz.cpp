// The JSON spec (docs/formats.md): parse, build the isl problem, run the TENET analysis.
#include "fuzz_common.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/io/problem.hpp"
#include "tenet/io/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tenet;
  fuzz::expect_contract([&] {
    const io::Spec spec = io::parse_spec_text(fuzz::as_text(data, size), "spec.json");
    const io::Problem p = io::build_problem(spec, "spec.json");
    const analysis::Report r =
        analysis::analyze(p.workload, p.architecture, p.mapping, io::analysis_options(p));
    fuzz::check(r.macs >= 0 && r.time_stamps >= 0 && r.active_pes >= 0, "spec: negative count");
    fuzz::check(std::isfinite(r.energy) && std::isfinite(r.avg_active_pes),
                "spec: energy / avg_active_pes not finite");
  });
  return 0;
}
