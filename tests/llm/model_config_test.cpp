// Model configs: the bundled public configs, both naming schemes, and every validation error.
#include "tenet/llm/model_config.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tenet/error.hpp"
#include "tenet/llm/model_matmuls.hpp"

using nlohmann::json;
using tenet::InputError;
using tenet::llm::load_model_config;
using tenet::llm::MlpKind;
using tenet::llm::ModelConfig;
using tenet::llm::parse_model_config;

namespace {

std::string model_path(const std::string& file) {
  return std::string(TENET_SOURCE_DIR) + "/workloads/models/" + file;
}

json llama_like() {
  return json::parse(R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "vocab_size": 128256, "max_position_embeddings": 8192})");
}

// The same sizes in a family the reader does not know: PretrainedConfig has no sizes, so a size
// left out is missing (a Llama's would be LlamaConfig's default).
json unknown_like() {
  json doc = llama_like();
  doc["model_type"] = "my_lm";
  return doc;
}

// The assumptions that are not a class's default for an absent key.
std::vector<std::string> other_assumptions(const ModelConfig& c) {
  std::vector<std::string> out;
  for (const std::string& a : c.assumptions)
    if (a.find("Config's default; the config states none)") == std::string::npos) out.push_back(a);
  return out;
}

json gpt2_like() {
  return json::parse(R"({"model_type": "gpt2", "n_embd": 1024, "n_layer": 24, "n_head": 16,
    "n_positions": 1024, "n_inner": null, "vocab_size": 50257})");
}

// Runs parse_model_config on `doc` and returns the InputError it must throw.
InputError parse_error(const json& doc) {
  try {
    parse_model_config(doc, "cfg.json");
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  throw;  // unreachable
}

void check_error(const json& doc, const std::string& code, const std::string& where) {
  const InputError e = parse_error(doc);
  CHECK(e.code() == code);
  CHECK(e.file() == "cfg.json");
  CHECK(e.where() == where);
  CHECK(std::string(e.what()).find("cfg.json") != std::string::npos);
}

}  // namespace

