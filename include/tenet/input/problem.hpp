// What one analysis needs, as loaded from input files: the workload, the architecture, the
// mapping, and the analysis settings a spec may carry (a CLI flag overrides them).
#pragma once

#include <optional>
#include <string>

#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/arch/architecture.hpp"
#include "tenet/mapping/mapping.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::input {

struct Problem {
  workload::Workload workload;
  arch::Architecture architecture;
  mapping::Mapping mapping;
  std::optional<analysis::Neighbourhood> neighbourhood;           // unset: TENET default
  std::optional<analysis::ComputeDelayConvention> compute_delay;  // unset: active PEs
};

// "active" / "active-pes" -> kActivePes, "avg" / "avg-active-pes" -> kAvgActivePes;
// otherwise InputError(unknown-name) with an empty file and where.
analysis::ComputeDelayConvention parse_compute_delay(const std::string& name);

// Analysis options: the defaults, overridden by what the problem carries.
analysis::Options analysis_options(const Problem& problem);

}  // namespace tenet::input
