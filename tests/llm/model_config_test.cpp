// Model configs: the bundled public configs, both naming schemes, and every validation error.
#include "tenet/llm/model_config.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tenet/error.hpp"

using nlohmann::json;
using tenet::InputError;
using tenet::llm::load_model_config;
using tenet::llm::ModelConfig;
using tenet::llm::ModelFamily;
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
    ModelFamily family;
    std::int64_t h, layers, heads, kv, d, inter, vocab, context, window;
  };
  // Public values (Hugging Face config.json of each model; see docs/llm.md). Sliding windows:
  // Mistral's applies; Qwen2's is switched off (use_sliding_window false).
  const Expected cases[] = {
      {"gpt2.json", "gpt2", "gpt2", ModelFamily::kGpt2, 768, 12, 12, 12, 64, 3072, 50257, 1024,
       kNone},
      {"gpt2-medium.json", "gpt2-medium", "gpt2", ModelFamily::kGpt2, 1024, 24, 16, 16, 64, 4096,
       50257, 1024, kNone},
      {"llama-2-7b.json", "meta-llama/Llama-2-7b-hf", "llama", ModelFamily::kLlama, 4096, 32, 32,
       32, 128, 11008, 32000, 4096, kNone},
      {"llama-2-13b.json", "meta-llama/Llama-2-13b-hf", "llama", ModelFamily::kLlama, 5120, 40, 40,
       40, 128, 13824, 32000, 4096, kNone},
      {"llama-3-8b.json", "meta-llama/Meta-Llama-3-8B", "llama", ModelFamily::kLlama, 4096, 32, 32,
       8, 128, 14336, 128256, 8192, kNone},
      {"llama-3.2-1b.json", "meta-llama/Llama-3.2-1B", "llama", ModelFamily::kLlama, 2048, 16, 32,
       8, 64, 8192, 128256, 131072, kNone},
      {"mistral-7b-v0.1.json", "mistralai/Mistral-7B-v0.1", "mistral", ModelFamily::kLlama, 4096,
       32, 32, 8, 128, 14336, 32000, 32768, 4096},
      {"qwen2-7b.json", "Qwen/Qwen2-7B", "qwen2", ModelFamily::kLlama, 3584, 28, 28, 4, 128, 18944,
       152064, 131072, kNone},
  };
  for (const Expected& x : cases) {
    ModelConfig expected;
    expected.name = x.name;
    expected.model_type = x.model_type;
    expected.family = x.family;
    expected.hidden = x.h, expected.layers = x.layers;
    expected.heads = x.heads, expected.kv_heads = x.kv, expected.head_dim = x.d;
    expected.intermediate = x.inter, expected.vocab = x.vocab, expected.max_positions = x.context;
    if (x.window != kNone) expected.sliding_window = x.window;
    const ModelConfig c = load_model_config(model_path(x.file));
    CHECK(c == expected);  // every field, both printed on failure
    CHECK(c.group_size() == x.heads / x.kv);
  }
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
  CHECK(parse_model_config(doc, "x").family == ModelFamily::kGpt2);
  doc["architectures"] = {"GPT2LMHeadModel"};
  CHECK(parse_model_config(doc, "x").family == ModelFamily::kGpt2);
  json llama = llama_like();
  llama.erase("model_type");
  CHECK(parse_model_config(llama, "x").family == ModelFamily::kLlama);
  llama["architectures"] = {"MistralForCausalLM"};
  CHECK(parse_model_config(llama, "x").family == ModelFamily::kLlama);
}

TEST_CASE("num_key_value_heads absent means no GQA; head_dim overrides h/n_h", "[llm][config]") {
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
      {llama_like, {{"hidden_size", erased}}, code::kMissingField, "/hidden_size"},
      {llama_like,
       {{"num_attention_heads", 30}},
       code::kRange,
       "/num_attention_heads"},  // 4096 % 30
      {llama_like, {{"num_key_value_heads", 5}}, code::kRange, "/num_key_value_heads"},  // 32 % 5
      {llama_like, {{"intermediate_size", 0}}, code::kRange, "/intermediate_size"},
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
      {gpt2_like, {{"n_embd", erased}}, code::kMissingField, "/n_embd"},
      {gpt2_like, {{"n_head", 15}}, code::kRange, "/n_head"},
      {llama_like, {{"model_type", "t5"}}, code::kUnknownName, "/model_type"},
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
