// `tenet model` / `tenet log` with costs (eval::make_cost_model on the default accelerator) and the
// side-by-side comparison of quantization schemes: totals are sums of the rows, rows are the
// per-call cost x count, per-call costs equal eval::evaluate, schemes keep their order.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"
#include "layer_request.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/quant/quant_json.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_model_cost_test {

using nlohmann::json;
using namespace tenet;

namespace {

using Run = tenet::test::CliRun;

Run run(const std::string& args) {
  return tenet::test::run_cli(args, std::string(TENET_SOURCE_DIR));
}

json run_json(const std::string& args) {
  const Run r = run(args + " --format json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

const std::string kGpt2Decode =
    "model --model workloads/models/gpt2-medium.json --phase decode --context 300";

long long num(const json& v) { return v.get<long long>(); }

// Totals are the sums of the rows; each row is its per-call cost times its count.
void check_totals(const json& doc) {
  long long cycles = 0, dram = 0, sram = 0, calls = 0;
  double energy = 0;
  for (const json& l : doc["layers"]) {
    const long long count = num(l["count"]);
    CHECK(num(l["cycles"]) == num(l["per_call"]["cycles"]) * count);
    CHECK(num(l["dram_bytes"]) == num(l["per_call"]["dram_bytes"]) * count);
    CHECK(num(l["sram_bytes"]) == num(l["per_call"]["sram_bytes"]) * count);
    CHECK(l["energy_pj"].get<double>() ==
          Approx(l["per_call"]["energy_pj"].get<double>() * static_cast<double>(count)));
    CHECK(l["bound"] == l["per_call"]["bound"]);
    cycles += num(l["cycles"]);
    dram += num(l["dram_bytes"]);
    sram += num(l["sram_bytes"]);
    energy += l["energy_pj"].get<double>();
    calls += count;
  }
  const json& t = doc["totals"];
  CHECK(num(t["cycles"]) == cycles);
  CHECK(num(t["dram_bytes"]) == dram);
  CHECK(num(t["sram_bytes"]) == sram);
  CHECK(num(t["calls"]) == calls);
  CHECK(t["energy_pj"].get<double>() == Approx(energy));
}

llm::MatmulShape shape_of(const json& l) {
  llm::MatmulShape s;
  s.name = l["name"].get<std::string>();
  s.batch = num(l["batch"]);
  s.m = num(l["M"]), s.n = num(l["N"]), s.k = num(l["K"]);
  s.layout = llm::parse_layout(l["layout"].get<std::string>());
  s.b_operand = llm::parse_b_operand(l["b_operand"].get<std::string>());
  if (l.contains("fused")) {  // a fused attention row: its heads per sequence
    const json& f = l["fused"];
    s.fused_attention = llm::FusedAttention{num(f["hq"]) / s.batch, num(f["hkv"]) / s.batch,
                                            f["causal"].get<bool>()};
  }
  return s;
}

}  // namespace

TEST_CASE("tenet model: totals, tokens/s and per-call costs from evaluate_layer", "[cli][llm]") {
  const json doc = run_json(kGpt2Decode + " --quant q4f16_1");
  REQUIRE(doc["layers"].size() >= 5);
  check_totals(doc);
  const json& t = doc["totals"];
  const double clock = doc["cost_model"]["clock_hz"].get<double>();
  CHECK(clock == 1e9);  // scalable-32x32 at 1000 MHz
  CHECK(t["seconds"].get<double>() == Approx(t["cycles"].get<double>() / clock));
  CHECK(t["tokens"] == 1);
  CHECK(t["tokens_per_second"].get<double>() == Approx(1.0 / t["seconds"].get<double>()));

  const auto acc = arch::load_accelerator_preset(arch::kDefaultAccelerator);
  const auto q4 = quant::load_preset("q4f16_1");
  for (const json& l : doc["layers"]) {
    const llm::MatmulShape s = shape_of(l);
    const eval::Request r =
        tenet::test::layer_request(acc, mapping::Dataflow::kOutputStationary, q4, s);
    // A fused attention row: the fused kernel's evaluation (eval::evaluate_fused_row).
    const llm::LayerCost c =
        s.fused_attention ? eval::evaluate_fused_row(r, s) : eval::evaluate(r).call_cost();
    INFO(l["name"]);
    CHECK(l["per_call"]["cycles"] == poly::to_int64(c.cycles));
    CHECK(l["per_call"]["dram_bytes"] == poly::to_int64(c.dram_bytes));
    CHECK(l["per_call"]["bound"] == c.bound);
  }
}

TEST_CASE("tenet model: batch-4 decode produces 4 tokens per step, CSV totals", "[cli][llm]") {
  const json doc = run_json(kGpt2Decode + " --batch 4 --arch systolic-16x16 --dataflow ws");
  check_totals(doc);
  CHECK(doc["totals"]["tokens"] == 4);
  CHECK(doc["totals"]["tokens_per_second"].get<double>() ==
        Approx(4.0 / doc["totals"]["seconds"].get<double>()));
  const Run csv = run(kGpt2Decode + " --format csv");
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.rfind("name,phase,batch,M,N,K,count", 0) == 0);
  CHECK(csv.out.find("\ntotal,") != std::string::npos);
}

TEST_CASE("tenet model --quant a,b,c: one summary per scheme, in order", "[cli][llm]") {
  const std::string schemes = "q0f16,q4f16_1,smoothquant_w8a8";
  const json doc = run_json(kGpt2Decode + " --quant " + schemes);
  REQUIRE(doc["schemes"].size() == 3);
  const char* order[] = {"q0f16", "q4f16_1", "smoothquant_w8a8"};
  const double base = doc["schemes"][0]["totals"]["seconds"].get<double>();
  const double base_energy = doc["schemes"][0]["totals"]["energy_pj"].get<double>();
  for (std::size_t i = 0; i < 3; ++i) {
    const json& s = doc["schemes"][i];
    CHECK(s["scheme"] == order[i]);
    check_totals(s);
    CHECK(s["summary"]["speedup"].get<double>() ==
          Approx(base / s["totals"]["seconds"].get<double>()));
    CHECK(s["summary"]["energy_ratio"].get<double>() ==
          Approx(s["totals"]["energy_pj"].get<double>() / base_energy));
    CHECK(s["summary"]["dominant_bound"]["share"].get<double>() > 0);
    // The same numbers as a single-scheme run.
    const json single = run_json(kGpt2Decode + " --quant " + order[i]);
    CHECK(single["totals"]["cycles"] == s["totals"]["cycles"]);
    CHECK(single["totals"]["dram_bytes"] == s["totals"]["dram_bytes"]);
  }
  CHECK(doc["schemes"][0]["summary"]["speedup"].get<double>() == 1.0);
  // 4-bit weights move fewer bytes than fp16 ones.
  CHECK(num(doc["schemes"][1]["totals"]["dram_bytes"]) <
        num(doc["schemes"][0]["totals"]["dram_bytes"]));

  const Run table = run(kGpt2Decode + " --quant " + schemes);
  REQUIRE(table.exit_code == 0);
  std::size_t at = table.out.find("dominant bound");
  REQUIRE(at != std::string::npos);
  for (const char* name : order) {
    const std::size_t next = table.out.find(std::string("\n") + name + " ", at);
    CHECK(next != std::string::npos);
    at = next;
  }
  CHECK(table.out.find("speed-up") != std::string::npos);
  const Run csv = run(kGpt2Decode + " --quant " + schemes + " --format csv");
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.rfind("scheme,name,", 0) == 0);
  CHECK(csv.out.find("\nsmoothquant_w8a8,total,") != std::string::npos);
}

