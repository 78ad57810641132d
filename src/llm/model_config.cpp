#include "tenet/llm/model_config.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>

#include "io/json_reader.hpp"
#include "io/text_file.hpp"
#include "llm/checked_int.hpp"
#include "tenet/error.hpp"

namespace tenet::llm {
namespace {

using detail::checked_add;
using detail::checked_mul;
using nlohmann::json;
using Keys = std::initializer_list<const char*>;

constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

// ---- reading one field ----------------------------------------------------------------------

std::string pointer(const std::string& key) { return io::pointer_join("", key); }

std::string describe(const json& v) { return excerpt(v.dump(), 40); }

std::string key_list(Keys keys) {
  std::string out;
  for (const char* k : keys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

// A model config stops at its first problem: each field is converted by the io reader and its
// problem, if any, thrown at once.
template <class Convert>
auto convert_field(const json& doc, const std::string& key, const std::string& file,
                   Convert convert)
    -> decltype(convert(json(), std::string(), std::declval<io::JsonProblems&>())) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return std::nullopt;  // HF writes null for "not set"
  io::JsonProblems problems(file);
  const auto value = convert(*it, pointer(key), problems);
  problems.throw_if_any();
  return value;
}

// The value of an integer field >= `minimum` (a size: >= 1), or nothing when it is absent or
// null.
std::optional<std::int64_t> optional_int(const json& doc, const std::string& key,
                                         const std::string& file, std::int64_t minimum = 1) {
  auto it = doc.find(key);
  if (it != doc.end() && it->is_number_float() && std::abs(it->get<double>()) >= 9.2e18) {
    throw InputError(error_code::kOverflow, file, pointer(key),
                     "value " + describe(*it) + " does not fit in 64 bits");
  }
  return convert_field(doc, key, file, [&](const json& v, const std::string& p, auto& problems) {
    return io::json_integer(v, p, problems, "", io::IntRange{minimum});
  });
}

std::optional<bool> optional_bool(const json& doc, const char* key, const std::string& file) {
  return convert_field(doc, key, file, [](const json& v, const std::string& p, auto& problems) {
    return io::json_boolean(v, p, problems);
  });
}

// A dimension and the key it was found under.
struct Field {
  std::int64_t value = 0;
  std::string key;
};

// The first of `keys` that holds a value.
std::optional<Field> first_int(const json& doc, Keys keys, const std::string& file) {
  for (const char* key : keys) {
    if (auto v = optional_int(doc, key, file)) return Field{*v, key};
  }
  return std::nullopt;
}

// A dimension that must be found under one of `keys`; the error lists them all.
Field required_int(const json& doc, Keys keys, const std::string& file,
                   const std::string& meaning) {
  if (auto f = first_int(doc, keys, file)) return *f;
  const char* first = *keys.begin();
  for (const char* key : keys) {
    if (doc.contains(key)) {  // present but null
      throw InputError(error_code::kType, file, pointer(key),
                       "expected a positive integer (" + meaning + "), got null");
    }
  }
  throw InputError(
      error_code::kMissingField, file, pointer(first),
      "no " + meaning + ": looked for " + key_list(keys) + " (expected a positive integer)");
}

// ---- family conventions ---------------------------------------------------------------------

// What a family's config does not state: MLP kind, biases, tied embeddings, norms, fused
// checkpoint matrices and the names of its weights.
struct Dialect {
  const char* model_type;
  MlpKind mlp;
  bool tie;
  bool layer_norm;  // LayerNorm (weight + bias) or RMSNorm (weight)
  int norms_per_layer;
  bool qkv_bias, o_bias, mlp_bias;
  bool fused_qkv, fused_gate_up;  // the checkpoint stores these fused
  bool mlp_4h;                    // MLP width defaults to 4·h
  LayerNames names;
};

LayerNames llama_names() { return {}; }

LayerNames gpt2_names() {
  LayerNames n;
  n.qkv = "attn.c_attn", n.q = "attn.q_proj", n.k = "attn.k_proj", n.v = "attn.v_proj";
  n.o = "attn.c_proj", n.qk = "attn.qk", n.pv = "attn.pv";
  n.up = "mlp.c_fc", n.down = "mlp.c_proj";
  return n;
}

// GPT-NeoX, BLOOM, Falcon, ChatGLM: query_key_value / dense / dense_h_to_4h / dense_4h_to_h.
LayerNames qkv_dense_names(const std::string& attn) {
  LayerNames n;
  n.qkv = attn + "query_key_value", n.q = attn + "q_proj", n.k = attn + "k_proj";
  n.v = attn + "v_proj", n.o = attn + "dense", n.qk = attn + "qk", n.pv = attn + "pv";
  n.up = "mlp.dense_h_to_4h", n.gate_up = "mlp.dense_h_to_4h", n.down = "mlp.dense_4h_to_h";
  return n;
}

// InternLM2: attention.wqkv / wo; feed_forward.w1 (gate), w3 (up), w2 (down); the head `output`.
LayerNames internlm2_names() {
  LayerNames n;
  const std::string a = "attention.", f = "feed_forward.";
  n.qkv = a + "wqkv", n.q = a + "wq", n.k = a + "wk", n.v = a + "wv", n.o = a + "wo";
  n.qk = a + "qk", n.pv = a + "pv";
  n.gate_up = f + "w1_w3", n.gate = f + "w1", n.up = f + "w3", n.down = f + "w2";
  n.lm_head = "output";
  return n;
}

LayerNames with(LayerNames n,
                std::initializer_list<std::pair<std::string LayerNames::*, const char*>> set) {
  for (const auto& [member, value] : set) n.*member = value;
  return n;
}

const std::vector<Dialect>& dialects() {
  using N = LayerNames;
  constexpr MlpKind P = MlpKind::kPlain, G = MlpKind::kGated;
  static const std::vector<Dialect> table = {
      // model_type, MLP, tied, LayerNorm (else RMSNorm), norms per layer, bias on qkv / o / MLP,
      // checkpoint stores qkv / gate_up fused, MLP width 4·h by default, weight names
      {"gpt2", P, true, true, 2, true, true, true, true, false, true, gpt2_names()},
      {"gpt_bigcode", P, true, true, 2, true, true, true, true, false, true, gpt2_names()},
      {"gpt_neox", P, false, true, 2, true, true, true, true, false, false,
       with(qkv_dense_names("attention."), {{&N::lm_head, "embed_out"}})},
      {"opt", P, true, true, 2, true, true, true, false, false, false,
       with(llama_names(), {{&N::o, "self_attn.out_proj"}, {&N::up, "fc1"}, {&N::down, "fc2"}})},
      {"bloom", P, true, true, 2, true, true, true, true, false, true,
       qkv_dense_names("self_attention.")},
      {"falcon", P, true, true, 2, false, false, false, true, false, true,
       qkv_dense_names("self_attention.")},
      {"starcoder2", P, true, true, 2, true, true, true, false, false, false,
       with(llama_names(), {{&N::up, "mlp.c_fc"}, {&N::down, "mlp.c_proj"}})},
      {"phi", P, false, true, 1, true, true, true, false, false, false,
       with(llama_names(),
            {{&N::o, "self_attn.dense"}, {&N::up, "mlp.fc1"}, {&N::down, "mlp.fc2"}})},
      {"llama", G, false, false, 2, false, false, false, false, false, false, llama_names()},
      {"mistral", G, false, false, 2, false, false, false, false, false, false, llama_names()},
      {"mixtral", G, false, false, 2, false, false, false, false, false, false,
       with(llama_names(), {{&N::moe, "block_sparse_moe."}})},
      {"qwen2", G, false, false, 2, true, false, false, false, false, false, llama_names()},
      {"qwen2_moe", G, false, false, 2, true, false, false, false, false, false, llama_names()},
      {"gemma", G, true, false, 2, false, false, false, false, false, false, llama_names()},
      {"gemma2", G, true, false, 4, false, false, false, false, false, false, llama_names()},
      {"phi3", G, false, false, 2, false, false, false, true, true, false, llama_names()},
      {"deepseek_v2", G, false, false, 2, false, false, false, false, false, false, llama_names()},
      {"qwen", G, false, false, 2, true, false, false, true, false, false,
       with(llama_names(), {{&N::qkv, "attn.c_attn"},
                            {&N::o, "attn.c_proj"},
                            {&N::qk, "attn.qk"},
                            {&N::pv, "attn.pv"},
                            {&N::gate, "mlp.w2"},
                            {&N::up, "mlp.w1"},
                            {&N::down, "mlp.c_proj"}})},
      {"gptj", P, false, true, 1, false, false, true, false, false, true,
       with(llama_names(), {{&N::q, "attn.q_proj"},
                            {&N::k, "attn.k_proj"},
                            {&N::v, "attn.v_proj"},
                            {&N::qkv, "attn.qkv_proj"},
                            {&N::o, "attn.out_proj"},
                            {&N::qk, "attn.qk"},
                            {&N::pv, "attn.pv"},
                            {&N::up, "mlp.fc_in"},
                            {&N::down, "mlp.fc_out"}})},
      {"qwen3", G, false, false, 2, false, false, false, false, false, false, llama_names()},
      {"qwen3_moe", G, false, false, 2, false, false, false, false, false, false, llama_names()},
      {"deepseek_v3", G, false, false, 2, false, false, false, false, false, false, llama_names()},
      {"chatglm", G, false, false, 2, true, false, false, true, true, false,
       with(qkv_dense_names("self_attention."), {{&N::lm_head, "output_layer"}})},
      {"llama4_text", G, false, false, 2, false, false, false, false, false, false,
       with(llama_names(), {{&N::gate_up, "feed_forward.gate_up_proj"},
                            {&N::gate, "feed_forward.gate_proj"},
                            {&N::up, "feed_forward.up_proj"},
                            {&N::down, "feed_forward.down_proj"},
                            {&N::moe, "feed_forward."}})},
      {"gemma3_text", G, true, false, 4, false, false, false, false, false, false, llama_names()},
      {"deepseek_v32", G, false, false, 2, false, false, false, false, false, false, llama_names()},
      {"qwen3_next", G, false, false, 2, false, false, false, false, false, false, llama_names()},
      {"jamba", G, false, false, 2, false, false, false, false, false, false,
       with(llama_names(), {{&N::gate_up, "feed_forward.gate_up_proj"},
                            {&N::gate, "feed_forward.gate_proj"},
                            {&N::up, "feed_forward.up_proj"},
                            {&N::down, "feed_forward.down_proj"},
                            {&N::moe, "feed_forward."}})},
      // Nemotron-H: every layer is one block (norm + mixer): Mamba-2, attention, a relu² MLP or a
      // MoE of relu² experts (up, down) with a shared relu² expert.
      {"nemotron_h", P, false, false, 1, false, false, false, false, false, false,
       with(llama_names(), {{&N::qkv, "mixer.qkv_proj"},
                            {&N::q, "mixer.q_proj"},
                            {&N::k, "mixer.k_proj"},
                            {&N::v, "mixer.v_proj"},
                            {&N::o, "mixer.o_proj"},
                            {&N::qk, "mixer.qk"},
                            {&N::pv, "mixer.pv"},
                            {&N::up, "mixer.up_proj"},
                            {&N::down, "mixer.down_proj"},
                            {&N::moe, "mixer."}})},
      // gpt-oss: biases on q, k, v, o, the router and the experts; a learned sink per head.
      {"gpt_oss", G, false, false, 2, true, true, false, false, false, false, llama_names()},
      {"qwen3_5_text", G, false, false, 2, false, false, false, false, false, false, llama_names()},
      {"qwen3_5_moe_text", G, false, false, 2, false, false, false, false, false, false,
       llama_names()},
      {"nemotron-nas", G, false, false, 2, false, false, false, false, false, false, llama_names()},
      // InternLM2: fused wqkv; w1 (gate), w3 (up), w2 (down); the head is `output`.
      {"internlm2", G, false, false, 2, false, false, false, true, false, false, internlm2_names()},
      // StableLM-2: LayerNorm, Q/K/V biases when use_qkv_bias says so.
      {"stablelm", G, false, true, 2, false, false, false, false, false, false, llama_names()},
      // Cohere (Command-R, Aya-23): one LayerNorm (no bias) before parallel attention and MLP,
      // tied embeddings.
      {"cohere", G, true, true, 1, false, false, false, false, false, false, llama_names()},
      // DeepSeekMoE (v1): Llama attention, DeepSeek's fine-grained and shared experts.
      {"deepseek", G, false, false, 2, false, false, false, false, false, false, llama_names()},
  };
  return table;
}

// The generic reading of an unknown model_type: Llama's conventions.
const Dialect& generic_dialect() {
  static const Dialect d{"",    MlpKind::kGated, false, false, 2,     false,
                         false, false,           false, false, false, llama_names()};
  return d;
}

std::string canonical_type(const std::string& type) {
  if (type == "RefinedWeb" || type == "RefinedWebModel") return "falcon";
  if (type == "llama4") return "llama4_text";  // a wrapper's type on its language model
  if (type == "gemma3") return "gemma3_text";
  if (type == "qwen3_5") return "qwen3_5_text";
  if (type == "qwen3_5_moe") return "qwen3_5_moe_text";
  return type;
}

const Dialect* find_dialect(const std::string& type) {
  const std::string t = canonical_type(type);
  for (const Dialect& d : dialects()) {
    if (t == d.model_type) return &d;
  }
  return nullptr;
}

// architectures[0] → model_type, for configs without model_type.
std::optional<std::string> type_of_architecture(const std::string& arch) {
  static const std::pair<const char*, const char*> table[] = {
      {"GPT2LMHeadModel", "gpt2"},
      {"GPT2Model", "gpt2"},
      {"LlamaForCausalLM", "llama"},
      {"MistralForCausalLM", "mistral"},
      {"MixtralForCausalLM", "mixtral"},
      {"Qwen2ForCausalLM", "qwen2"},
      {"Qwen2MoeForCausalLM", "qwen2_moe"},
      {"QWenLMHeadModel", "qwen"},
      {"FalconForCausalLM", "falcon"},
      {"RWForCausalLM", "falcon"},
      {"GPTNeoXForCausalLM", "gpt_neox"},
      {"OPTForCausalLM", "opt"},
      {"BloomForCausalLM", "bloom"},
      {"GPTBigCodeForCausalLM", "gpt_bigcode"},
      {"GemmaForCausalLM", "gemma"},
      {"Gemma2ForCausalLM", "gemma2"},
      {"PhiForCausalLM", "phi"},
      {"Phi3ForCausalLM", "phi3"},
      {"ChatGLMModel", "chatglm"},
      {"ChatGLMForConditionalGeneration", "chatglm"},
      {"DeepseekV2ForCausalLM", "deepseek_v2"},
      {"Starcoder2ForCausalLM", "starcoder2"},
      {"GPTJForCausalLM", "gptj"},
      {"Qwen3ForCausalLM", "qwen3"},
      {"Qwen3MoeForCausalLM", "qwen3_moe"},
      {"DeepseekV3ForCausalLM", "deepseek_v3"},
      {"DeepseekV32ForCausalLM", "deepseek_v32"},
      {"Llama4ForConditionalGeneration", "llama4"},
      {"Llama4ForCausalLM", "llama4_text"},
      {"Gemma3ForConditionalGeneration", "gemma3"},
      {"Gemma3ForCausalLM", "gemma3_text"},
      {"Qwen3NextForCausalLM", "qwen3_next"},
      {"NemotronHForCausalLM", "nemotron_h"},
      {"JambaForCausalLM", "jamba"},
      {"DeciLMForCausalLM", "nemotron-nas"},
      {"GptOssForCausalLM", "gpt_oss"},
      {"InternLM2ForCausalLM", "internlm2"},
      {"StableLmForCausalLM", "stablelm"},
      {"CohereForCausalLM", "cohere"},
      {"DeepseekForCausalLM", "deepseek"},
  };
  for (const auto& [a, t] : table) {
    if (arch == a) return std::string(t);
  }
  return std::nullopt;
}

bool is_not_decoder_only(const std::string& name) {
  static const char* types[] = {"bert",    "roberta",        "t5", "mt5", "bart",
                                "whisper", "encoder-decoder"};
  static const char* class_parts[] = {"Bert",        "Roberta",       "T5", "Bart", "Whisper",
                                      "ForMaskedLM", "EncoderDecoder"};
  for (const char* t : types) {
    if (name == t) return true;
  }
  for (const char* part : class_parts) {
    if (name.find(part) != std::string::npos) return true;
  }
  return false;
}

// Families whose layers are state-space, recurrent or parallel hybrids of a kind not modelled
// here: refused by name rather than read as attention.
void refuse_unmodelled_family(const std::string& name, const std::string& file, const char* where) {
  static const std::pair<const char*, const char*> families[] = {
      {"mamba", "Mamba-1 blocks only"},
      {"mamba2", "Mamba-2 blocks only"},
      {"falcon_mamba", "Mamba-1 blocks only"},
      {"falcon_h1", "attention and Mamba-2 in parallel in every block"},
      {"rwkv", "RWKV time-mix recurrence"},
      {"recurrent_gemma", "RG-LRU recurrent blocks"},
      {"zamba", "Mamba blocks with a shared attention block"},
      {"zamba2", "Mamba-2 blocks with shared attention blocks"},
      {"lfm2", "short-convolution blocks"},
      {"bamba", "Mamba-2 / attention layers by attn_layer_indices"},
      {"granitemoehybrid", "Mamba-2 / attention layers with MoE on every layer"},
      {"minimax", "lightning (linear) attention"},
      {"minimax_m1", "lightning (linear) attention on 7 of every 8 layers"},
      {"plamo2", "Mamba and attention layers"},
  };
  for (const auto& [type, what] : families) {
    if (name == type) {
      throw InputError(error_code::kUnknownName, file, where,
                       "layer kind of '" + name + "' (" + what + ") is not modelled");
    }
  }
}

void refuse_non_decoder(const std::string& name, const std::string& file, const char* where) {
  refuse_unmodelled_family(name, file, where);
  if (!is_not_decoder_only(name)) return;
  throw InputError(error_code::kUnknownName, file, where,
                   "'" + name +
                       "' is not a decoder-only language model (expected a causal LM "
                       "such as llama, gpt2, falcon, mixtral, deepseek_v2)");
}

// model_type, else architectures[0], else the naming scheme of the sizes.
std::string model_type_of(const json& doc, const std::string& file) {
  if (optional_bool(doc, "is_encoder_decoder", file).value_or(false)) {
    throw InputError(error_code::kUnknownName, file, "/is_encoder_decoder",
                     "an encoder-decoder model is not a decoder-only language model");
  }
  if (doc.contains("model_type")) {
    const json& v = doc.at("model_type");
    if (!v.is_string()) {
      throw InputError(error_code::kType, file, "/model_type",
                       "expected a string, got " + describe(v));
    }
    refuse_non_decoder(v.get<std::string>(), file, "/model_type");
    return v.get<std::string>();
  }
  if (doc.contains("architectures")) {
    const json& v = doc.at("architectures");
    if (!v.is_array() || v.empty() || !v.front().is_string()) {
      throw InputError(error_code::kType, file, "/architectures",
                       "expected a non-empty array of class names, got " + describe(v));
    }
    const std::string arch = v.front().get<std::string>();
    refuse_non_decoder(arch, file, "/architectures/0");
    if (auto t = type_of_architecture(arch)) return *t;
    return "";
  }
  if (doc.contains("n_embd")) return "gpt2";
  return "";
}

std::string name_of(const json& doc, const std::string& file) {
  auto it = doc.find("_name_or_path");
  if (it != doc.end() && it->is_string() && !it->get<std::string>().empty()) return *it;
  std::string base = file.substr(file.find_last_of('/') + 1);
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0)
    base.resize(base.size() - 5);
  return base;
}

void check_divides(std::int64_t divisor, const std::string& divisor_key, std::int64_t value,
                   const std::string& value_key, const std::string& file) {
  if (value % divisor != 0) {
    throw InputError(error_code::kRange, file, pointer(divisor_key),
                     divisor_key + " (" + std::to_string(divisor) + ") must divide " + value_key +
                         " (" + std::to_string(value) + ")");
  }
}

// ---- the quantities ---------------------------------------------------------------------------

struct Reader {
  const json& doc;
  const std::string& file;
  const Dialect& dialect;
  std::string type;  // canonical model_type ("" when unknown)
  ModelConfig& c;
  std::string heads_key, kv_key, hidden_key;

