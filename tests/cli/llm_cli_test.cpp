// `tenet model` and `tenet log` end to end through the built binary (shapes; the costs need the
// hardware cost model, whose absence must be an error, not invented numbers).
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_llm_cli_test {

namespace {

using Run = tenet::test::CliRun;

std::string quoted(const std::string& s) { return tenet::test::shell_quoted(s); }

Run run_tenet(const std::string& args) { return tenet::test::run_cli(args); }

std::string source(const std::string& rel) {
  return quoted(std::string(TENET_SOURCE_DIR) + "/" + rel);
}

nlohmann::json run_json(const std::string& args) {
  const Run r = run_tenet(args + " --format json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("tenet model --shapes-only: Llama-3-8B decode as JSON", "[cli][llm]") {
  const auto doc = run_json("model --model " + source("workloads/models/llama-3-8b.json") +
                            " --phase decode --context 2048 --batch 4 --shapes-only "
                            "--attention-kernel unfused");
  REQUIRE(doc.at("layers").size() == 7);
  const auto& qk = doc["layers"][1];
  CHECK(qk.at("name") == "self_attn.qk");
  CHECK(qk.at("batch") == 32);  // B·n_kv = 4·8
  CHECK(qk.at("M") == 4);       // r
  CHECK(qk.at("N") == 2048);    // L
  CHECK(qk.at("K") == 128);     // d
  CHECK(qk.at("count") == 32);
  CHECK(doc.at("totals").at("calls") == 6 * 32 + 1);
  CHECK(doc.at("totals").at("tokens") == 4);
  CHECK(doc.at("inputs").at("context") == 2048);
}

TEST_CASE("tenet model options: separate projections, all-token lm_head, merged shapes, CSV",
          "[cli][llm]") {
  const std::string model = "model --model " + source("workloads/models/llama-2-7b.json");
  auto doc = run_json(
      model + " --prompt 128 --qkv separate --gate-up separate --lm-head all --shapes-only " +
      "--attention-kernel unfused");
  CHECK(doc.at("layers").size() == 10);
  CHECK(doc["layers"].back().at("M") == 128);
  doc =
      run_json(model + " --phase decode --context 64 --qkv separate --merge-shapes --shapes-only");
  CHECK(doc["layers"][0].at("count") == 4 * 32);  // q, k, v, o are all 4096×4096
  const Run csv = run_tenet(model + " --prompt 16 --shapes-only --format csv");
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.rfind("name,phase,batch,M,N,K,count,", 0) == 0);
}

TEST_CASE("tenet model errors: bad config, bad lengths, and costs without a cost model",
          "[cli][llm][errors]") {
  const std::string model = "model --model " + source("workloads/models/gpt2.json");
  Run r = run_tenet(model + " --prompt 2000 --shapes-only");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("--prompt") != std::string::npos);
  r = run_tenet("model --model " + source("tests/data/llm/not_json.json") +
                " --prompt 4 --shapes-only");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("valid JSON") != std::string::npos);
  r = run_tenet(model + " --phase train --prompt 4 --shapes-only");
  CHECK(r.exit_code == 1);  // CLI11 rejects the value
  // No invented numbers: when the cost model cannot be built, the command fails.
  r = run_tenet(model + " --prompt 4 --arch nonexistent-arch-preset");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("cycles") == std::string::npos);
}

TEST_CASE("tenet log: the sample logs in both formats give the same aggregated calls",
          "[cli][llm]") {
  const auto text = run_json("log --input " + source("workloads/logs/gpt2-medium-q4f16_1.txt") +
                             " --shapes-only");
  const auto jsonl = run_json("log --input " + source("workloads/logs/gpt2-medium-q4f16_1.jsonl") +
                              " --shapes-only");
  CHECK(text.at("layers") == jsonl.at("layers"));
  CHECK(text.at("totals").at("calls") == 1649);
  CHECK(text.at("inputs").at("text_records") == 1649);
  CHECK(jsonl.at("inputs").at("json_records") == 1649);
  const auto& seed = text["layers"][1];
  CHECK(seed.at("name") == "fused_fused_dequantize1_fused_NT_matmul6_add7_add8");
  CHECK((seed.at("batch") == 1 && seed.at("M") == 37 && seed.at("N") == 1024 &&
         seed.at("K") == 1024));
  CHECK(seed.at("weights_quantized") == true);
  CHECK(seed.at("layout") == "NT");
  CHECK(seed.at("epilogue_ops") == 2);
}

TEST_CASE("tenet log: a bad line fails with its number, --lenient skips and reports it",
          "[cli][llm][errors]") {
  const std::string path = std::string(TENET_TEST_DATA_DIR) + "/llm/bad_line.log";
  Run r = run_tenet("log --input " + quoted(path) + " --shapes-only");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("bad_line.log: line 3:") != std::string::npos);
  r = run_tenet("log --input " + quoted(path) + " --shapes-only --lenient --format json");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("warning: skipped 1 malformed line(s)") != std::string::npos);
  const auto doc = nlohmann::json::parse(r.out.substr(r.out.find('{')));
  CHECK(doc.at("inputs").at("skipped") == 1);
  CHECK(doc.at("inputs").at("skipped_lines") == nlohmann::json::array({3}));
  CHECK(doc.at("totals").at("calls") == 3);
}

}  // namespace cli_llm_cli_test
