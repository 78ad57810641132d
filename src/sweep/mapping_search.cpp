#include "sweep/mapping_search.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <tuple>

#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/quant/quant_hw.hpp"

namespace tenet::sweep {
namespace {

using Objective = hw::TilingObjective;

using mapping::Dataflow;
using mapping::Tiling;

struct Pending {
  Candidate candidate;
  double l0_cycles = 0;  // per call
  double l0_objective = 0;
  std::size_t order = 0;  // generation order (ties)
};

struct Bound {
  double seconds = 0, energy = 0;
};

class Search {
 public:
  Search(const arch::Accelerator& acc, const quant::QuantSpec& scheme,
         const llm::MatmulShape& shape, const SearchOptions& options)
      : acc_(acc),
        shape_(shape),
        options_(options),
        base_(base_request(acc, scheme, shape, options)),
        applied_(eval::apply_quantization(scheme, shape)),
        problem_(eval::build_hw_problem(base_, applied_)),
        clock_hz_(acc.spec().clock_mhz * 1e6) {
    out_.shape = shape;
    out_.objective = options.objective;
    const double macs = static_cast<double>(shape.m) * shape.n * shape.k * shape.batch;
    min_energy_ = macs * acc.mac_energy_pj(hw::mac_precision(acc, problem_));
  }

  LayerSearch run() {
    evaluate_built_ins();
    add_tiling_independent_energy();
    std::vector<Pending> pending = generate();
    out_.counts.candidates = pending.size() + out_.built_in.size();
    for (const Pending& p : pending) visit(p);
    finish();
    return std::move(out_);
  }

 private:
  // The objective of a lower bound on seconds and energy (DRAM bytes have no bound here: 0, so
  // that under kDramBytes no candidate is pruned before its full evaluation).
  double objective(double seconds, double energy) const {
    switch (options_.objective) {
      case Objective::kLatency:
        return seconds;
      case Objective::kEnergy:
        return energy;
      case Objective::kEdp:
        return seconds * energy;
      case Objective::kDramBytes:
        return 0;
    }
    return seconds;
  }

  // Can a candidate whose cost is at least `b` still matter?
  bool pruned_by(const Bound& b) const {
    if (!options_.prune) return false;
    if (!options_.exact_front)
      return best_ &&
             objective(b.seconds, b.energy) >= objective(best_->seconds, best_->cost.energy_pj);
    for (const EvaluatedCandidate& e : evaluated_)
      if (e.fits || e.built_in)
        if (e.seconds <= b.seconds && e.cost.energy_pj <= b.energy) return true;
    return false;
  }

  static eval::Request base_request(const arch::Accelerator& acc, const quant::QuantSpec& scheme,
                                    const llm::MatmulShape& shape, const SearchOptions& options) {
    eval::Request r;
    r.matmul = shape;
    r.accelerator = std::make_shared<const arch::Accelerator>(acc);
    r.scheme = std::make_shared<const quant::QuantSpec>(scheme);
    r.dequant_rate.elements_per_cycle = options.dequant_rate;
    return r;
  }

  // The full evaluation (the pipeline) of a dataflow with a tiling (none: the tiling search's).
  eval::Evaluation evaluate_mapping(Dataflow d, const std::optional<Tiling>& t) const {
    eval::Request r = base_;
    r.dataflow = d;
    r.tiling = t;
    return eval::evaluate(r);
  }

  std::optional<EvaluatedCandidate> evaluate(const Candidate& c, bool built_in, bool fits,
                                             const eval::Evaluation* done = nullptr) {
    try {
      const eval::Evaluation e = done ? *done : evaluate_mapping(c.dataflow, c.tiling);
      EvaluatedCandidate x{c, built_in, fits, e.call_cost(), 0, 0};
      x.seconds = x.cost.cycles.get_d() / clock_hz_;
      x.objective = objective_value(options_.objective, x.cost, x.seconds);
      ++out_.counts.evaluated;
      return x;
    } catch (const InputError& err) {
      ++out_.counts.failed;
      if (out_.error.empty()) out_.error = err.message();
      return std::nullopt;
    }
  }