  void assume(const std::string& text) { c.assumptions.push_back(text); }

  bool gpt2_keys() const { return type == "gpt2" || type == "gpt_bigcode" || type == "gptj"; }

  void read_sizes() {
    const Field h = gpt2_keys() ? required_int(doc, {"n_embd", "hidden_size", "n_embed", "d_model"},
                                               file, "hidden size")
                                : required_int(doc, {"hidden_size", "n_embd", "n_embed", "d_model"},
                                               file, "hidden size");
    c.hidden = h.value, hidden_key = h.key;
    const char* meaning = "number of decoder layers";
    c.layers =
        (gpt2_keys()
             ? required_int(doc, {"n_layer", "num_hidden_layers", "num_layers"}, file, meaning)
             : required_int(doc, {"num_hidden_layers", "n_layer", "num_layers"}, file, meaning))
            .value;
    const Field n = gpt2_keys() ? required_int(doc, {"n_head", "num_attention_heads"}, file,
                                               "number of attention heads")
                                : required_int(doc, {"num_attention_heads", "n_head"}, file,
                                               "number of attention heads");
    c.heads = n.value, heads_key = n.key;
    c.vocab = required_int(doc, {"padded_vocab_size", "vocab_size"}, file, "vocabulary size").value;
    read_context();
  }

