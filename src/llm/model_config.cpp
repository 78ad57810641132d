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

// The member `key` of `object`, or nullptr when it is absent or null (HF writes null for "not
// set").
const json* member(const json& object, const std::string& key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

// A dimension and the key it was found under.
struct Field {
  std::int64_t value = 0;
  std::string key;
};

// The fields of one config, read through io::JsonFields into one problem list (the config's
// every problem is thrown together at the end), with what a Hugging Face config needs on top:
// null means "not set", a float beyond 64 bits is an overflow, and a field is converted once — a
// wrong value is recorded the first time it is read and reads as unset afterwards (bad() says
// so, and the derivations that need it are skipped).
struct Fields {
  io::JsonProblems& problems;
  std::set<std::string> failed;  // JSON pointers of the fields recorded as wrong

  bool bad(const std::string& at) const { return failed.count(at) != 0; }
  void add(const std::string& code, const std::string& at, const std::string& message) {
    problems.add(code, at, message);
    failed.insert(at);
  }
  // Runs `read` (a conversion recording into `problems`); the field at `at` is bad when it
  // recorded anything.
  template <class Read>
  auto convert(const std::string& at, Read read) -> decltype(read()) {
    const std::size_t before = problems.size();
    auto value = read();
    if (problems.size() != before) failed.insert(at);
    return value;
  }

  // The integer member `key` of `object` (at `at`) >= `minimum` (a size: >= 1), or nothing when
  // it is absent, null or wrong.
  std::optional<std::int64_t> integer(const json& object, const std::string& at,
                                      const std::string& key, std::int64_t minimum = 1) {
    const json* v = member(object, key);
    const std::string p = io::pointer_join(at, key);
    if (!v || bad(p)) return std::nullopt;
    if (v->is_number_float() && std::abs(v->get<double>()) >= 9.2e18) {
      add(error_code::kOverflow, p, "value " + describe(*v) + " does not fit in 64 bits");
      return std::nullopt;
    }
    return convert(p, [&]() -> std::optional<std::int64_t> {
      return io::JsonFields(object, at, problems).integer(key.c_str(), false, "", {minimum});
    });
  }

  std::optional<bool> boolean(const json& object, const std::string& at, const std::string& key) {
    const json* v = member(object, key);
    const std::string p = io::pointer_join(at, key);
    if (!v || bad(p)) return std::nullopt;
    return convert(
        p, [&] { return io::JsonFields(object, at, problems).boolean(key.c_str(), false); });
  }
};

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

// model_type, else architectures[0], else the naming scheme of the sizes; nothing (the problem
// recorded) when the family cannot be told or is not a decoder-only model of a modelled kind:
// every later reading depends on it.
std::optional<std::string> model_type_of(const json& doc, Fields& f) {
  const std::size_t before = f.problems.size();
  if (f.boolean(doc, "", "is_encoder_decoder").value_or(false)) {
    f.add(error_code::kUnknownName, "/is_encoder_decoder",
          "an encoder-decoder model is not a decoder-only language model");
  }
  std::optional<std::string> type;
  if (doc.contains("model_type")) {
    const json& v = doc.at("model_type");
    if (!v.is_string()) {
      f.add(error_code::kType, "/model_type", "expected a string, got " + describe(v));
    } else if (f.problems.attempt("/model_type", [&] {
                 refuse_non_decoder(v.get<std::string>(), f.problems.file(), "/model_type");
               })) {
      type = v.get<std::string>();
    }
  } else if (doc.contains("architectures")) {
    const json& v = doc.at("architectures");
    if (!v.is_array() || v.empty() || !v.front().is_string()) {
      f.add(error_code::kType, "/architectures",
            "expected a non-empty array of class names, got " + describe(v));
    } else {
      const std::string arch = v.front().get<std::string>();
      if (f.problems.attempt("/architectures/0", [&] {
            refuse_non_decoder(arch, f.problems.file(), "/architectures/0");
          }))
        type = type_of_architecture(arch).value_or("");
    }
  } else {
    type = doc.contains("n_embd") ? "gpt2" : "";
  }
  if (f.problems.size() != before) return std::nullopt;
  return type;
}

std::string name_of(const json& doc, const std::string& file) {
  auto it = doc.find("_name_or_path");
  if (it != doc.end() && it->is_string() && !it->get<std::string>().empty()) return *it;
  std::string base = file.substr(file.find_last_of('/') + 1);
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0)
    base.resize(base.size() - 5);
  return base;
}

// ---- the quantities ---------------------------------------------------------------------------

// Reads one language model's config. Every problem is recorded in `f` and reading goes on; a
// quantity whose fields were wrong is not known (the *_ok flags), and what is derived from it is
// skipped rather than reported again. Checked arithmetic still throws: the caller runs each step
// through JsonProblems::attempt.
struct Reader {
  const json& doc;
  const std::string& file;
  const Dialect& dialect;
  std::string type;  // canonical model_type ("" when unknown)
  ModelConfig& c;
  Fields& f;
  std::string heads_key, kv_key, hidden_key;
  // Quantities read (or derived) without a problem.
  bool hidden_ok = false, layers_ok = false, heads_ok = false, kv_ok = false, head_dim_ok = false;
  bool context_ok = false, intermediate_ok = false;
  bool moe_failed = false;  // the config has experts, but their fields were wrong
  bool mla_failed = false;

