#include "tenet/llm/model_config.hpp"

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>

#include "io/text_file.hpp"
#include "llm/checked_int.hpp"
#include "tenet/error.hpp"
#include "tenet/io/json_reader.hpp"

namespace tenet::llm {
namespace {

using detail::checked_add;
using detail::checked_mul;
using nlohmann::json;
using Keys = std::initializer_list<const char*>;

constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

// ---- reading one field ----------------------------------------------------------------------

std::string pointer(const std::string& key) { return "/" + key; }

std::string describe(const json& v) { return excerpt(v.dump(), 40); }

std::string key_list(Keys keys) {
  std::string out;
  for (const char* k : keys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

// The value of an integer field >= `minimum` (a size: >= 1), or nothing when it is absent or
// null.
std::optional<std::int64_t> optional_int(const json& doc, const std::string& key,
                                         const std::string& file, std::int64_t minimum = 1) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return std::nullopt;
  const json& v = *it;
  const bool too_big_unsigned =
      v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(kNoLimit);
  if (too_big_unsigned || (v.is_number_float() && std::abs(v.get<double>()) >= 9.2e18)) {
    throw InputError(error_code::kOverflow, file, pointer(key),
                     "value " + describe(v) + " does not fit in 64 bits");
  }
  const char* expected = minimum > 0 ? "a positive integer" : "an integer >= 0";
  if (!v.is_number_integer()) {
    throw InputError(error_code::kType, file, pointer(key),
                     std::string("expected ") + expected + ", got " + describe(v));
  }
  const std::int64_t value = v.get<std::int64_t>();
  if (value < minimum) {
    throw InputError(error_code::kRange, file, pointer(key),
                     std::string("expected ") + expected + ", got " + std::to_string(value));
  }
  return value;
}

std::optional<bool> optional_bool(const json& doc, const char* key, const std::string& file) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return std::nullopt;
  if (!it->is_boolean()) {
    throw InputError(error_code::kType, file, pointer(key),
                     "expected true or false, got " + describe(*it));
  }
  return it->get<bool>();
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

void refuse_non_decoder(const std::string& name, const std::string& file, const char* where) {
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
    if (auto f = first_int(doc, {"head_dim", "kv_channels"}, file)) {
      c.head_dim = f->value;
      return;
    }
    check_divides(c.heads, heads_key, c.hidden, hidden_key, file);
    c.head_dim = c.hidden / c.heads;
  }

  void read_intermediate() {
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
    auto w = optional_int(doc, "sliding_window", file);
    if (!w) return;
    c.sliding_window = *w;
    c.window_layers = c.layers;
    if (auto listed = sliding_layers_listed()) {
      c.window_layers = *listed;
    } else if (type == "gemma2") {
      c.window_layers = (c.layers + 1) / 2;  // layers 0, 2, 4, ... are local
    } else if (type == "qwen2" || type == "qwen2_moe") {
      if (auto m = optional_int(doc, "max_window_layers", file))
        c.window_layers = std::max<std::int64_t>(0, c.layers - std::min(*m, c.layers));
    }
    if (c.window_layers == 0) c.sliding_window.reset();
  }

  // `layer_types` (newer configs): one "sliding_attention" / "full_attention" per layer.
  std::optional<std::int64_t> sliding_layers_listed() {
    auto it = doc.find("layer_types");
    if (it == doc.end() || it->is_null()) return std::nullopt;
    if (!it->is_array() || static_cast<std::int64_t>(it->size()) != c.layers) {
      throw InputError(error_code::kType, file, "/layer_types",
                       "expected an array of " + std::to_string(c.layers) +
                           " layer kinds (one per layer), got " + describe(*it));
    }
    std::int64_t sliding = 0;
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& v = (*it)[i];
      if (v == "sliding_attention") {
        ++sliding;
      } else if (v != "full_attention") {
        throw InputError(
            error_code::kUnknownName, file, "/layer_types/" + std::to_string(i),
            "expected \"sliding_attention\" or \"full_attention\", got " + describe(v));
      }
    }
    return sliding;
  }

  void read_biases() {
    c.qkv_bias = dialect.qkv_bias, c.o_bias = dialect.o_bias, c.mlp_bias = dialect.mlp_bias;
    for (const char* key : {"bias", "enable_bias", "use_bias"}) {
      if (auto b = optional_bool(doc, key, file)) c.qkv_bias = c.o_bias = c.mlp_bias = *b;
    }
    if (auto b = optional_bool(doc, "attention_bias", file)) c.qkv_bias = c.o_bias = *b;
    if (auto b = optional_bool(doc, "mlp_bias", file)) c.mlp_bias = *b;
    if (auto b = optional_bool(doc, "add_qkv_bias", file)) c.qkv_bias = *b;
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
    c.parallel_blocks = type == "phi" || type == "gptj" ||
                        (type == "falcon" && flag("parallel_attn", true)) ||
                        (type == "gpt_neox" && flag("use_parallel_residual", true));
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
    const std::int64_t one = dialect.layer_norm ? 2 * c.hidden : c.hidden;
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
    if (auto s = optional_int(doc, "n_shared_experts", file)) {
      m.shared_intermediate = checked_mul(*s, m.expert_intermediate, file, "/n_shared_experts",
                                          "shared experts' width");
    } else if (auto w = optional_int(doc, "shared_expert_intermediate_size", file)) {
      m.shared_intermediate = *w;
      m.shared_gate = true;
    }
    m.moe_layers = count_moe_layers();
    if (m.moe_layers > 0) c.moe = m;
  }

  // DeepSeek: layer i ≥ first_k_dense_replace with i % moe_layer_freq == 0; Qwen-MoE: (i+1) %
  // decoder_sparse_step == 0 and i not in mlp_only_layers; otherwise every layer.
  std::int64_t count_moe_layers() {
    const std::int64_t n = c.layers;
    if (doc.contains("first_k_dense_replace")) {
      const std::int64_t first = optional_int(doc, "first_k_dense_replace", file, 0).value_or(0);
      const std::int64_t freq = optional_int(doc, "moe_layer_freq", file).value_or(1);
      if (first >= n) return 0;
      return (n - 1) / freq - (first + freq - 1) / freq + 1;
    }
    const std::int64_t step = optional_int(doc, "decoder_sparse_step", file).value_or(1);
    std::int64_t count = n / step;
    for (std::int64_t i : mlp_only_layers()) {
      if (i < n && (i + 1) % step == 0) --count;
    }
    return count;
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

ModelConfig parse_model_config(const json& doc, const std::string& file) {
  if (!doc.is_object()) {
    throw InputError(error_code::kType, file, "",
                     "expected a JSON object (a Hugging Face config.json), got " + describe(doc));
  }
  ModelConfig c;
  const std::string written = model_type_of(doc, file);
  const std::string type = canonical_type(written);
  const Dialect* known = find_dialect(type);
  const Dialect& dialect = known ? *known : generic_dialect();
  c.name = name_of(doc, file);
  c.model_type = written.empty() ? "unknown" : written;
  c.mlp = dialect.mlp;
  c.names = dialect.names;
  Reader r{doc, file, dialect, known ? type : written, c, "", "", ""};
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
  r.count_norms();
  check_derived_sizes(file, c);
  return c;
}

ModelConfig load_model_config(const std::string& path) {
  return parse_model_config(io::read_json_file(path), path);
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
         a.moe_layers == b.moe_layers;
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
         a.mla == b.mla && a.assumptions == b.assumptions;
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
  if (c.tie_embeddings) os << ", tied";
  return os;
}

}  // namespace tenet::llm