TEST_CASE("bundled model configs carry the published sizes, names and windows", "[llm][config]") {
  const std::int64_t kNone = 0;  // no sliding window
  struct Expected {
    const char* file;
    const char* name;  // "_name_or_path", else the file name
    const char* model_type;
    MlpKind mlp;
    std::int64_t h, layers, heads, kv, d, inter, vocab, context, window, window_layers;
  };
  constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();
  constexpr MlpKind P = MlpKind::kPlain, G = MlpKind::kGated;
  // Values of each config.json (workloads/models/SOURCES.md). Derived ones: d = h / n_h unless
  // head_dim / kv_channels is given; n_kv from the family's MQA keys; Qwen v1's I is half its
  // intermediate_size; Falcon and BLOOM have 4·h MLPs, BLOOM no context length (ALiBi), Falcon
  // FalconConfig's default 2048 (its config states none); windows: Mistral
  // v0.1, StarCoder2 and Phi-3 in every layer, Gemma-2 in every other layer, Qwen2's switched off.
  const Expected cases[] = {
      {"gpt2.json", "gpt2", "gpt2", P, 768, 12, 12, 12, 64, 3072, 50257, 1024, kNone, 0},
      {"gpt2-medium.json", "gpt2-medium", "gpt2", P, 1024, 24, 16, 16, 64, 4096, 50257, 1024, kNone,
       0},
      {"llama-2-7b.json", "meta-llama/Llama-2-7b-hf", "llama", G, 4096, 32, 32, 32, 128, 11008,
       32000, 4096, kNone, 0},
      {"llama-2-13b.json", "meta-llama/Llama-2-13b-hf", "llama", G, 5120, 40, 40, 40, 128, 13824,
       32000, 4096, kNone, 0},
      {"llama-3-8b.json", "meta-llama/Meta-Llama-3-8B", "llama", G, 4096, 32, 32, 8, 128, 14336,
       128256, 8192, kNone, 0},
      {"llama-3.1-8b.json", "llama-3.1-8b", "llama", G, 4096, 32, 32, 8, 128, 14336, 128256, 131072,
       kNone, 0},
      {"llama-3.1-70b.json", "llama-3.1-70b", "llama", G, 8192, 80, 64, 8, 128, 28672, 128256,
       131072, kNone, 0},
      {"llama-3.2-1b.json", "meta-llama/Llama-3.2-1B", "llama", G, 2048, 16, 32, 8, 64, 8192,
       128256, 131072, kNone, 0},
      {"mistral-7b-v0.1.json", "mistralai/Mistral-7B-v0.1", "mistral", G, 4096, 32, 32, 8, 128,
       14336, 32000, 32768, 4096, 32},
      {"mistral-nemo-base-2407.json", "mistral-nemo-base-2407", "mistral", G, 5120, 40, 32, 8, 128,
       14336, 131072, 1024000, kNone, 0},
      {"qwen2-7b.json", "Qwen/Qwen2-7B", "qwen2", G, 3584, 28, 28, 4, 128, 18944, 152064, 131072,
       kNone, 0},
      {"qwen2.5-7b.json", "qwen2.5-7b", "qwen2", G, 3584, 28, 28, 4, 128, 18944, 152064, 131072,
       kNone, 0},
      {"qwen-7b.json", "qwen-7b", "qwen", G, 4096, 32, 32, 32, 128, 11008, 151936, 32768, kNone, 0},
      {"mixtral-8x7b-v0.1.json", "mixtral-8x7b-v0.1", "mixtral", G, 4096, 32, 32, 8, 128, 14336,
       32000, 32768, kNone, 0},
      {"qwen1.5-moe-a2.7b.json", "qwen1.5-moe-a2.7b", "qwen2_moe", G, 2048, 24, 16, 16, 128, 5632,
       151936, 8192, kNone, 0},
      {"deepseek-v2-lite.json", "deepseek-v2-lite", "deepseek_v2", G, 2048, 27, 16, 16, 192, 10944,
       102400, 163840, kNone, 0},
      {"gemma-2b.json", "gemma-2b", "gemma", G, 2048, 18, 8, 1, 256, 16384, 256000, 8192, kNone, 0},
      {"gemma-2-9b.json", "gemma-2-9b", "gemma2", G, 3584, 42, 16, 8, 256, 14336, 256000, 8192,
       4096, 21},
      {"phi-2.json", "microsoft/phi-2", "phi", P, 2560, 32, 32, 32, 80, 10240, 51200, 2048, kNone,
       0},
      {"phi-3-mini-4k-instruct.json", "Phi-3-mini-4k-instruct", "phi3", G, 3072, 32, 32, 32, 96,
       8192, 32064, 4096, 2047, 32},
      {"falcon-7b.json", "falcon-7b", "falcon", P, 4544, 32, 71, 1, 64, 18176, 65024, 2048, kNone,
       0},
      {"opt-6.7b.json", "facebook/opt-6.7b", "opt", P, 4096, 32, 32, 32, 128, 16384, 50272, 2048,
       kNone, 0},
      {"opt-350m.json", "facebook/opt-350m", "opt", P, 1024, 24, 16, 16, 64, 4096, 50272, 2048,
       kNone, 0},
      {"pythia-6.9b.json", "pythia-6.9b", "gpt_neox", P, 4096, 32, 32, 32, 128, 16384, 50432, 2048,
       kNone, 0},
      {"bloom-560m.json", "bloom-560m", "bloom", P, 1024, 24, 16, 16, 64, 4096, 250880, kNoLimit,
       kNone, 0},
      {"starcoder.json", "bigcode/starcoder", "gpt_bigcode", P, 6144, 40, 48, 1, 128, 24576, 49152,
       8192, kNone, 0},
      {"starcoder2-7b.json", "starcoder2-7b", "starcoder2", P, 4608, 32, 36, 4, 128, 18432, 49152,
       16384, 4096, 32},
      {"gpt-j-6b.json", "gpt-j-6b", "gptj", P, 4096, 28, 16, 16, 256, 16384, 50400, 2048, kNone, 0},
      {"chatglm3-6b.json", "THUDM/chatglm3-6b", "chatglm", G, 4096, 28, 32, 2, 128, 13696, 65024,
       8192, kNone, 0},
  };
  for (const Expected& x : cases) {
    INFO(x.file);
    const ModelConfig c = load_model_config(model_path(x.file));
    INFO(c);
    CHECK(c.name == x.name);
    CHECK(c.model_type == x.model_type);
    CHECK(c.mlp == x.mlp);
    CHECK(c.hidden == x.h);
    CHECK(c.layers == x.layers);
    CHECK(c.heads == x.heads);
    CHECK(c.kv_heads == x.kv);
    CHECK(c.head_dim == x.d);
    CHECK(c.intermediate == x.inter);
    CHECK(c.vocab == x.vocab);
    CHECK(c.max_positions == x.context);
    CHECK(c.sliding_window.value_or(kNone) == x.window);
    CHECK(c.window_layers == x.window_layers);
    CHECK(c.group_size() == x.heads / x.kv);
  }
}

