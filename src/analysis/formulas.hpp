// The closed-form part of the TENET convention: metrics derived from counts.
#pragma once

#include <vector>

#include "tenet/analysis/tenet_metrics.hpp"

namespace tenet::analysis::detail {

// Exact cardinalities of the metric sets for one problem size.
struct TensorCounts {
  Integer accesses;        // |A_X ∩ D|
  Integer data;            // |A^st_X|
  Integer temporal_reuse;  // |A^st_X ∩ (N_T ; A^st_X)|
  Integer spatial_reuse;   // |A^st_X ∩ (N_S ; A^st_X)|
  Integer both_reuse;      // |both of the above|
};

struct Counts {
  Integer instances;          // |D|
  Integer space_time_points;  // |ST_D|
  Integer time_stamps;        // |T_D|
  Integer active_pes;         // |P_D|
  std::vector<TensorCounts> tensors;
};

// num / den as a double; +infinity when den = 0 < num, 0 when num = 0.
double ratio(const Integer& num, const Integer& den);

Multiplicity multiplicity(const Integer& instances, const Integer& space_time_points);

// Volumes and reuse of one access from its counts (N = N_T ∪ N_S, so
// Unique = |A^st| - |reuse_T ∪ reuse_S| by inclusion-exclusion).
TensorMetrics tensor_metrics(const workload::Access& access, const TensorCounts& counts,
                             const Integer& instances);

// floor(MACs / ActivePE), or floor(MACs / floor(|ST| / |T|)).
Integer compute_delay(const Integer& macs, const Integer& active_pes,
                      const Integer& space_time_points, const Integer& time_stamps,
                      ComputeDelayConvention convention);

// floor(bits / bandwidth) + latency - 1  [cycles].
Integer transfer_delay(const Integer& bits, long long bandwidth_bits_per_cycle,
                       long long avg_latency_cycles);

// Σ bits_X × Unique_X over the accesses of this kind  [bits].
Integer unique_bits(const std::vector<TensorMetrics>& tensors, workload::AccessKind kind);

// The TENET delay: compute (by `convention`), ingress from the unique volume of the reads,
// egress from the writes, total = the maximum (communication overlapped with compute).
Delay delay(const Integer& macs, const Counts& counts, const std::vector<TensorMetrics>& tensors,
            const arch::Architecture& arch, ComputeDelayConvention convention);

// MACs + Σ_X (l1 × 2 × Total_X + l2 × 2 × Unique_X)  [MAC-energy units].
double energy(const Integer& macs, const std::vector<TensorMetrics>& tensors,
              const EnergyConstants& constants);

}  // namespace tenet::analysis::detail
