#include "analysis/metric_sets.hpp"

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>

namespace tenet::analysis::detail {
namespace {

// The space of relations [PE -> T] -> [PE -> T].
isl::space neighbour_space(const SpaceTime& space_time) {
  return space_time.points.space().map_from_set();
}

// τ: the time stamps a neighbour may hold data at, relative to t.
isl::map neighbour_times(const SpaceTime& space_time, const isl::map& prev,
                         const Neighbourhood& neighbourhood) {
  isl::map times = isl::map::empty(space_time.time_stamps.space().map_from_set());
  if (neighbourhood.same_time) times = times.unite(space_time.time_stamps.identity());
  if (neighbourhood.prev_time) times = times.unite(prev);
  return times;
}

}  // namespace

SpaceTime build_space_time(const isl::set& domain, const mapping::Mapping& mapping) {
  SpaceTime st;
  st.theta = mapping.space_map().range_product(mapping.time_map()).intersect_domain(domain);
  st.points = st.theta.range();
  const isl::map pe_to_time = st.points.unwrap();
  st.time_stamps = pe_to_time.range();
  st.active_pes = pe_to_time.domain();
  return st;
}

isl::map inverse_space_time(const isl::map& theta) {
  isl::map inverse = theta.reverse();
  isl_pw_multi_aff* function = isl_pw_multi_aff_from_map(inverse.copy());
  if (!function) {  // not single-valued: Θ is not injective on D
    isl_ctx_reset_error(inverse.ctx().get());
    return inverse;
  }
  return isl::manage(isl_map_from_pw_multi_aff(function));
}

isl::map previous_time_stamp(const isl::set& time_stamps) {
  isl::map earlier = isl::manage(isl_set_lex_gt_set(time_stamps.copy(), time_stamps.copy()));
  return earlier.lexmax();
}

isl::map remote_sources(const arch::Architecture& arch, int hops) {
  const isl::map back = arch.interconnect().reverse();  // destination -> source
  isl::map reach = isl::map::empty(back.space());
  isl::map step = back;
  for (int h = 1; h <= hops && !step.is_subset(reach); ++h) {
    reach = reach.unite(step).coalesce();
    step = step.apply_range(back);
  }
  return reach.subtract(arch.pe_domain().identity()).coalesce();
}

Neighbours build_neighbours(const arch::Architecture& arch, const SpaceTime& space_time,
                            const Neighbourhood& neighbourhood) {
  Neighbours n{isl::map::empty(neighbour_space(space_time)),
               isl::map::empty(neighbour_space(space_time))};
  const bool any_time = neighbourhood.same_time || neighbourhood.prev_time;
  const isl::map prev = neighbourhood.prev_time
                            ? previous_time_stamp(space_time.time_stamps)
                            : isl::map::empty(space_time.time_stamps.space().map_from_set());
  if (neighbourhood.prev_time) n.temporal = arch.pe_domain().identity().product(prev);
  if (neighbourhood.hops > 0 && any_time)
    n.spatial = remote_sources(arch, neighbourhood.hops)
                    .product(neighbour_times(space_time, prev, neighbourhood));
  return n;
}

TensorSets build_tensor_sets(const isl::map& access, const isl::set& domain,
                             const isl::map& theta_inverse, const Neighbours& neighbours) {
  TensorSets t;
  t.accesses = access.intersect_domain(domain).wrap();
  const isl::map data = theta_inverse.apply_range(access);  // [PE -> T] -> X
  t.data = data.wrap();
  const isl::map temporal = data.intersect(neighbours.temporal.apply_range(data));
  const isl::map spatial = data.intersect(neighbours.spatial.apply_range(data));
  t.temporal_reuse = temporal.wrap();
  t.spatial_reuse = spatial.wrap();
  t.both_reuse = temporal.intersect(spatial).wrap();
  return t;
}

MetricSets build_metric_sets(const workload::Workload& workload, const arch::Architecture& arch,
                             const mapping::Mapping& mapping, const Neighbourhood& neighbourhood) {
  MetricSets sets;
  sets.domain = workload.domain();
  sets.space_time = build_space_time(sets.domain, mapping);
  const Neighbours neighbours = build_neighbours(arch, sets.space_time, neighbourhood);
  const isl::map theta_inverse = inverse_space_time(sets.space_time.theta);
  for (const workload::Access& access : workload.accesses())
    sets.tensors.push_back(
        build_tensor_sets(access.relation, sets.domain, theta_inverse, neighbours));
  return sets;
}

}  // namespace tenet::analysis::detail
