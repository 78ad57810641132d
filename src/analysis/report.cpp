#include <ostream>

#include "tenet/analysis/tenet_metrics.hpp"

namespace tenet::analysis {

const char* to_string(ComputeDelayConvention c) {
  switch (c) {
    case ComputeDelayConvention::kActivePes:
      return "active-pes";
    case ComputeDelayConvention::kAvgActivePes:
      return "avg-active-pes";
  }
  return "?";
}

bool operator==(const TensorMetrics& a, const TensorMetrics& b) {
  return a.name == b.name && a.kind == b.kind && a.role == b.role && a.bits == b.bits &&
         a.total_volume == b.total_volume && a.space_time_volume == b.space_time_volume &&
         a.unique_volume == b.unique_volume && a.temporal_reuse_volume == b.temporal_reuse_volume &&
         a.spatial_reuse_volume == b.spatial_reuse_volume && a.reuse_factor == b.reuse_factor &&
         a.temporal_reuse == b.temporal_reuse && a.spatial_reuse == b.spatial_reuse;
}

bool operator==(const Report& a, const Report& b) {
  return a.macs == b.macs && a.time_stamps == b.time_stamps && a.active_pes == b.active_pes &&
         a.avg_active_pes == b.avg_active_pes && a.delay == b.delay && a.energy == b.energy &&
         a.multiplicity == b.multiplicity && a.tensors == b.tensors;
}

std::ostream& operator<<(std::ostream& os, const TensorMetrics& t) {
  return os << t.name << " (" << workload::to_string(t.kind) << ", " << workload::to_string(t.role)
            << ", " << t.bits << " bits): total " << t.total_volume << ", space-time "
            << t.space_time_volume << ", unique " << t.unique_volume << ", reuse factor "
            << t.reuse_factor << ", temporal reuse " << t.temporal_reuse_volume << " ("
            << t.temporal_reuse << "/instance), spatial reuse " << t.spatial_reuse_volume << " ("
            << t.spatial_reuse << "/instance)";
}

std::ostream& operator<<(std::ostream& os, const Report& r) {
  os << "MACs " << r.macs << ", time stamps " << r.time_stamps << ", active PEs " << r.active_pes
     << ", average active PEs " << r.avg_active_pes << "\ninstances " << r.multiplicity.instances
     << ", space-time points " << r.multiplicity.space_time_points
     << (r.multiplicity.injective ? " (injective)" : " (not injective)") << ", "
     << r.multiplicity.average << " instances per point\ndelay: compute " << r.delay.compute
     << ", ingress " << r.delay.ingress << ", egress " << r.delay.egress << ", total "
     << r.delay.total << " cycles\nenergy " << r.energy << " MAC units";
  for (const TensorMetrics& t : r.tensors) os << "\n  " << t;
  return os;
}

}  // namespace tenet::analysis
