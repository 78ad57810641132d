// Model configs: the bundled public configs, both naming schemes, and every validation error.
#include "tenet/llm/model_config.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

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

TEST_CASE("bundled model configs carry the published sizes", "[llm][config]") {
  struct Expected {
    const char* file;
    ModelFamily family;
    std::int64_t h, layers, heads, kv, d, inter, vocab, context;
  };
  // Public values (Hugging Face config.json of each model; see docs/llm.md).
  const Expected cases[] = {
      {"gpt2.json", ModelFamily::kGpt2, 768, 12, 12, 12, 64, 3072, 50257, 1024},
      {"gpt2-medium.json", ModelFamily::kGpt2, 1024, 24, 16, 16, 64, 4096, 50257, 1024},
      {"llama-2-7b.json", ModelFamily::kLlama, 4096, 32, 32, 32, 128, 11008, 32000, 4096},
      {"llama-2-13b.json", ModelFamily::kLlama, 5120, 40, 40, 40, 128, 13824, 32000, 4096},
      {"llama-3-8b.json", ModelFamily::kLlama, 4096, 32, 32, 8, 128, 14336, 128256, 8192},
      {"llama-3.2-1b.json", ModelFamily::kLlama, 2048, 16, 32, 8, 64, 8192, 128256, 131072},
      {"mistral-7b-v0.1.json", ModelFamily::kLlama, 4096, 32, 32, 8, 128, 14336, 32000, 32768},
      {"qwen2-7b.json", ModelFamily::kLlama, 3584, 28, 28, 4, 128, 18944, 152064, 131072},
  };
  for (const Expected& x : cases) {
    INFO(x.file);
    const ModelConfig c = load_model_config(model_path(x.file));
    CHECK(c.family == x.family);
    CHECK(c.hidden == x.h);
    CHECK(c.layers == x.layers);
    CHECK(c.heads == x.heads);
    CHECK(c.kv_heads == x.kv);
    CHECK(c.head_dim == x.d);
    CHECK(c.intermediate == x.inter);
    CHECK(c.vocab == x.vocab);
    CHECK(c.max_positions == x.context);
    CHECK(c.group_size() == x.heads / x.kv);
  }
}

TEST_CASE("sliding windows: Mistral's applies, Qwen2's is switched off", "[llm][config]") {
  CHECK(load_model_config(model_path("mistral-7b-v0.1.json")).sliding_window == 4096);
  CHECK_FALSE(load_model_config(model_path("qwen2-7b.json")).sliding_window.has_value());
  CHECK_FALSE(load_model_config(model_path("llama-2-7b.json")).sliding_window.has_value());
}

TEST_CASE("names: _name_or_path, else the file name", "[llm][config]") {
  CHECK(load_model_config(model_path("llama-2-7b.json")).name == "meta-llama/Llama-2-7b-hf");
  CHECK(load_model_config(model_path("gpt2-medium.json")).name == "gpt2-medium");
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
  json doc = llama_like();
  doc.erase("hidden_size");
  check_error(doc, code::kMissingField, "/hidden_size");

  doc = llama_like();
  doc["num_attention_heads"] = 30;  // 4096 % 30 != 0
  check_error(doc, code::kRange, "/num_attention_heads");

  doc = llama_like();
  doc["num_key_value_heads"] = 5;  // 32 % 5 != 0
  check_error(doc, code::kRange, "/num_key_value_heads");

  doc = llama_like();
  doc["intermediate_size"] = 0;
  check_error(doc, code::kRange, "/intermediate_size");

  doc = llama_like();
  doc["num_hidden_layers"] = -2;
  check_error(doc, code::kRange, "/num_hidden_layers");

  doc = llama_like();
  doc["vocab_size"] = "32000";
  check_error(doc, code::kType, "/vocab_size");

  doc = llama_like();
  doc["hidden_size"] = 4096.5;
  check_error(doc, code::kType, "/hidden_size");

  doc = llama_like();
  doc["hidden_size"] = nullptr;
  check_error(doc, code::kType, "/hidden_size");

  doc = llama_like();
  doc["max_position_embeddings"] = 18446744073709551615ULL;  // 2^64 - 1
  check_error(doc, code::kOverflow, "/max_position_embeddings");

  doc = llama_like();
  doc["vocab_size"] = 1e30;
  check_error(doc, code::kOverflow, "/vocab_size");

  doc = llama_like();
  doc["intermediate_size"] = std::int64_t{1} << 62;  // 2·I overflows
  check_error(doc, code::kOverflow, "/intermediate_size");

  doc = gpt2_like();
  doc["n_embd"] = std::int64_t{1} << 62;  // 4·n_embd (the default n_inner) overflows
  doc["n_head"] = 1;
  check_error(doc, code::kOverflow, "/n_embd");

  doc = gpt2_like();
  doc.erase("n_embd");
  check_error(doc, code::kMissingField, "/n_embd");

  doc = gpt2_like();
  doc["n_head"] = 15;
  check_error(doc, code::kRange, "/n_head");

  doc = llama_like();
  doc["model_type"] = "t5";
  check_error(doc, code::kUnknownName, "/model_type");

  doc = llama_like();
  doc["model_type"] = 7;
  check_error(doc, code::kType, "/model_type");

  doc = llama_like();
  doc.erase("model_type");
  doc["architectures"] = {"BertModel"};
  check_error(doc, code::kUnknownName, "/architectures/0");

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
