// TENET's own files (docs/formats.md): one of .s / .p / .m is the fuzzed input, the other two are
// a small valid GEMM problem from tests/data/errors; read all three and run the analysis.
#pragma once

#include "fuzz_common.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/input/tenet_files.hpp"

namespace tenet::fuzz {

inline void run_tenet_files(const std::uint8_t* data, std::size_t size, char which) {
  const std::string dir = std::string(TENET_SOURCE_DIR) + "/tests/data/errors/";
  const std::string fuzzed = write_input(data, size, std::string("input.") + which);
  expect_contract([&] {
    const workload::Workload w =
        input::read_tenet_statement(which == 's' ? fuzzed : dir + "small_gemm.s");
    const arch::Architecture a = input::read_tenet_pe(which == 'p' ? fuzzed : dir + "small.p");
    const mapping::Mapping m =
        input::read_tenet_mapping(which == 'm' ? fuzzed : dir + "small_os.m");
    const analysis::Report r = analysis::analyze(w, a, m);
    check(r.macs >= 0 && r.time_stamps >= 0 && r.active_pes >= 0, "tenet files: negative count");
    check(std::isfinite(r.energy) && std::isfinite(r.avg_active_pes),
          "tenet files: energy / avg_active_pes not finite");
  });
}

}  // namespace tenet::fuzz
