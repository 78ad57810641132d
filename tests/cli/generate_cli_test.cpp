// `tenet generate` end to end: the contract's JSON keys, the table's summary line, the same
// matmul costs as `tenet model` (one pipeline), exit code 2 naming the option on bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_generate_cli_test {

using nlohmann::json;

namespace {

tenet::test::CliRun run(const std::string& args) {
  return tenet::test::run_cli(args, std::string(TENET_SOURCE_DIR));
}

json run_json(const std::string& args) {
  const tenet::test::CliRun r = run(args + " --format json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

const std::string kRequest =
    "generate --model workloads/models/llama-3.2-1b.json --arch systolic-16x16 --quant q4f16_1 "
    "--prompt 48 --tokens 4 --batch 2";

}  // namespace

TEST_CASE("tenet generate: the contract's keys", "[cli][generate]") {
  const json doc = run_json(kRequest + " --tp 2 --link-gbps 400");
  for (const char* key :
       {"ttft_seconds", "tpot_seconds", "e2e_seconds", "tokens_per_second", "steps"})
    CHECK(doc["timeline"].contains(key));
  REQUIRE(doc["timeline"]["steps"].size() == 3);
  CHECK(doc["timeline"]["steps"][0]["context"] == 49);
  CHECK(doc["timeline"]["steps"][2]["context"] == 51);
  for (const char* key :
       {"weights_bytes", "kv_cache_bytes", "total_bytes", "capacity_bytes", "fits", "max_batch"})
    CHECK(doc["memory"].contains(key));
  // No softmax row: the fused attention kernel carries its online softmax (its unfused rows'
  // softmax: fused_attention_model_test.cpp).
  CHECK_FALSE(doc["ops"].contains("softmax"));
  for (const char* kind :
       {"matmul", "norm", "rotary", "activation", "residual", "kv_append", "embedding", "logits"}) {
    INFO(kind);
    REQUIRE(doc["ops"].contains(kind));
    CHECK(doc["ops"][kind]["seconds"].get<double>() > 0);
    CHECK(doc["ops"][kind].contains("dram_bytes"));
  }
  for (const char* key : {"tp", "pp", "layer_collective_bytes", "collective_seconds",
                          "embedding_collective_bytes", "logits_collective_bytes"})
    CHECK(doc["parallel"].contains(key));
  CHECK(doc["parallel"]["tp"] == 2);
  CHECK(doc["parallel"]["link_gbps"] == 400.0);
}

TEST_CASE("tenet generate: the prefill's matmuls cost what tenet model reports",
          "[cli][generate]") {
  const json request = run_json(
      "generate --model workloads/models/llama-3.2-1b.json --arch systolic-16x16 --quant "
      "q4f16_1 --prompt 48 --tokens 1 --batch 2");
  const json model = run_json(
      "model --model workloads/models/llama-3.2-1b.json --arch systolic-16x16 --quant q4f16_1 "
      "--phase prefill --prompt 48 --batch 2");
  CHECK(request["ops"]["matmul"]["seconds"].get<double>() ==
        Approx(model["totals"]["seconds"].get<double>()).epsilon(1e-9));
  CHECK(request["ops"]["matmul"]["dram_bytes"] == model["totals"]["dram_bytes"]);
  CHECK(request["timeline"]["steps"].empty());
  CHECK(request["timeline"]["tpot_seconds"].is_null());
  CHECK(request["timeline"]["e2e_seconds"] == request["timeline"]["ttft_seconds"]);
}

TEST_CASE("tenet generate: table summary and bad input", "[cli][generate]") {
  const tenet::test::CliRun table = run(kRequest);
  INFO(table.out);
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.find("TTFT ") != std::string::npos);
  CHECK(table.out.find("tokens/s, fits: yes") != std::string::npos);

  const tenet::test::CliRun split = run(kRequest + " --tp 3 --link-gbps 100");
  CHECK(split.exit_code == 2);
  CHECK(split.out.find("--tp") != std::string::npos);
  const tenet::test::CliRun no_link = run(
      "generate --model workloads/models/llama-3.2-1b.json --arch eyeriss --prompt 8 --tokens 2 "
      "--tp 2");
  CHECK(no_link.exit_code == 2);
  CHECK(no_link.out.find("--link-gbps") != std::string::npos);
  const tenet::test::CliRun schemes =
      run("generate --model workloads/models/llama-3.2-1b.json --prompt 8 --tokens 2 --quant "
          "q0f16,q4f16_1");
  CHECK(schemes.exit_code == 2);
}

TEST_CASE("tenet generate --tp: per-chip matmul time and memory fall to about 1/tp",
          "[cli][generate][tp]") {
  // Dense GQA, GQA with 2 KV heads (tp 4 replicates them), multi-head (gated and plain MLP),
  // MoE: each at tp 1, 2 and 4 on the default accelerator, costed by the pipeline.
  const char* models[] = {
      "workloads/models/llama-3-8b.json",         "tests/data/llm/tp/qwen2-1.5b.json",
      "workloads/models/llama-2-7b.json",         "workloads/models/gpt2.json",
      "tests/data/llm/tp/baichuan2-7b-base.json", "workloads/models/mixtral-8x7b-v0.1.json",
      "tests/data/llm/tp/qwen2-57b-a14b.json"};
  for (const char* model : models) {
    const std::string request =
        std::string("generate --model ") + model + " --prompt 512 --tokens 4 --link-gbps 400";
    const json one = run_json(request);
    const double time = one["ops"]["matmul"]["seconds"].get<double>();
    const double memory = one["memory"]["per_chip_bytes"].get<double>();
    for (int tp : {2, 4}) {
      INFO(model << " at tp " << tp);
      const json r = run_json(request + " --tp " + std::to_string(tp));
      const double t = r["ops"]["matmul"]["seconds"].get<double>() / time;
      CHECK(t >= 0.85 / tp);
      CHECK(t <= 1.2 / tp);
      const double m = r["memory"]["per_chip_bytes"].get<double>() / memory;
      CHECK(m >= 1.0 / tp);
      CHECK(m <= 1.0 / tp + 0.15);
      CHECK(r["parallel"]["layer_collective_bytes"].get<double>() > 0);
      CHECK(r["memory"]["per_chip_weights_bytes"].get<double>() <=
            r["memory"]["per_chip_bytes"].get<double>());
    }
  }
}

TEST_CASE("tenet generate --tp: a split that cannot be made names the model, layer kind and tp",
          "[cli][generate][tp]") {
  // Multi-head attention splits (it exited 2 with an internal "self_attn.qk" dimension).
  CHECK(run("generate --model workloads/models/llama-2-7b.json --prompt 64 --tokens 2 --tp 2 "
            "--link-gbps 400")
            .exit_code == 0);
  const tenet::test::CliRun heads =
      run("generate --model workloads/models/falcon-7b.json --prompt 64 --tokens 2 --tp 2 "
          "--link-gbps 400");
  INFO(heads.out);
  CHECK(heads.exit_code == 2);
  for (const char* part : {"--tp:", "falcon-7b", "tp = 2", "attention layers", "71 query heads"})
    CHECK(heads.out.find(part) != std::string::npos);
  const tenet::test::CliRun kv =
      run("generate --model tests/data/llm/tp/qwen2-1.5b.json --prompt 64 --tokens 2 --tp 3 "
          "--link-gbps 400");
  INFO(kv.out);
  CHECK(kv.exit_code == 2);
  for (const char* part : {"--tp:", "qwen2-1.5b", "tp = 3", "2 KV heads", "replicated"})
    CHECK(kv.out.find(part) != std::string::npos);
}

TEST_CASE("tenet generate: an absent config key is its config class's default, listed",
          "[cli][generate][defaults]") {
  // SmolLM3-3B's config leaves tie_word_embeddings out: SmolLM3Config's default ties the head,
  // so its fp16 weights are 6.15 GB (untied: 6.68 GB).
  const json doc =
      run_json("generate --model tests/data/llm/tp/smollm3-3b.json --prompt 16 --tokens 2");
  CHECK(doc["memory"]["weights_bytes"].get<double>() == Approx(6.15e9).epsilon(0.005));
  bool said = false;
  for (const json& a : doc["assumptions"])
    said |= a == "tie_word_embeddings = true (SmolLM3Config's default; the config states none)";
  CHECK(said);
  const tenet::test::CliRun table =
      run("generate --model tests/data/llm/tp/smollm3-3b.json --prompt 16 --tokens 2");
  CHECK(table.out.find("warning: tie_word_embeddings = true (SmolLM3Config's default") !=
        std::string::npos);
}

}  // namespace cli_generate_cli_test