TEST_CASE("tenet log: costs of a logged run, the log's dequantize flags honoured", "[cli][llm]") {
  const std::string log = "log --input workloads/logs/gpt2-medium-q4f16_1.jsonl --tokens 17";
  const json doc = run_json(log + " --quant q4f16_1");
  check_totals(doc);
  CHECK(doc["totals"]["tokens"] == 17);
  CHECK(doc["totals"]["tokens_per_second"].get<double>() ==
        Approx(17.0 / doc["totals"]["seconds"].get<double>()));
  const json f16 = run_json(log + " --quant q0f16");
  CHECK(num(doc["totals"]["dram_bytes"]) < num(f16["totals"]["dram_bytes"]));
}

TEST_CASE("tenet model: cost option errors exit 2 naming the option", "[cli][llm][errors]") {
  for (const auto& [args, option] :
       {std::pair<std::string, std::string>{" --quant q0f16,,q4f16_1", "--quant"},
        {" --quant nope", "--quant"},
        {" --timing tenet", "--timing"},
        {" --dataflow xs", "--dataflow"},
        {" --array 4", "--array"},
        {" --tile 1x2x3:abc", "--tile"},
        {" --dequant-rate -1", "--dequant-rate"}}) {
    const Run r = run(kGpt2Decode + args);
    INFO(args << "\n" << r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find(option) != std::string::npos);
  }
}

}  // namespace cli_model_cost_test
