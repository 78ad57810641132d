#include "analysis/analyzer.hpp"

#include <isl/set.h>

#include <utility>

#include "analysis/formulas.hpp"
#include "analysis/metric_sets.hpp"
#include "analysis/validation.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/parameters.hpp"

namespace tenet::analysis {
namespace {

std::vector<std::string> input_parameters(const workload::Workload& workload,
                                          const arch::Architecture& arch,
                                          const mapping::Mapping& mapping) {
  std::vector<isl::map> maps{arch.interconnect(), mapping.space_map(), mapping.time_map()};
  for (const workload::Access& a : workload.accesses()) maps.push_back(a.relation);
  return poly::parameter_names({workload.domain(), arch.pe_domain()}, maps);
}

// Constraints implied by the others (LP redundancy) removed. Fixing the sizes and composing
// with prev() leave such constraints behind; coupled ones (e.g. t <= 8108 - 16 t') can make the
// counting engine enumerate thousands of slices instead of using a closed form.
isl::set without_redundancies(const isl::set& set) {
  return isl::manage(isl_set_remove_redundancies(set.copy()));
}

// Counts every metric set for one problem size. |A^st_X| = |A_X ∩ D| when Θ is injective on D
// (|D| = |Θ(D)|), and the intersection of two reuse sets is empty when one of them is.
detail::Counts count_metric_sets(const detail::MetricSets& sets, const poly::ParameterFix& shape,
                                 const poly::CountOptions& options, poly::CountReport* report) {
  auto count = [&](const isl::set& set) {
    return poly::count(without_redundancies(shape.apply(set)), options, report);
  };
  detail::Counts n;
  n.instances = count(sets.domain);
  n.space_time_points = count(sets.space_time.points);
  n.time_stamps = count(sets.space_time.time_stamps);
  n.active_pes = count(sets.space_time.active_pes);
  const bool injective = n.instances == n.space_time_points;
  for (const detail::TensorSets& t : sets.tensors) {
    detail::TensorCounts c;
    c.accesses = count(t.accesses);
    c.data = injective ? c.accesses : count(t.data);
    c.temporal_reuse = count(t.temporal_reuse);
    c.spatial_reuse = count(t.spatial_reuse);
    c.both_reuse =
        (c.temporal_reuse == 0 || c.spatial_reuse == 0) ? Integer(0) : count(t.both_reuse);
    n.tensors.push_back(std::move(c));
  }
  return n;
}

void require_instances(const Integer& instances, const poly::ParameterFix& shape) {
  if (instances > 0) return;
  throw InputError(error_code::kRange, "", "/workload/domain",
                   "expected a non-empty iteration domain" +
                       (shape.empty() ? std::string() : " for " + shape.describe()));
}

}  // namespace

struct Analyzer::Impl {
  workload::Workload workload;
  arch::Architecture arch;
  Options options;
  std::vector<std::string> parameters;
  detail::MappingGaps gaps;
  detail::MetricSets sets;
};

// The set algebra, in order (each step named; details in validation.cpp and metric_sets.cpp).
Analyzer::Analyzer(const workload::Workload& workload, const arch::Architecture& arch,
                   const mapping::Mapping& mapping, const Options& options)
    : impl_(std::make_unique<Impl>()) {
  Impl& a = *impl_;
  // 1. options and inputs: present, tuples that fit
  detail::check_options(options);
  detail::check_spaces(workload, arch, mapping);
  a.workload = workload;
  a.arch = arch;
  a.options = options;
  // 2. problem sizes: the isl parameters of the inputs
  a.parameters = input_parameters(workload, arch, mapping);
  // 3. mapping coverage: missing domain points, PEs outside the PE domain (checked now when
  //    there are no parameters, else per evaluation)
  a.gaps = detail::find_mapping_gaps(workload, arch, mapping);
  if (a.parameters.empty()) detail::check_mapping_gaps(a.gaps, poly::ParameterFix({}, {}));
  // 4. metric sets: space-time view, neighbourhood, per-tensor reuse sets
  a.sets = detail::build_metric_sets(workload, arch, mapping, options.neighbourhood);
}

Analyzer::~Analyzer() = default;
Analyzer::Analyzer(Analyzer&&) noexcept = default;
Analyzer& Analyzer::operator=(Analyzer&&) noexcept = default;
Analyzer::Analyzer(const Analyzer& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
Analyzer& Analyzer::operator=(const Analyzer& other) {
  if (this != &other) impl_ = std::make_unique<Impl>(*other.impl_);
  return *this;
}

std::vector<std::string> Analyzer::parameters() const { return impl_->parameters; }

// The metrics for one problem size, as an ordered list of named steps.
Report Analyzer::evaluate(const ParameterValues& values) const {
  const Impl& a = *impl_;
  Report r;
  // 1. problem size
  const poly::ParameterFix shape(a.parameters, values);
  // 2. mapping coverage for this size
  if (!a.parameters.empty()) detail::check_mapping_gaps(a.gaps, shape);
  // 3. counting: the exact cardinality of every metric set
  const detail::Counts n = count_metric_sets(a.sets, shape, a.options.count, &r.counting);
  require_instances(n.instances, shape);
  // 4. multiplicity: instances per (PE, time stamp)
  r.multiplicity = detail::multiplicity(n.instances, n.space_time_points);
  // 5. activity: MACs, time stamps, PEs
  r.macs = n.instances * static_cast<long>(a.workload.macs_per_instance());
  r.time_stamps = n.time_stamps;
  r.active_pes = n.active_pes;
  r.avg_active_pes = detail::ratio(n.space_time_points, n.time_stamps);
  // 6. volumes and reuse, per tensor
  for (std::size_t i = 0; i < a.workload.accesses().size(); ++i)
    r.tensors.push_back(
        detail::tensor_metrics(a.workload.accesses()[i], n.tensors[i], n.instances));
  // 7. delay: compute, ingress (reads), egress (writes), overlapped
  r.delay = detail::delay(r.macs, n, r.tensors, a.arch, a.options.compute_delay);
  // 8. energy
  r.energy = detail::energy(r.macs, r.tensors, a.options.energy);
  return r;
}

Report analyze(const workload::Workload& workload, const arch::Architecture& arch,
               const mapping::Mapping& mapping, const Options& options) {
  return Analyzer(workload, arch, mapping, options).evaluate();
}

}  // namespace tenet::analysis