  Reader(const json& document, const std::string& file_name, const Dialect& family,
         std::string canonical_type, ModelConfig& config, Fields& fields)
      : doc(document),
        file(file_name),
        dialect(family),
        type(std::move(canonical_type)),
        c(config),
        f(fields) {}

  void assume(const std::string& text) { c.assumptions.push_back(text); }

  bool gpt2_keys() const { return type == "gpt2" || type == "gpt_bigcode" || type == "gptj"; }

  // ---- reading fields of the document --------------------------------------------------------

  std::optional<std::int64_t> optional_int(const std::string& key, std::int64_t minimum = 1) {
    return f.integer(doc, "", key, minimum);
  }
  bool bad(const std::string& key) const { return f.bad(pointer(key)); }
  bool any_bad(Keys keys) const {
    return std::any_of(keys.begin(), keys.end(), [&](const char* k) { return bad(k); });
  }
  bool has(const char* key) const { return member(doc, key) != nullptr; }

  // The first of `keys` that holds a value; nothing when none does or that one is wrong (then
  // any_bad(keys)).
  std::optional<Field> first_int(Keys keys) {
    for (const char* key : keys) {
      if (auto v = optional_int(key)) return Field{*v, key};
      if (bad(key)) break;
    }
    return std::nullopt;
  }

  // A dimension that must be found under one of `keys`; the error lists them all.
  std::optional<Field> required_int(Keys keys, const std::string& meaning) {
    if (auto found = first_int(keys)) return found;
    if (any_bad(keys)) return std::nullopt;
    for (const char* key : keys) {
      if (doc.contains(key)) {  // present but null
        f.add(error_code::kType, pointer(key),
              "expected a positive integer (" + meaning + "), got null");
        return std::nullopt;
      }
    }
    const char* first = *keys.begin();
    f.add(error_code::kMissingField, pointer(first),
          "no " + meaning + ": looked for " + key_list(keys) + " (expected a positive integer)");
    return std::nullopt;
  }

  bool flag(const char* key, bool otherwise) { return f.boolean(doc, "", key).value_or(otherwise); }

  // Records that `divisor` does not divide `value`; true when it does.
  bool check_divides(std::int64_t divisor, const std::string& divisor_key, std::int64_t value,
                     const std::string& value_key) {
    if (value % divisor == 0) return true;
    f.add(error_code::kRange, pointer(divisor_key),
          divisor_key + " (" + std::to_string(divisor) + ") must divide " + value_key + " (" +
              std::to_string(value) + ")");
    return false;
  }

  std::int64_t mul(std::int64_t a, std::int64_t b, const std::string& where, const char* what) {
    return checked_mul(a, b, file, where, what);
  }
  std::int64_t add(std::int64_t a, std::int64_t b, const std::string& where, const char* what) {
    return checked_add(a, b, file, where, what);
  }

  // ---- the sizes -----------------------------------------------------------------------------

  void read_sizes() {
    const auto h =
        gpt2_keys() ? required_int({"n_embd", "hidden_size", "n_embed", "d_model"}, "hidden size")
                    : required_int({"hidden_size", "n_embd", "n_embed", "d_model"}, "hidden size");
    if (h) c.hidden = h->value, hidden_key = h->key, hidden_ok = true;
    const char* meaning = "number of decoder layers";
    const auto l = gpt2_keys()
                       ? required_int({"n_layer", "num_hidden_layers", "num_layers"}, meaning)
                       : required_int({"num_hidden_layers", "n_layer", "num_layers"}, meaning);
    if (l) c.layers = l->value, layers_ok = true;
    const auto n =
        gpt2_keys() ? required_int({"n_head", "num_attention_heads"}, "number of attention heads")
                    : required_int({"num_attention_heads", "n_head"}, "number of attention heads");
    if (n) c.heads = n->value, heads_key = n->key, heads_ok = true;
    if (auto v = required_int({"padded_vocab_size", "vocab_size"}, "vocabulary size"))
      c.vocab = v->value;
    read_context();
  }

  void read_context() {
    const Keys keys = {"max_position_embeddings", "n_positions", "max_sequence_length",
                       "seq_length", "n_ctx"};
    c.max_positions = kNoLimit;
    if (auto found = first_int(keys)) {
      c.max_positions = found->value, context_ok = true;
    } else if (!any_bad(keys)) {
      context_ok = true;
      assume(
          "no context length (looked for max_position_embeddings, n_positions, "
          "max_sequence_length, seq_length, n_ctx): prompt and context lengths are not capped");
    }
  }

  void read_kv_heads() {
    kv_key = heads_key;
    if (auto found = first_int({"num_key_value_heads"})) {
      c.kv_heads = found->value, kv_key = found->key, kv_ok = true;
    } else if (bad("num_key_value_heads")) {
      return;
    } else if (type == "falcon") {
      read_falcon_kv_heads();
    } else if (type == "chatglm" && flag("multi_query_attention", false)) {
      const auto g = required_int({"multi_query_group_num"},
                                  "number of KV groups (multi_query_attention is set)");
      if (g) c.kv_heads = g->value, kv_key = g->key, kv_ok = true;
    } else if (flag("multi_query", type == "gpt_bigcode")) {
      c.kv_heads = 1, kv_key = "multi_query", kv_ok = true;
    } else {
      c.kv_heads = c.heads, kv_ok = heads_ok;
    }
  }

  void check_kv_heads() {
    if (kv_ok && heads_ok) kv_ok = check_divides(c.kv_heads, kv_key, c.heads, heads_key);
  }