  void read_context() {
    if (auto f = first_int(doc,
                           {"max_position_embeddings", "n_positions", "max_sequence_length",
                            "seq_length", "n_ctx"},
                           file)) {
      c.max_positions = f->value;
      return;
    }
    c.max_positions = kNoLimit;
    assume(
        "no context length (looked for max_position_embeddings, n_positions, "
        "max_sequence_length, seq_length, n_ctx): prompt and context lengths are not capped");
  }

  bool flag(const char* key, bool otherwise) {
    return optional_bool(doc, key, file).value_or(otherwise);
  }

  void read_kv_heads() {
    kv_key = heads_key;
    if (auto f = first_int(doc, {"num_key_value_heads"}, file)) {
      c.kv_heads = f->value, kv_key = f->key;
    } else if (type == "falcon") {
      read_falcon_kv_heads();
    } else if (type == "chatglm" && flag("multi_query_attention", false)) {
      const Field f = required_int(doc, {"multi_query_group_num"}, file,
                                   "number of KV groups (multi_query_attention is set)");
      c.kv_heads = f.value, kv_key = f.key;
    } else if (flag("multi_query", type == "gpt_bigcode")) {
      c.kv_heads = 1, kv_key = "multi_query";
    } else {
      c.kv_heads = c.heads;
    }
  }

  void check_kv_heads() { check_divides(c.kv_heads, kv_key, c.heads, heads_key, file); }

  // Falcon: new_decoder_architecture (or the legacy RefinedWeb type) → num_kv_heads / n_head_kv;
  // else multi_query → 1.
  void read_falcon_kv_heads() {
    const std::string written = doc.value("model_type", "");
    const bool new_arch = written == "RefinedWeb" || flag("new_decoder_architecture", false);
    if (new_arch) {
      if (auto f = first_int(doc, {"num_kv_heads", "n_head_kv"}, file)) {
        c.kv_heads = f->value, kv_key = f->key;
      } else {
        c.kv_heads = c.heads;
        assume(
            "new_decoder_architecture without num_kv_heads or n_head_kv: one KV head per "
            "query head (the transformers default)");
      }
    } else if (flag("multi_query", true)) {
      c.kv_heads = 1, kv_key = "multi_query";
    } else {
      c.kv_heads = c.heads;
    }
  }

  void read_head_dim() {
    if (auto f = first_int(doc, {"head_dim", "kv_channels", "attention_head_dim"}, file)) {
      c.head_dim = f->value;
      return;
    }
    check_divides(c.heads, heads_key, c.hidden, hidden_key, file);
    c.head_dim = c.hidden / c.heads;
  }

