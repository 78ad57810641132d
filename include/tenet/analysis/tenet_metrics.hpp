// The TENET-compatible metric set: volumes, reuse, PE activity, delay and energy, per tensor and
// overall, all exact integer-point counts (see docs/model.md for every definition and unit).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "tenet/arch/architecture.hpp"
#include "tenet/mapping/mapping.hpp"
#include "tenet/poly/count.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::analysis {

using poly::Integer;

// Which (PE, time stamp) points count as neighbours of (q, t) when deciding whether data can be
// reused instead of fetched from the scratchpad. A PE q reuses from a PE p when p reaches q in
// 1..hops interconnect hops (the interconnect is source -> destination), or p = q; the time is t
// (same_time) or prev(t) (prev_time), prev(t) being the lexicographically largest OCCUPIED time
// stamp before t. (q, t) itself is never its own neighbour.
// TENET default: one hop, same and previous time stamp.
struct Neighbourhood {
  int hops = 1;           // interconnect hops composed (0 = same PE only); must be >= 0
  bool same_time = true;  // neighbours at the same time stamp
  bool prev_time = true;  // neighbours at the previous occupied time stamp
  friend bool operator==(const Neighbourhood& a, const Neighbourhood& b) {
    return a.hops == b.hops && a.same_time == b.same_time && a.prev_time == b.prev_time;
  }
  friend bool operator!=(const Neighbourhood& a, const Neighbourhood& b) { return !(a == b); }
};

// Energy constants of the TENET convention (in MAC-energy units, taken from MAESTRO).
struct EnergyConstants {
  double l1_per_access = 1.68;
  double l2_per_access = 18.61;
  friend bool operator==(const EnergyConstants& a, const EnergyConstants& b) {
    return a.l1_per_access == b.l1_per_access && a.l2_per_access == b.l2_per_access;
  }
};

enum class ComputeDelayConvention {
  kActivePes,     // floor(MACs / ActivePE)            (TENET master)
  kAvgActivePes,  // floor(MACs / floor(AvgActivePE))  (TENET tutorial branch)
};
const char* to_string(ComputeDelayConvention c);  // "active-pes", "avg-active-pes"

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
  Integer total_volume;           // |A_X ∩ D|: (instance, element) pairs          [elements]
  Integer space_time_volume;      // |A^st_X|: distinct (PE, time stamp, element)   [elements]
  Integer unique_volume;          // |A^st_X \ (N ; A^st_X)|: from the scratchpad   [elements]
  Integer temporal_reuse_volume;  // Total - |A^st_X \ (N_T ; A^st_X)|               [elements]
  Integer spatial_reuse_volume;   // |A^st_X ∩ (N_S ; A^st_X)|                       [elements]
  double reuse_factor = 0;        // total / unique (+infinity when unique = 0)
  double temporal_reuse = 0;      // temporal_reuse_volume / |D|   [elements per instance]
  double spatial_reuse = 0;       // spatial_reuse_volume / |D|    [elements per instance]

  friend bool operator==(const TensorMetrics& a, const TensorMetrics& b);
  friend bool operator!=(const TensorMetrics& a, const TensorMetrics& b) { return !(a == b); }
};

struct Delay {
  // In cycles (TENET convention: time stamps are not cycles, communication fully overlapped).
  Integer compute, ingress, egress, total;
  friend bool operator==(const Delay& a, const Delay& b) {
    return a.compute == b.compute && a.ingress == b.ingress && a.egress == b.egress &&
           a.total == b.total;
  }
};

struct Multiplicity {
  Integer instances;          // |D|
  Integer space_time_points;  // |Θ(D)|
  bool injective = true;      // one instance per (PE, time stamp): |D| = |Θ(D)|
  double average = 1;         // instances / space_time_points
  friend bool operator==(const Multiplicity& a, const Multiplicity& b) {
    return a.instances == b.instances && a.space_time_points == b.space_time_points &&
           a.injective == b.injective && a.average == b.average;
  }
};

struct Report {
  Integer macs;               // |D| × MACs per instance
  Integer time_stamps;        // |T_D|
  Integer active_pes;         // |P_D|
  double avg_active_pes = 0;  // |ST_D| / |T_D|
  Delay delay;
  double energy = 0;  // MAC-energy units
  Multiplicity multiplicity;
  std::vector<TensorMetrics>
      tensors;  // in workload access order (a tensor read and written appears once per kind)
  poly::CountReport counting;  // which counting strategies were used (not part of ==)

  friend bool operator==(const Report& a, const Report& b);
  friend bool operator!=(const Report& a, const Report& b) { return !(a == b); }
};

std::ostream& operator<<(std::ostream& os, const TensorMetrics& t);
std::ostream& operator<<(std::ostream& os, const Report& r);

// Validates the mapping against the workload and the architecture and computes the full metric
// set. Pure: no I/O. Throws InputError:
//   partial-mapping  the mapping is not defined on every domain point (the message holds the
//                    missing points as an isl set);
//   space            map tuples that do not fit the statement / the PE domain;
//   range            instances placed outside the PE domain (the message holds those PEs),
//                    hops < 0, an empty domain;
//   missing-field    an empty (default-constructed) input, or inputs with isl parameters (use
//                    analysis::Analyzer to give them values).
// (That the maps are functions is an invariant of mapping::Mapping.) `where` is a JSON pointer
// of the spec format: /mapping/space, /mapping/time, /workload/domain, /neighbourhood/hops.
// Equivalent to Analyzer(workload, arch, mapping, options).evaluate().
Report analyze(const workload::Workload& workload, const arch::Architecture& arch,
               const mapping::Mapping& mapping, const Options& options = {});

}  // namespace tenet::analysis
