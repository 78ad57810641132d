// The evaluation pipeline: one function, evaluate(), lists the stages in the order they run;
// each stage is a named function below it. Stages live here and nowhere else: a command that
// needs a number asks evaluate() for it.
#include "tenet/eval/pipeline.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "detail/exact.hpp"
#include "hw/misfit.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/quant/apply.hpp"

namespace tenet::eval {
namespace {

using poly::Integer;

// ---- resolve inputs --------------------------------------------------------------------------

void resolve_inputs(const Request& r) {
  if (r.problem) return;
  if (!r.accelerator) throw InternalError("eval::evaluate: a matmul request needs an accelerator");
  const llm::MatmulShape& s = r.matmul;
  if (s.batch < 1)
    throw InputError(error_code::kRange, "", s.name.empty() ? "matmul" : s.name,
                     "expected batch >= 1, got " + std::to_string(s.batch));
  try {
    mapping::check_gemm_shape(gemm_shape(s));
  } catch (const InputError& e) {  // placed on the matmul, which names M, N or K
    if (s.name.empty() || s.name == "gemm") throw;
    throw InputError(e.code(), "", s.name, e.message());
  }
}

// ---- build the workload (relation-centric view) ---------------------------------------------

// The GEMM as isl relations, with its quantization tensors; B is indexed B[k, j].
workload::Workload build_workload(const Request& r, const std::optional<AppliedScheme>& s) {
  workload::Workload w =
      mapping::make_gemm_workload(gemm_shape(r.matmul), r.bits, r.matmul.accumulate);
  if (!s) return w;
  quant::ApplyOptions apply = s->apply;
  apply.b_layout = workload::Layout::kNN;
  return quant::apply(w, s->spec, apply);
}

// ---- choose the mapping ------------------------------------------------------------------------

// No tile of the search space keeps the residency and bank rules of the accelerator's
// microarchitecture: an error naming the matmul (the layer, its sizes), the scheme and the operands
// the smallest tile cannot hold, with their sizes (never --tile: the user gave no tile).
[[noreturn]] void no_tile_fits(const Request& r, const hw::GemmProblem& p,
                               const std::optional<AppliedScheme>& s, const mapping::Tiling& tile,
                               const hw::Misfit& m) {
  const llm::MatmulShape& x = r.matmul;
  const std::string scheme = s ? "scheme " + s->spec.name
                               : fmt::format("{}/{}/{}-bit operands", r.bits.a, r.bits.b, r.bits.c);
  throw InputError(
      error_code::kRange, "", x.name.empty() ? "matmul" : x.name,
      fmt::format("no tile of the {}x{}x{} matmul (M, N, K) under {} fits the global buffer of "
                  "\"{}\" ({} dataflow): even the smallest tile, {}x{}x{}, does not fit: {}",
                  p.shape.m, p.shape.n, p.shape.k, scheme, r.accelerator->name(),
                  mapping::to_string(r.dataflow), tile.m, tile.n, tile.k, hw::describe(m)));
}

// The tiling given, or the search's choice; `searched`: the search's Result of it when it fits
// (hw::TilingSearchOptions::result: the product stage takes it instead of evaluating it again).
mapping::Tiling choose_mapping(const Request& r, const hw::GemmProblem& p,
                               const std::optional<AppliedScheme>& s, hw::TilingSearchStats& stats,
                               std::optional<hw::Bounds>& bounds,
                               std::optional<hw::Result>& searched) {
  if (r.tiling) return *r.tiling;
  const arch::Accelerator& acc = *r.accelerator;
  const mapping::Tiling chosen =
      hw::choose_tiling(acc, p, r.dataflow, r.hw, {r.tiling_objective, &stats, &bounds, &searched});
  // Only operands that must stay SRAM-resident can make a tiling infeasible; the search prefers
  // any feasible tiling, so the one it returns breaks a rule only when every candidate does.
  if (acc.spec().micro.sram_resident.empty() || r.hw.unlimited_buffer) return chosen;
  if (!hw::tiling_misfit(acc, p, r.dataflow, chosen, r.hw)) return chosen;
  const auto smallest = hw::smallest_tile_misfit(acc, p, r.dataflow, r.hw);
  if (!smallest)
    throw InternalError(
        "eval::choose_mapping: the tiling search chose a tiling that does not fit "
        "though a smaller one does");
  no_tile_fits(r, p, s, smallest->first, smallest->second);
}

// ---- relation-centric analysis ---------------------------------------------------------------

// The untiled systolic mapping of the GEMM on the PE array.
input::Problem relation_problem(const Request& r, workload::Workload w) {
  const arch::Accelerator& acc = *r.accelerator;
  return {std::move(w), r.architecture ? *r.architecture : acc.architecture(),
          mapping::make_systolic_mapping(r.dataflow, acc.rows(), acc.cols()), std::nullopt,
          std::nullopt};
}

analysis::Report analyze_relations(const input::Problem& p, const analysis::Options& options) {
  return analysis::analyze(p.workload, p.architecture, p.mapping, options);
}

// ---- one product ------------------------------------------------------------------------------

// Hardware timing and traffic, quantization counts, the dequant unit, the bound, bytes per tensor
// and energy of one of the `batch` products (quant::evaluate_product); no scheme: the identity
// scheme.
// `stored`: the hardware model's Result of the tiling when the search made it.
quant::ProductResult evaluate_product(const Request& r, const Evaluation& e,
                                      const mapping::Tiling& tiling,
                                      const std::optional<hw::Result>& stored) {
  const quant::ApplyOptions apply = e.scheme ? e.scheme->apply : quant::ApplyOptions{};
  return quant::evaluate_product({*r.accelerator, e.problem, r.dataflow, tiling, r.hw,
                                  e.scheme ? &e.scheme->spec : nullptr, apply, e.dequant_rate,
                                  stored ? &*stored : nullptr});
}

// ---- physical limits -------------------------------------------------------------------------

// The least DRAM traffic and cycles any mapping of the problem as stored could reach on this
// accelerator (docs/model.md#physical-limits), under the request's hardware options. (evaluate
// takes the tiling search's instead when the search computed them: the same call.)
hw::Bounds physical_limits(const Request& r, const hw::GemmProblem& p) {
  return hw::compute_bounds(*r.accelerator, p, r.hw);
}

// ---- TENET timing ----------------------------------------------------------------------------

// TENET timing: no hardware model; every weight is dequantized once.
quant::QuantCosts count_tenet_quantization(const Request& r, const AppliedScheme& s,
                                           const quant::DequantRate& rate) {
  quant::QuantSpec spec = s.spec;
  spec.dequant.elements_per_cycle = rate.elements_per_cycle;
  spec.dequant.ops_per_cycle = rate.ops_per_cycle;
  quant::CostOptions options;
  options.apply = s.apply;
  options.apply.b_layout = workload::Layout::kNN;
  return quant::analyze_quant(mapping::make_gemm_workload(gemm_shape(r.matmul)), spec, options);
}

// ---- energy ----------------------------------------------------------------------------------

// The fused epilogue of a logged kernel: one add at the output type per op and output element.
double epilogue_energy(const llm::MatmulShape& s, const quant::QuantSpec* spec) {
  if (s.epilogue_ops <= 0) return 0;
  const double outputs =
      static_cast<double>(s.batch) * static_cast<double>(s.m) * static_cast<double>(s.n);
  const quant::DataType out = spec ? spec->output.dtype : quant::DataType::fp16();
  return outputs * s.epilogue_ops * quant::OpEnergyTable::defaults_45nm().lookup(out).add_pj;
}

// ---- result ----------------------------------------------------------------------------------

using ::tenet::detail::big;

// MACs x cycles per MAC / (cycles x PE lanes) over the cycles that include the dequant unit.
double utilization(const hw::Result& h, long long cycles) {
  const double lanes = static_cast<double>(h.rows) * static_cast<double>(h.cols) *
                       static_cast<double>(h.macs_per_cycle);
  if (lanes <= 0) return 0;
  const double u = static_cast<double>(h.macs) * static_cast<double>(h.cycles_per_mac) /
                   (static_cast<double>(std::max<long long>(cycles, 1)) * lanes);
  return std::min(u, 1.0);
}

// The cost of one call: `batch` products one after another (cycles, bytes and energy x batch;
// utilization and bound those of one product). With prefetch across matmuls, each product but
// the first loads its first fill in the previous product's idle DRAM-link cycles.
llm::LayerCost layer_cost(const quant::ProductResult& p, const hw::Bounds& bounds,
                          double epilogue_energy_pj, std::int64_t batch, bool prefetch) {
  const Integer b = big(batch);
  const hw::Result& h = p.hw;
  const long long idle = std::max(0LL, p.total_cycles - h.busy.dram);
  const long long hidden = prefetch ? std::min(h.cycles.edge_fill, idle) : 0;
  llm::LayerCost c;
  c.cycles = b * big(p.total_cycles) - (b - 1) * big(hidden);
  c.bound = hw::to_string(p.bound);
  c.utilization = utilization(h, p.total_cycles);
  c.dram_bytes = b * p.dram_bytes;
  c.sram_bytes = b * p.sram_bytes;
  c.energy_pj = static_cast<double>(batch) * p.energy.total() + epilogue_energy_pj;
  c.scheme = p.scheme;
  c.precision_fallback = quant::precision_fallback(p);
  c.array_use = h.array_use;
  c.array_rows = h.rows, c.array_cols = h.cols;
  c.array_note = hw::array_use_note(h.array_use, h.rows, h.cols, p.bound);
  c.bounds = hw::BoundsSum::of(bounds).times(b);
  c.prefetchable_cycles = big(h.cycles.edge_fill);
  c.link_idle_cycles = big(idle);
  return c;
}

}  // namespace

// ---- the pipeline ----------------------------------------------------------------------------

Evaluation evaluate(const Request& r) {
  Evaluation e;
  resolve_inputs(r);
  if (r.matmul.fused_attention || r.matmul.fused_ffn) {  // a fused kernel row of a model pass
    if (r.problem || r.timing == Timing::kTenet)
      throw InputError(error_code::kUsage, "", "timing",
                       r.matmul.name + " is a fused kernel: systolic timing only");
    e.mode = FusedKernel{evaluate_fused_row(r, r.matmul)};
    return e;
  }
  if (r.problem) {  // a loaded problem: the relation-centric analysis is all there is
    e.mode = TenetMetrics{{*r.problem, analyze_relations(*r.problem, r.analysis)}, std::nullopt};
    return e;
  }
  const arch::Accelerator& acc = *r.accelerator;
  if (r.scheme) e.scheme = apply_quantization(*r.scheme, r.matmul);
  std::optional<input::Problem> analyzed;
  if (r.relation_centric || r.timing == Timing::kTenet)
    analyzed = relation_problem(r, build_workload(r, e.scheme));
  e.problem = build_hw_problem(r, e.scheme);
  if (e.scheme && quant::dequantizes(e.scheme->spec))  // at the MAC precision of the problem
    e.dequant_rate = defaults::resolve_dequant_rate(r.dequant_rate, e.scheme->spec, acc, r.dataflow,
                                                    hw::mac_precision(acc, e.problem));
  if (r.timing == Timing::kTenet) {
    TenetMetrics t{{std::move(*analyzed), {}}, std::nullopt};
    t.relations.report = analyze_relations(t.relations.analyzed, r.analysis);
    if (e.scheme) t.quant_counts = count_tenet_quantization(r, *e.scheme, e.dequant_rate);
    e.mode = std::move(t);
    return e;
  }
  SystolicTiming s;
  std::optional<hw::Bounds> bounds;    // the search's physical limits, if it computed them
  std::optional<hw::Result> searched;  // the search's Result of its choice, if it fits
  const mapping::Tiling chosen =
      choose_mapping(r, e.problem, e.scheme, s.tiling_search, bounds, searched);
  if (r.relation_centric) {
    s.relations = RelationCentric{std::move(*analyzed), {}};
    s.relations->report = analyze_relations(s.relations->analyzed, r.analysis);
  }
  s.product = evaluate_product(r, e, chosen, searched);
  s.tiling = s.product.hw.tiling;
  s.bounds = bounds ? *bounds : physical_limits(r, e.problem);
  s.epilogue_energy_pj = epilogue_energy(r.matmul, e.scheme ? &e.scheme->spec : nullptr);
  s.cost = layer_cost(s.product, s.bounds, s.epilogue_energy_pj, r.matmul.batch,
                      acc.spec().dram.prefetch_across_matmuls);
  e.mode = std::move(s);
  return e;
}

const char* Evaluation::mode_name() const {
  return is_systolic()                               ? "systolic timing"
         : std::holds_alternative<FusedKernel>(mode) ? "fused kernel"
                                                     : "TENET metrics";
}

const llm::LayerCost& Evaluation::call_cost() const {
  if (const FusedKernel* f = std::get_if<FusedKernel>(&mode)) return f->cost;
  return systolic().cost;
}

const TenetMetrics& Evaluation::tenet() const {
  if (const TenetMetrics* t = std::get_if<TenetMetrics>(&mode)) return *t;
  throw InternalError(std::string("Evaluation::tenet: a ") + mode_name() +
                      " evaluation has no TENET-metrics mode (a path that needs TENET timing or a "
                      "problem source was given another evaluation)");
}

const SystolicTiming& Evaluation::systolic() const {
  if (const SystolicTiming* s = std::get_if<SystolicTiming>(&mode)) return *s;
  throw InternalError(std::string("Evaluation::systolic: a ") + mode_name() +
                      " evaluation has no single product or tiling on the hardware model (a path "
                      "that needs one matmul's systolic timing was given a TENET-timing "
                      "evaluation, a problem source or a fused kernel)");
}

bool Evaluation::has_relations() const {
  if (std::holds_alternative<TenetMetrics>(mode)) return true;
  const SystolicTiming* s = std::get_if<SystolicTiming>(&mode);
  return s && s->relations.has_value();
}

const RelationCentric& Evaluation::relations() const {
  if (const TenetMetrics* t = std::get_if<TenetMetrics>(&mode)) return t->relations;
  const SystolicTiming& s = systolic();
  if (s.relations) return *s.relations;
  throw InternalError(
      "Evaluation::relations: this systolic-timing evaluation has no relation-centric view (its "
      "request did not set relation_centric)");
}

mapping::GemmShape gemm_shape(const llm::MatmulShape& m) { return {m.m, m.n, m.k}; }

hw::GemmProblem build_hw_problem(const Request& r, const std::optional<AppliedScheme>& s) {
  const mapping::GemmShape shape = gemm_shape(r.matmul);
  hw::GemmProblem p = s ? quant::make_quant_problem(*r.accelerator, shape, s->spec, s->apply)
                        : hw::make_gemm_problem(shape, r.bits);
  if (!s) hw::validate(p);
  p.accumulate = r.matmul.accumulate;  // C = C + A·B: C read before its first update
  return p;
}

}  // namespace tenet::eval
