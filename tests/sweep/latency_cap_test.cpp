// The latency rule's cap (issue 35; docs/hardware.md, "The latency rule"): the default (latency)
// tiling never moves more than 1.5x the least-traffic tiling's bytes unless that tiling is more
// than 2 % slower than the choice — on GEMMs x presets x dataflows through eval::evaluate (the
// least-traffic tiling: the same request under dram_bytes), and the search equal to the one
// ranking (hw::search::choose) over every candidate evaluated.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "hw/search/ranking.hpp"
#include "sweep/search_settings.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "window_choice.hpp"

using namespace tenet;

namespace latency_cap {

// `tenet analyze --gemm M,N,K --arch <arch> --dataflow <dataflow> --tiling-objective <o>`.
eval::Evaluation analyze(const std::string& arch, const std::string& dataflow,
                         const mapping::GemmShape& shape, hw::TilingObjective objective) {
  eval::Settings s;
  s.arch = arch;
  s.dataflow = dataflow;
  eval::Request r = eval::make_gemm_request(s, shape, {16, 16, 16}, 1, 0);
  r.relation_centric = false;
  r.tiling_objective = objective;
  return eval::evaluate(r);
}

// A GEMM on a preset under a dataflow.
struct Case {
  const char* arch;
  mapping::GemmShape shape;
  mapping::Dataflow dataflow;
};

// Every candidate of a GEMM on a preset (hw::tiling_candidates), timed: the one ranking's input.
struct Space {
  eval::Request request;
  eval::Evaluation evaluation;
  std::vector<hw::search::Rank> ranks;
  std::vector<mapping::Tiling> kept;  // ranks[i].index = i
};

Space every_candidate(const Case& c) {
  const mapping::Dataflow dataflow = c.dataflow;
  eval::Settings s;
  s.arch = c.arch;
  s.dataflow = mapping::to_string(dataflow);
  Space out;
  out.request = eval::make_gemm_request(s, c.shape, {16, 16, 16}, 1, 0);
  out.request.relation_centric = false;
  out.evaluation = eval::evaluate(out.request);
  const arch::Accelerator& acc = *out.request.accelerator;
  const hw::GemmProblem& problem = out.evaluation.problem;
  for (const mapping::Tiling& t : hw::tiling_candidates(acc, problem, dataflow))
    if (const auto x = hw::evaluate_gemm_if_fits(acc, problem, dataflow, t, out.request.hw)) {
      out.ranks.push_back(
          {x->cycles.total, x->dram_bytes, x->energy_pj.total, x->tiles, out.kept.size()});
      out.kept.push_back(t);
    }
  return out;
}

}  // namespace latency_cap

TEST_CASE("the latency rule's cap holds on GEMMs x presets x dataflows", "[sweep][search][cap]") {
  using namespace latency_cap;
  const std::vector<mapping::GemmShape> gemms{
      {512, 128, 2048},  {512, 4096, 4096}, {2048, 4096, 11008}, {128, 128, 2048},
      {384, 768, 3072},  {77, 1000, 333},   {1000, 1000, 1000},  {257, 514, 1027},
      {4096, 128, 4096}, {2048, 2048, 128}, {1, 4096, 4096},     {64, 11008, 4096}};
  const std::vector<std::string> presets{"scalable-32x32", "systolic-16x16",   "systolic-32x32",
                                         "tpu-v1",         "sauria-fp16-8x16", "systolic-8x8"};
  int cases = 0, near = 0, within = 0;
  for (const std::string& arch : presets)
    for (const char* dataflow : {"os", "ws", "is"})
      for (const mapping::GemmShape& g : gemms) {
        const eval::Evaluation l = analyze(arch, dataflow, g, hw::TilingObjective::kLatency);
        const eval::Evaluation t = analyze(arch, dataflow, g, hw::TilingObjective::kDramBytes);
        const long long lc = l.hw().cycles.total, lb = l.hw().dram_bytes;
        const long long tc = t.hw().cycles.total, tb = t.hw().dram_bytes;
        INFO(arch << " " << dataflow << " " << g.m << "," << g.n << "," << g.k << ": latency "
                  << mapping::to_string(l.tiling()) << " " << lc << " cycles " << lb
                  << " B; least traffic " << mapping::to_string(t.tiling()) << " " << tc
                  << " cycles " << tb << " B");
        ++cases;
        CHECK(tb <= lb);
        // the rule, both ways
        const bool capped = lb * 2 <= tb * 3;
        const bool slower = tc * 100 > lc * 102;
        CHECK((capped || slower));
        if (!slower) ++near;
        if (capped) ++within;
      }
  CHECK(cases == 216);
  CHECK(near > 50);  // the cap is at stake on many cases
  WARN(cases << " cases: the least-traffic tiling within 2 % of the latency choice on " << near
             << ", the choice within 1.5x its bytes on " << within);
}