  void read_intermediate() {
    if (doc.contains("block_configs")) return;  // per layer (read_stack)
    if (type == "llama4_text") {
      if (auto f = optional_int(doc, "intermediate_size_mlp", file)) {
        c.intermediate = *f;  // the dense layers' MLP; intermediate_size is each expert's
        return;
      }
    }
    auto it = doc.find("n_inner");
    const bool n_inner_null = it != doc.end() && it->is_null();
    if (auto f =
            first_int(doc, {"intermediate_size", "ffn_dim", "n_inner", "ffn_hidden_size"}, file)) {
      c.intermediate = f->value;
      if (type == "qwen") halve_qwen_intermediate(*f);
      return;
    }
    if (n_inner_null || dialect.mlp_4h) {
      c.intermediate = checked_mul(4, c.hidden, file, pointer(hidden_key), "4·hidden");
      if (!n_inner_null) {
        assume("MLP width 4·hidden = " + std::to_string(c.intermediate) +
               " (the family's default; the config states none)");
      }
      return;
    }
    if (c.moe && c.dense_layers() == 0) {  // every layer is MoE: no dense width needed
      c.intermediate = c.moe->expert_intermediate;
      return;
    }
    required_int(doc, {"intermediate_size", "ffn_dim", "n_inner", "ffn_hidden_size"}, file,
                 "MLP width");
  }

  // Qwen (v1) writes the sum of its two gated projections' widths.
  void halve_qwen_intermediate(const Field& f) {
    if (f.value % 2 != 0) {
      throw InputError(error_code::kRange, file, pointer(f.key),
                       "Qwen's intermediate_size is twice each projection's width: expected an "
                       "even number, got " +
                           std::to_string(f.value));
    }
    c.intermediate = f.value / 2;
  }

  void read_window() {
    if (!flag("use_sliding_window", true)) return;
    c.sliding_window = optional_int(doc, "sliding_window", file);
  }

  // ---- the per-layer stack -------------------------------------------------------------------

  std::vector<LayerSpec> specs;  // one per layer, filled by read_stack

  const json* array_of(const char* key, std::int64_t size) {
    auto it = doc.find(key);
    if (it == doc.end() || it->is_null()) return nullptr;
    if (!it->is_array() || (size >= 0 && static_cast<std::int64_t>(it->size()) != size)) {
      throw InputError(error_code::kType, file, pointer(key),
                       "expected an array of " + std::to_string(size) +
                           " entries (one per layer), got " + describe(*it));
    }
    return &*it;
  }

  [[noreturn]] void unmodelled(const std::string& where, const std::string& kind) {
    throw InputError(error_code::kUnknownName, file, where,
                     "layer kind " + kind +
                         " is not modelled (modelled: full_attention, sliding_attention, "
                         "chunked_attention, linear_attention (Gated DeltaNet), mamba, mamba2, "
                         "MLP and MoE blocks)");
  }

  // `layer_types`: one kind per layer.
  void read_layer_types(const json& list) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const json& v = list[i];
      const std::string where = "/layer_types/" + std::to_string(i);
      if (!v.is_string()) {
        throw InputError(error_code::kType, file, where,
                         "expected a layer kind (a string), got " + describe(v));
      }
      const std::string kind = v.get<std::string>();
      LayerSpec& l = specs[i];
      if (kind == "full_attention" || kind == "attention") {
        l.mixer = MixerKind::kAttention;
      } else if (kind == "sliding_attention") {
        l.mixer = MixerKind::kAttention, l.span = AttentionSpan::kSliding;
      } else if (kind == "chunked_attention") {
        l.mixer = MixerKind::kAttention, l.span = AttentionSpan::kChunked;
      } else if (kind == "linear_attention" && doc.contains("linear_num_value_heads")) {
        l.mixer = MixerKind::kGatedDeltaNet;
      } else if ((kind == "mamba" || kind == "mamba2") && doc.contains("mamba_num_heads")) {
        l.mixer = MixerKind::kMamba2;
      } else {
        unmodelled(where, "\"" + excerpt(kind, 40) + "\"" +
                              (kind == "linear_attention"
                                   ? " (without linear_num_value_heads: not Gated DeltaNet)"
                                   : ""));
      }
    }
  }

  // Nemotron-H: one character per layer; M = Mamba-2 mixer, * = attention, - = MLP, E = MoE
  // (relu² experts: moe_mask() marks these layers).
  void read_pattern(const std::string& key) {
    const json& v = doc.at(key);
    if (!v.is_string() || static_cast<std::int64_t>(v.get<std::string>().size()) != c.layers) {
      throw InputError(error_code::kType, file, pointer(key),
                       "expected a string of " + std::to_string(c.layers) +
                           " layer characters (M, *, -, E), got " + describe(v));
    }
    const std::string text = v.get<std::string>();
    for (std::size_t i = 0; i < text.size(); ++i) {
      LayerSpec& l = specs[i];
      switch (text[i]) {
        case 'M':
          l.mixer = MixerKind::kMamba2, l.ffn = FfnKind::kNone;
          break;
        case '*':
          l.mixer = MixerKind::kAttention, l.ffn = FfnKind::kNone;
          break;
        case '-':
          l.mixer = MixerKind::kNone, l.ffn = FfnKind::kDense;
          break;
        case 'E':
          if (!c.moe) {
            required_int(doc, {"n_routed_experts", "num_experts"}, file,
                         "number of experts (the pattern has MoE layers, 'E')");
          }
          l.mixer = MixerKind::kNone, l.ffn = FfnKind::kDense;  // kMoe by the mask
          break;
        default:
          unmodelled(pointer(key), "'" + excerpt(text.substr(i, 1), 4) + "' (layer " +
                                       std::to_string(i) + " of the pattern)");
      }
    }
  }

