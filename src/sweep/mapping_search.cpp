#include "sweep/mapping_search.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <tuple>

#include "hw/search/ranking.hpp"
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

struct Bound {
  double seconds = 0, energy = 0;
};

// A candidate of the front's search, with its closed-form (L0) cycles per call.
struct Pending {
  Candidate candidate;
  double l0_cycles = 0;  // per call
};

// A candidate waiting with a bound of its cost (per call) at its level: 0 closed form, 1 planned,
// 2 timed by the hardware model (then the full evaluation). Small: the heap moves it.
struct Node {
  Bound bound;
  std::uint32_t index = 0;  // into the pending candidates (generation order: ties)
  int level = 0;
  bool operator>(const Node& o) const {
    return std::tie(bound.seconds, bound.energy, index) >
           std::tie(o.bound.seconds, o.bound.energy, o.index);
  }
};

class Search {
 public:
  Search(const eval::Request& request, const SearchOptions& options)
      : acc_(request.accelerator), shape_(request.matmul), options_(options), base_(request) {
    if (!acc_) throw InternalError("search_layer: the request has no accelerator");
    base_.tiling.reset();
    base_.tiling_objective = options.objective;
    clock_hz_ = acc_->spec().clock_mhz * 1e6;
    out_.shape = shape_;
    out_.objective = options.objective;
  }

  LayerSearch run() {
    evaluate_built_ins();
    out_.counts.candidates = options_.dataflows.size();
    if (options_.exact_front && problem_) {
      add_tiling_independent_energy();
      std::vector<Pending> pending = generate();
      out_.counts.candidates += pending.size();
      visit_best_first(pending);
    }
    finish();
    return std::move(out_);
  }

 private:
  // Can a candidate whose cost is at least `b` still be on the front? Not when an evaluated
  // candidate is as fast and spends no more (the staircase of the evaluated front).
  bool pruned_by(const Bound& b) const {
    if (!options_.prune) return false;
    auto it = staircase_.upper_bound(b.seconds);
    if (it == staircase_.begin()) return false;
    return std::prev(it)->second <= b.energy;
  }

  // An evaluated candidate that may be chosen (fits, or built in): kept, and on the staircase
  // (seconds increasing, energy decreasing) unless dominated.
  void keep(const EvaluatedCandidate& x) {
    evaluated_.push_back(x);
    if (!x.fits && !x.built_in) return;
    auto it = staircase_.upper_bound(x.seconds);
    if (it != staircase_.begin() && std::prev(it)->second <= x.cost.energy_pj) return;
    it = staircase_.insert_or_assign(x.seconds, x.cost.energy_pj).first;
    for (++it; it != staircase_.end() && it->second >= x.cost.energy_pj;) it = staircase_.erase(it);
  }

  // The full evaluation (the pipeline) of the request with a dataflow and a tiling (none: the
  // tiling search's under the objective).
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

