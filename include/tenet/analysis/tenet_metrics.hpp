// The TENET-compatible metric set: volumes, reuse, PE activity, delay and energy, per tensor and
// overall, all exact integer-point counts (see docs/model.md for every definition).
#pragma once

#include <string>
#include <vector>

#include "tenet/arch/architecture.hpp"
#include "tenet/mapping/mapping.hpp"
#include "tenet/poly/count.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::analysis {

using poly::Integer;

// Which (PE, time stamp) points count as neighbours of (p, t) when deciding whether data can be
// reused instead of fetched from the scratchpad. TENET default: one interconnect hop or the same
// PE, at the same or the previous occupied time stamp (prev = lexicographic predecessor among the
// occupied time stamps), excluding (p, t) itself.
struct Neighbourhood {
  int hops = 1;            // interconnect hops (0 = same PE only)
  bool same_time = true;   // neighbours at the same time stamp
  bool prev_time = true;   // neighbours at the previous occupied time stamp
  friend bool operator==(const Neighbourhood& a, const Neighbourhood& b) {
    return a.hops == b.hops && a.same_time == b.same_time && a.prev_time == b.prev_time;
  }
};

// Energy constants of the TENET convention (in MAC-energy units, taken from MAESTRO).
struct EnergyConstants {
  double l1_per_access = 1.68;
  double l2_per_access = 18.61;
};

enum class ComputeDelayConvention {
  kActivePes,        // floor(MACs / ActivePE)            (TENET master)
  kAvgActivePes,     // floor(MACs / floor(AvgActivePE))  (TENET tutorial branch)
};

struct Options {
  Neighbourhood neighbourhood;
  EnergyConstants energy;
  ComputeDelayConvention compute_delay = ComputeDelayConvention::kActivePes;
  poly::CountOptions count;
};

struct TensorMetrics {
  std::string name;
  workload::AccessKind kind = workload::AccessKind::kRead;
  workload::OperandRole role = workload::OperandRole::kOther;
  int bits = 16;
  Integer total_volume;     // (instance, element) pairs
  Integer unique_volume;    // elements that must come from the scratchpad
  Integer temporal_reuse_volume;  // Total - Unique with the temporal neighbourhood only
  Integer spatial_reuse_volume;   // |A^st ∩ (N_S ; A^st)|
  double reuse_factor = 0;        // total / unique
  double temporal_reuse = 0;      // temporal_reuse_volume / |D|   (per instance)
  double spatial_reuse = 0;       // spatial_reuse_volume / |D|    (per instance)
};

struct Delay {
  Integer compute, ingress, egress, total;  // in cycles (TENET convention: time stamps are not cycles)
};

struct Multiplicity {
  Integer instances;             // |D|
  Integer space_time_points;     // |Θ(D)|
  bool injective = true;         // one instance per (PE, time stamp)
  double average = 1;            // instances / space_time_points
};

struct Report {
  Integer macs;
  Integer time_stamps;           // |T_D|
  Integer active_pes;            // |P_D|
  double avg_active_pes = 0;     // |ST_D| / |T_D|
  Delay delay;
  double energy = 0;             // MAC-energy units
  Multiplicity multiplicity;
  std::vector<TensorMetrics> tensors;  // in workload access order (a tensor read and written appears once per kind)
  poly::CountReport counting;    // which counting strategies were used
};

// Validates the mapping against the workload (defined on every domain point, else InputError
// with code partial-mapping naming the missing points as an isl set; spaces must match) and
// computes the full metric set. Pure: no I/O.
Report analyze(const workload::Workload& workload, const arch::Architecture& arch,
               const mapping::Mapping& mapping, const Options& options = {});

}  // namespace tenet::analysis