  bool falcon_new_architecture() {
    return doc.value("model_type", "") == "RefinedWeb" || flag("new_decoder_architecture", false);
  }

  // Falcon: new_decoder_architecture (or the legacy RefinedWeb type) → num_kv_heads / n_head_kv;
  // else multi_query → 1.
  void read_falcon_kv_heads() {
    if (falcon_new_architecture()) {
      const Keys keys = {"num_kv_heads", "n_head_kv"};
      if (auto found = first_int(keys)) {
        c.kv_heads = found->value, kv_key = found->key, kv_ok = true;
      } else if (!any_bad(keys)) {
        c.kv_heads = c.heads, kv_ok = heads_ok;
        assume(
            "new_decoder_architecture without num_kv_heads or n_head_kv: one KV head per "
            "query head (the transformers default)");
      }
    } else if (flag("multi_query", true)) {
      c.kv_heads = 1, kv_key = "multi_query", kv_ok = true;
    } else {
      c.kv_heads = c.heads, kv_ok = heads_ok;
    }
  }

  void read_head_dim() {
    const Keys keys = {"head_dim", "kv_channels", "attention_head_dim"};
    if (auto found = first_int(keys)) {
      c.head_dim = found->value, head_dim_ok = true;
      return;
    }
    if (any_bad(keys) || !heads_ok || !hidden_ok) return;
    if (!check_divides(c.heads, heads_key, c.hidden, hidden_key)) return;
    c.head_dim = c.hidden / c.heads, head_dim_ok = true;
  }

  void read_intermediate() {
    if (has("block_configs")) {  // per layer (read_stack)
      intermediate_ok = true;
      return;
    }
    if (type == "llama4_text") {
      if (auto found = first_int({"intermediate_size_mlp"})) {
        c.intermediate = found->value;  // the dense layers' MLP; intermediate_size is each expert's
        intermediate_ok = true;
        return;
      }
      if (bad("intermediate_size_mlp")) return;
    }
    auto it = doc.find("n_inner");
    const bool n_inner_null = it != doc.end() && it->is_null();
    const Keys keys = {"intermediate_size", "ffn_dim", "n_inner", "ffn_hidden_size"};
    if (auto found = first_int(keys)) {
      c.intermediate = found->value;
      intermediate_ok = type != "qwen" || halve_qwen_intermediate(*found);
      return;
    }
    if (any_bad(keys)) return;
    if (n_inner_null || dialect.mlp_4h) {
      if (!hidden_ok) return;
      c.intermediate = mul(4, c.hidden, pointer(hidden_key), "4·hidden");
      intermediate_ok = true;
      if (!n_inner_null) {
        assume("MLP width 4·hidden = " + std::to_string(c.intermediate) +
               " (the family's default; the config states none)");
      }
      return;
    }
    if (c.moe && c.dense_layers() == 0) {  // every layer is MoE: no dense width needed
      c.intermediate = c.moe->expert_intermediate;
      intermediate_ok = true;
      return;
    }
    if (moe_failed) return;  // whether a dense width is needed is unknown
    required_int(keys, "MLP width");
  }

  // Qwen (v1) writes the sum of its two gated projections' widths.
  bool halve_qwen_intermediate(const Field& found) {
    if (found.value % 2 != 0) {
      f.add(error_code::kRange, pointer(found.key),
            "Qwen's intermediate_size is twice each projection's width: expected an even number, "
            "got " +
                std::to_string(found.value));
      return false;
    }
    c.intermediate = found.value / 2;
    return true;
  }

  void read_window() {
    if (!flag("use_sliding_window", true)) return;
    c.sliding_window = optional_int("sliding_window");
  }

  // ---- the per-layer stack -------------------------------------------------------------------

  std::vector<LayerSpec> specs;                     // one per layer, filled by read_stack
  std::optional<std::vector<bool>> moe_layer_mask;  // moe_mask(), read once by read_moe

  // The array `key` of `size` entries (size < 0: any), or nullptr when it is absent or null, or
  // wrong (recorded).
  const json* array_of(const char* key, std::int64_t size) {
    const json* v = member(doc, key);
    if (!v) return nullptr;
    if (v->is_array() && (size < 0 || static_cast<std::int64_t>(v->size()) == size)) return v;
    f.add(error_code::kType, pointer(key),
          (size < 0 ? std::string("expected an array")
                    : "expected an array of " + std::to_string(size) + " entries (one per layer)") +
              ", got " + describe(*v));
    return nullptr;
  }

  void unmodelled(const std::string& where, const std::string& kind) {
    f.add(error_code::kUnknownName, where,
          "layer kind " + kind +
              " is not modelled (modelled: full_attention, sliding_attention, chunked_attention, "
              "linear_attention (Gated DeltaNet), mamba, mamba2, MLP and MoE blocks)");
  }

