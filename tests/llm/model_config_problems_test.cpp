// A config.json with several problems reports them all in one InputError (io::JsonProblems):
// each with its JSON pointer, structured fields element by element, nested configs under their
// key; the first problem gives the code and location. A field that is wrong is reported once,
// and what depends on it is not reported again.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "tenet/error.hpp"
#include "tenet/llm/model_config.hpp"

using nlohmann::json;
using tenet::InputError;
using tenet::llm::ModelConfig;
using tenet::llm::parse_model_config;

namespace {

json problems_llama() {
  return json::parse(R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 4,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    "vocab_size": 128256, "max_position_embeddings": 8192})");
}

InputError problems_error(const json& doc) {
  try {
    parse_model_config(doc, "cfg.json");
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError for " << doc.dump());
  throw;  // unreachable
}

void check_problems(const json& doc, const std::string& code, const std::string& where,
                    const std::string& message) {
  INFO(doc.dump());
  const InputError e = problems_error(doc);
  CHECK(e.file() == "cfg.json");
  CHECK(e.code() == code);
  CHECK(e.where() == where);
  CHECK(e.message() == message);
}

}  // namespace

TEST_CASE("a config with several bad fields reports all of them in one error",
          "[llm][config][errors]") {
  json doc = problems_llama();
  doc["hidden_size"] = "4096";
  doc["vocab_size"] = -1;
  doc["num_key_value_heads"] = 5;
  doc["tie_word_embeddings"] = "yes";
  doc["layer_types"] = {"full_attention", "full_attention", "full_attention", 7};
  // hidden_size is wrong: the head size h / n_h and the norm sizes are not derived (no follow-on
  // error); the others are independent
  check_problems(doc, "type", "/hidden_size",
                 "expected an integer, got a string \"4096\"; and 4 more error(s): /vocab_size: "
                 "expected an integer >= 1, got -1 (range); /num_key_value_heads: "
                 "num_key_value_heads (5) must divide num_attention_heads (32) (range); "
                 "/tie_word_embeddings: expected true or false, got a string \"yes\" (type); "
                 "/layer_types/3: expected a layer kind (a string), got 7 (type)");
  // a missing required size and a bad optional one (an unknown family: no class default)
  doc = problems_llama();
  doc["model_type"] = "my_lm";
  doc.erase("num_attention_heads");
  doc["sliding_window"] = 0;
  check_problems(doc, "missing-field", "/num_attention_heads",
                 "no number of attention heads: looked for num_attention_heads, n_head (expected "
                 "a positive integer); and 1 more error(s): /sliding_window: expected an integer "
                 ">= 1, got 0 (range)");
}

TEST_CASE("structured fields are checked element by element, each at its pointer",
          "[llm][config][errors]") {
  json block = {{"attention", {{"n_heads_in_group", 4}}}, {"ffn", {{"ffn_mult", 1.5}}}};
  json doc = {{"model_type", "nemotron-nas"},
              {"hidden_size", 96},
              {"num_hidden_layers", 4},
              {"num_attention_heads", 8},
              {"vocab_size", 100},
              {"intermediate_size", nullptr},
              {"block_configs", {block, block, block, block}}};
  CHECK(parse_model_config(doc, "cfg.json").layers == 4);
  doc["block_configs"][1]["attention"]["n_heads_in_group"] = 3;
  doc["block_configs"][2]["attention"]["no_op"] = "yes";
  doc["block_configs"][2]["ffn"]["ffn_mult"] = "x";
  doc["block_configs"][3] = 5;
  check_problems(doc, "range", "/block_configs/1/attention/n_heads_in_group",
                 "expected a positive divisor of the 8 heads, got 3; and 3 more error(s): "
                 "/block_configs/2/attention/no_op: expected true or false, got a string \"yes\" "
                 "(type); /block_configs/2/ffn/ffn_mult: expected a positive number, got \"x\" "
                 "(type); /block_configs/3: expected {\"attention\": {...}, \"ffn\": {...}}, got "
                 "5 (type)");

  json types = problems_llama();
  types["layer_types"] = {"full_attention", "local", 3, "sliding_attention"};
  check_problems(types, "unknown-name", "/layer_types/1",
                 "layer kind \"local\" is not modelled (modelled: full_attention, "
                 "sliding_attention, chunked_attention, linear_attention (Gated DeltaNet), mamba, "
                 "mamba2, MLP and MoE blocks); and 1 more error(s): /layer_types/2: expected a "
                 "layer kind (a string), got 3 (type)");

  json moe = problems_llama();
  moe["num_local_experts"] = 4;
  moe["num_experts_per_tok"] = 2;
  moe["moe_layers"] = {0, 4, "2", -1};
  check_problems(moe, "range", "/moe_layers/1",
                 "expected a layer index in [0, 4), got 4; and 2 more error(s): /moe_layers/2: "
                 "expected a layer index in [0, 4), got \"2\" (range); /moe_layers/3: expected a "
                 "layer index in [0, 4), got -1 (range)");
}