  // DeciLM / Nemotron-Super: per-layer attention (n_heads_in_group, no_op, replace_with_linear)
  // and FFN (ffn_mult, no_op, replace_with_linear).
  void read_block_configs(const json& list) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string at = "/block_configs/" + std::to_string(i);
      const json& b = list[i];
      if (!b.is_object() || !b.contains("attention") || !b.contains("ffn") ||
          !b.at("attention").is_object() || !b.at("ffn").is_object()) {
        throw InputError(error_code::kType, file, at,
                         "expected {\"attention\": {...}, \"ffn\": {...}}, got " + describe(b));
      }
      const json& a = b.at("attention");
      const json& f = b.at("ffn");
      LayerSpec& l = specs[i];
      if (optional_bool(a, "no_op", file).value_or(false)) {
        l.mixer = MixerKind::kNone;
      } else if (optional_bool(a, "replace_with_linear", file).value_or(false)) {
        l.mixer = MixerKind::kLinear;
      } else {
        const auto group = optional_int(a, "n_heads_in_group", file);
        if (!group || c.heads % *group != 0) {
          throw InputError(error_code::kRange, file, at + "/attention/n_heads_in_group",
                           "expected a positive divisor of the " + std::to_string(c.heads) +
                               " heads, got " + describe(a.value("n_heads_in_group", json())));
        }
        l.kv_heads = c.heads / *group;
      }
      if (optional_bool(f, "no_op", file).value_or(false)) {
        l.ffn = FfnKind::kNone;
      } else if (optional_bool(f, "replace_with_linear", file).value_or(false)) {
        l.ffn = FfnKind::kLinear;
      } else {
        auto m = f.find("ffn_mult");
        if (m == f.end() || !m->is_number() || !(m->get<double>() > 0) || m->get<double>() > 1e6) {
          throw InputError(
              error_code::kType, file, at + "/ffn/ffn_mult",
              "expected a positive number, got " + describe(m == f.end() ? json() : *m));
        }
        // DeciLM: int(2 * ffn_mult * n_embd / 3) rounded up to a multiple of 256.
        const double raw = 2 * m->get<double>() * static_cast<double>(c.hidden) / 3;
        const std::int64_t width = static_cast<std::int64_t>(raw);
        l.ffn_width = (width + 255) / 256 * 256;
        if (l.ffn_width == 0) l.ffn = FfnKind::kNone;
      }
    }
  }

  // Which layers attend through a sliding window when no layer_types lists them.
  void assign_windows() {
    const std::int64_t n = c.layers;
    if (auto p = optional_int(doc, "sliding_window_pattern", file)) {  // Gemma-3
      for (std::int64_t i = 0; i < n; ++i)
        if ((i + 1) % *p != 0) specs[i].span = AttentionSpan::kSliding;
    } else if (type == "gemma2") {
      for (std::int64_t i = 0; i < n; i += 2) specs[i].span = AttentionSpan::kSliding;
    } else if (type == "qwen2" || type == "qwen2_moe") {
      const std::int64_t m = optional_int(doc, "max_window_layers", file, 0).value_or(0);
      for (std::int64_t i = std::min(m, n); i < n; ++i) specs[i].span = AttentionSpan::kSliding;
    } else {
      for (LayerSpec& l : specs) l.span = AttentionSpan::kSliding;
    }
  }

  // Llama-4: layers with RoPE attend within chunks of attention_chunk_size; NoPE layers
  // (no_rope_layers[i] == 0, by default every 4th) attend every earlier token.
  void assign_chunks() {
    c.attention_chunk = optional_int(doc, "attention_chunk_size", file);
    if (!c.attention_chunk) return;
    const json* nope = array_of("no_rope_layers", -1);
    if (nope && !nope->empty() && static_cast<std::int64_t>(nope->size()) != c.layers) {
      throw InputError(error_code::kType, file, "/no_rope_layers",
                       "expected " + std::to_string(c.layers) +
                           " flags (1: RoPE and chunked attention, 0: NoPE), got " +
                           describe(*nope));
    }
    const std::int64_t interval = optional_int(doc, "no_rope_layer_interval", file).value_or(4);
    for (std::int64_t i = 0; i < c.layers; ++i) {
      bool rope = (i + 1) % interval != 0;
      if (nope && !nope->empty()) {
        const json& v = (*nope)[i];
        if (!v.is_number_integer() || (v != 0 && v != 1)) {
          throw InputError(error_code::kType, file, "/no_rope_layers/" + std::to_string(i),
                           "expected 0 or 1, got " + describe(v));
        }
        rope = v == 1;
      }
      if (rope && specs[i].mixer == MixerKind::kAttention && specs[i].span == AttentionSpan::kFull)
        specs[i].span = AttentionSpan::kChunked;
    }
  }

  // Whether layer i's FFN is the MoE (DeepSeek first_k_dense_replace / moe_layer_freq; Llama-4
  // moe_layers / interleave_moe_layer_step; Jamba expert_layer_period / offset; Qwen
  // decoder_sparse_step / mlp_only_layers).
  std::vector<bool> moe_mask() {
    const std::int64_t n = c.layers;
    std::vector<bool> moe(n, true);
    auto pattern = doc.find("hybrid_override_pattern");
    if (pattern != doc.end() && pattern->is_string()) {  // Nemotron-H: the 'E' layers
      const std::string text = pattern->get<std::string>();
      for (std::int64_t i = 0; i < n; ++i)
        moe[i] = i < static_cast<std::int64_t>(text.size()) && text[i] == 'E';
      return moe;
    }
    if (doc.contains("first_k_dense_replace")) {
      const std::int64_t first = optional_int(doc, "first_k_dense_replace", file, 0).value_or(0);
      const std::int64_t freq = optional_int(doc, "moe_layer_freq", file).value_or(1);
      for (std::int64_t i = 0; i < n; ++i) moe[i] = i >= first && i % freq == 0;
      return moe;
    }
    if (const json* list = array_of("moe_layers", -1)) {
      moe.assign(n, false);
      for (std::size_t j = 0; j < list->size(); ++j) {
        const json& v = (*list)[j];
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= n) {
          throw InputError(
              error_code::kRange, file, "/moe_layers/" + std::to_string(j),
              "expected a layer index in [0, " + std::to_string(n) + "), got " + describe(v));
        }
        moe[v.get<std::int64_t>()] = true;
      }
      return moe;
    }
    if (auto step = optional_int(doc, "interleave_moe_layer_step", file)) {
      for (std::int64_t i = 0; i < n; ++i) moe[i] = (i + 1) % *step == 0;
      return moe;
    }
    if (auto period = optional_int(doc, "expert_layer_period", file)) {
      const std::int64_t offset = optional_int(doc, "expert_layer_offset", file, 0).value_or(0);
      for (std::int64_t i = 0; i < n; ++i) moe[i] = i % *period == offset;
      return moe;
    }
    const std::int64_t step = optional_int(doc, "decoder_sparse_step", file).value_or(1);
    const std::set<std::int64_t> dense = mlp_only_layers();
    for (std::int64_t i = 0; i < n; ++i) moe[i] = (i + 1) % step == 0 && !dense.count(i);
    return moe;
  }

  void read_stack() {
    const std::int64_t n = c.layers;
    specs.assign(n, LayerSpec{});
    const bool listed_types = doc.contains("layer_types") && !doc.at("layer_types").is_null();
    if (const json* blocks = array_of("block_configs", n)) {
      read_block_configs(*blocks);
    } else if (doc.contains("hybrid_override_pattern")) {
      read_pattern("hybrid_override_pattern");
    } else if (const json* types = array_of("layer_types", n)) {
      read_layer_types(*types);
    } else if (auto k = optional_int(doc, "full_attention_interval", file)) {  // Qwen3-Next
      for (std::int64_t i = 0; i < n; ++i)
        if ((i + 1) % *k != 0) specs[i].mixer = MixerKind::kGatedDeltaNet;
    } else if (auto period = optional_int(doc, "attn_layer_period", file)) {  // Jamba
      const std::int64_t offset = optional_int(doc, "attn_layer_offset", file, 0).value_or(0);
      for (std::int64_t i = 0; i < n; ++i)
        if (i % *period != offset) specs[i].mixer = MixerKind::kMamba;
    }
    if (c.sliding_window && !listed_types) assign_windows();
    if (!c.sliding_window) {
      for (LayerSpec& l : specs)
        if (l.span == AttentionSpan::kSliding) l.span = AttentionSpan::kFull;
    }
    assign_chunks();
    std::vector<bool> moe(n, false);
    if (c.moe) moe = moe_mask();
    std::int64_t moe_layers = 0, window_layers = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      LayerSpec& l = specs[i];
      if (l.mixer == MixerKind::kAttention && l.kv_heads == 0) l.kv_heads = c.kv_heads;
      if (l.mixer != MixerKind::kAttention) l.span = AttentionSpan::kFull, l.kv_heads = 0;
      if (l.ffn == FfnKind::kDense && c.moe && moe[i]) l.ffn = FfnKind::kMoe;
      if (l.ffn == FfnKind::kDense && l.ffn_width == 0) l.ffn_width = c.intermediate;
      if (l.ffn != FfnKind::kDense) l.ffn_width = 0;
      if (l.ffn == FfnKind::kMoe) ++moe_layers;
      if (l.span == AttentionSpan::kSliding) ++window_layers;
    }
    if (c.moe) c.moe->moe_layers = moe_layers;
    if (c.moe && moe_layers == 0) c.moe.reset();
    c.window_layers = window_layers;
    if (window_layers == 0) c.sliding_window.reset();
    if (c.attention_chunk && std::none_of(specs.begin(), specs.end(), [](const LayerSpec& l) {
          return l.span == AttentionSpan::kChunked;
        }))
      c.attention_chunk.reset();
    c.stack = specs;
  }

  void read_biases() {
    c.qkv_bias = dialect.qkv_bias, c.o_bias = dialect.o_bias, c.mlp_bias = dialect.mlp_bias;
    for (const char* key : {"bias", "enable_bias", "use_bias"}) {
      if (auto b = optional_bool(doc, key, file)) c.qkv_bias = c.o_bias = c.mlp_bias = *b;
    }
    if (auto b = optional_bool(doc, "attention_bias", file)) c.qkv_bias = c.o_bias = *b;
    if (auto b = optional_bool(doc, "mlp_bias", file)) c.mlp_bias = *b;
    if (auto b = optional_bool(doc, "add_qkv_bias", file)) c.qkv_bias = *b;
    if (auto b = optional_bool(doc, "use_qkv_bias", file)) c.qkv_bias = *b;  // StableLM
    if (auto b = optional_bool(doc, "add_bias_linear", file)) c.o_bias = c.mlp_bias = *b;
    if (type == "qwen" && flag("no_bias", true)) c.o_bias = c.mlp_bias = false;
    c.lm_head_bias = type == "phi" || type == "gptj";
  }

  void read_embeddings() {
    c.tie_embeddings = flag("tie_word_embeddings", dialect.tie);
    c.embed_dim = c.hidden;
    if (type == "opt") {
      if (auto p = optional_int(doc, "word_embed_proj_dim", file)) c.embed_dim = *p;
      c.position_rows =
          checked_add(c.max_positions, 2, file, "/max_position_embeddings", "OPT's position rows");
    } else if (type == "gpt2" || type == "gpt_bigcode") {
      c.position_rows = c.max_positions;
    }
  }

  void read_structure() {
    c.parallel_blocks = type == "phi" || type == "gptj" || type == "cohere" ||
                        (type == "falcon" && flag("parallel_attn", true)) ||
                        (type == "gpt_neox" && flag("use_parallel_residual", true)) ||
                        (type == "stablelm" && flag("use_parallel_residual", false));
    c.fused_qkv_weights = dialect.fused_qkv;
    c.fused_gate_up_weights = dialect.fused_gate_up;
  }

  std::int64_t norms_per_layer() {
    if (type == "falcon") {
      const bool new_arch =
          doc.value("model_type", "") == "RefinedWeb" || flag("new_decoder_architecture", false);
      return c.parallel_blocks && !new_arch ? 1 : 2;
    }
    return dialect.norms_per_layer;
  }

  void count_norms() {
    const bool bias = dialect.layer_norm && type != "cohere";  // Cohere's LayerNorm has no bias
    const std::int64_t one = bias ? 2 * c.hidden : c.hidden;
    const std::string where = pointer(hidden_key);
    const std::int64_t norms = checked_add(
        checked_mul(c.layers, norms_per_layer(), file, where, "norms"), 1, file, where, "norms");
    std::int64_t total = checked_mul(norms, one, file, where, "norm weights");
    if (type == "bloom") {  // word_embeddings_layernorm
      total = checked_add(total, 2 * c.hidden, file, where, "norm weights");
    }
    if (c.mla) {  // kv_a_layernorm (and q_a_layernorm)
      const std::int64_t per_layer =
          checked_add(c.mla->kv_lora_rank, c.mla->q_lora_rank.value_or(0), file, "/kv_lora_rank",
                      "latent norm width");
      total = checked_add(
          total, checked_mul(c.layers, per_layer, file, "/kv_lora_rank", "latent norm weights"),
          file, "/kv_lora_rank", "norm weights");
    }
    c.norm_parameters = total;
  }

  void read_moe() {
    auto experts = first_int(doc, {"num_local_experts", "n_routed_experts", "num_experts"}, file);
    if (!experts) return;
    MoeConfig m;
    m.experts = experts->value;
    const Field k = required_int(doc, {"num_experts_per_tok"}, file, "experts per token (top-k)");
    if (k.value > m.experts) {
      throw InputError(error_code::kRange, file, pointer(k.key),
                       "num_experts_per_tok (" + std::to_string(k.value) + ") exceeds the " +
                           std::to_string(m.experts) + " experts of " + experts->key);
    }
    m.top_k = k.value;
    m.expert_intermediate =
        required_int(doc, {"moe_intermediate_size", "intermediate_size"}, file, "expert MLP width")
            .value;
    if (auto w = optional_int(doc, "moe_shared_expert_intermediate_size", file)) {
      m.shared_intermediate = *w;  // Nemotron-H: one shared expert of this width
    } else if (auto s = optional_int(doc, "n_shared_experts", file)) {
      m.shared_intermediate = checked_mul(*s, m.expert_intermediate, file, "/n_shared_experts",
                                          "shared experts' width");
    } else if (auto w = optional_int(doc, "shared_expert_intermediate_size", file)) {
      m.shared_intermediate = *w;
      m.shared_gate = true;
    }
    if (type == "llama4_text") m.shared_intermediate = m.expert_intermediate;  // shared_expert
    if (type == "nemotron_h") m.expert_mlp = MlpKind::kPlain;  // relu² experts: up, down
    const std::vector<bool> mask = moe_mask();
    m.moe_layers = std::count(mask.begin(), mask.end(), true);
    if (m.moe_layers > 0) c.moe = m;
  }

  std::set<std::int64_t> mlp_only_layers() {
    std::set<std::int64_t> out;
    auto it = doc.find("mlp_only_layers");
    if (it == doc.end() || it->is_null()) return out;
    if (!it->is_array()) {
      throw InputError(error_code::kType, file, "/mlp_only_layers",
                       "expected an array of layer indices, got " + describe(*it));
    }
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& v = (*it)[i];
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0) {
        throw InputError(error_code::kType, file, "/mlp_only_layers/" + std::to_string(i),
                         "expected a layer index >= 0, got " + describe(v));
      }
      out.insert(v.get<std::int64_t>());
    }
    return out;
  }

  void read_mla() {
    auto rank = optional_int(doc, "kv_lora_rank", file);
    if (!rank) return;
    MlaConfig m;
    m.kv_lora_rank = *rank;
    m.q_lora_rank = optional_int(doc, "q_lora_rank", file);
    m.qk_nope_head_dim =
        required_int(doc, {"qk_nope_head_dim"}, file, "MLA no-rope head size").value;
    m.qk_rope_head_dim = required_int(doc, {"qk_rope_head_dim"}, file, "MLA rope head size").value;
    m.v_head_dim = required_int(doc, {"v_head_dim"}, file, "MLA value head size").value;
    c.mla = m;
    c.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
    c.kv_heads = c.heads;  // the naive path: every head has its own K and V
  }

  // ---- hybrid mixers and attention add-ons ----------------------------------------------------

  std::int64_t mul(std::int64_t a, std::int64_t b, const char* where, const char* what) {
    return checked_mul(a, b, file, where, what);
  }
  std::int64_t add(std::int64_t a, std::int64_t b, const char* where, const char* what) {
    return checked_add(a, b, file, where, what);
  }

  // Non-matmul weights of every layer of kind `k`, `per_layer` each.
  void other(MixerKind k, std::int64_t per_layer, const char* where) {
    c.other_parameters = add(c.other_parameters, mul(c.layers_with(k), per_layer, where, "weights"),
                             where, "weights");
  }

  void read_mamba2() {
    if (c.layers_with(MixerKind::kMamba2) == 0) return;
    SsmConfig m;
    m.heads = required_int(doc, {"mamba_num_heads", "mamba_n_heads"}, file, "Mamba-2 heads").value;
    const std::int64_t head_dim =
        required_int(doc, {"mamba_head_dim", "mamba_d_head"}, file, "Mamba-2 head size").value;
    m.inner = mul(m.heads, head_dim, "/mamba_head_dim", "Mamba-2 inner width");
    m.groups = first_int(doc, {"n_groups", "mamba_n_groups"}, file).value_or(Field{1, ""}).value;
    m.state =
        required_int(doc, {"ssm_state_size", "mamba_d_state", "state_size"}, file, "SSM state size")
            .value;
    m.conv = required_int(doc, {"conv_kernel", "mamba_d_conv"}, file, "conv kernel width").value;
    m.proj_bias = flag("mamba_proj_bias", flag("use_bias", false));
    m.conv_bias = flag("use_conv_bias", flag("mamba_conv_bias", true));
    const std::int64_t bc = mul(2 * m.groups, m.state, "/ssm_state_size", "B and C widths");
    const std::int64_t conv_dim = add(m.inner, bc, "/ssm_state_size", "conv channels");
    std::int64_t per_layer = mul(conv_dim, m.conv, "/conv_kernel", "conv weights");
    if (m.conv_bias) per_layer += conv_dim;
    per_layer += 3 * m.heads + m.inner;  // A_log, D, dt_bias; the gated RMSNorm
    if (m.proj_bias) per_layer += 2 * m.inner + bc + m.heads + c.hidden;
    other(MixerKind::kMamba2, per_layer, "/ssm_state_size");
    c.ssm = m;
  }

  void read_mamba1() {
    if (c.layers_with(MixerKind::kMamba) == 0) return;
    SsmConfig m;
    const std::int64_t expand = optional_int(doc, "mamba_expand", file).value_or(2);
    m.inner = mul(expand, c.hidden, "/mamba_expand", "Mamba inner width");
    m.state = required_int(doc, {"mamba_d_state"}, file, "SSM state size").value;
    m.conv = required_int(doc, {"mamba_d_conv"}, file, "conv kernel width").value;
    auto rank = doc.find("mamba_dt_rank");
    if (rank != doc.end() && rank->is_string() && *rank == "auto") {
      m.dt_rank = (c.hidden + 15) / 16;
    } else {
      m.dt_rank = required_int(doc, {"mamba_dt_rank"}, file, "dt rank").value;
    }
    m.proj_bias = flag("mamba_proj_bias", false);
    m.conv_bias = flag("mamba_conv_bias", true);
    std::int64_t per_layer = mul(m.inner, m.conv, "/mamba_d_conv", "conv weights");
    if (m.conv_bias) per_layer += m.inner;
    per_layer += m.inner;                                                 // dt_proj bias
    per_layer += mul(m.inner, m.state, "/mamba_d_state", "A") + m.inner;  // A_log, D
    if (type == "jamba") per_layer += m.dt_rank + 2 * m.state;            // dt, B, C layernorms
    if (m.proj_bias) per_layer += 2 * m.inner + c.hidden;
    other(MixerKind::kMamba, per_layer, "/mamba_d_state");
    c.ssm = m;
  }

  void read_deltanet() {
    if (c.layers_with(MixerKind::kGatedDeltaNet) == 0) return;
    DeltaNetConfig d;
    const char* what = "Gated DeltaNet size";
    d.key_heads = required_int(doc, {"linear_num_key_heads"}, file, what).value;
    d.value_heads = required_int(doc, {"linear_num_value_heads"}, file, what).value;
    d.key_dim = required_int(doc, {"linear_key_head_dim"}, file, what).value;
    d.value_dim = required_int(doc, {"linear_value_head_dim"}, file, what).value;
    d.conv = required_int(doc, {"linear_conv_kernel_dim"}, file, what).value;
    const std::int64_t kd = mul(d.key_heads, d.key_dim, "/linear_key_head_dim", "key width");
    const std::int64_t vd =
        mul(d.value_heads, d.value_dim, "/linear_value_head_dim", "value width");
    const std::int64_t conv_dim = add(2 * kd, vd, "/linear_value_head_dim", "conv channels");
    // conv1d (no bias), dt_bias and A_log per value head, the gated RMSNorm of one value head
    other(MixerKind::kGatedDeltaNet,
          mul(conv_dim, d.conv, "/linear_conv_kernel_dim", "conv weights") + 2 * d.value_heads +
              d.value_dim,
          "/linear_num_value_heads");
    c.deltanet = d;
  }

  void read_attention_extras() {
    c.gated_attention = flag("attn_output_gate", type == "qwen3_next");
    const bool qk_norm = type == "qwen3" || type == "qwen3_moe" || type == "qwen3_next" ||
                         type == "qwen3_5_text" || type == "qwen3_5_moe_text" ||
                         type == "gemma3_text";
    if (qk_norm) other(MixerKind::kAttention, 2 * c.head_dim, "/head_dim");
    if (type == "gpt_oss") {
      other(MixerKind::kAttention, c.heads, "/num_attention_heads");  // attention sinks
      if (c.moe) {  // router bias E; expert biases E·(2·I_e + h)
        const MoeConfig& m = *c.moe;
        const std::int64_t per_layer =
            add(m.experts,
                mul(m.experts, add(2 * m.expert_intermediate, c.hidden, "/hidden_size", "biases"),
                    "/num_local_experts", "expert biases"),
                "/num_local_experts", "MoE biases");
        c.other_parameters = add(c.other_parameters,
                                 mul(per_layer, m.moe_layers, "/num_local_experts", "MoE biases"),
                                 "/num_local_experts", "weights");
      }
    }
    if (auto heads = optional_int(doc, "index_n_heads", file)) {
      if (!c.mla || !c.mla->q_lora_rank) {
        throw InputError(error_code::kUnknownName, file, "/index_n_heads",
                         "an indexer (index_n_heads) on attention without MLA and q_lora_rank is "
                         "not modelled");
      }
      IndexerConfig x;
      x.heads = *heads;
      x.head_dim = required_int(doc, {"index_head_dim"}, file, "indexer head size").value;
      x.topk = required_int(doc, {"index_topk"}, file, "tokens the indexer selects").value;
      other(MixerKind::kAttention, 2 * x.head_dim, "/index_head_dim");  // k_norm (LayerNorm)
      c.indexer = x;
    }
  }

  void note_generic() {
    if (!doc.contains("model_type") && !doc.contains("architectures") && type == "gpt2") {
      assume("no model_type or architectures: read as gpt2 (the keys are GPT-2's: n_embd)");
      return;
    }
    if (!type.empty() && find_dialect(type)) return;
    const std::string what =
        type.empty() ? "no known model_type or architecture" : "unknown model_type '" + type + "'";
    assume(what +
           ": read the standard keys with Llama's conventions (gated MLP gate/up/down, "
           "RMSNorm, no biases, embeddings tied only if tie_word_embeddings says so)");
  }
};

