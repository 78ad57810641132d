// tenet search: lower bounds, pruning that keeps the front exact, and a winner that is the auto
// tiling of its request (the one ranking) on every layer of GPT-2 medium.
#include <catch2/catch.hpp>
#include <random>

#include "layer_request.hpp"
#include "sweep/mapping_search.hpp"
#include "sweep_helpers.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using Objective = hw::TilingObjective;
using sweep::SearchOptions;

namespace {

std::vector<llm::MatmulShape> gpt2_medium_layers() {
  const auto model =
      llm::load_model_config(sweep_test::source("workloads/models/gpt2-medium.json"));
  llm::GenerationOptions prefill;
  prefill.fused_attention = false;  // the search maps matmuls: attention as qk and pv
  prefill.prompt = 128;
  llm::GenerationOptions decode;
  decode.fused_attention = false;
  decode.phase = llm::Phase::kDecode;
  decode.context = 128;
  auto shapes = llm::generate_matmuls(model, prefill);
  for (const auto& s : llm::generate_matmuls(model, decode)) shapes.push_back(s);
  return shapes;
}

// The search of one matmul's request (every other request field at its default).
sweep::LayerSearch search(const arch::Accelerator& acc, const quant::QuantSpec& scheme,
                          const llm::MatmulShape& shape, const SearchOptions& options) {
  return sweep::search_layer(
      test::layer_request(acc, mapping::Dataflow::kOutputStationary, scheme, shape), options);
}

}  // namespace

TEST_CASE("the closed-form bound is the hardware model's compute cycles",
          "[sweep][search][bound]") {
  std::mt19937 rng(7);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  // scalable-32x32 packs 2 int8 / 4 int4 MACs per PE: the k-packing is exercised too.
  arch::Accelerator acc =
      arch::with_array_shape(arch::load_accelerator_preset("scalable-32x32"), 1, 1);
  for (int trial = 0; trial < 300; ++trial) {
    acc = arch::with_array_shape(acc, pick(1, 9), pick(1, 9));
    const mapping::GemmShape shape{pick(1, 90), pick(1, 90), pick(1, 90)};
    const int bits = trial % 3 == 0 ? 4 : trial % 3 == 1 ? 8 : 16;
    const hw::GemmProblem problem = hw::make_gemm_problem(shape, {bits, bits, 16});
    const auto flow = static_cast<mapping::Dataflow>(trial % 3);
    mapping::Tiling tiling;
    tiling.m = pick(0, shape.m), tiling.n = pick(0, shape.n), tiling.k = pick(0, shape.k);
    const hw::Result r = hw::evaluate_gemm(acc, problem, flow, tiling);
    INFO(trial << ": " << shape.m << "x" << shape.n << "x" << shape.k << " bits " << bits << " "
               << mapping::to_string(flow) << " " << mapping::to_string(tiling));
    CHECK(hw::compute_cycles_floor(acc, problem, flow, tiling) == r.cycles.compute);
  }
}

TEST_CASE("pruning keeps the winner and the Pareto front of the exhaustive search",
          "[sweep][search]") {
  const arch::Accelerator acc = arch::load_accelerator_preset("systolic-8x8");
  const quant::QuantSpec scheme = quant::load_preset("q4f16_1");
  llm::MatmulShape shape;
  shape.name = "small";
  shape.m = 37, shape.n = 96, shape.k = 80;
  for (Objective o : {Objective::kLatency, Objective::kEnergy, Objective::kEdp}) {
    INFO(hw::to_string(o));
    SearchOptions all;
    all.objective = o;
    all.prune = false;
    const auto exhaustive = search(acc, scheme, shape, all);
    REQUIRE(exhaustive.best);
    CHECK(exhaustive.counts.pruned() == 0);
    SearchOptions front = all;
    front.prune = true;
    const auto exact = search(acc, scheme, shape, front);
    SearchOptions winner = front;
    winner.exact_front = false;
    const auto fast = search(acc, scheme, shape, winner);
    CHECK(exact.best->objective == exhaustive.best->objective);
    CHECK(fast.best->objective == exhaustive.best->objective);
    CHECK(exact.counts.evaluated < exhaustive.counts.evaluated);
    // the winner alone: the built-in mappings (the one search: auto tiling), nothing enumerated
    CHECK(fast.counts.evaluated == fast.built_in.size());
    CHECK(fast.counts.candidates == 3);
    // every candidate is accounted for once
    for (const auto* s : {&exhaustive, &exact, &fast})
      CHECK(s->counts.candidates ==
            s->counts.evaluated + s->counts.pruned() + s->counts.too_big + s->counts.failed);
    // the exact front: the same (latency, energy) points as the exhaustive one, none dominated
    REQUIRE(exact.front.size() == exhaustive.front.size());
    for (std::size_t i = 0; i < exact.front.size(); ++i) {
      CHECK(exact.front[i].cost.cycles == exhaustive.front[i].cost.cycles);
      CHECK(exact.front[i].cost.energy_pj == exhaustive.front[i].cost.energy_pj);
      if (i > 0) {
        CHECK(exact.front[i].cost.cycles > exact.front[i - 1].cost.cycles);
        CHECK(exact.front[i].cost.energy_pj < exact.front[i - 1].cost.energy_pj);
      }
    }
  }
}

