// Bad model configs and routing files through the built CLI: exit 2, a message naming the file,
// the key (JSON pointer) and the error code; an unknown family with the standard keys runs and
// prints its assumptions.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "errors/error_test_util.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/model_config.hpp"

using namespace error_test;

namespace {

std::string model(const char* name) {
  return "model --shapes-only --prompt 16 --model " + quoted(fixture(name));
}

void check_fails(const std::string& args, std::initializer_list<const char*> mentions) {
  INFO(args);
  const CliResult r = run_cli(args);
  INFO(r.output);
  CHECK(r.exit_code == 2);
  for (const char* m : mentions) CHECK(r.output.find(m) != std::string::npos);
}

}  // namespace

TEST_CASE("model: bad configs exit 2 naming the key", "[errors][cli][llm]") {
  check_fails(model("model_heads_not_dividing.json"),
              {"model_heads_not_dividing.json: /num_attention_heads:", "must divide hidden_size",
               "[range]"});
  check_fails(model("model_kv_not_dividing.json"),
              {"model_kv_not_dividing.json: /num_key_value_heads:", "[range]"});
  check_fails(model("model_topk_above_experts.json"),
              {"/num_experts_per_tok:", "exceeds the 8 experts", "[range]"});
  check_fails(model("model_no_hidden.json"),
              {"model_no_hidden.json: /hidden_size:", "hidden_size, n_embd, n_embed, d_model",
               "[missing-field]"});
  check_fails(model("model_zero_size.json"), {"/intermediate_size:", "got 0", "[range]"});
  check_fails(model("model_negative_layers.json"), {"/num_hidden_layers:", "got -4", "[range]"});
  // A layer count no model comes near is refused before its stack is allocated (a fuzz finding:
  // a huge layer count ran out of memory; 4e9 here).
  check_fails(model("model_too_many_layers.json"),
              {"/num_hidden_layers:", "at most 100000 decoder layers, got 4000000000", "[range]"});
}

TEST_CASE("model: an unknown family with the standard keys runs and prints its assumptions",
          "[errors][cli][llm]") {
  const CliResult r = run_cli(model("model_unknown_family.json"));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("warning: unknown model_type 'my_new_llm'") != std::string::npos);
  const CliResult j = run_cli(model("model_unknown_family.json") + " --format json");
  CHECK(j.exit_code == 0);
  CHECK(j.output.find("\"assumptions\": [") != std::string::npos);
  // An unknown family's absent keys are PretrainedConfig's: tied embeddings, said so.
  CHECK(r.output.find("warning: tie_word_embeddings = true (PretrainedConfig's default") !=
        std::string::npos);
}

TEST_CASE("model: a known family's absent size is its config class's default, said so",
          "[errors][cli][llm]") {
  // model_no_hidden.json as a Llama: LlamaConfig's hidden_size 4096 (an unknown family's absent
  // size is an error: the test above).
  const std::string path = std::string(TENET_TEST_DATA_DIR) + "/errors/model_no_hidden.json";
  std::ifstream in(path);
  nlohmann::json doc = nlohmann::json::parse(in);
  doc["model_type"] = "llama";
  doc["architectures"] = {"LlamaForCausalLM"};
  const std::string llama = std::string(TENET_BINARY_DIR) + "/model_no_hidden_llama.json";
  std::ofstream(llama) << doc.dump();
  const CliResult r = run_cli("model --shapes-only --prompt 8 --model " + quoted(llama));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("warning: hidden_size = 4096 (LlamaConfig's default; the config states "
                      "none)") != std::string::npos);
}

TEST_CASE("model: bad routing files exit 2 naming the file, entry or option",
          "[errors][cli][llm]") {
  const std::string mixtral =
      "model --shapes-only --prompt 10 --model " +
      quoted(std::string(TENET_SOURCE_DIR) + "/workloads/models/mixtral-8x7b-v0.1.json");
  check_fails(mixtral + " --routing " + quoted(fixture("routing_bad_entry.json")),
              {"routing_bad_entry.json: /tokens_per_expert/2:", "[range]"});
  check_fails(mixtral + " --routing " + quoted(fixture("routing_wrong_total.json")),
              {"--routing:", "routes 17 tokens", "T·k = 10·2 = 20", "[range]"});
  check_fails(mixtral + " --routing " + quoted(fixture("no_such_routing.json")),
              {"no_such_routing.json", "[io]"});
}

// Found by tests/python/test_hypothesis.py: a config that is an array whose dump is cut inside a
// 3-byte character gave an error message that was not UTF-8 (Python raised UnicodeDecodeError
// instead of tenet.InputError). Every excerpt of input in a message is now valid UTF-8.
TEST_CASE("a message quoting input is valid UTF-8 where the quote is cut", "[errors][llm]") {
  const nlohmann::json doc =
      nlohmann::json::parse("[1000000000000001.0, [\"\\u001f\\u0100\\u0100\\u0800\"]]");
  try {
    tenet::llm::parse_model_config(doc, "config.json");
    FAIL("accepted");
  } catch (const tenet::InputError& e) {
    const std::string what = e.what();
    CHECK(tenet::utf8_prefix(what, what.size()) == what);
    CHECK(e.code() == "type");
  }
}