  void keep(const EvaluatedCandidate& x) {
    evaluated_.push_back(x);
    if (!x.fits && !x.built_in) return;
    if (!best_ || better(x, *best_)) best_ = x;
  }

  static bool better(const EvaluatedCandidate& a, const EvaluatedCandidate& b) {
    return std::tie(a.objective, a.seconds, a.cost.energy_pj) <
           std::tie(b.objective, b.seconds, b.cost.energy_pj);
  }

  void evaluate_built_ins() {
    for (Dataflow d : options_.dataflows) {
      std::optional<eval::Evaluation> e;
      try {
        e = evaluate_mapping(d, std::nullopt);
      } catch (const InputError& err) {
        ++out_.counts.failed;
        if (out_.error.empty()) out_.error = err.message();
        continue;
      }
      if (auto x = evaluate({d, e->tiling()}, true, all_resident(e->hw()), &*e)) {
        out_.built_in.push_back(*x);
        keep(*x);
      }
    }
  }

  static bool all_resident(const hw::Result& r) {
    for (const hw::TensorResult& t : r.tensors)
      if (!t.resident) return false;
    return true;
  }

  // The candidates of hw::choose_tiling (hw::tiling_candidates: one candidate space for the
  // tiling search of every command and for this search), per dataflow, in increasing L0 bound.
  std::vector<Pending> generate() {
    std::vector<Pending> out;
    const double batch = static_cast<double>(shape_.batch);
    for (Dataflow d : options_.dataflows)
      for (const Tiling& t : hw::tiling_candidates(acc_, problem_, d)) {
        const Candidate c{d, t};
        if (is_built_in(c)) continue;
        const double cycles =
            batch * static_cast<double>(hw::compute_cycles_floor(acc_, problem_, d, c.tiling));
        out.push_back({c, cycles, objective(cycles / clock_hz_, min_energy_), out.size()});
      }
    std::sort(out.begin(), out.end(), [](const Pending& a, const Pending& b) {
      return std::tie(a.l0_objective, a.order) < std::tie(b.l0_objective, b.order);
    });
    return out;
  }

  bool is_built_in(const Candidate& c) const {
    for (const EvaluatedCandidate& b : out_.built_in)
      if (b.candidate.dataflow == c.dataflow && b.candidate.tiling == c.tiling) return true;
    return false;
  }

  void visit(const Pending& p) {
    if (pruned_by({p.l0_cycles / clock_hz_, min_energy_})) {
      ++out_.counts.pruned_l0;
      return;
    }
    // a tile that breaks a residency or bank rule is never proposed
    const std::optional<hw::Result> fits = hw::evaluate_gemm_if_fits(
        acc_, problem_, p.candidate.dataflow, p.candidate.tiling, base_.hw);
    if (!fits || !all_resident(*fits)) {
      ++out_.counts.too_big;
      return;
    }
    const hw::Result& r = *fits;
    if (pruned_by(l1_bound(r))) {
      ++out_.counts.pruned_l1;
      return;
    }
    if (auto x = evaluate(p.candidate, false, true)) keep(*x);
  }