TEST_CASE("MoE and MLA fields of Mixtral, Qwen1.5-MoE and DeepSeek-V2-Lite", "[llm][config]") {
  const ModelConfig mixtral = load_model_config(model_path("mixtral-8x7b-v0.1.json"));
  REQUIRE(mixtral.moe);
  CHECK(*mixtral.moe == tenet::llm::MoeConfig{8, 2, 14336, 0, false, 32});
  CHECK(mixtral.dense_layers() == 0);
  CHECK(mixtral.names.moe == "block_sparse_moe.");
  const ModelConfig qwen = load_model_config(model_path("qwen1.5-moe-a2.7b.json"));
  REQUIRE(qwen.moe);
  CHECK(*qwen.moe == tenet::llm::MoeConfig{60, 4, 1408, 5632, true, 24});
  CHECK(qwen.qkv_bias);
  const ModelConfig ds = load_model_config(model_path("deepseek-v2-lite.json"));
  REQUIRE(ds.moe);
  // first_k_dense_replace 1: layer 0 dense, layers 1..26 MoE; 2 shared experts of 1408.
  CHECK(*ds.moe == tenet::llm::MoeConfig{64, 6, 1408, 2 * 1408, false, 26});
  CHECK(ds.dense_layers() == 1);
  REQUIRE(ds.mla);
  CHECK(*ds.mla == tenet::llm::MlaConfig{std::nullopt, 512, 128, 64, 128});
  CHECK_FALSE(load_model_config(model_path("llama-3-8b.json")).moe);
}

TEST_CASE("dialect conventions: fused checkpoints, biases, ties, projections", "[llm][config]") {
  const ModelConfig phi3 = load_model_config(model_path("phi-3-mini-4k-instruct.json"));
  CHECK(phi3.fused_qkv_weights);
  CHECK(phi3.fused_gate_up_weights);
  const ModelConfig glm = load_model_config(model_path("chatglm3-6b.json"));
  CHECK(glm.fused_qkv_weights);
  CHECK(glm.fused_gate_up_weights);
  CHECK(glm.names.gate_up == "mlp.dense_h_to_4h");
  CHECK(glm.qkv_bias);
  CHECK_FALSE(glm.o_bias);
  const ModelConfig falcon = load_model_config(model_path("falcon-7b.json"));
  CHECK(falcon.fused_qkv_weights);
  CHECK(falcon.parallel_blocks);
  CHECK(falcon.tie_embeddings);
  CHECK_FALSE(falcon.qkv_bias);
  CHECK(falcon.names.qkv == "self_attention.query_key_value");
  const ModelConfig opt = load_model_config(model_path("opt-350m.json"));
  CHECK(opt.embed_dim == 512);
  CHECK(opt.position_rows == 2050);
  CHECK(opt.tie_embeddings);
  const ModelConfig gemma = load_model_config(model_path("gemma-2b.json"));
  CHECK(gemma.tie_embeddings);  // GemmaConfig's default: its config does not write it
  CHECK(gemma.assumptions ==
        std::vector<std::string>{
            "tie_word_embeddings = true (GemmaConfig's default; the config states none)"});
  const ModelConfig pythia = load_model_config(model_path("pythia-6.9b.json"));
  CHECK_FALSE(pythia.tie_embeddings);
  CHECK(pythia.names.lm_head == "embed_out");
}