// The widest per-layer sizes the generator forms must fit in 64 bits.
void check_derived_sizes(const std::string& file, const ModelConfig& c) {
  const std::int64_t q = checked_mul(c.heads, c.head_dim, file, "/num_attention_heads", "n_h·d");
  const std::int64_t kv2 =
      checked_mul(2 * c.kv_heads, c.head_dim, file, "/num_key_value_heads", "2·n_kv·d");
  checked_add(q, kv2, file, "/num_attention_heads", "fused QKV width");
  checked_mul(2, c.intermediate, file, "/intermediate_size", "2·intermediate");
  checked_mul(c.vocab, c.embed_dim, file, "/vocab_size", "V·h");
  if (c.mla) {
    const MlaConfig& m = *c.mla;
    const std::int64_t qk = checked_add(m.qk_nope_head_dim, m.qk_rope_head_dim, file,
                                        "/qk_nope_head_dim", "MLA query head size");
    checked_mul(c.heads, checked_add(qk, m.v_head_dim, file, "/v_head_dim", "MLA head sizes"), file,
                "/num_attention_heads", "n_h·(d_nope + d_rope + d_v)");
    checked_add(m.kv_lora_rank, m.qk_rope_head_dim, file, "/kv_lora_rank", "latent + rope");
  }
  if (c.moe) {
    checked_mul(2 * c.moe->experts, c.moe->expert_intermediate, file, "/moe_intermediate_size",
                "2·E·expert width");
    checked_mul(2, c.moe->shared_intermediate, file, "/n_shared_experts", "2·shared width");
  }
}

}  // namespace

