#include "tenet/analysis/analyzer.hpp"

#include <utility>

#include "analysis/formulas.hpp"
#include "analysis/metric_sets.hpp"
#include "analysis/parameters.hpp"
#include "analysis/validation.hpp"
#include "tenet/error.hpp"

namespace tenet::analysis {
namespace {

std::vector<std::string> input_parameters(const workload::Workload& workload,
                                          const arch::Architecture& arch,
                                          const mapping::Mapping& mapping) {
  std::vector<isl::map> maps{arch.interconnect(), mapping.space_map(), mapping.time_map()};
  for (const workload::Access& a : workload.accesses()) maps.push_back(a.relation);
  return detail::parameter_names({workload.domain(), arch.pe_domain()}, maps);
}

// Counts every metric set for one problem size. |A^st_X| = |A_X ∩ D| when Θ is injective on D
// (|D| = |Θ(D)|), and the intersection of two reuse sets is empty when one of them is.
detail::Counts count_metric_sets(const detail::MetricSets& sets, const detail::ParameterFix& shape,
                                 const poly::CountOptions& options, poly::CountReport* report) {
  auto count = [&](const isl::set& set) { return poly::count(shape.apply(set), options, report); };
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
    c.both_reuse = (c.temporal_reuse == 0 || c.spatial_reuse == 0) ? Integer(0) : count(t.both_reuse);
    n.tensors.push_back(std::move(c));
  }
  return n;
}

void require_instances(const Integer& instances, const detail::ParameterFix& shape) {
  if (instances > 0) return;
  throw InputError(error_code::kRange, "", "/domain",
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

// The set algebra, in order: check the inputs, find what the mapping leaves out, then build the
// space-time view, the neighbourhood and the per-tensor reuse sets (metric_sets.cpp).
Analyzer::Analyzer(const workload::Workload& workload, const arch::Architecture& arch,
                   const mapping::Mapping& mapping, const Options& options)
    : impl_(std::make_unique<Impl>()) {
  impl_->workload = workload;
  impl_->arch = arch;
  impl_->options = options;
  detail::check_options(options);                                        // 1. options
  detail::check_spaces(workload, arch, mapping);                          // 2. tuples, functions
  impl_->parameters = input_parameters(workload, arch, mapping);          // 3. problem sizes
  impl_->gaps = detail::find_mapping_gaps(workload, arch, mapping);       // 4. mapping coverage
  if (impl_->parameters.empty())
    detail::check_mapping_gaps(impl_->gaps, detail::ParameterFix({}, {}));
  impl_->sets = detail::build_metric_sets(workload, arch, mapping,        // 5. metric sets
                                          options.neighbourhood);
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

// The metrics for one problem size, in order: fix the sizes, validate the mapping for them,
// count, then derive multiplicity → activity → volumes and reuse → delay → energy.
Report Analyzer::evaluate(const ParameterValues& values) const {
  const Impl& a = *impl_;
  const detail::ParameterFix shape(a.parameters, values);                 // 1. problem size
  if (!a.parameters.empty()) detail::check_mapping_gaps(a.gaps, shape);   // 2. mapping coverage
  Report r;
  const detail::Counts n =                                                // 3. counting
      count_metric_sets(a.sets, shape, a.options.count, &r.counting);
  require_instances(n.instances, shape);
  r.multiplicity = detail::multiplicity(n.instances, n.space_time_points);  // 4. multiplicity
  r.macs = n.instances * static_cast<long>(a.workload.macs_per_instance());                // 5. activity
  r.time_stamps = n.time_stamps;
  r.active_pes = n.active_pes;
  r.avg_active_pes = detail::ratio(n.space_time_points, n.time_stamps);
  const auto& accesses = a.workload.accesses();                           // 6. volumes, reuse
  for (std::size_t i = 0; i < accesses.size(); ++i)
    r.tensors.push_back(detail::tensor_metrics(accesses[i], n.tensors[i], n.instances));
  r.delay.compute = detail::compute_delay(r.macs, n.active_pes, n.space_time_points,  // 7. delay
                                          n.time_stamps, a.options.compute_delay);
  r.delay.ingress = detail::transfer_delay(detail::unique_bits(r.tensors, workload::AccessKind::kRead),
                                           a.arch.bandwidth_bits_per_cycle(), a.arch.avg_latency_cycles());
  r.delay.egress = detail::transfer_delay(detail::unique_bits(r.tensors, workload::AccessKind::kWrite),
                                          a.arch.bandwidth_bits_per_cycle(), a.arch.avg_latency_cycles());
  r.delay.total = std::max({r.delay.compute, r.delay.ingress, r.delay.egress});
  r.energy = detail::energy(r.macs, r.tensors, a.options.energy);         // 8. energy
  return r;
}

Report analyze(const workload::Workload& workload, const arch::Architecture& arch,
               const mapping::Mapping& mapping, const Options& options) {
  return Analyzer(workload, arch, mapping, options).evaluate();
}

}  // namespace tenet::analysis