  // `layer_types`: one kind per layer, each checked.
  void read_layer_types(const json& list) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const json& v = list[i];
      const std::string where = io::pointer_join("/layer_types", i);
      if (!v.is_string()) {
        f.add(error_code::kType, where, "expected a layer kind (a string), got " + describe(v));
        continue;
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
  // (relu² experts: moe_mask() marks these layers). Every unknown character is recorded.
  void read_pattern(const std::string& key) {
    const json& v = doc.at(key);
    if (!v.is_string() || static_cast<std::int64_t>(v.get<std::string>().size()) != c.layers) {
      f.add(error_code::kType, pointer(key),
            "expected a string of " + std::to_string(c.layers) +
                " layer characters (M, *, -, E), got " + describe(v));
      return;
    }
    const std::string text = v.get<std::string>();
    bool experts_checked = false;
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
          if (!c.moe && !moe_failed && !experts_checked) {
            required_int({"n_routed_experts", "num_experts"},
                         "number of experts (the pattern has MoE layers, 'E')");
          }
          experts_checked = true;
          l.mixer = MixerKind::kNone, l.ffn = FfnKind::kDense;  // kMoe by the mask
          break;
        default:
          unmodelled(pointer(key), "'" + excerpt(text.substr(i, 1), 4) + "' (layer " +
                                       std::to_string(i) + " of the pattern)");
      }
    }
  }

  // DeciLM / Nemotron-Super: per-layer attention (n_heads_in_group, no_op, replace_with_linear)
  // and FFN (ffn_mult, no_op, replace_with_linear), each block and field checked.
  void read_block_configs(const json& list) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string at = io::pointer_join("/block_configs", i);
      const json& b = list[i];
      if (!b.is_object() || !b.contains("attention") || !b.contains("ffn") ||
          !b.at("attention").is_object() || !b.at("ffn").is_object()) {
        f.add(error_code::kType, at,
              "expected {\"attention\": {...}, \"ffn\": {...}}, got " + describe(b));
        continue;
      }
      const json& attention = b.at("attention");
      const json& ffn = b.at("ffn");
      LayerSpec& l = specs[i];
      const BlockPart a = block_part(attention, at + "/attention");
      if (a == BlockPart::kSized) read_heads_in_group(attention, at + "/attention", l);
      if (a == BlockPart::kNoOp || a == BlockPart::kLinear)
        l.mixer = a == BlockPart::kNoOp ? MixerKind::kNone : MixerKind::kLinear;
      const BlockPart m = block_part(ffn, at + "/ffn");
      if (m == BlockPart::kSized) read_ffn_mult(ffn, at + "/ffn", l);
      if (m == BlockPart::kNoOp || m == BlockPart::kLinear)
        l.ffn = m == BlockPart::kNoOp ? FfnKind::kNone : FfnKind::kLinear;
    }
  }

  // What one part (attention or ffn) of a DeciLM block is: skipped (no_op), one h×h linear
  // (replace_with_linear) or sized by its own fields; kBad when a flag is wrong (recorded).
  enum class BlockPart { kNoOp, kLinear, kSized, kBad };
  BlockPart block_part(const json& part, const std::string& at) {
    if (f.boolean(part, at, "no_op").value_or(false)) return BlockPart::kNoOp;
    if (f.boolean(part, at, "replace_with_linear").value_or(false)) return BlockPart::kLinear;
    if (f.bad(at + "/no_op") || f.bad(at + "/replace_with_linear")) return BlockPart::kBad;
    return BlockPart::kSized;
  }

  void read_heads_in_group(const json& a, const std::string& at, LayerSpec& l) {
    const std::string where = at + "/n_heads_in_group";
    const auto group = f.integer(a, at, "n_heads_in_group");
    if (f.bad(where) || !heads_ok) return;
    if (!group || c.heads % *group != 0) {
      f.add(error_code::kRange, where,
            "expected a positive divisor of the " + std::to_string(c.heads) + " heads, got " +
                describe(a.value("n_heads_in_group", json())));
      return;
    }
    l.kv_heads = c.heads / *group;
  }

  void read_ffn_mult(const json& ffn, const std::string& at, LayerSpec& l) {
    auto m = ffn.find("ffn_mult");
    if (m == ffn.end() || !m->is_number() || !(m->get<double>() > 0) || m->get<double>() > 1e6) {
      f.add(error_code::kType, at + "/ffn_mult",
            "expected a positive number, got " + describe(m == ffn.end() ? json() : *m));
      return;
    }
    if (!hidden_ok) return;
    // DeciLM: int(2 * ffn_mult * n_embd / 3) rounded up to a multiple of 256.
    const double raw = 2 * m->get<double>() * static_cast<double>(c.hidden) / 3;
    const std::int64_t width = static_cast<std::int64_t>(raw);
    l.ffn_width = (width + 255) / 256 * 256;
    if (l.ffn_width == 0) l.ffn = FfnKind::kNone;
  }

  // Which layers attend through a sliding window when no layer_types lists them.
  void assign_windows() {
    const std::int64_t n = c.layers;
    if (auto p = optional_int("sliding_window_pattern")) {  // Gemma-3
      for (std::int64_t i = 0; i < n; ++i)
        if ((i + 1) % *p != 0) specs[i].span = AttentionSpan::kSliding;
    } else if (bad("sliding_window_pattern")) {
      return;
    } else if (type == "gemma2") {
      for (std::int64_t i = 0; i < n; i += 2) specs[i].span = AttentionSpan::kSliding;
    } else if (type == "qwen2" || type == "qwen2_moe") {
      const std::int64_t m = optional_int("max_window_layers", 0).value_or(0);
      for (std::int64_t i = std::min(m, n); i < n; ++i) specs[i].span = AttentionSpan::kSliding;
    } else {
      for (LayerSpec& l : specs) l.span = AttentionSpan::kSliding;
    }
  }

  // Llama-4: layers with RoPE attend within chunks of attention_chunk_size; NoPE layers
  // (no_rope_layers[i] == 0, by default every 4th) attend every earlier token.
  void assign_chunks() {
    c.attention_chunk = optional_int("attention_chunk_size");
    if (!c.attention_chunk) return;
    const json* nope = array_of("no_rope_layers", -1);
    if (nope && !nope->empty() && static_cast<std::int64_t>(nope->size()) != c.layers) {
      f.add(error_code::kType, "/no_rope_layers",
            "expected " + std::to_string(c.layers) +
                " flags (1: RoPE and chunked attention, 0: NoPE), got " + describe(*nope));
      nope = nullptr;
    }
    const std::int64_t interval = optional_int("no_rope_layer_interval").value_or(4);
    for (std::int64_t i = 0; i < c.layers; ++i) {
      bool rope = (i + 1) % interval != 0;
      if (nope && !nope->empty()) {
        const json& v = (*nope)[i];
        if (!v.is_number_integer() || (v != 0 && v != 1)) {
          f.add(error_code::kType, io::pointer_join("/no_rope_layers", i),
                "expected 0 or 1, got " + describe(v));
          continue;
        }
        rope = v == 1;
      }
      if (rope && specs[i].mixer == MixerKind::kAttention && specs[i].span == AttentionSpan::kFull)
        specs[i].span = AttentionSpan::kChunked;
    }
  }

  // Whether layer i's FFN is the MoE (DeepSeek first_k_dense_replace / moe_layer_freq; Llama-4
  // moe_layers / interleave_moe_layer_step; Jamba expert_layer_period / offset; Qwen
  // decoder_sparse_step / mlp_only_layers); nothing when a field it needs is wrong (recorded).
  std::optional<std::vector<bool>> moe_mask() {
    const std::size_t before = f.problems.size();
    std::vector<bool> moe = moe_mask_of_fields();
    if (f.problems.size() != before) return std::nullopt;
    return moe;
  }

  std::vector<bool> moe_mask_of_fields() {
    const std::int64_t n = c.layers;
    std::vector<bool> moe(n, true);
    auto pattern = doc.find("hybrid_override_pattern");
    if (pattern != doc.end() && pattern->is_string()) {  // Nemotron-H: the 'E' layers
      const std::string text = pattern->get<std::string>();
      for (std::int64_t i = 0; i < n; ++i)
        moe[i] = i < static_cast<std::int64_t>(text.size()) && text[i] == 'E';
      return moe;
    }
    if (has("first_k_dense_replace")) {
      const std::int64_t first = optional_int("first_k_dense_replace", 0).value_or(0);
      const std::int64_t freq = optional_int("moe_layer_freq").value_or(1);
      for (std::int64_t i = 0; i < n; ++i) moe[i] = i >= first && i % freq == 0;
      return moe;
    }
    if (has("moe_layers")) {
      moe.assign(n, false);
      const json* list = array_of("moe_layers", -1);
      for (std::size_t j = 0; list && j < list->size(); ++j) {
        const json& v = (*list)[j];
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= n) {
          f.add(error_code::kRange, io::pointer_join("/moe_layers", j),
                "expected a layer index in [0, " + std::to_string(n) + "), got " + describe(v));
          continue;
        }
        moe[v.get<std::int64_t>()] = true;
      }
      return moe;
    }
    if (auto step = optional_int("interleave_moe_layer_step")) {
      for (std::int64_t i = 0; i < n; ++i) moe[i] = (i + 1) % *step == 0;
      return moe;
    }
    if (auto period = optional_int("expert_layer_period")) {
      const std::int64_t offset = optional_int("expert_layer_offset", 0).value_or(0);
      for (std::int64_t i = 0; i < n; ++i) moe[i] = i % *period == offset;
      return moe;
    }
    const std::int64_t step = optional_int("decoder_sparse_step").value_or(1);
    const std::set<std::int64_t> dense = mlp_only_layers();
    for (std::int64_t i = 0; i < n; ++i) moe[i] = (i + 1) % step == 0 && !dense.count(i);
    return moe;
  }

  std::set<std::int64_t> mlp_only_layers() {
    std::set<std::int64_t> out;
    const json* v = member(doc, "mlp_only_layers");
    if (!v) return out;
    if (!v->is_array()) {
      f.add(error_code::kType, "/mlp_only_layers",
            "expected an array of layer indices, got " + describe(*v));
      return out;
    }
    for (std::size_t i = 0; i < v->size(); ++i) {
      const json& e = (*v)[i];
      if (!e.is_number_integer() || e.get<std::int64_t>() < 0) {
        f.add(error_code::kType, io::pointer_join("/mlp_only_layers", i),
              "expected a layer index >= 0, got " + describe(e));
        continue;
      }
      out.insert(e.get<std::int64_t>());
    }
    return out;
  }

  void read_stack() {
    if (!layers_ok) return;  // every per-layer field is indexed by the layer count
    const std::int64_t n = c.layers;
    specs.assign(n, LayerSpec{});
    const bool listed_types = doc.contains("layer_types") && !doc.at("layer_types").is_null();
    if (has("block_configs")) {
      if (const json* blocks = array_of("block_configs", n)) read_block_configs(*blocks);
    } else if (has("hybrid_override_pattern")) {
      read_pattern("hybrid_override_pattern");
    } else if (has("layer_types")) {
      if (const json* types = array_of("layer_types", n)) read_layer_types(*types);
    } else if (auto k = optional_int("full_attention_interval")) {  // Qwen3-Next
      for (std::int64_t i = 0; i < n; ++i)
        if ((i + 1) % *k != 0) specs[i].mixer = MixerKind::kGatedDeltaNet;
    } else if (bad("full_attention_interval")) {
    } else if (auto period = optional_int("attn_layer_period")) {  // Jamba
      const std::int64_t offset = optional_int("attn_layer_offset", 0).value_or(0);
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
    if (c.moe) moe = *moe_layer_mask;  // read_moe set c.moe from this mask
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
      if (auto b = f.boolean(doc, "", key)) c.qkv_bias = c.o_bias = c.mlp_bias = *b;
    }
    if (auto b = f.boolean(doc, "", "attention_bias")) c.qkv_bias = c.o_bias = *b;
    if (auto b = f.boolean(doc, "", "mlp_bias")) c.mlp_bias = *b;
    if (auto b = f.boolean(doc, "", "add_qkv_bias")) c.qkv_bias = *b;
    if (auto b = f.boolean(doc, "", "use_qkv_bias")) c.qkv_bias = *b;  // StableLM
    if (auto b = f.boolean(doc, "", "add_bias_linear")) c.o_bias = c.mlp_bias = *b;
    if (type == "qwen" && flag("no_bias", true)) c.o_bias = c.mlp_bias = false;
    c.lm_head_bias = type == "phi" || type == "gptj";
  }

  void read_embeddings() {
    c.tie_embeddings = flag("tie_word_embeddings", dialect.tie);
    c.embed_dim = c.hidden;
    if (type == "opt") {
      if (auto p = optional_int("word_embed_proj_dim")) c.embed_dim = *p;
      if (context_ok)
        c.position_rows =
            add(c.max_positions, 2, "/max_position_embeddings", "OPT's position rows");
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
    if (type == "falcon") return c.parallel_blocks && !falcon_new_architecture() ? 1 : 2;
    return dialect.norms_per_layer;
  }

  void count_norms() {
    if (!hidden_ok || !layers_ok || mla_failed || bad(hidden_key)) return;
    const bool bias = dialect.layer_norm && type != "cohere";  // Cohere's LayerNorm has no bias
    const std::string where = pointer(hidden_key);
    const std::int64_t one = bias ? mul(2, c.hidden, where, "norm weights") : c.hidden;
    const std::int64_t norms =
        add(mul(c.layers, norms_per_layer(), where, "norms"), 1, where, "norms");
    std::int64_t total = mul(norms, one, where, "norm weights");
    if (type == "bloom") {  // word_embeddings_layernorm
      total = add(total, 2 * c.hidden, where, "norm weights");
    }
    if (c.mla) {  // kv_a_layernorm (and q_a_layernorm)
      const std::int64_t per_layer = add(c.mla->kv_lora_rank, c.mla->q_lora_rank.value_or(0),
                                         "/kv_lora_rank", "latent norm width");
      total = add(total, mul(c.layers, per_layer, "/kv_lora_rank", "latent norm weights"),
                  "/kv_lora_rank", "norm weights");
    }
    c.norm_parameters = total;
  }

  void read_moe() {
    const Keys expert_keys = {"num_local_experts", "n_routed_experts", "num_experts"};
    auto experts = first_int(expert_keys);
    moe_failed = true;  // until the end
    if (!experts) {
      moe_failed = any_bad(expert_keys);
      return;
    }
    MoeConfig m;
    m.experts = experts->value;
    const auto k = required_int({"num_experts_per_tok"}, "experts per token (top-k)");
    if (k && k->value > m.experts) {
      f.add(error_code::kRange, pointer(k->key),
            "num_experts_per_tok (" + std::to_string(k->value) + ") exceeds the " +
                std::to_string(m.experts) + " experts of " + experts->key);
    }
    const auto width =
        required_int({"moe_intermediate_size", "intermediate_size"}, "expert MLP width");
    const Keys shared_keys = {"moe_shared_expert_intermediate_size", "n_shared_experts",
                              "shared_expert_intermediate_size"};
    const auto shared = first_int(shared_keys);
    if (layers_ok) moe_layer_mask = moe_mask();
    if (!k || k->value > m.experts || !width || any_bad(shared_keys) || !moe_layer_mask) return;
    m.top_k = k->value;
    m.expert_intermediate = width->value;
    if (!shared) {
    } else if (shared->key == "moe_shared_expert_intermediate_size") {
      m.shared_intermediate = shared->value;  // Nemotron-H: one shared expert of this width
    } else if (shared->key == "n_shared_experts") {
      m.shared_intermediate =
          mul(shared->value, m.expert_intermediate, "/n_shared_experts", "shared experts' width");
    } else {
      m.shared_intermediate = shared->value;
      m.shared_gate = true;
    }
    if (type == "llama4_text") m.shared_intermediate = m.expert_intermediate;  // shared_expert
    if (type == "nemotron_h") m.expert_mlp = MlpKind::kPlain;  // relu² experts: up, down
    const std::vector<bool>& mask = *moe_layer_mask;
    m.moe_layers = std::count(mask.begin(), mask.end(), true);
    if (m.moe_layers > 0) c.moe = m;
    moe_failed = false;
  }

  void read_mla() {
    auto rank = optional_int("kv_lora_rank");
    if (!rank) {
      mla_failed = bad("kv_lora_rank");
      return;
    }
    MlaConfig m;
    m.kv_lora_rank = *rank;
    m.q_lora_rank = optional_int("q_lora_rank");
    const auto nope = required_int({"qk_nope_head_dim"}, "MLA no-rope head size");
    const auto rope = required_int({"qk_rope_head_dim"}, "MLA rope head size");
    const auto v = required_int({"v_head_dim"}, "MLA value head size");
    mla_failed = !nope || !rope || !v || bad("q_lora_rank");
    // the naive path: every head has its own K and V
    c.kv_heads = c.heads, kv_ok = heads_ok && !mla_failed;
    head_dim_ok = !mla_failed;
    if (mla_failed) return;
    m.qk_nope_head_dim = nope->value;
    m.qk_rope_head_dim = rope->value;
    m.v_head_dim = v->value;
    c.mla = m;
    c.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
  }

  // ---- hybrid mixers and attention add-ons ----------------------------------------------------

  // Non-matmul weights of every layer of kind `k`, `per_layer` each.
  void other(MixerKind k, std::int64_t per_layer, const char* where) {
    c.other_parameters = add(c.other_parameters, mul(c.layers_with(k), per_layer, where, "weights"),
                             where, "weights");
  }

  void read_mamba2() {
    if (c.layers_with(MixerKind::kMamba2) == 0) return;
    SsmConfig m;
    const auto heads = required_int({"mamba_num_heads", "mamba_n_heads"}, "Mamba-2 heads");
    const auto head_dim = required_int({"mamba_head_dim", "mamba_d_head"}, "Mamba-2 head size");
    const Keys group_keys = {"n_groups", "mamba_n_groups"};
    m.groups = first_int(group_keys).value_or(Field{1, ""}).value;
    const auto state =
        required_int({"ssm_state_size", "mamba_d_state", "state_size"}, "SSM state size");
    const auto conv = required_int({"conv_kernel", "mamba_d_conv"}, "conv kernel width");
    m.proj_bias = flag("mamba_proj_bias", flag("use_bias", false));
    m.conv_bias = flag("use_conv_bias", flag("mamba_conv_bias", true));
    if (!heads || !head_dim || any_bad(group_keys) || !state || !conv || !hidden_ok) return;
    m.heads = heads->value, m.state = state->value, m.conv = conv->value;
    m.inner = mul(m.heads, head_dim->value, "/mamba_head_dim", "Mamba-2 inner width");
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
    const auto expand = optional_int("mamba_expand");
    const auto state = required_int({"mamba_d_state"}, "SSM state size");
    const auto conv = required_int({"mamba_d_conv"}, "conv kernel width");
    std::optional<std::int64_t> dt_rank;
    auto rank = doc.find("mamba_dt_rank");
    if (rank != doc.end() && rank->is_string() && *rank == "auto") {
      dt_rank = (c.hidden + 15) / 16;
    } else if (auto r = required_int({"mamba_dt_rank"}, "dt rank")) {
      dt_rank = r->value;
    }
    m.proj_bias = flag("mamba_proj_bias", false);
    m.conv_bias = flag("mamba_conv_bias", true);
    if (bad("mamba_expand") || !state || !conv || !dt_rank || !hidden_ok) return;
    m.inner = mul(expand.value_or(2), c.hidden, "/mamba_expand", "Mamba inner width");
    m.state = state->value, m.conv = conv->value, m.dt_rank = *dt_rank;
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
    const auto key_heads = required_int({"linear_num_key_heads"}, what);
    const auto value_heads = required_int({"linear_num_value_heads"}, what);
    const auto key_dim = required_int({"linear_key_head_dim"}, what);
    const auto value_dim = required_int({"linear_value_head_dim"}, what);
    const auto conv = required_int({"linear_conv_kernel_dim"}, what);
    if (!key_heads || !value_heads || !key_dim || !value_dim || !conv) return;
    d.key_heads = key_heads->value, d.value_heads = value_heads->value;
    d.key_dim = key_dim->value, d.value_dim = value_dim->value, d.conv = conv->value;
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
    if (qk_norm && head_dim_ok) other(MixerKind::kAttention, 2 * c.head_dim, "/head_dim");
    if (type == "gpt_oss") {
      if (heads_ok) other(MixerKind::kAttention, c.heads, "/num_attention_heads");  // sinks
      if (c.moe && hidden_ok) {  // router bias E; expert biases E·(2·I_e + h)
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
    read_indexer();
  }

  void read_indexer() {
    const auto heads = optional_int("index_n_heads");
    if (!heads) return;
    if (!c.mla || !c.mla->q_lora_rank) {
      if (!mla_failed) {
        f.add(error_code::kUnknownName, "/index_n_heads",
              "an indexer (index_n_heads) on attention without MLA and q_lora_rank is not "
              "modelled");
      }
      return;
    }
    const auto head_dim = required_int({"index_head_dim"}, "indexer head size");
    const auto topk = required_int({"index_topk"}, "tokens the indexer selects");
    if (!head_dim || !topk) return;
    IndexerConfig x;
    x.heads = *heads, x.head_dim = head_dim->value, x.topk = topk->value;
    other(MixerKind::kAttention, 2 * x.head_dim, "/index_head_dim");  // k_norm (LayerNorm)
    c.indexer = x;
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

// Reads one language model's config into `problems` (nothing thrown for a bad field: the caller
// throws them all). A step that throws (checked arithmetic on sizes read without a problem) is
// recorded, the field it names counts as wrong (what is derived from it later is skipped), and
// the next step runs.
ModelConfig parse_language_model(const json& doc, const std::string& file,
                                 io::JsonProblems& problems) {
  ModelConfig c;
  Fields fields{problems, {}};
  const std::optional<std::string> written = model_type_of(doc, fields);
  if (!written) return c;  // the family decides which keys are read
  const std::string type = canonical_type(*written);
  const Dialect* known = find_dialect(type);
  const Dialect& dialect = known ? *known : generic_dialect();
  c.name = name_of(doc, file);
  c.model_type = written->empty() ? "unknown" : *written;
  c.mlp = dialect.mlp;
  c.names = dialect.names;
  Reader r(doc, file, dialect, known ? type : *written, c, fields);
  using Step = void (Reader::*)();
  const auto run = [&](Step step) {
    try {
      (r.*step)();
    } catch (const InputError& e) {
      problems.add(e, "");
      fields.failed.insert(e.where());
    }
  };
  for (Step step :
       {&Reader::note_generic, &Reader::read_sizes, &Reader::read_kv_heads, &Reader::read_head_dim,
        &Reader::check_kv_heads, &Reader::read_moe, &Reader::read_intermediate,
        &Reader::read_window, &Reader::read_biases, &Reader::read_embeddings,
        &Reader::read_structure, &Reader::read_mla, &Reader::read_stack}) {
    run(step);
  }
  if (member(doc, "block_configs")) {  // the widest per-layer MLP stands for `intermediate`
    for (const LayerSpec& l : c.stack) c.intermediate = std::max(c.intermediate, l.ffn_width);
  }
  for (Step step : {&Reader::read_mamba2, &Reader::read_mamba1, &Reader::read_deltanet,
                    &Reader::read_attention_extras, &Reader::count_norms}) {
    run(step);
  }
  // The derived sizes need every size: checked only when all were read.
  if (problems.empty()) problems.attempt("", [&] { check_derived_sizes(file, c); });
  return c;
}

// What a family's text config leaves to its class defaults (Gemma-3's published text_config
// states only the sizes that differ from Gemma3TextConfig's).
void fill_family_defaults(json& inner, std::vector<std::string>& notes) {
  const auto type = inner.find("model_type");
  if (type == inner.end() || *type != "gemma3_text") return;
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

// A wrapper's language model (`key`: text_config, ...), its problems placed under /key.
ModelConfig parse_nested(const json& doc, const std::string& key, const std::string& file,
                         io::JsonProblems& problems) {
  json inner = doc.at(key);
  std::vector<std::string> notes;
  std::vector<std::string> from_wrapper;  // keys taken from the wrapper: problems stay there
  const auto take = [&](const char* k) {
    inner[k] = doc.at(k);
    from_wrapper.push_back(pointer(k));
  };
  // The wrapper's type names the family when the inner config does not.
  if (!inner.contains("model_type") && !inner.contains("architectures")) {
    if (doc.contains("model_type"))
      take("model_type");
    else if (doc.contains("architectures"))
      take("architectures");
  }
  if (inner.contains("model_type") && inner.at("model_type").is_string()) {
    const std::string t = inner.at("model_type").get<std::string>();
    if (t == "gemma3" || t == "llama4" || t == "qwen3_5" || t == "qwen3_5_moe")
      inner["model_type"] = canonical_type(t);
  }
  for (const char* shared : {"_name_or_path", "tie_word_embeddings"}) {
    if (!inner.contains(shared) && doc.contains(shared)) take(shared);
  }
  fill_family_defaults(inner, notes);
  io::JsonProblems found(file);
  ModelConfig c = parse_language_model(inner, file, found);
  for (const InputError& e : found.list()) {
    const bool wrapper = std::any_of(from_wrapper.begin(), from_wrapper.end(), [&](auto& p) {
      return e.where() == p || e.where().rfind(p + "/", 0) == 0;
    });
    problems.add(wrapper ? e : e.located(file, pointer(key)), "");
  }
  std::string ignored;
  for (const auto& [k, v] : doc.items()) {
    if (k == key || k == "_name_or_path" || k == "tie_word_embeddings") continue;
    ignored += (ignored.empty() ? "" : ", ") + k;
  }
  c.nested = key;
  std::vector<std::string> said = {"the language model is read from /" + key +
                                   "; the wrapper's own keys are ignored (" +
                                   excerpt(ignored, 300) + ")"};
  for (std::string& n : notes) said.push_back(std::move(n));
  c.assumptions.insert(c.assumptions.begin(), said.begin(), said.end());
  return c;
}

}  // namespace

ModelConfig parse_model_config(const json& doc, const std::string& file) {
  io::JsonProblems problems(file);
  if (!doc.is_object()) {
    problems.add(error_code::kType, "",
                 "expected a JSON object (a Hugging Face config.json), got " + describe(doc));
    problems.throw_if_any();
  }
  ModelConfig c;
  const char* nested = nullptr;
  for (const char* key : {"text_config", "language_config", "llm_config"}) {
    if (member(doc, key)) {
      nested = key;
      break;
    }
  }
  if (!nested) {
    c = parse_language_model(doc, file, problems);
  } else if (!doc.at(nested).is_object()) {
    problems.add(
        error_code::kType, pointer(nested),
        "expected the language model's config (an object), got " + describe(doc.at(nested)));
  } else {
    c = parse_nested(doc, nested, file, problems);
  }
  problems.throw_if_any();
  return c;
}

ModelConfig load_model_config(const std::string& path) {
  const std::string file = model_file(path);
  return parse_model_config(io::read_config_json_file(file), file);
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