const char* to_string(MlpKind k) { return k == MlpKind::kPlain ? "plain" : "gated"; }

const char* to_string(MixerKind k) {
  switch (k) {
    case MixerKind::kAttention:
      return "attention";
    case MixerKind::kMamba:
      return "mamba";
    case MixerKind::kMamba2:
      return "mamba2";
    case MixerKind::kGatedDeltaNet:
      return "gated_deltanet";
    case MixerKind::kLinear:
      return "linear";
    default:
      return "none";
  }
}

std::int64_t ModelConfig::layers_with(MixerKind k) const {
  return std::count_if(stack.begin(), stack.end(),
                       [k](const LayerSpec& l) { return l.mixer == k; });
}

namespace {

ModelConfig parse_language_model(const json& doc, const std::string& file) {
  ModelConfig c;
  const std::string written = model_type_of(doc, file);
  const std::string type = canonical_type(written);
  const Dialect* known = find_dialect(type);
  const Dialect& dialect = known ? *known : generic_dialect();
  c.name = name_of(doc, file);
  c.model_type = written.empty() ? "unknown" : written;
  c.mlp = dialect.mlp;
  c.names = dialect.names;
  Reader r{doc, file, dialect, known ? type : written, c, "", "", "", {}};
  r.note_generic();
  r.read_sizes();
  r.read_kv_heads();
  r.read_head_dim();
  r.check_kv_heads();
  r.read_moe();
  r.read_intermediate();
  r.read_window();
  r.read_biases();
  r.read_embeddings();
  r.read_structure();
  r.read_mla();
  r.read_stack();
  if (doc.contains("block_configs")) {  // the widest per-layer MLP stands for `intermediate`
    for (const LayerSpec& l : c.stack) c.intermediate = std::max(c.intermediate, l.ffn_width);
  }
  r.read_mamba2();
  r.read_mamba1();
  r.read_deltanet();
  r.read_attention_extras();
  r.count_norms();
  check_derived_sizes(file, c);
  return c;
}

// What a family's text config leaves to its class defaults (Gemma-3's published text_config
// states only the sizes that differ from Gemma3TextConfig's).
void fill_family_defaults(json& inner, std::vector<std::string>& notes) {
  if (inner.value("model_type", "") != "gemma3_text") return;
  const std::pair<const char*, std::int64_t> defaults[] = {
      {"vocab_size", 262208}, {"num_attention_heads", 8},          {"num_key_value_heads", 4},
      {"head_dim", 256},      {"max_position_embeddings", 131072}, {"sliding_window", 4096}};
  for (const auto& [key, value] : defaults) {
    if (inner.contains(key)) continue;
    inner[key] = value;
    notes.push_back(std::string(key) + " = " + std::to_string(value) +
                    " (Gemma3TextConfig's default; the text_config states none)");
  }
  if (!inner.contains("layer_types") && !inner.contains("sliding_window_pattern")) {
    inner["sliding_window_pattern"] = 6;
    notes.push_back("every 6th layer global, the others sliding (Gemma3TextConfig's default)");
  }
}

}  // namespace

