// The latency rule's cap (issue 35) where its search runs past its first test: the Llama-2-7B
// prefill projections under q4f16_1 on scalable-32x32, input stationary (bench_search_probe's
// problems), whose window choice moves more than 1.5x the bytes no mapping moves fewer of
// (hw::compute_bounds). There the cap generates only the deferred pairs of extents that can hold
// a lean tile (TrafficFloor::pair_floor), plans D's candidates and times only those whose cycle
// floor lies within 2 %, and asks the far pairs' groups for a leaner candidate before timing:
// hw::choose_tiling must still equal the one ranking (hw::search::choose) over every candidate,
// each timed.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "hw/search/ranking.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/hw/bounds.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/quant/quant_json.hpp"
#include "window_choice.hpp"

using namespace tenet;

namespace latency_cap_paths {

// The hardware problem of a prefill matmul under a quantization preset (as bench_search_probe
// builds it).
hw::GemmProblem quantized(const arch::Accelerator& acc, const std::string& scheme,
                          const std::string& name, std::int64_t m, std::int64_t n, std::int64_t k) {
  llm::MatmulShape s;
  s.name = name;
  s.m = m, s.n = n, s.k = k;
  s.phase = llm::Phase::kPrefill;
  const eval::AppliedScheme applied = eval::apply_quantization(quant::load_preset(scheme), s);
  return quant::make_quant_problem(acc, {s.m, s.n, s.k}, applied.spec, applied.apply);
}

}  // namespace latency_cap_paths

TEST_CASE("the cap's search past its first test equals the one ranking over every candidate",
          "[sweep][search][cap]") {
  const arch::Accelerator acc = arch::load_accelerator_preset("scalable-32x32");
  const mapping::Dataflow dataflow = mapping::Dataflow::kInputStationary;
  struct Shape {
    const char* name;
    std::int64_t m, n, k;
  };
  const std::vector<Shape> shapes{{"qkv_proj", 2048, 12288, 4096},
                                  {"o_proj", 2048, 4096, 4096},
                                  {"gate_up_proj", 2048, 22016, 4096},
                                  {"down_proj", 2048, 4096, 11008}};
  int lean_near = 0, none_lean_near = 0;
  for (const Shape& s : shapes) {
    INFO(s.name << " " << s.m << "x" << s.n << "x" << s.k);
    const hw::GemmProblem problem =
        latency_cap_paths::quantized(acc, "q4f16_1", s.name, s.m, s.n, s.k);
    std::vector<hw::search::Rank> ranks;
    std::vector<mapping::Tiling> kept;  // ranks[i].index = i
    for (const mapping::Tiling& t : hw::tiling_candidates(acc, problem, dataflow))
      if (const auto x = hw::evaluate_gemm_if_fits(acc, problem, dataflow, t, {})) {
        ranks.push_back(
            {x->cycles.total, x->dram_bytes, x->energy_pj.total, x->tiles, kept.size()});
        kept.push_back(t);
      }
    REQUIRE(!ranks.empty());
    const std::size_t chosen =
        hw::search::choose(hw::TilingObjective::kLatency, ranks, hw::search::near_tie_percent(acc));
    CHECK(hw::choose_tiling(acc, problem, dataflow, {}) == kept[chosen]);
    // the window's choice X (step 1) breaks 1.5x the bound: the cap's search runs
    const std::size_t window = tenet_test::window_choice(ranks);
    const hw::Bounds bounds = hw::compute_bounds(acc, problem, {});
    CHECK_FALSE(hw::search::within_cap(ranks[window].dram_bytes, bounds.dram_bytes));
    // whether some candidate within 2 % of X moves less than 2/3 of its bytes (lean: the cap's
    // search then looks for a leaner one outside the window), and the contract either way
    bool lean = false;
    std::size_t least = 0;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      lean = lean ||
             (hw::search::near(ranks[i].cycles, ranks[window].cycles, hw::search::kCapPercent) &&
              !hw::search::within_cap(ranks[window].dram_bytes, ranks[i].dram_bytes));
      if (hw::search::better(hw::TilingObjective::kDramBytes, ranks[i], ranks[least])) least = i;
    }
    ++(lean ? lean_near : none_lean_near);
    CHECK_FALSE(hw::search::over_cap(ranks[chosen], ranks[least]));
  }
  // both ways through the cap's search are taken
  CHECK(lean_near >= 1);
  CHECK(none_lean_near >= 1);
}