TEST_CASE("Falcon's legacy configs: RefinedWebModel (7B, MQA) and RefinedWeb (40B, GQA)",
          "[llm][config]") {
  const ModelConfig legacy =
      load_model_config(std::string(TENET_TEST_DATA_DIR) + "/llm/falcon-7b-refinedwebmodel.json");
  const ModelConfig current = load_model_config(model_path("falcon-7b.json"));
  CHECK(legacy.hidden == current.hidden);
  CHECK(legacy.layers == current.layers);
  CHECK(legacy.heads == 71);
  CHECK(legacy.kv_heads == 1);
  CHECK(legacy.norm_parameters == current.norm_parameters);
  json rw = json::parse(R"({"model_type": "RefinedWeb", "hidden_size": 8192, "n_head": 128,
    "n_head_kv": 8, "n_layer": 60, "vocab_size": 65024, "parallel_attn": true})");
  const ModelConfig f40 = parse_model_config(rw, "falcon-40b.json");
  CHECK(f40.kv_heads == 8);
  CHECK(f40.head_dim == 64);
  json newer = rw;
  newer["model_type"] = "falcon";
  newer.erase("n_head_kv");
  newer["num_kv_heads"] = 8;
  newer["new_decoder_architecture"] = true;
  CHECK(parse_model_config(newer, "x").kv_heads == 8);
  newer.erase("num_kv_heads");  // transformers' default: n_kv = n_h, listed as an assumption
  const ModelConfig no_kv = parse_model_config(newer, "x");
  CHECK(no_kv.kv_heads == 128);
  // + a 4·h MLP and FalconConfig's defaults (context 2048, ...)
  const std::vector<std::string> said = other_assumptions(no_kv);
  REQUIRE(said.size() == 2);
  CHECK(said[0].find("num_kv_heads") != std::string::npos);
  CHECK(no_kv.max_positions == 2048);
}

TEST_CASE(
    "MoE layers: first_k_dense_replace / moe_layer_freq and decoder_sparse_step / "
    "mlp_only_layers against enumeration of the layers",
    "[llm][config][moe]") {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const std::int64_t layers = 1 + rng() % 40;
    json doc = llama_like();
    doc["num_hidden_layers"] = layers;
    doc["num_experts"] = 8;
    doc["num_experts_per_tok"] = 2;
    std::int64_t expected = 0;
    if (trial % 2 == 0) {  // DeepSeek's rule
      const std::int64_t first = rng() % 45, freq = 1 + rng() % 4;
      doc["first_k_dense_replace"] = first;
      doc["moe_layer_freq"] = freq;
      for (std::int64_t i = 0; i < layers; ++i) expected += i >= first && i % freq == 0;
    } else {  // Qwen-MoE's rule
      const std::int64_t step = 1 + rng() % 4;
      std::set<std::int64_t> only;
      for (int j = 0; j < 3; ++j) only.insert(rng() % 50);
      doc["decoder_sparse_step"] = step;
      doc["mlp_only_layers"] = only;
      for (std::int64_t i = 0; i < layers; ++i) expected += (i + 1) % step == 0 && !only.count(i);
    }
    INFO(doc.dump());
    const ModelConfig c = parse_model_config(doc, "x");
    CHECK((c.moe ? c.moe->moe_layers : 0) == expected);
    CHECK(c.dense_layers() == layers - expected);
  }
}

TEST_CASE("MLA with a query low-rank: q_a_proj and q_b_proj", "[llm][config][mla]") {
  json doc = json::parse(std::ifstream(model_path("deepseek-v2-lite.json")));
  doc["q_lora_rank"] = 1536;
  const ModelConfig c = parse_model_config(doc, "x");
  REQUIRE(c.mla);
  CHECK(c.mla->q_lora_rank == 1536);
  tenet::llm::GenerationOptions o;
  o.prompt = 10;
  const auto shapes = tenet::llm::generate_matmuls(c, o);
  auto named = [&](const std::string& name) {
    for (const auto& s : shapes)
      if (s.name == name) return s;
    FAIL("no " << name);
    throw;
  };
  CHECK(named("self_attn.q_a_proj").n == 1536);
  CHECK(named("self_attn.q_a_proj").k == 2048);
  CHECK(named("self_attn.q_b_proj").n == 16 * 192);
  CHECK(named("self_attn.q_b_proj").k == 1536);
}

TEST_CASE("layer_types lists the sliding-window layers", "[llm][config]") {
  json doc = llama_like();
  doc["num_hidden_layers"] = 4;
  doc["sliding_window"] = 512;
  doc["layer_types"] = {"sliding_attention", "full_attention", "sliding_attention",
                        "sliding_attention"};
  CHECK(parse_model_config(doc, "x").window_layers == 3);
  doc["layer_types"] = {"full_attention", "full_attention", "full_attention", "full_attention"};
  CHECK_FALSE(parse_model_config(doc, "x").sliding_window);
  doc["layer_types"] = {"full_attention"};
  CHECK_THROWS_AS(parse_model_config(doc, "x"), InputError);
  doc["layer_types"] = {"full_attention", "local", "full_attention", "full_attention"};
  try {
    parse_model_config(doc, "x");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.where() == "/layer_types/1");
  }
}