TEST_CASE("searched mappings fit the buffer and are costed as evaluate_layer does",
          "[sweep][search]") {
  const arch::Accelerator acc = arch::load_accelerator_preset("systolic-16x16");
  const quant::QuantSpec scheme = quant::load_preset("q0f16");
  llm::MatmulShape shape;
  shape.m = 300, shape.n = 1024, shape.k = 512, shape.batch = 2;
  SearchOptions o;
  o.objective = Objective::kEdp;
  const auto s = search(acc, scheme, shape, o);
  REQUIRE(s.best);
  for (const auto& e : s.front) {
    tenet::test::LayerOptions lo;
    lo.choose_tiling = false;
    lo.tiling = e.candidate.tiling;
    const auto d = tenet::eval::evaluate(
        tenet::test::layer_request(acc, e.candidate.dataflow, scheme, shape, lo));
    CHECK(d.call_cost() == e.cost);
    if (!e.built_in) {
      CHECK(e.fits);
      for (const auto& t : d.product().hw.tensors) CHECK(t.resident);
    }
  }
}

TEST_CASE("tenet search's winner is the auto tiling of its request on every GPT-2 medium layer",
          "[sweep][search][gpt2]") {
  const arch::Accelerator acc = arch::load_accelerator_preset(arch::kDefaultAccelerator);
  const std::vector<std::pair<const char*, Objective>> runs{
      {"q0f16", Objective::kLatency},   {"q0f16", Objective::kEnergy},
      {"q0f16", Objective::kDramBytes}, {"q0f16", Objective::kEdp},
      {"q4f16_1", Objective::kLatency}, {"q4f16_1", Objective::kEdp}};
  std::size_t checked = 0;
  for (const auto& [name, o] : runs) {
    const quant::QuantSpec scheme = quant::load_preset(name);
    SearchOptions options;
    options.objective = o;
    options.exact_front = false;
    for (const llm::MatmulShape& shape : gpt2_medium_layers()) {
      INFO(name << " " << hw::to_string(o) << " " << shape);
      const auto s = search(acc, scheme, shape, options);
      REQUIRE(s.best);
      REQUIRE(s.built_in.size() == 3);
      // the winner is the built-in mapping of its dataflow: analyze's auto tiling of the request
      tenet::test::LayerOptions lo;
      lo.tiling_objective = o;
      const auto e = tenet::eval::evaluate(
          tenet::test::layer_request(acc, s.best->candidate.dataflow, scheme, shape, lo));
      CHECK(e.tiling() == s.best->candidate.tiling);
      CHECK(e.call_cost() == s.best->cost);
      // ranked by the one rule: under latency within 2 % of the fastest built-in, and of those
      // the fewest DRAM bytes
      poly::Integer fastest = s.built_in.front().cost.cycles;
      for (const auto& b : s.built_in) fastest = std::min(fastest, b.cost.cycles);
      for (const auto& b : s.built_in) {
        if (o != Objective::kLatency) {
          CHECK(s.best->objective <= b.objective);
          continue;
        }
        CHECK(s.best->cost.cycles * 100 <= fastest * 102);
        if (b.cost.cycles * 100 <= fastest * 102)
          CHECK(s.best->cost.dram_bytes <= b.cost.dram_bytes);
      }
      ++checked;
    }
  }
  CHECK(checked == runs.size() * gpt2_medium_layers().size());
}

TEST_CASE("search options are checked", "[sweep][search][errors]") {
  CHECK(hw::parse_tiling_objective("edp", "objective") == Objective::kEdp);
  CHECK_THROWS_AS(hw::parse_tiling_objective("speed", "objective"), InputError);
  SearchOptions none;
  none.dataflows.clear();
  CHECK_THROWS_AS(search(arch::load_accelerator_preset("systolic-8x8"), quant::load_preset("q0f16"),
                         llm::MatmulShape{}, none),
                  InputError);
}
