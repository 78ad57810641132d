// The isl set algebra of the analysis: every set whose cardinality defines a metric, built once
// (possibly parametric in the problem sizes) and counted per evaluation.
#pragma once

#include <isl/cpp.h>

#include <vector>

#include "tenet/analysis/tenet_metrics.hpp"

namespace tenet::analysis::detail {

// The mapped domain seen in space-time.
struct SpaceTime {
  isl::map theta;        // S -> [PE -> T], restricted to D
  isl::set points;       // ST_D = Θ(D), wrapped [PE -> T]
  isl::set time_stamps;  // T_D
  isl::set active_pes;   // P_D
};

// Neighbour relations on [PE -> T] points, from the point that needs data to the point that may
// hold it.
struct Neighbours {
  isl::map temporal;  // N_T: (q, t) -> (q, prev t)
  isl::map spatial;   // N_S: (q, t) -> (p, t'), p -> q in 1..hops hops, p ≠ q, t' ∈ {t, prev t}
};

// Per access relation A_X.
struct TensorSets {
  isl::set accesses;        // wrap(A_X ∩ D): (instance, element)
  isl::set data;            // wrap(A^st_X): (PE, time stamp, element)
  isl::set temporal_reuse;  // wrap(A^st_X ∩ (N_T ; A^st_X))
  isl::set spatial_reuse;   // wrap(A^st_X ∩ (N_S ; A^st_X))
  isl::set both_reuse;      // temporal_reuse ∩ spatial_reuse
};

struct MetricSets {
  isl::set domain;  // D
  SpaceTime space_time;
  std::vector<TensorSets> tensors;  // in workload access order
};

SpaceTime build_space_time(const isl::set& domain, const mapping::Mapping& mapping);

// Θ^-1 : [PE -> T] -> S. When Θ is injective on D it is computed as an explicit affine function
// (no local variables, which keeps every later composition cheap); otherwise as the plain
// reverse relation.
isl::map inverse_space_time(const isl::map& theta);

// t -> prev(t), the lexicographically largest occupied time stamp before t.
isl::map previous_time_stamp(const isl::set& time_stamps);

// q -> p for every PE p whose data reaches q in 1..hops interconnect hops, q itself excluded.
isl::map remote_sources(const arch::Architecture& arch, int hops);

Neighbours build_neighbours(const arch::Architecture& arch, const SpaceTime& space_time,
                            const Neighbourhood& neighbourhood);

TensorSets build_tensor_sets(const isl::map& access, const isl::set& domain,
                             const isl::map& theta_inverse, const Neighbours& neighbours);

MetricSets build_metric_sets(const workload::Workload& workload, const arch::Architecture& arch,
                             const mapping::Mapping& mapping, const Neighbourhood& neighbourhood);

}  // namespace tenet::analysis::detail