  // Energy every mapping of this layer spends, whatever its tiling: the quantization work outside
  // the array (epilogue, partial-sum rescaling, zero-point sums, quantization; the fused epilogue
  // of a logged kernel), which depends on counts of the quantized workload only, and the
  // dequantization of every distinct B element at least once (the dequant energy is linear in
  // the elements dequantized: SRAM reads of B, or its DRAM loads, each >= the distinct elements).
  // Added to the L0 and L1 energy bounds; scaled by 1 - 1e-9 against rounding.
  void add_tiling_independent_energy() {
    try {
      // any tiling gives the same figures
      const eval::Evaluation e = evaluate_mapping(options_.dataflows.front(), Tiling{});
      const quant::QuantEnergy& q = e.product().energy;
      const quant::QuantCosts& counts = e.product().counts();
      const quant::QuantOps& ops = counts.ops;
      double dequant = 0;
      if (ops.dequant_elements > 0)
        dequant = q.dequant / ops.dequant_elements.get_d() * counts.tensor("B").elements.get_d();
      const double batch = static_cast<double>(shape_.batch);
      fixed_energy_ = (batch * (q.epilogue + q.rescale + q.zero_sums + q.quantize + dequant) +
                       e.systolic().epilogue_energy_pj) *
                      (1 - 1e-9);
    } catch (const InputError&) {
      fixed_energy_ = 0;  // the candidates report the error themselves
    }
    min_energy_ += fixed_energy_;
  }

  // MAC + SRAM + DRAM energy of the hardware model (the DRAM of weights dequantized into SRAM is
  // counted in their packed format by the full evaluation: left out here) + the register files
  // of A and C + the tiling-independent energy, and its cycles.
  Bound l1_bound(const hw::Result& r) const {
    const bool into_sram = applied_.spec.dequant.placement == quant::DequantPlacement::kDramToSram;
    double energy = r.energy_pj.mac + r.energy_pj.sram;
    for (const hw::TensorResult& t : r.tensors) {
      if (!(into_sram && t.name == "B")) energy += t.energy_pj.dram;
      // register files of A and C (the full evaluation counts B's in its dequantized format)
      if (t.role == workload::OperandRole::kActivation || t.role == workload::OperandRole::kOutput)
        energy += t.energy_pj.register_file;
    }
    const double batch = static_cast<double>(shape_.batch);
    return {batch * static_cast<double>(r.cycles.total) / clock_hz_,
            batch * energy + fixed_energy_};
  }

  void finish() {
    out_.best = best_;
    std::vector<EvaluatedCandidate> pool;
    for (const EvaluatedCandidate& e : evaluated_)
      if (e.fits || e.built_in) pool.push_back(e);
    std::sort(
        pool.begin(), pool.end(), [](const EvaluatedCandidate& a, const EvaluatedCandidate& b) {
          return std::tie(a.seconds, a.cost.energy_pj) < std::tie(b.seconds, b.cost.energy_pj);
        });
    for (const EvaluatedCandidate& e : pool)
      if (out_.front.empty() || e.cost.energy_pj < out_.front.back().cost.energy_pj)
        out_.front.push_back(e);
  }

  const arch::Accelerator& acc_;
  const llm::MatmulShape& shape_;
  const SearchOptions& options_;
  eval::Request base_;  // the request of every candidate: its dataflow and tiling vary
  eval::AppliedScheme applied_;
  hw::GemmProblem problem_;
  double clock_hz_ = 1;
  double min_energy_ = 0;    // L0 energy bound: MACs (+ fixed_energy_ once known)
  double fixed_energy_ = 0;  // see add_tiling_independent_energy
  std::vector<EvaluatedCandidate> evaluated_;
  std::optional<EvaluatedCandidate> best_;
  LayerSearch out_;
};

}  // namespace

double objective_value(Objective o, const llm::LayerCost& cost, double seconds) {
  switch (o) {
    case Objective::kLatency:
      return cost.cycles.get_d();
    case Objective::kEnergy:
      return cost.energy_pj;
    case Objective::kEdp:
      return cost.energy_pj * seconds;
    case Objective::kDramBytes:
      return cost.dram_bytes.get_d();
  }
  return 0;
}

LayerSearch search_layer(const arch::Accelerator& acc, const quant::QuantSpec& scheme,
                         const llm::MatmulShape& shape, const SearchOptions& options) {
  if (options.dataflows.empty())
    throw InputError(error_code::kRange, "", "dataflows", "give at least one dataflow");
  return Search(acc, scheme, shape, options).run();
}

}  // namespace tenet::sweep
