#include "sweep/point_evaluator.hpp"

#include <atomic>
#include <functional>

#include "llm/model_report.hpp"
#include "llm/scheme_comparison.hpp"
#include "poly/parse.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/llm/generation.hpp"
#include "tenet/mapping/systolic.hpp"

namespace tenet::sweep {
namespace {

constexpr std::size_t kAcceleratorCache = 64;

std::size_t mix(std::size_t h, std::uint64_t v) {
  return h ^ (std::hash<std::uint64_t>{}(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

// Thrown out of the cost model when a layer cannot be evaluated; becomes the point's error.
struct LayerFailure {
  std::string message;
};

// A GEMM whose sizes are the isl parameters M, N, K (bounded so that the workload is finite).

RelationMetrics relation_of(const analysis::Report& r) {
  RelationMetrics m;
  m.delay = r.delay.total;
  m.energy = r.energy;
  for (const analysis::TensorMetrics& t : r.tensors) {
    m.unique_volume += t.unique_volume;
    m.total_volume += t.total_volume;
  }
  return m;
}

void add_scaled(RelationMetrics& sum, const RelationMetrics& one, const Integer& times) {
  sum.delay += one.delay * times;
  sum.energy += one.energy * times.get_d();
  sum.unique_volume += one.unique_volume * times;
  sum.total_volume += one.total_volume * times;
}

}  // namespace

std::size_t RelationKeyHash::operator()(const RelationKey& k) const {
  std::size_t h = 0;
  for (std::uint64_t v : {std::uint64_t(k.arch), std::uint64_t(k.dataflow), std::uint64_t(k.m),
                          std::uint64_t(k.n), std::uint64_t(k.k)})
    h = mix(h, v);
  return h;
}

bool operator==(const PointMetrics& a, const PointMetrics& b) {
  return a.status == b.status && a.error == b.error && a.matmuls == b.matmuls &&
         a.calls == b.calls && a.macs == b.macs && a.cycles == b.cycles && a.seconds == b.seconds &&
         a.energy_pj == b.energy_pj && a.dram_bytes == b.dram_bytes &&
         a.sram_bytes == b.sram_bytes && a.utilization == b.utilization && a.bound == b.bound &&
         a.tokens_per_second == b.tokens_per_second && a.bounds == b.bounds &&
         a.relation == b.relation && a.request == b.request;
}

PointEvaluator::PointEvaluator(const SweepPlan& plan, SweepMemo* memo) : plan_(plan), memo_(memo) {
  for (const QuantChoice& q : plan_.quants())
    schemes_.push_back(std::make_shared<const quant::QuantSpec>(q.spec));
}
PointEvaluator::~PointEvaluator() = default;

const std::shared_ptr<const arch::Accelerator>& PointEvaluator::accelerator(
    std::size_t arch_index) {
  auto found = accelerators_.find(arch_index);
  if (found != accelerators_.end()) return found->second;
  if (accelerators_.size() >= kAcceleratorCache) accelerators_.clear();
  return accelerators_
      .emplace(arch_index,
               std::make_shared<const arch::Accelerator>(plan_.accelerator_spec(arch_index)))
      .first->second;
}

eval::Request PointEvaluator::layer_request(const SweepPoint& point, const llm::MatmulShape& s) {
  const PointCoords& c = point.coords;
  const TilingValue& t = plan_.tilings()[c.tiling];
  eval::Request r;
  r.matmul = s;
  r.dataflow = plan_.dataflows()[c.dataflow];
  if (!t.automatic) r.tiling = t.tiling;
  r.tiling_objective = t.objective;
  r.scheme = schemes_[c.quant];
  r.dequant_rate.elements_per_cycle = plan_.arch_variant(c.arch).dequant_rate;
  r.hw.edge_transfers = plan_.arch_variant(c.arch).edge_transfers;
  r.accelerator_id = plan_.evaluation_arch(c.arch);
  r.scheme_id = c.quant;
  r.accelerator = accelerator(c.arch);
  return r;
}

namespace {
// One call's cost: eval::evaluate (a fused attention or MLP row of a generation request's model
// pass in its fused-kernel mode).
llm::LayerCost cost_of(const eval::Request& r) { return eval::evaluate(r).call_cost(); }
}  // namespace

LayerOutcome PointEvaluator::layer(const SweepPoint& point, const llm::MatmulShape& s) {
  const eval::Request r = layer_request(point, s);
  auto compute = [&]() -> LayerOutcome {
    ++stats_.layer_evaluations;
    try {
      return {cost_of(r), ""};
    } catch (const InputError& e) {
      return {std::nullopt, (e.where().empty() ? "" : e.where() + ": ") + e.message()};
    }
  };
  ++stats_.layer_requests;
  if (!memo_) return compute();
  return memo_->layers.get(r, compute);
}

RelationOutcome PointEvaluator::relation(const SweepPoint& point, const llm::MatmulShape& s) {
  const PointCoords& c = point.coords;
  const mapping::Dataflow dataflow = plan_.dataflows()[c.dataflow];
  auto compute = [&]() -> RelationOutcome {
    ++stats_.relation_evaluations;
    try {
      auto key = std::make_pair(c.arch, static_cast<int>(dataflow));
      auto found = analyzers_.find(key);
      if (found == analyzers_.end()) {
        const arch::Accelerator& acc = *accelerator(c.arch);
        found =
            analyzers_
                .emplace(key, analysis::Analyzer(
                                  mapping::make_parametric_gemm_workload(), acc.architecture(),
                                  mapping::make_systolic_mapping(dataflow, acc.rows(), acc.cols())))
                .first;
      }
      return {relation_of(found->second.evaluate({{"M", s.m}, {"N", s.n}, {"K", s.k}})), ""};
    } catch (const InputError& e) {
      return {std::nullopt, "relation-centric: " + e.message()};
    }
  };
  ++stats_.relation_requests;
  if (!memo_) return compute();
  return memo_->relations.get(RelationKey{c.arch, dataflow, s.m, s.n, s.k}, compute);
}

// The request through llm::evaluate_request, as `tenet generate` evaluates it: every distinct
// matmul by eval::evaluate (memoized), the non-matmul operators on the vector unit, memory and
// parallelism. evaluate_request evaluates matmuls on several threads: the cost model below
// touches only the shared (thread-safe) memo and its own atomic counters.
PointMetrics PointEvaluator::request(const SweepPoint& point) {
  const WorkloadInstance& w = plan_.workloads()[point.coords.workload];
  const PointCoords& c = point.coords;
  const std::shared_ptr<const arch::Accelerator> acc = accelerator(c.arch);
  llm::MatmulShape probe;
  const eval::Request base = layer_request(point, probe);
  std::atomic<std::uint64_t> requests{0}, evaluations{0};
  SweepMemo* memo = memo_;
  llm::CostModel model;
  model.clock_hz = plan_.arch_variant(c.arch).clock_mhz * 1e6;
  model.prefetch_across_matmuls =
      base.hw.edge_transfers && acc->spec().dram.prefetch_across_matmuls;
  model.evaluate = [&base, &requests, &evaluations, memo](const llm::MatmulShape& s) {
    eval::Request r = base;
    r.matmul = s;
    auto compute = [&]() -> LayerOutcome {
      ++evaluations;
      try {
        return {cost_of(r), ""};
      } catch (const InputError& e) {
        return {std::nullopt, (e.where().empty() ? "" : e.where() + ": ") + e.message()};
      }
    };
    ++requests;
    const LayerOutcome o = memo ? memo->layers.get(r, compute) : compute();
    if (!o.cost) throw LayerFailure{s.name + ": " + o.error};
    return *o.cost;
  };
  PointMetrics out;
  try {
    llm::RequestOptions options = w.request;
    options.pass.fused_mlp = acc->spec().chip.fuse_mlp;  // as `tenet generate`
    const llm::RequestReport report =
        llm::evaluate_request(*w.request_model, options, model, *acc, *schemes_[c.quant]);
    RequestMetrics q;
    q.ttft_seconds = report.ttft_seconds;
    q.tpot_seconds = report.tpot_seconds;
    q.e2e_seconds = report.e2e_seconds;
    q.tokens_per_second = report.tokens_per_second;
    q.fits = report.memory.fits;
    q.max_batch = report.memory.max_batch;
    q.memory_bytes = report.memory.per_chip_bytes;
    out.seconds = report.e2e_seconds;
    out.tokens_per_second = report.tokens_per_second;
    for (const auto& kind : report.ops) out.dram_bytes += kind.second.dram_bytes;
    out.request = q;
  } catch (const LayerFailure& f) {
    out = PointMetrics{};
    out.status = "error";
    out.error = f.message;
  } catch (const InputError& e) {
    out = PointMetrics{};
    out.status = "error";
    out.error = (e.where().empty() ? "" : e.where() + ": ") + e.message();
  }
  stats_.layer_requests += requests;
  stats_.layer_evaluations += evaluations;
  return out;
}

PointMetrics PointEvaluator::evaluate(const SweepPoint& point) {
  const WorkloadInstance& w = plan_.workloads()[point.coords.workload];
  if (w.request_model) return request(point);
  PointMetrics out;
  out.matmuls = static_cast<std::int64_t>(w.matmuls.size());
  llm::CostModel model;
  model.clock_hz = plan_.arch_variant(point.coords.arch).clock_mhz * 1e6;
  model.evaluate = [&](const llm::MatmulShape& s) {
    LayerOutcome o = layer(point, s);
    if (!o.cost) throw LayerFailure{s.name + ": " + o.error};
    return *o.cost;
  };
  llm::ReportContext context;
  context.tokens = w.tokens;
  try {
    const llm::ModelReport report = llm::build_model_report(w.matmuls, model, context);
    const llm::ReportTotals& t = report.totals;
    out.calls = t.calls, out.macs = t.macs, out.cycles = t.cycles;
    out.seconds = t.seconds, out.energy_pj = t.energy_pj;
    out.dram_bytes = t.dram_bytes, out.sram_bytes = t.sram_bytes;
    out.bounds = t.bounds;
    out.utilization = t.utilization;
    out.bound = llm::dominant_bound(report).bound;
    out.tokens_per_second = t.tokens_per_second;
  } catch (const LayerFailure& f) {
    PointMetrics failed;
    failed.status = "error";
    failed.error = f.message;
    failed.matmuls = out.matmuls;
    return failed;
  }
  if (plan_.spec().relation_centric) {
    RelationMetrics sum;
    for (const llm::MatmulShape& s : w.matmuls) {
      const RelationOutcome r = relation(point, s);
      if (!r.metrics) {
        out.status = "error";
        out.error = s.name + ": " + r.error;
        return out;
      }
      add_scaled(sum, *r.metrics,
                 Integer(static_cast<long>(s.count)) * Integer(static_cast<long>(s.batch)));
    }
    out.relation = sum;
  }
  return out;
}

}  // namespace tenet::sweep
