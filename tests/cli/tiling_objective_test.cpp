// --tiling-objective (tenet analyze, compare, model, log): the objective of the automatic buffer
// tiling reaches hw::choose_tiling. The case (100x200x300 on systolic-8x8, os) has different
// latency and DRAM-traffic optima: the latency tiling has fewer cycles and the dram_bytes tiling
// fewer DRAM bytes, each equal to what the library chooses with that objective.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_tiling_objective_test {

using nlohmann::json;
using namespace tenet;

namespace {

using Run = tenet::test::CliRun;

const std::string kGemm = " --gemm 200,400,600 --arch systolic-8x8 --dataflow os";

Run run(const std::string& args) {
  return tenet::test::run_cli(args, std::string(TENET_SOURCE_DIR));
}

json run_json(const std::string& args) {
  const Run r = run(args + " --format json");
  INFO(args << "\n" << r.out);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

hw::Result library_result(hw::TilingObjective objective) {
  const auto acc = arch::load_accelerator_preset("systolic-8x8");
  const auto problem = hw::make_gemm_problem({200, 400, 600});
  const auto flow = mapping::Dataflow::kOutputStationary;
  return hw::evaluate_gemm(acc, problem, flow,
                           hw::choose_tiling(acc, problem, flow, {}, {objective}));
}

long long num(const json& v) { return v.get<long long>(); }

// Cycles and DRAM bytes of a whole `tenet model` / `tenet log` run: the latency objective is
// never slower per matmul (q0f16: no dequant unit), the dram_bytes one never moves more bytes,
// and on this accelerator they differ.
void check_totals_trade_off(const std::string& command) {
  const json latency = run_json(command + " --tiling-objective latency");
  const json bytes = run_json(command + " --tiling-objective dram_bytes");
  const json plain = run_json(command);
  CHECK(plain["totals"] == latency["totals"]);  // latency is the default
  CHECK(num(latency["totals"]["cycles"]) < num(bytes["totals"]["cycles"]));
  CHECK(num(bytes["totals"]["dram_bytes"]) < num(latency["totals"]["dram_bytes"]));
  REQUIRE(latency["layers"].size() == bytes["layers"].size());
  for (std::size_t i = 0; i < latency["layers"].size(); ++i) {
    const json& l = latency["layers"][i]["per_call"];
    const json& b = bytes["layers"][i]["per_call"];
    INFO(latency["layers"][i]["name"]);
    CHECK(num(l["cycles"]) <= num(b["cycles"]));
    CHECK(num(b["dram_bytes"]) <= num(l["dram_bytes"]));
  }
  CHECK(bytes["cost_model"]["description"].get<std::string>().find("tiling auto (dram_bytes)") !=
        std::string::npos);
}

void check_fails(const std::string& args, const std::string& needle) {
  const Run r = run(args);
  INFO(args << "\n" << r.out);
  CHECK(r.exit_code == 2);
  CHECK(r.out.find(needle) != std::string::npos);
}

}  // namespace

TEST_CASE("analyze --tiling-objective: the tiling of that objective", "[cli][analyze][hw]") {
  const json latency = run_json("analyze" + kGemm + " --tiling-objective latency");
  const json bytes = run_json("analyze" + kGemm + " --tiling-objective dram_bytes");
  const json plain = run_json("analyze" + kGemm);
  CHECK(latency["tiling_objective"] == "latency");
  CHECK(plain["tiling_objective"] == "latency");
  CHECK(bytes["tiling_objective"] == "dram_bytes");
  CHECK(plain["tiling"] == latency["tiling"]);
  CHECK(latency["tiling"] != bytes["tiling"]);
  CHECK(num(latency["cycles"]["total"]) < num(bytes["cycles"]["total"]));
  CHECK(num(bytes["dram_bytes"]) < num(latency["dram_bytes"]));
  for (const auto& [doc, objective] :
       {std::pair<json, hw::TilingObjective>{latency, hw::TilingObjective::kLatency},
        {bytes, hw::TilingObjective::kDramBytes}}) {
    const hw::Result r = library_result(objective);
    CHECK(doc["tiling"] == mapping::to_string(r.tiling));
    CHECK(doc["cycles"]["total"] == r.cycles.total);
    CHECK(doc["dram_bytes"] == r.dram_bytes);
    CHECK(doc["energy_pj"]["total"].get<double>() == Approx(r.energy_pj.total));
  }
  // energy and edp: the library's choice as well.
  for (const hw::TilingObjective objective :
       {hw::TilingObjective::kEnergy, hw::TilingObjective::kEdp}) {
    const json doc =
        run_json("analyze" + kGemm + " --tiling-objective " + hw::to_string(objective));
    CHECK(doc["tiling_objective"] == hw::to_string(objective));
    CHECK(doc["tiling"] == mapping::to_string(library_result(objective).tiling));
  }
  // With a quantization scheme the objective goes through eval::evaluate.
  const json q_latency = run_json("analyze" + kGemm + " --quant q0f16");
  const json q_bytes = run_json("analyze" + kGemm + " --quant q0f16 --tiling-objective dram_bytes");
  CHECK(q_latency["tiling"] == latency["tiling"]);
  CHECK(q_bytes["tiling"] == bytes["tiling"]);
  CHECK(q_bytes["tiling_objective"] == "dram_bytes");
  // An explicit tiling has no objective key.
  CHECK_FALSE(run_json("analyze" + kGemm + " --tile 8x8x8").contains("tiling_objective"));
}

TEST_CASE("compare --tiling-objective: every scheme tiled for that objective", "[cli][quant]") {
  const std::string args = "compare --quant q0f16,q4f16_1 --dequant-rate 8" + kGemm;
  const json latency = run_json(args);
  const json bytes = run_json(args + " --tiling-objective dram_bytes");
  REQUIRE(latency["schemes"].size() == 2);
  REQUIRE(bytes["schemes"].size() == 2);
  const json& l = latency["schemes"][0];  // q0f16: the plain GEMM's tilings
  const json& b = bytes["schemes"][0];
  CHECK(l["report"]["tiling"] ==
        mapping::to_string(library_result(hw::TilingObjective::kLatency).tiling));
  CHECK(b["report"]["tiling"] ==
        mapping::to_string(library_result(hw::TilingObjective::kDramBytes).tiling));
  CHECK(num(l["cycles"]) < num(b["cycles"]));
  CHECK(num(b["bytes"]["dram"]) < num(l["bytes"]["dram"]));
  // q4f16_1: fewer DRAM bytes under dram_bytes too.
  CHECK(num(bytes["schemes"][1]["bytes"]["dram"]) <= num(latency["schemes"][1]["bytes"]["dram"]));
}

TEST_CASE("model / log --tiling-objective: per-matmul tilings of that objective", "[cli][llm]") {
  check_totals_trade_off(
      "model --model workloads/models/gpt2-medium.json --phase prefill --prompt 100 "
      "--arch systolic-8x8");
  check_totals_trade_off(
      "log --input workloads/logs/gpt2-medium-q4f16_1.jsonl --tokens 17 --quant q0f16 "
      "--arch systolic-8x8");
}

TEST_CASE("cli --tiling-objective errors exit 2 naming the option", "[cli][errors]") {
  const std::string model =
      "model --model workloads/models/gpt2-medium.json --phase decode "
      "--context 30 --arch systolic-8x8";
  for (const std::string& command :
       {"analyze" + kGemm, "analyze" + kGemm + " --quant q0f16", "compare --quant q0f16" + kGemm,
        model, std::string("log --input workloads/logs/gpt2-medium-q4f16_1.jsonl --tokens 1")}) {
    check_fails(command + " --tiling-objective speed", "--tiling-objective");
    check_fails(command + " --tiling-objective speed", "latency, energy, dram_bytes, edp");
    // An explicit tiling leaves nothing to choose.
    check_fails(command + " --tile 8x8x8 --tiling-objective energy", "--tiling-objective");
  }
}

}  // namespace cli_tiling_objective_test
