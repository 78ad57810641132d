// --edge-transfers [on|off] (tenet analyze, compare, model, log): hw::Options::edge_transfers
// reaches the hardware model; charged by default (bare or `on` the same), `off` is SCALE-Sim's
// convention. The first tile's fill and the last write-back add DRAM stall cycles (with an
// automatic tiling the search may then pick another tiling: never fewer cycles in total).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_edge_transfers_test {

using nlohmann::json;
using namespace tenet;

namespace {

json run_json(const std::string& args) {
  const tenet::test::CliRun r = tenet::test::run_cli(args + " --format json", TENET_SOURCE_DIR);
  INFO(args << "\n" << r.out);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

long long num(const json& v) { return v.get<long long>(); }

}  // namespace

TEST_CASE("cli --edge-transfers: tenet analyze charges the first fill and the last write-back",
          "[cli][edge-transfers]") {
  const std::string gemm = "analyze --gemm 100,200,300 --arch systolic-8x8 --dataflow os";
  const json warm = run_json(gemm + " --edge-transfers off");
  const json cold = run_json(gemm + " --edge-transfers");
  CHECK(run_json(gemm) == cold);  // the default
  CHECK(run_json(gemm + " --edge-transfers on") == cold);
  CHECK(run_json(gemm + " --edge-transfers=off") == warm);
  // The library with the same option (and the tiling it chooses under it).
  const auto acc = arch::load_accelerator_preset("systolic-8x8");
  const auto problem = hw::make_gemm_problem({100, 200, 300});
  const auto flow = mapping::Dataflow::kOutputStationary;
  hw::Options edges;
  edges.edge_transfers = true;
  const hw::Result r =
      hw::evaluate_gemm(acc, problem, flow, hw::choose_tiling(acc, problem, flow, edges), edges);
  CHECK(num(cold["cycles"]["total"]) == r.cycles.total);
  CHECK(num(cold["cycles"]["stall_dram"]) == r.cycles.stall_dram);
  CHECK(num(cold["cycles"]["total"]) > num(warm["cycles"]["total"]));
  CHECK(num(cold["cycles"]["compute"]) == num(warm["cycles"]["compute"]));
  // With a fixed tiling the traffic is the same, only more of it is on the clock.
  const json warm_fixed = run_json(gemm + " --tile 40x32x300:nmk --edge-transfers off");
  const json cold_fixed = run_json(gemm + " --tile 40x32x300:nmk --edge-transfers");
  CHECK(cold_fixed["dram_bytes"] == warm_fixed["dram_bytes"]);
  CHECK(num(cold_fixed["cycles"]["total"]) > num(warm_fixed["cycles"]["total"]));
  CHECK(num(cold_fixed["cycles"]["total"]) - num(warm_fixed["cycles"]["total"]) ==
        num(cold_fixed["cycles"]["stall_dram"]) - num(warm_fixed["cycles"]["stall_dram"]));
}

TEST_CASE("cli --edge-transfers: compare, model and log cost more cycles, never fewer",
          "[cli][edge-transfers]") {
  const std::string compare =
      "compare --quant q0f16,q4f16_1 --gemm 1,4096,4096 --arch scalable-32x32 --dataflow os "
      "--dequant-rate 32";
  const json warm = run_json(compare + " --edge-transfers off");
  const json cold = run_json(compare);
  REQUIRE(warm["schemes"].size() == 2);
  REQUIRE(cold["schemes"].size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    INFO(warm["schemes"][i]["scheme"]);
    CHECK(num(cold["schemes"][i]["cycles"]) > num(warm["schemes"][i]["cycles"]));
  }
  for (const std::string command :
       {"model --model workloads/models/gpt2-medium.json --phase decode --context 300",
        "log --input workloads/logs/gpt2-medium-q4f16_1.jsonl --dequant-rate 32"}) {
    INFO(command);
    const json w = run_json(command + " --edge-transfers off");
    const json c = run_json(command);
    CHECK(num(c["totals"]["cycles"]) > num(w["totals"]["cycles"]));
    CHECK(c["totals"]["macs"] == w["totals"]["macs"]);
  }
}

TEST_CASE("cli --edge-transfers: a value other than on or off is a command-line error",
          "[cli][edge-transfers]") {
  const tenet::test::CliRun r = tenet::test::run_cli(
      "analyze --gemm 8,8,8 --arch systolic-8x8 --edge-transfers maybe", TENET_SOURCE_DIR);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("expected on or off") != std::string::npos);
}

}  // namespace cli_edge_transfers_test
