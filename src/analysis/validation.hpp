// Checks of a (workload, architecture, mapping) triple before and during the analysis.
#pragma once

#include <isl/cpp.h>

#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/poly/parameters.hpp"

namespace tenet::analysis::detail {

// Throws InputError (range) for an invalid neighbourhood (hops < 0).
void check_options(const Options& options);

// Inputs that must be present and tuples that must fit. Throws InputError (missing-field,
// space). That the maps are functions is an invariant of mapping::Mapping.
void check_spaces(const workload::Workload& workload, const arch::Architecture& arch,
                  const mapping::Mapping& mapping);

// Domain points the mapping leaves out, and mapped points outside the PE domain; parametric
// when the inputs are.
struct MappingGaps {
  isl::set missing_space;  // D \ dom Θs
  isl::set missing_time;   // D \ dom Θt
  isl::set outside_pes;    // Θs(D) \ PE domain
};
MappingGaps find_mapping_gaps(const workload::Workload& workload, const arch::Architecture& arch,
                              const mapping::Mapping& mapping);

// Throws InputError partial-mapping (naming the missing points as an isl set) or range
// (naming the PE points outside the PE domain) for these parameter values.
void check_mapping_gaps(const MappingGaps& gaps, const poly::ParameterFix& shape);

}  // namespace tenet::analysis::detail