TEST_CASE("a nested config's problems are all reported under its key", "[llm][config][errors]") {
  json inner = {{"model_type", "llama"},    {"hidden_size", 64},  {"num_hidden_layers", 2},
                {"num_attention_heads", 4}, {"vocab_size", "10"}, {"intermediate_size", 0}};
  json doc = {{"architectures", {"SomeVLM"}}, {"text_config", inner}};
  check_problems(doc, "type", "/text_config/vocab_size",
                 "expected an integer, got a string \"10\"; and 1 more error(s): "
                 "/text_config/intermediate_size: expected an integer >= 1, got 0 (range)");
  doc["text_config"]["vocab_size"] = 10;
  doc["text_config"]["intermediate_size"] = 128;
  doc["text_config"]["layer_types"] = {"full_attention", "conv"};
  const InputError e = problems_error(doc);
  CHECK(e.where() == "/text_config/layer_types/1");
  CHECK(e.code() == "unknown-name");
  // a key the nested config takes from the wrapper is reported where it is written
  doc["text_config"].erase("layer_types");
  doc["text_config"].erase("model_type");
  doc["model_type"] = 7;
  doc["tie_word_embeddings"] = "no";
  check_problems(doc, "type", "/model_type", "expected a string, got 7");
  doc["model_type"] = "llama";
  doc["text_config"]["hidden_size"] = 0;
  check_problems(doc, "range", "/text_config/hidden_size",
                 "expected an integer >= 1, got 0; and 1 more error(s): /tie_word_embeddings: "
                 "expected true or false, got a string \"no\" (type)");
}

TEST_CASE("null means not set, a required size null is a type error", "[llm][config][errors]") {
  json doc = problems_llama();
  const ModelConfig plain = parse_model_config(doc, "cfg.json");
  json nulls = doc;
  for (const char* key : {"head_dim", "sliding_window", "tie_word_embeddings", "attention_bias",
                          "num_local_experts", "layer_types", "block_configs", "moe_layers"})
    nulls[key] = nullptr;
  // The same model; only the assumptions differ: an absent key is LlamaConfig's default (listed),
  // a null one is not set.
  ModelConfig read = parse_model_config(nulls, "cfg.json");
  read.assumptions = plain.assumptions;
  CHECK(read == plain);
  nulls.erase("num_key_value_heads");
  nulls["num_key_value_heads"] = nullptr;  // no GQA: one KV head per query head
  CHECK(parse_model_config(nulls, "cfg.json").kv_heads == 32);
  nulls["hidden_size"] = nullptr;
  nulls["vocab_size"] = nullptr;
  check_problems(nulls, "type", "/hidden_size",
                 "expected a positive integer (hidden size), got null; and 1 more error(s): "
                 "/vocab_size: expected a positive integer (vocabulary size), got null (type)");
}

TEST_CASE("a size beyond 64 bits written as a float is an overflow at its pointer",
          "[llm][config][errors]") {
  json doc = problems_llama();
  doc["vocab_size"] = 1e19;
  doc["intermediate_size"] = -9.3e18;
  check_problems(doc, "overflow", "/vocab_size",
                 "value 1e+19 does not fit in 64 bits; and 1 more error(s): /intermediate_size: "
                 "value -9.3e+18 does not fit in 64 bits (overflow)");
  json block = {{"attention", {{"n_heads_in_group", 9.3e18}}}, {"ffn", {{"ffn_mult", 1.0}}}};
  json deci = {{"model_type", "nemotron-nas"}, {"hidden_size", 96}, {"num_hidden_layers", 1},
               {"num_attention_heads", 8},     {"vocab_size", 100}, {"block_configs", {block}}};
  check_problems(deci, "overflow", "/block_configs/0/attention/n_heads_in_group",
                 "value 9.3e+18 does not fit in 64 bits");
}

// Every leaf of every bundled config set to a value of another type: the config still reads (a
// key the reader does not use), or one InputError names that leaf (or the array or object it
// belongs to) and nothing else; never another exception.
TEST_CASE("a bundled config with one leaf of the wrong type: one error at that leaf, or none",
          "[llm][config][errors]") {
  const char* files[] = {"llama-3-8b.json",
                         "gpt2.json",
                         "mixtral-8x7b-v0.1.json",
                         "deepseek-v2-lite.json",
                         "gemma-3-27b-it.json",
                         "jamba-v0.1.json",
                         "qwen3-next-80b-a3b-instruct.json",
                         "falcon-7b.json",
                         "llama-3.3-nemotron-super-49b-v1.json",
                         "nvidia-nemotron-3-nano-30b-a3b.json",
                         "chatglm3-6b.json",
                         "gpt-oss-20b.json",
                         "qwen1.5-moe-a2.7b.json"};
  std::mt19937 rng(22);
  const json wrong[] = {"x", true, json::array({1}), json::object(), 2.5};
  int raised = 0;
  for (const char* file : files) {
    const json base =
        json::parse(std::ifstream(std::string(TENET_SOURCE_DIR) + "/workloads/models/" + file));
    const json flat = base.flatten();
    for (auto it = flat.begin(); it != flat.end(); ++it) {
      const std::string at = it.key();
      json value = wrong[rng() % 5];
      if (value.type() == it.value().type() || (value.is_number() && it.value().is_number()))
        value = json::array({1});
      json doc = base;
      doc[json::json_pointer(at)] = value;
      INFO(file << " " << at << " = " << value.dump());
      try {
        parse_model_config(doc, file);
      } catch (const InputError& e) {
        ++raised;
        INFO(e.what());
        const std::string& where = e.where();
        CHECK(at.compare(0, where.size(), where) == 0);  // the leaf or its array / object
        CHECK((at.size() == where.size() || at[where.size()] == '/'));
        CHECK(e.message().find("more error(s)") == std::string::npos);
      }
    }
  }
  CHECK(raised > 100);
}