TEST_CASE("an unknown family with the standard keys works and lists its assumptions",
          "[llm][config]") {
  json doc = llama_like();
  doc["model_type"] = "my_new_llm";
  doc.erase("max_position_embeddings");
  const ModelConfig c = parse_model_config(doc, "x.json");
  CHECK(c.model_type == "my_new_llm");
  CHECK(c.mlp == MlpKind::kGated);
  CHECK(c.kv_heads == 8);
  REQUIRE(c.assumptions.size() == 3);
  CHECK(c.assumptions[0].find("unknown model_type 'my_new_llm'") != std::string::npos);
  CHECK(c.assumptions[1].find("max_position_embeddings") != std::string::npos);
  // An unknown family's absent tie_word_embeddings is PretrainedConfig's default: tied.
  CHECK(c.assumptions[2] ==
        "tie_word_embeddings = true (PretrainedConfig's default; the config states none)");
  CHECK(c.tie_embeddings);
  CHECK(other_assumptions(parse_model_config(llama_like(), "x.json")).empty());
}

TEST_CASE("GPT-2 n_inner: null or absent means 4·n_embd, a value is taken", "[llm][config]") {
  json doc = gpt2_like();
  CHECK(parse_model_config(doc, "x.json").intermediate == 4096);
  doc.erase("n_inner");
  CHECK(parse_model_config(doc, "x.json").intermediate == 4096);
  doc["n_inner"] = 3000;
  CHECK(parse_model_config(doc, "x.json").intermediate == 3000);
}

TEST_CASE("the family comes from model_type, architectures, or the field names", "[llm][config]") {
  json doc = gpt2_like();
  doc.erase("model_type");
  CHECK(parse_model_config(doc, "x").model_type == "gpt2");
  CHECK(parse_model_config(doc, "x").mlp == MlpKind::kPlain);
  doc["architectures"] = {"GPT2LMHeadModel"};
  CHECK(parse_model_config(doc, "x").mlp == MlpKind::kPlain);
  json llama = llama_like();
  llama.erase("model_type");
  CHECK(parse_model_config(llama, "x").mlp == MlpKind::kGated);
  CHECK(other_assumptions(parse_model_config(llama, "x")).size() == 1);  // no known type
  llama["architectures"] = {"MistralForCausalLM"};
  CHECK(parse_model_config(llama, "x").model_type == "mistral");
  CHECK(other_assumptions(parse_model_config(llama, "x")).empty());
  for (const std::string& a : parse_model_config(llama, "x").assumptions)
    CHECK(a.find("(MistralConfig's default") != std::string::npos);
}

TEST_CASE("a missing dimension names every key looked for", "[llm][config][errors]") {
  json doc = unknown_like();
  doc.erase("hidden_size");
  const InputError e = parse_error(doc);
  CHECK(e.where() == "/hidden_size");
  for (const char* key : {"hidden_size", "n_embd", "n_embed", "d_model"})
    CHECK(std::string(e.what()).find(key) != std::string::npos);
}

TEST_CASE("num_key_value_heads absent means no GQA, head_dim overrides h/n_h", "[llm][config]") {
  json doc = llama_like();
  doc.erase("num_key_value_heads");
  CHECK(parse_model_config(doc, "x").kv_heads == 32);
  doc["head_dim"] = 256;            // Gemma-like: d != h / n_h
  doc["num_attention_heads"] = 24;  // 4096 / 24 is not an integer, but d is given
  doc["num_key_value_heads"] = 8;
  const ModelConfig c = parse_model_config(doc, "x");
  CHECK(c.head_dim == 256);
  CHECK(c.group_size() == 3);
}