  // Each dataflow with the tiling the pipeline chooses under the objective; the problem as
  // stored, and where its dequantization goes, from the first that evaluates.
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
      if (!problem_) {
        problem_ = e->problem;
        if (e->scheme) b_view_bits_ = quant::array_view_bits(e->scheme->spec, e->scheme->apply);
        into_sram_ =
            e->scheme && e->scheme->spec.dequant.placement == quant::DequantPlacement::kDramToSram;
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

  // The candidates of hw::choose_tiling (hw::tiling_candidates: one candidate space), per
  // dataflow, with their L0 bounds.
  std::vector<Pending> generate() {
    std::vector<Pending> out;
    const double batch = static_cast<double>(shape_.batch);
    for (Dataflow d : options_.dataflows) {
      const std::vector<Tiling> tilings = hw::tiling_candidates(*acc_, *problem_, d);
      const std::vector<long long> cycles = hw::compute_cycles_floors(*acc_, *problem_, d, tilings);
      for (std::size_t i = 0; i < tilings.size(); ++i) {
        const Candidate c{d, tilings[i]};
        if (is_built_in(c)) continue;
        out.push_back({c, batch * static_cast<double>(cycles[i])});
      }
    }
    return out;
  }

  bool is_built_in(const Candidate& c) const {
    for (const EvaluatedCandidate& b : out_.built_in)
      if (b.candidate.dataflow == c.dataflow && b.candidate.tiling == c.tiling) return true;
    return false;
  }

  // Best-first on the bound's seconds: a candidate is refined a level at a time (planned, timed,
  // evaluated) while no evaluated candidate dominates its bound, so the full evaluations come
  // nearly in increasing latency and few are dominated later. The front is exact: a candidate is
  // left out only when an evaluated one is as fast and spends no more than its bound.
  void visit_best_first(const std::vector<Pending>& pending) {
    if (pending.size() > std::numeric_limits<std::uint32_t>::max())
      throw InternalError("search_layer: too many candidates");
    std::vector<Node> nodes;
    nodes.reserve(pending.size());
    for (std::size_t i = 0; i < pending.size(); ++i)
      nodes.push_back(
          {{pending[i].l0_cycles / clock_hz_, min_energy_}, static_cast<std::uint32_t>(i), 0});
    // level 0 sorted once; the refined nodes in a heap; the lesser of the two next
    std::sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) { return b > a; });
    std::priority_queue<Node, std::vector<Node>, std::greater<>> open;
    std::size_t next = 0;
    while (next < nodes.size() || !open.empty()) {
      Node p;
      if (open.empty() || (next < nodes.size() && open.top() > nodes[next])) {
        p = nodes[next++];
      } else {
        p = open.top();
        open.pop();
      }
      const Pending& c = pending[p.index];
      if (pruned_by(p.bound)) {
        ++(p.level == 0 ? out_.counts.pruned_l0 : out_.counts.pruned_l1);
        continue;
      }
      if (p.level == 0) {
        // a tile that breaks a residency or bank rule is never proposed; planned: its energy and
        // a cycle floor
        const hw::PlannedCandidate planned = hw::plan_candidate(
            *acc_, *problem_, c.candidate.dataflow, c.candidate.tiling, base_.hw);
        if (!planned.feasible || !planned.all_resident) {
          ++out_.counts.too_big;
          continue;
        }
        p.bound = planned_bound(planned, c.l0_cycles), p.level = 1;
        open.push(p);
      } else if (p.level == 1) {
        const std::optional<hw::Result> timed = hw::evaluate_gemm_if_fits(
            *acc_, *problem_, c.candidate.dataflow, c.candidate.tiling, base_.hw);
        if (!timed) {
          ++out_.counts.too_big;
          continue;
        }
        p.bound = l1_bound(*timed), p.level = 2;
        open.push(p);
      } else if (auto x = evaluate(c.candidate, false, true)) {
        keep(*x);
      }
    }
  }

  // Energy every mapping of this layer spends, whatever its tiling: the MACs, the quantization
  // work outside the array (epilogue, partial-sum rescaling, zero-point sums, quantization; the
  // fused epilogue of a logged kernel), which depends on counts of the quantized workload only,
  // and the dequantization of every distinct B element at least once (the dequant energy is
  // linear in the elements dequantized: SRAM reads of B, or its DRAM loads, each >= the distinct
  // elements). The quantization part is added to the L1 energy bound; scaled by 1 - 1e-9 against
  // rounding.
  void add_tiling_independent_energy() {
    const double batch = static_cast<double>(shape_.batch);
    const double macs = static_cast<double>(shape_.m) * shape_.n * shape_.k * batch;
    min_energy_ = macs * acc_->mac_energy_pj(hw::mac_precision(*acc_, *problem_));
    try {
      // any tiling gives the same figures
      const eval::Evaluation e = evaluate_mapping(options_.dataflows.front(), Tiling{});
      const quant::QuantEnergy& q = e.product().energy;
      const quant::QuantCosts& counts = e.product().counts();
      const quant::QuantOps& ops = counts.ops;
      double dequant = 0;
      if (ops.dequant_elements > 0)
        dequant = q.dequant / ops.dequant_elements.get_d() * counts.tensor("B").elements.get_d();
      fixed_energy_ = (batch * (q.epilogue + q.rescale + q.zero_sums + q.quantize + dequant) +
                       e.systolic().epilogue_energy_pj) *
                      (1 - 1e-9);
    } catch (const InputError&) {
      fixed_energy_ = 0;  // the candidates report the error themselves
    }
    min_energy_ += fixed_energy_;
    // every MAC reads its operands from the register files: A and C as stored, and B when the
    // array reads it as stored (quant::array_view_bits: no dequantization), per product
    const double products = static_cast<double>(shape_.m) * shape_.n * shape_.k;
    const arch::EnergyTable& e = acc_->spec().energy;
    for (const hw::Operand& op : problem_->operands) {
      const bool b = op.name == "B";
      if (b ? b_view_bits_ != 0 && b_view_bits_ != op.bits : op.name != "A" && op.name != "C")
        continue;
      const double reads = products * e.register_file.read_pj_for(op.bits);
      if (b) b_register_floor_ = reads;
      register_floor_ += reads;
    }
    min_energy_ += batch * register_floor_;
  }

  // MAC + SRAM + DRAM energy of the hardware model (the DRAM of weights dequantized into SRAM is
  // counted in their packed format by the full evaluation: left out here) + the register files
  // of A and C, B's register-file reads (b_register_floor_) + the tiling-independent energy, and
  // its cycles.
  Bound l1_bound(const hw::Result& r) const {
    double energy = r.energy_pj.mac + r.energy_pj.sram + b_register_floor_;
    for (const hw::TensorResult& t : r.tensors) {
      if (!(into_sram_ && t.name == "B")) energy += t.energy_pj.dram;
      // register files of A and C (the full evaluation counts B's in its dequantized format)
      if (t.role == workload::OperandRole::kActivation || t.role == workload::OperandRole::kOutput)
        energy += t.energy_pj.register_file;
    }
    const double batch = static_cast<double>(shape_.batch);
    return {batch * static_cast<double>(r.cycles.total) / clock_hz_,
            batch * energy + fixed_energy_};
  }

  // l1_bound before timing: the planned energy with the register files' reads alone (and without
  // any DRAM part when B is dequantized into SRAM), the model's cycle floor.
  Bound planned_bound(const hw::PlannedCandidate& c, double l0_cycles) const {
    const double energy =
        c.energy.mac + c.energy.sram + (into_sram_ ? 0 : c.energy.dram) + register_floor_;
    const double batch = static_cast<double>(shape_.batch);
    const double cycles = std::max(l0_cycles, batch * static_cast<double>(c.cycles_floor));
    return {cycles / clock_hz_, batch * energy + fixed_energy_};
  }

  static long long whole(const poly::Integer& v) {
    return v.fits_slong_p() ? v.get_si() : std::numeric_limits<long long>::max() / 4;
  }

  // The winner: the built-in mapping the one ranking (hw::search::choose) puts first.
  void choose_winner() {
    if (out_.built_in.empty()) return;
    std::vector<hw::search::Rank> ranks;
    for (const EvaluatedCandidate& b : out_.built_in)
      ranks.push_back(
          {whole(b.cost.cycles), whole(b.cost.dram_bytes), b.cost.energy_pj, 0, ranks.size()});
    out_.best = out_.built_in[hw::search::choose(options_.objective, ranks,
                                                 hw::search::near_tie_percent(*acc_))];
  }

  void finish() {
    choose_winner();
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

  std::shared_ptr<const arch::Accelerator> acc_;
  llm::MatmulShape shape_;
  const SearchOptions& options_;
  eval::Request base_;  // the request of every candidate: its dataflow and tiling vary
  std::optional<hw::GemmProblem> problem_;  // as eval::evaluate stored it
  bool into_sram_ = false;                  // B dequantized from DRAM into SRAM
  int b_view_bits_ = 0;  // bits of B as the array reads it (0: as stored, no scheme)
  double clock_hz_ = 1;
  double min_energy_ = 0;    // L0 energy bound: MACs, fixed_energy_, register_floor_
  double fixed_energy_ = 0;  // see add_tiling_independent_energy
  // register-file reads of every MAC (pJ per product): B's (read as stored); A, B and C's
  double b_register_floor_ = 0, register_floor_ = 0;
  std::vector<EvaluatedCandidate> evaluated_;
  std::map<double, double> staircase_;  // the evaluated front: seconds -> energy (pJ)
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

LayerSearch search_layer(const eval::Request& request, const SearchOptions& options) {
  if (options.dataflows.empty())
    throw InputError(error_code::kRange, "", "dataflows", "give at least one dataflow");
  return Search(request, options).run();
}

}  // namespace tenet::sweep