TEST_CASE("512x128x2048 on scalable-32x32: the cap takes a tiling within 1.5x the least traffic",
          "[sweep][search][cap]") {
  using namespace latency_cap;
  // The window's choice, 32x64x2048:nmk (143,536 cycles, 4,849,664 B), moves 1.76x the bytes of
  // the least-traffic tiling 32x128x2048:mnk (145,608 cycles, 2,752,512 B), 1.4 % slower: the
  // cap takes the fastest tiling within 1.5x those bytes.
  const mapping::GemmShape g{512, 128, 2048};
  const eval::Evaluation l = analyze("scalable-32x32", "os", g, hw::TilingObjective::kLatency);
  const eval::Evaluation t = analyze("scalable-32x32", "os", g, hw::TilingObjective::kDramBytes);
  CHECK(mapping::to_string(t.tiling()) == "32x128x2048:mnk");
  CHECK(t.hw().dram_bytes == 2752512);
  CHECK(t.hw().cycles.total == 145608);
  CHECK(mapping::to_string(l.tiling()) == "32x128x1024:kmn");
  CHECK(l.hw().dram_bytes == 3014656);
  CHECK(l.hw().cycles.total == 145588);
  // `tenet search`'s winner is the same
  sweep::SearchSettings s;
  s.eval.arch = "scalable-32x32";
  s.dataflows = {"os"};
  s.exact_front = false;
  llm::MatmulShape m;
  m.name = "gemm";
  m.m = g.m, m.n = g.n, m.k = g.k;
  const sweep::LayerSearch found = sweep::search_layers(s, {m}).front();
  REQUIRE(found.best);
  CHECK(found.best->candidate.tiling == l.tiling());
  CHECK(found.best->cost.dram_bytes == l.call_cost().dram_bytes);
}

TEST_CASE("the latency search with its cap equals the one ranking over every candidate",
          "[sweep][search][cap]") {
  // hw::choose_tiling (branch and bound, the cap's searches) against hw::search::choose over the
  // whole space (hw::tiling_candidates), every candidate timed, on presets; two of the cases
  // take the cap.
  using latency_cap::Case;
  const std::vector<Case> cases{
      {"scalable-32x32", {512, 128, 2048}, mapping::Dataflow::kOutputStationary},
      {"systolic-32x32", {512, 128, 2048}, mapping::Dataflow::kOutputStationary},
      {"systolic-16x16", {512, 128, 2048}, mapping::Dataflow::kOutputStationary},
      {"scalable-32x32", {384, 768, 3072}, mapping::Dataflow::kWeightStationary},
      {"sauria-fp16-8x16", {257, 514, 1027}, mapping::Dataflow::kOutputStationary},
      {"systolic-8x8", {128, 128, 2048}, mapping::Dataflow::kInputStationary}};
  int capped = 0;
  for (const Case& c : cases) {
    INFO(c.arch << " " << c.shape.m << "," << c.shape.n << "," << c.shape.k << " "
                << mapping::to_string(c.dataflow));
    const latency_cap::Space space = latency_cap::every_candidate(c);
    const eval::Request& r = space.request;
    const eval::Evaluation& e = space.evaluation;
    const arch::Accelerator& acc = *r.accelerator;
    const std::vector<hw::search::Rank>& ranks = space.ranks;
    const std::vector<mapping::Tiling>& kept = space.kept;
    REQUIRE(!ranks.empty());
    const mapping::Tiling chosen = kept[hw::search::choose(hw::TilingObjective::kLatency, ranks,
                                                           hw::search::near_tie_percent(acc))];
    CHECK(hw::choose_tiling(acc, e.problem, c.dataflow, r.hw) == chosen);
    CHECK(e.tiling() == chosen);
    // the window alone (step 1) differs where the cap took the choice
    const std::size_t window = tenet_test::window_choice(ranks);
    if (!(kept[window] == chosen)) ++capped;
  }
  CHECK(capped == 2);
}

