// The family table (src/llm/model_families.cpp): one row per family, every name it is known by
// found back to it and to no other row, and each row's rules as the reader applies them.
#include "llm/model_families.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tenet/llm/model_config.hpp"

using nlohmann::json;
using namespace tenet;
using namespace tenet::llm;
using namespace tenet::llm::config_detail;

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace llm_model_families_test {

TEST_CASE("every name of a family finds its row and no other", "[llm][config][families]") {
  std::map<std::string, std::string> owner;  // a name → the row that claims it
  const auto claim = [&](const std::string& name, const Family& f) {
    const auto [at, first] = owner.emplace(name, f.model_type);
    INFO(name << " claimed by " << f.model_type << " and " << at->second);
    CHECK(first);
  };
  for (const Family& f : families()) {
    INFO(f.model_type);
    CHECK(!f.display.empty());
    CHECK(!f.config_class.empty());
    CHECK(find_family(f.model_type) == &f);
    claim("type " + f.model_type, f);
    for (const std::string& t : f.other_types) {
      CHECK(find_family(t) == &f);
      claim("type " + t, f);
    }
    if (!f.wrapper_type.empty()) {
      CHECK(find_family(f.wrapper_type) == &f);
      CHECK(family_of_wrapper(f.wrapper_type) == &f);
      claim("type " + f.wrapper_type, f);
    } else {
      CHECK(family_of_wrapper(f.model_type) == nullptr);
    }
    for (const std::string& a : f.architectures) {
      CHECK(type_of_architecture(a) == f.model_type);
      claim("class " + a, f);
    }
    for (const std::string& a : f.wrapper_architectures) {
      CHECK(type_of_architecture(a) == f.wrapper_type);
      claim("class " + a, f);
    }
  }
  CHECK(find_family("") == nullptr);
  CHECK(find_family("my_new_llm") == nullptr);
  CHECK(type_of_architecture("MyNewLlmForCausalLM") == std::nullopt);
  CHECK(type_of_keys(json{{"n_embd", 64}}) == "gpt2");
  CHECK(type_of_keys(json{{"hidden_size", 64}}).empty());
}

TEST_CASE("the generic family is Llama's conventions with PretrainedConfig's defaults",
          "[llm][config][families]") {
  const Family& g = generic_family();
  const Family& llama = *find_family("llama");
  CHECK(g.model_type.empty());
  CHECK(g.config_class == "PretrainedConfig");
  REQUIRE(g.defaults.size() == 1);
  CHECK(std::string(g.defaults[0].key) == "tie_word_embeddings");
  CHECK(g.defaults[0].value == true);
  CHECK(g.mlp == llama.mlp);
  CHECK(g.norm == llama.norm);
  CHECK(g.norms_per_layer == llama.norms_per_layer);
  CHECK(g.names == llama.names);
  CHECK(g.size_keys.hidden == llama.size_keys.hidden);
  CHECK((g.qkv_bias || g.o_bias || g.mlp_bias || g.fused_qkv || g.fused_gate_up) == false);
}

// A family's rules, read off its row: the same config read as two families differs exactly where
// their rows do.
TEST_CASE("a row's rules decide the reading, not its name", "[llm][config][families]") {
  const json sizes = {{"hidden_size", 256},
                      {"num_hidden_layers", 4},
                      {"num_attention_heads", 8},
                      {"num_key_value_heads", 8},
                      {"intermediate_size", 512},
                      {"vocab_size", 1000},
                      {"max_position_embeddings", 128}};
  const auto read = [&](const char* type, json extra = json::object()) {
    json doc = sizes;
    doc["model_type"] = type;
    for (const auto& [k, v] : extra.items()) doc[k] = v;
    return parse_model_config(doc, "x.json");
  };
  SECTION("parallel blocks: always, by key with the family's default, never") {
    CHECK(read("phi").parallel_blocks);
    CHECK(read("cohere").parallel_blocks);
    CHECK(read("gpt_neox").parallel_blocks);  // use_parallel_residual: GPTNeoXConfig's true
    CHECK_FALSE(read("gpt_neox", {{"use_parallel_residual", false}}).parallel_blocks);
    CHECK_FALSE(read("stablelm").parallel_blocks);
    CHECK(read("stablelm", {{"use_parallel_residual", true}}).parallel_blocks);
    CHECK_FALSE(read("llama", {{"use_parallel_residual", true}}).parallel_blocks);  // not its key
  }
  SECTION("norms: LayerNorm 2h, its bias-free form h, RMSNorm h; per layer by the row") {
    const std::int64_t h = 256, layers = 4;
    CHECK(read("llama").norm_parameters == (2 * layers + 1) * h);
    CHECK(read("gemma2").norm_parameters == (4 * layers + 1) * h);
    CHECK(read("stablelm").norm_parameters == (2 * layers + 1) * 2 * h);
    CHECK(read("cohere").norm_parameters == (layers + 1) * h);
    CHECK(read("bloom").norm_parameters == (2 * layers + 1) * 2 * h + 2 * h);  // embedding norm
    // Falcon's original parallel blocks share one LayerNorm; the new architecture has two.
    const json old_falcon = {{"multi_query", true}};
    CHECK(read("falcon", old_falcon).norm_parameters == (layers + 1) * 2 * h);
    CHECK(read("falcon", {{"new_decoder_architecture", true}}).norm_parameters ==
          (2 * layers + 1) * 2 * h);
  }
  SECTION("rotary positions: learned (GPT-2, OPT), ALiBi (BLOOM), none (Jamba) are not") {
    CHECK(read("llama").rotary);
    CHECK(read("my_new_llm").rotary);
    CHECK_FALSE(read("opt").rotary);
    CHECK_FALSE(read("bloom").rotary);
    CHECK_FALSE(read("jamba").rotary);
    CHECK_FALSE(read("gpt2").rotary);
  }
  SECTION("q/k norms, gated attention, lm_head bias") {
    // a q and a k norm of one head (d = 32) per layer
    CHECK(read("qwen3", {{"head_dim", 32}}).other_parameters == 4 * 2 * 32);
    CHECK(read("qwen2").other_parameters == 0);
    CHECK(read("qwen3_next").gated_attention);
    CHECK_FALSE(read("qwen3_next", {{"attn_output_gate", false}}).gated_attention);
    CHECK_FALSE(read("llama").gated_attention);
    CHECK(read("phi").lm_head_bias);
    CHECK_FALSE(read("llama").lm_head_bias);
  }
}

}  // namespace llm_model_families_test
