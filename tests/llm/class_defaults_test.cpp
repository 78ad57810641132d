// An absent config.json key means its config class's default (src/llm/model_families.cpp), as
// transformers loads it; an unknown family's, PretrainedConfig's. Each default taken is listed
// among the assumptions with its class.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "llm/model_families.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/llm/generation.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/quant/quant_json.hpp"

using nlohmann::json;
using namespace tenet;
using namespace tenet::llm;

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace llm_class_defaults_test {

namespace {

json read_doc(const std::string& path) { return json::parse(std::ifstream(path)); }
json bundled_doc(const std::string& name) {
  return read_doc(std::string(TENET_SOURCE_DIR) + "/workloads/models/" + name + ".json");
}
json test_doc(const std::string& name) {
  return read_doc(std::string(TENET_TEST_DATA_DIR) + "/llm/" + name + ".json");
}

bool lists(const ModelConfig& c, const std::string& note) {
  for (const std::string& a : c.assumptions)
    if (a == note) return true;
  return false;
}

std::string default_note(const std::string& key, const std::string& value, const std::string& cls) {
  return key + " = " + value + " (" + cls + "'s default; the config states none)";
}

// Weight bytes of the model in bf16 / fp16 (llm::evaluate_request's memory).
double weights_gb(const ModelConfig& m) {
  RequestOptions o;
  o.prompt = 8;
  o.tokens = 1;
  auto cost = [](const MatmulShape&) {
    LayerCost c;
    c.cycles = 1;
    c.bound = "compute";
    return c;
  };
  const RequestReport r =
      evaluate_request(m, o, CostModel{cost, 1e9, "fake"},
                       arch::load_accelerator_preset("scalable-32x32"), quant::load_quant("q0f16"));
  return r.memory.weights_bytes.get_d() / 1e9;
}

}  // namespace

TEST_CASE("SmolLM3-3B without tie_word_embeddings: SmolLM3Config's default ties the head",
          "[llm][config][defaults]") {
  const json doc = test_doc("tp/smollm3-3b");
  REQUIRE_FALSE(doc.contains("tie_word_embeddings"));
  const ModelConfig c = parse_model_config(doc, "smollm3-3b.json");
  CHECK(c.tie_embeddings);
  CHECK(lists(c, default_note("tie_word_embeddings", "true", "SmolLM3Config")));
  // 3.08 B parameters in bf16: 6.15 GB (untied it would be 6.68 GB).
  CHECK(weights_gb(c) == Approx(6.15).epsilon(0.005));
  json untied = doc;
  untied["tie_word_embeddings"] = false;
  CHECK(weights_gb(parse_model_config(untied, "x.json")) == Approx(6.68).epsilon(0.005));
  // Read as an unknown family it is tied too: PretrainedConfig's default.
  json unknown = doc;
  unknown["model_type"] = "my_smol";
  unknown.erase("architectures");
  const ModelConfig u = parse_model_config(unknown, "x.json");
  CHECK(u.tie_embeddings);
  CHECK(lists(u, default_note("tie_word_embeddings", "true", "PretrainedConfig")));
}

TEST_CASE("tie_word_embeddings absent: each family's class default", "[llm][config][defaults]") {
  struct Case {
    const char* model_type;
    bool tied;
    const char* cls;
  };
  // transformers' config classes: Llama, Mistral, Qwen2, Phi-3, GPT-NeoX, GPT-J: false; Gemma,
  // Gemma-2, GPT-2, OPT, BLOOM, Falcon, Cohere, StarCoder2: true.
  const Case cases[] = {
      {"llama", false, "LlamaConfig"},
      {"mistral", false, "MistralConfig"},
      {"mixtral", false, "MixtralConfig"},
      {"qwen2", false, "Qwen2Config"},
      {"qwen3", false, "Qwen3Config"},
      {"phi3", false, "Phi3Config"},
      {"phi", false, "PhiConfig"},
      {"gpt_neox", false, "GPTNeoXConfig"},
      {"gptj", false, "GPTJConfig"},
      {"deepseek_v2", false, "DeepseekV2Config"},
      {"gemma", true, "GemmaConfig"},
      {"gemma2", true, "Gemma2Config"},
      {"gpt2", true, "GPT2Config"},
      {"gpt_bigcode", true, "GPTBigCodeConfig"},
      {"opt", true, "OPTConfig"},
      {"bloom", true, "BloomConfig"},
      {"falcon", true, "FalconConfig"},
      {"cohere", true, "CohereConfig"},
      {"starcoder2", true, "Starcoder2Config"},
      {"my_new_llm", true, "PretrainedConfig"},
  };
  for (const Case& k : cases) {
    INFO(k.model_type);
    json doc = {
        {"model_type", k.model_type},   {"hidden_size", 256},       {"n_embd", 256},
        {"num_hidden_layers", 2},       {"num_attention_heads", 4}, {"num_key_value_heads", 4},
        {"intermediate_size", 512},     {"vocab_size", 1000},       {"n_inner", 512},
        {"max_position_embeddings", 64}};
    const ModelConfig c = parse_model_config(doc, "x.json");
    CHECK(c.tie_embeddings == k.tied);
    CHECK(lists(c, default_note("tie_word_embeddings", k.tied ? "true" : "false", k.cls)));
    // Stated, the key wins and no default is listed for it.
    doc["tie_word_embeddings"] = !k.tied;
    const ModelConfig stated = parse_model_config(doc, "x.json");
    CHECK(stated.tie_embeddings == !k.tied);
    for (const std::string& a : stated.assumptions)
      CHECK(a.find("tie_word_embeddings =") == std::string::npos);
  }
  // Every family the reader knows has a class in the table (none falls to PretrainedConfig).
  for (const config_detail::Family& d : config_detail::families()) {
    INFO(d.model_type);
    CHECK(!d.config_class.empty());
    CHECK(d.config_class != "PretrainedConfig");
  }
}

TEST_CASE("every key the reader reads: an absent one is the class default, listed",
          "[llm][config][defaults]") {
  SECTION("a Llama config with no sizes is LlamaConfig(): Llama-2-7B's") {
    const ModelConfig c = parse_model_config(json{{"model_type", "llama"}}, "x.json");
    CHECK(c.hidden == 4096);
    CHECK(c.layers == 32);
    CHECK(c.heads == 32);
    CHECK(c.kv_heads == 32);  // num_key_value_heads None: one per query head
    CHECK(c.intermediate == 11008);
    CHECK(c.vocab == 32000);
    CHECK(c.max_positions == 2048);
    for (const char* key : {"hidden_size", "num_hidden_layers", "intermediate_size", "vocab_size"})
      CHECK(std::any_of(c.assumptions.begin(), c.assumptions.end(), [&](const std::string& a) {
        return a.rfind(std::string(key) + " = ", 0) == 0 &&
               a.find("LlamaConfig") != std::string::npos;
      }));
  }
  SECTION("Mistral: 8 KV heads and a 4096-token window unless stated (null: no window)") {
    json doc = bundled_doc("mistral-7b-v0.1");
    doc.erase("num_key_value_heads");
    doc.erase("sliding_window");
    const ModelConfig c = parse_model_config(doc, "x.json");
    CHECK(c.kv_heads == 8);
    CHECK(c.sliding_window == 4096);
    CHECK(lists(c, default_note("num_key_value_heads", "8", "MistralConfig")));
    CHECK(lists(c, default_note("sliding_window", "4096", "MistralConfig")));
    doc["sliding_window"] = nullptr;
    CHECK_FALSE(parse_model_config(doc, "x.json").sliding_window);
  }
  SECTION("Qwen2: no window unless use_sliding_window; max_window_layers 28") {
    json doc = bundled_doc("qwen2-7b");
    doc.erase("use_sliding_window");
    const ModelConfig c = parse_model_config(doc, "x.json");
    CHECK_FALSE(c.sliding_window);
    CHECK(lists(c, default_note("use_sliding_window", "false", "Qwen2Config")));
    doc["use_sliding_window"] = true;
    doc.erase("max_window_layers");
    const ModelConfig w = parse_model_config(doc, "x.json");
    CHECK(w.window_layers == 0);  // 28 layers, the window from layer 28 on
    doc["num_hidden_layers"] = 30;
    CHECK(parse_model_config(doc, "x.json").window_layers == 2);
  }
  SECTION("Falcon: FalconConfig's context of 2048 (its config states none)") {
    const ModelConfig c =
        load_model_config(std::string(TENET_SOURCE_DIR) + "/workloads/models/falcon-7b.json");
    CHECK(c.max_positions == 2048);
    CHECK(lists(c, default_note("max_position_embeddings", "2048", "FalconConfig")));
  }
  SECTION("GPT-2 keys: a default is not used when another key states the quantity") {
    json doc = {{"model_type", "gpt2"}, {"hidden_size", 512}, {"n_layer", 2},
                {"n_head", 8},          {"vocab_size", 100},  {"n_positions", 64}};
    const ModelConfig c = parse_model_config(doc, "x.json");
    CHECK(c.hidden == 512);  // not GPT2Config's n_embd 768
    for (const std::string& a : c.assumptions) CHECK(a.find("n_embd =") == std::string::npos);
    doc.erase("hidden_size");
    CHECK(parse_model_config(doc, "x.json").hidden == 768);
  }
  SECTION("Gemma-3's text_config: a layer_types list stands for sliding_window_pattern") {
    json doc = bundled_doc("gemma-3-27b-it");
    const ModelConfig c = parse_model_config(doc, "x.json");
    CHECK(lists(c, default_note("sliding_window_pattern", "6", "Gemma3TextConfig")));
    json listed = doc;
    json types = json::array();
    for (int i = 0; i < 62; ++i) types.push_back(i % 2 ? "full_attention" : "sliding_attention");
    listed["text_config"]["layer_types"] = types;
    const ModelConfig l = parse_model_config(listed, "x.json");
    CHECK(l.window_layers == 31);
    for (const std::string& a : l.assumptions)
      CHECK(a.find("sliding_window_pattern") == std::string::npos);
  }
  SECTION("null is stated: not set, not the class default") {
    json doc = bundled_doc("llama-3-8b");
    doc["tie_word_embeddings"] = nullptr;
    doc["mlp_bias"] = nullptr;
    const ModelConfig c = parse_model_config(doc, "x.json");
    CHECK_FALSE(c.tie_embeddings);
    CHECK(c.assumptions.empty());
  }
}

TEST_CASE("the bundled configs: the class defaults they rely on", "[llm][config][defaults]") {
  // Configs that leave tie_word_embeddings out (their class's default is true): tied.
  for (const char* name : {"gemma-2b", "gemma-2-9b", "gpt2", "opt-6.7b", "bloom-560m", "falcon-7b",
                           "aya-23-8b", "starcoder2-7b", "starcoder"}) {
    INFO(name);
    const json doc = bundled_doc(name);
    REQUIRE_FALSE(doc.contains("tie_word_embeddings"));
    CHECK(parse_model_config(doc, std::string(name) + ".json").tie_embeddings);
  }
}

}  // namespace llm_class_defaults_test