TEST_CASE("the near-tie window of the accelerator file: the search equals the one ranking",
          "[sweep][search][cap]") {
  // compiler.tiling_near_tie_percent: hw::choose_tiling (branch and bound with the file's
  // window) against hw::search::choose with the same window over every candidate, timed; 0 takes
  // the fastest candidate (ties: fewer bytes, less energy, fewer tiles, the first).
  using latency_cap::Case;
  const std::vector<Case> cases{
      {"scalable-32x32", {512, 128, 2048}, mapping::Dataflow::kOutputStationary},
      {"scalable-32x32", {384, 768, 3072}, mapping::Dataflow::kWeightStationary},
      {"sauria-fp16-8x16", {257, 514, 1027}, mapping::Dataflow::kOutputStationary},
      {"tpu-v6e", {4096, 384, 1536}, mapping::Dataflow::kWeightStationary},
      {"tpu-v6e", {2048, 2048, 8192}, mapping::Dataflow::kWeightStationary}};
  int differs = 0;
  for (const Case& c : cases) {
    const latency_cap::Space space = latency_cap::every_candidate(c);
    const eval::Request& r = space.request;
    const eval::Evaluation& e = space.evaluation;
    const std::vector<hw::search::Rank>& ranks = space.ranks;
    const std::vector<mapping::Tiling>& kept = space.kept;
    REQUIRE(!ranks.empty());
    long long fastest = ranks.front().cycles;
    for (const hw::search::Rank& x : ranks) fastest = std::min(fastest, x.cycles);
    for (long long percent : {0LL, 1LL, 2LL, 5LL}) {
      INFO(c.arch << " " << c.shape.m << "," << c.shape.n << "," << c.shape.k << " "
                  << mapping::to_string(c.dataflow) << " window " << percent << " %");
      arch::AcceleratorSpec spec = r.accelerator->spec();
      spec.chip.tiling_near_tie_percent = percent;
      const arch::Accelerator acc(spec);
      REQUIRE(hw::search::near_tie_percent(acc) == percent);
      const std::size_t i = hw::search::choose(hw::TilingObjective::kLatency, ranks, percent);
      CHECK(hw::choose_tiling(acc, e.problem, c.dataflow, r.hw) == kept[i]);
      // whatever the window, the cap's contract: the choice moves at most 1.5x the bytes of the
      // least-traffic candidate unless that one is more than 2 % slower than the choice
      std::size_t least = 0;
      for (std::size_t j = 1; j < ranks.size(); ++j)
        if (hw::search::better(hw::TilingObjective::kDramBytes, ranks[j], ranks[least])) least = j;
      CHECK_FALSE(hw::search::over_cap(ranks[i], ranks[least]));
      if (percent == 0) {
        // the fastest, unless the cap moved the choice to fewer bytes (the least-traffic
        // candidate within 2 % of the fastest)
        if (ranks[i].cycles != fastest)
          CHECK(hw::search::near(ranks[least].cycles, fastest, hw::search::kCapPercent));
        const std::size_t two = hw::search::choose(hw::TilingObjective::kLatency, ranks, 2);
        if (!(kept[two] == kept[i])) ++differs;
      }
    }
  }
  CHECK(differs >= 1);  // the window matters on some case
}