ModelConfig parse_model_config(const json& doc, const std::string& file) {
  if (!doc.is_object()) {
    throw InputError(error_code::kType, file, "",
                     "expected a JSON object (a Hugging Face config.json), got " + describe(doc));
  }
  for (const char* key : {"text_config", "language_config", "llm_config"}) {
    auto it = doc.find(key);
    if (it == doc.end() || it->is_null()) continue;
    if (!it->is_object()) {
      throw InputError(error_code::kType, file, pointer(key),
                       "expected the language model's config (an object), got " + describe(*it));
    }
    json inner = *it;
    std::vector<std::string> notes;
    // The wrapper's type names the family when the inner config does not.
    if (!inner.contains("model_type") && !inner.contains("architectures")) {
      if (doc.contains("model_type"))
        inner["model_type"] = doc.at("model_type");
      else if (doc.contains("architectures"))
        inner["architectures"] = doc.at("architectures");
    }
    if (inner.contains("model_type") && inner.at("model_type").is_string()) {
      const std::string t = inner.at("model_type").get<std::string>();
      if (t == "gemma3" || t == "llama4" || t == "qwen3_5" || t == "qwen3_5_moe")
        inner["model_type"] = canonical_type(t);
    }
    for (const char* shared : {"_name_or_path", "tie_word_embeddings"}) {
      if (!inner.contains(shared) && doc.contains(shared)) inner[shared] = doc.at(shared);
    }
    fill_family_defaults(inner, notes);
    ModelConfig c;
    try {
      c = parse_language_model(inner, file);
    } catch (const InputError& e) {
      throw e.located(file, pointer(key));
    }
    std::string ignored;
    for (const auto& [k, v] : doc.items()) {
      if (k == key || k == "_name_or_path" || k == "tie_word_embeddings") continue;
      ignored += (ignored.empty() ? "" : ", ") + k;
    }
    c.nested = key;
    std::vector<std::string> said = {"the language model is read from /" + std::string(key) +
                                     "; the wrapper's own keys are ignored (" +
                                     excerpt(ignored, 300) + ")"};
    for (std::string& n : notes) said.push_back(std::move(n));
    c.assumptions.insert(c.assumptions.begin(), said.begin(), said.end());
    return c;
  }
  return parse_language_model(doc, file);
}

ModelConfig load_model_config(const std::string& path) {
  return parse_model_config(io::read_config_json_file(path), path);
}

bool operator==(const LayerNames& a, const LayerNames& b) {
  return a.qkv == b.qkv && a.q == b.q && a.k == b.k && a.v == b.v && a.o == b.o && a.qk == b.qk &&
         a.pv == b.pv && a.gate_up == b.gate_up && a.gate == b.gate && a.up == b.up &&
         a.down == b.down && a.moe == b.moe && a.lm_head == b.lm_head;
}

bool operator==(const MoeConfig& a, const MoeConfig& b) {
  return a.experts == b.experts && a.top_k == b.top_k &&
         a.expert_intermediate == b.expert_intermediate &&
         a.shared_intermediate == b.shared_intermediate && a.shared_gate == b.shared_gate &&
         a.expert_mlp == b.expert_mlp && a.moe_layers == b.moe_layers;
}

bool operator==(const MlaConfig& a, const MlaConfig& b) {
  return a.q_lora_rank == b.q_lora_rank && a.kv_lora_rank == b.kv_lora_rank &&
         a.qk_nope_head_dim == b.qk_nope_head_dim && a.qk_rope_head_dim == b.qk_rope_head_dim &&
         a.v_head_dim == b.v_head_dim;
}

bool operator==(const ModelConfig& a, const ModelConfig& b) {
  return a.name == b.name && a.model_type == b.model_type && a.mlp == b.mlp &&
         a.hidden == b.hidden && a.layers == b.layers && a.heads == b.heads &&
         a.kv_heads == b.kv_heads && a.head_dim == b.head_dim && a.intermediate == b.intermediate &&
         a.vocab == b.vocab && a.max_positions == b.max_positions &&
         a.sliding_window == b.sliding_window && a.window_layers == b.window_layers &&
         a.embed_dim == b.embed_dim && a.position_rows == b.position_rows &&
         a.tie_embeddings == b.tie_embeddings && a.qkv_bias == b.qkv_bias && a.o_bias == b.o_bias &&
         a.mlp_bias == b.mlp_bias && a.lm_head_bias == b.lm_head_bias &&
         a.parallel_blocks == b.parallel_blocks && a.fused_qkv_weights == b.fused_qkv_weights &&
         a.fused_gate_up_weights == b.fused_gate_up_weights &&
         a.norm_parameters == b.norm_parameters && a.layer_norm == b.layer_norm &&
         a.norms_per_layer == b.norms_per_layer && a.names == b.names && a.moe == b.moe &&
         a.mla == b.mla && a.stack == b.stack && a.attention_chunk == b.attention_chunk &&
         a.ssm == b.ssm && a.deltanet == b.deltanet && a.indexer == b.indexer &&
         a.gated_attention == b.gated_attention && a.other_parameters == b.other_parameters &&
         a.nested == b.nested && a.assumptions == b.assumptions;
}

bool operator==(const LayerSpec& a, const LayerSpec& b) {
  return a.mixer == b.mixer && a.span == b.span && a.kv_heads == b.kv_heads && a.ffn == b.ffn &&
         a.ffn_width == b.ffn_width;
}

bool operator==(const SsmConfig& a, const SsmConfig& b) {
  return a.inner == b.inner && a.heads == b.heads && a.groups == b.groups && a.state == b.state &&
         a.conv == b.conv && a.dt_rank == b.dt_rank && a.proj_bias == b.proj_bias &&
         a.conv_bias == b.conv_bias;
}

bool operator==(const DeltaNetConfig& a, const DeltaNetConfig& b) {
  return a.key_heads == b.key_heads && a.value_heads == b.value_heads && a.key_dim == b.key_dim &&
         a.value_dim == b.value_dim && a.conv == b.conv;
}

bool operator==(const IndexerConfig& a, const IndexerConfig& b) {
  return a.heads == b.heads && a.head_dim == b.head_dim && a.topk == b.topk;
}

std::ostream& operator<<(std::ostream& os, const ModelConfig& c) {
  os << c.name << " (" << c.model_type << "): h " << c.hidden << ", layers " << c.layers
     << ", heads " << c.heads << "/" << c.kv_heads << ", d " << c.head_dim << ", "
     << to_string(c.mlp) << " MLP " << c.intermediate << ", V " << c.vocab << ", context "
     << c.max_positions;
  if (c.sliding_window) os << ", window " << *c.sliding_window << " in " << c.window_layers;
  if (c.moe) {
    os << ", MoE " << c.moe->top_k << "/" << c.moe->experts << " x " << c.moe->expert_intermediate
       << " in " << c.moe->moe_layers << " layers, shared " << c.moe->shared_intermediate;
  }
  if (c.mla) os << ", MLA latent " << c.mla->kv_lora_rank;
  for (MixerKind k : {MixerKind::kMamba, MixerKind::kMamba2, MixerKind::kGatedDeltaNet,
                      MixerKind::kLinear, MixerKind::kNone}) {
    if (const std::int64_t n = c.layers_with(k))
      os << ", " << n << " " << to_string(k) << " layers";
  }
  if (c.tie_embeddings) os << ", tied";
  return os;
}

}  // namespace tenet::llm
