#include "tenet/input/problem.hpp"

#include "tenet/error.hpp"

namespace tenet::input {

analysis::ComputeDelayConvention parse_compute_delay(const std::string& name) {
  if (name == "active" || name == "active-pes") return analysis::ComputeDelayConvention::kActivePes;
  if (name == "avg" || name == "avg-active-pes")
    return analysis::ComputeDelayConvention::kAvgActivePes;
  throw InputError(error_code::kUnknownName, "", "",
                   "unknown compute-delay convention \"" + name + "\", expected active or avg");
}

analysis::Options analysis_options(const Problem& problem) {
  analysis::Options options;
  if (problem.neighbourhood) options.neighbourhood = *problem.neighbourhood;
  if (problem.compute_delay) options.compute_delay = *problem.compute_delay;
  return options;
}

}  // namespace tenet::input