TEST_CASE("bad configs name the file, the JSON pointer and a stable code",
          "[llm][config][errors]") {
  namespace code = tenet::error_code;
  // One change to a valid document: a key set to a value, or erased (value absent).
  struct Edit {
    const char* key;
    std::optional<json> value;
  };
  struct Case {
    json (*base)();
    std::vector<Edit> edits;
    const char* code;
    const char* where;
  };
  const std::optional<json> erased;
  const Case cases[] = {
      {unknown_like, {{"hidden_size", erased}}, code::kMissingField, "/hidden_size"},
      {llama_like,
       {{"num_attention_heads", 30}},
       code::kRange,
       "/num_attention_heads"},  // 4096 % 30
      {llama_like, {{"num_key_value_heads", 5}}, code::kRange, "/num_key_value_heads"},  // 32 % 5
      {llama_like, {{"intermediate_size", 0}}, code::kRange, "/intermediate_size"},
      {unknown_like, {{"intermediate_size", erased}}, code::kMissingField, "/intermediate_size"},
      {unknown_like,
       {{"num_attention_heads", erased}},
       code::kMissingField,
       "/num_attention_heads"},
      {llama_like, {{"num_hidden_layers", -2}}, code::kRange, "/num_hidden_layers"},
      {llama_like, {{"vocab_size", "32000"}}, code::kType, "/vocab_size"},
      {llama_like, {{"hidden_size", 4096.5}}, code::kType, "/hidden_size"},
      {llama_like, {{"hidden_size", nullptr}}, code::kType, "/hidden_size"},
      {llama_like,
       {{"max_position_embeddings", 18446744073709551615ULL}},  // 2^64 - 1
       code::kOverflow,
       "/max_position_embeddings"},
      {llama_like, {{"vocab_size", 1e30}}, code::kOverflow, "/vocab_size"},
      {llama_like,
       {{"intermediate_size", std::int64_t{1} << 62}},  // 2·I overflows
       code::kOverflow,
       "/intermediate_size"},
      {gpt2_like,
       {{"n_embd", std::int64_t{1} << 62}, {"n_head", 1}},  // 4·n_embd (default n_inner) overflows
       code::kOverflow,
       "/n_embd"},
      {gpt2_like, {{"n_head", 15}}, code::kRange, "/n_head"},
      {llama_like, {{"model_type", "t5"}}, code::kUnknownName, "/model_type"},
      {llama_like, {{"is_encoder_decoder", true}}, code::kUnknownName, "/is_encoder_decoder"},
      {llama_like,
       {{"num_local_experts", 8}, {"num_experts_per_tok", 9}},
       code::kRange,
       "/num_experts_per_tok"},
      {llama_like, {{"num_local_experts", 8}}, code::kMissingField, "/num_experts_per_tok"},
      {llama_like, {{"num_experts", 0}, {"num_experts_per_tok", 1}}, code::kRange, "/num_experts"},
      {llama_like, {{"head_dim", -128}}, code::kRange, "/head_dim"},
      {llama_like, {{"tie_word_embeddings", "yes"}}, code::kType, "/tie_word_embeddings"},
      {llama_like,
       {{"kv_lora_rank", 512}, {"qk_nope_head_dim", 128}, {"v_head_dim", 128}},
       code::kMissingField,
       "/qk_rope_head_dim"},
      {llama_like,
       {{"model_type", "qwen"}, {"intermediate_size", 11007}},
       code::kRange,
       "/intermediate_size"},
      {llama_like,
       {{"model_type", "chatglm"},
        {"multi_query_attention", true},
        {"num_key_value_heads", erased}},
       code::kMissingField,
       "/multi_query_group_num"},
      {llama_like,
       {{"num_local_experts", 8}, {"num_experts_per_tok", 2}, {"first_k_dense_replace", "1"}},
       code::kType,
       "/first_k_dense_replace"},
      {llama_like,
       {{"num_local_experts", 8}, {"num_experts_per_tok", 2}, {"first_k_dense_replace", -1}},
       code::kRange,
       "/first_k_dense_replace"},
      {llama_like,
       {{"num_local_experts", 8}, {"num_experts_per_tok", 2}, {"mlp_only_layers", 3}},
       code::kType,
       "/mlp_only_layers"},
      {llama_like, {{"model_type", 7}}, code::kType, "/model_type"},
      {llama_like,
       {{"model_type", erased}, {"architectures", json::array({"BertModel"})}},
       code::kUnknownName,
       "/architectures/0"},
  };
  for (const Case& c : cases) {
    json doc = c.base();
    for (const Edit& e : c.edits) {
      if (e.value)
        doc[e.key] = *e.value;
      else
        doc.erase(e.key);
    }
    INFO(doc.dump());
    check_error(doc, c.code, c.where);
  }
  check_error(json::array({1, 2}), code::kType, "");
  check_error(json::object(), code::kMissingField, "/hidden_size");
}

TEST_CASE("config files that cannot be read or parsed", "[llm][config][errors]") {
  try {
    load_model_config("/nonexistent/config.json");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.code() == tenet::error_code::kIo);
    CHECK(e.file() == "/nonexistent/config.json");
  }
  const std::string path = std::string(TENET_TEST_DATA_DIR) + "/llm/not_json.json";
  try {
    load_model_config(path);
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.code() == tenet::error_code::kParse);
    CHECK(e.file() == path);
  }
}
