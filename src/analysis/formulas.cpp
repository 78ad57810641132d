#include "analysis/formulas.hpp"

#include <algorithm>
#include <limits>

#include "tenet/error.hpp"

namespace tenet::analysis::detail {

double ratio(const Integer& num, const Integer& den) {
  if (num == 0) return 0;
  if (den == 0) return std::numeric_limits<double>::infinity();
  return mpq_class(num, den).get_d();
}

Multiplicity multiplicity(const Integer& instances, const Integer& space_time_points) {
  Multiplicity m;
  m.instances = instances;
  m.space_time_points = space_time_points;
  m.injective = instances == space_time_points;
  m.average = ratio(instances, space_time_points);
  return m;
}

TensorMetrics tensor_metrics(const workload::Access& access, const TensorCounts& n,
                             const Integer& instances) {
  TensorMetrics t;
  t.name = access.tensor;
  t.kind = access.kind;
  t.role = access.role;
  t.bits = access.bits;
  t.total_volume = n.accesses;
  t.space_time_volume = n.data;
  t.unique_volume = n.data - n.temporal_reuse - n.spatial_reuse + n.both_reuse;
  t.temporal_reuse_volume = n.accesses - (n.data - n.temporal_reuse);
  t.spatial_reuse_volume = n.spatial_reuse;
  if (t.unique_volume < 0 || t.temporal_reuse_volume < 0)
    throw InternalError("inconsistent counts for tensor " + access.tensor);
  t.reuse_factor = ratio(t.total_volume, t.unique_volume);
  t.temporal_reuse = ratio(t.temporal_reuse_volume, instances);
  t.spatial_reuse = ratio(t.spatial_reuse_volume, instances);
  return t;
}

Integer compute_delay(const Integer& macs, const Integer& active_pes,
                      const Integer& space_time_points, const Integer& time_stamps,
                      ComputeDelayConvention convention) {
  Integer divisor = active_pes;
  if (convention == ComputeDelayConvention::kAvgActivePes) {
    divisor = 0;
    if (time_stamps > 0)
      mpz_fdiv_q(divisor.get_mpz_t(), space_time_points.get_mpz_t(), time_stamps.get_mpz_t());
  }
  if (divisor <= 0) throw InternalError("compute delay: no active PE");
  Integer delay;
  mpz_fdiv_q(delay.get_mpz_t(), macs.get_mpz_t(), divisor.get_mpz_t());
  return delay;
}

Integer transfer_delay(const Integer& bits, long long bandwidth_bits_per_cycle,
                       long long avg_latency_cycles) {
  Integer cycles;
  mpz_fdiv_q(cycles.get_mpz_t(), bits.get_mpz_t(),
             Integer(static_cast<long>(bandwidth_bits_per_cycle)).get_mpz_t());
  return cycles + Integer(static_cast<long>(avg_latency_cycles)) - 1;
}

Integer unique_bits(const std::vector<TensorMetrics>& tensors, workload::AccessKind kind) {
  Integer bits = 0;
  for (const TensorMetrics& t : tensors)
    if (t.kind == kind) bits += t.unique_volume * t.bits;
  return bits;
}

Delay delay(const Integer& macs, const Counts& counts, const std::vector<TensorMetrics>& tensors,
            const arch::Architecture& arch, ComputeDelayConvention convention) {
  Delay d;
  d.compute = compute_delay(macs, counts.active_pes, counts.space_time_points, counts.time_stamps,
                            convention);
  d.ingress = transfer_delay(unique_bits(tensors, workload::AccessKind::kRead),
                             arch.bandwidth_bits_per_cycle(), arch.avg_latency_cycles());
  d.egress = transfer_delay(unique_bits(tensors, workload::AccessKind::kWrite),
                            arch.bandwidth_bits_per_cycle(), arch.avg_latency_cycles());
  d.total = std::max({d.compute, d.ingress, d.egress});
  return d;
}

double energy(const Integer& macs, const std::vector<TensorMetrics>& tensors,
              const EnergyConstants& constants) {
  Integer l1 = 0, l2 = 0;  // accesses: 2 per element of Total (L1), 2 per element of Unique (L2)
  for (const TensorMetrics& t : tensors) {
    l1 += 2 * t.total_volume;
    l2 += 2 * t.unique_volume;
  }
  return macs.get_d() + constants.l1_per_access * l1.get_d() + constants.l2_per_access * l2.get_d();
}

}  // namespace tenet::analysis::detail
