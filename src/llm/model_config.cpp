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
#include "llm/class_defaults.hpp"
#include "llm/config_reader.hpp"
#include "tenet/error.hpp"

namespace tenet::llm {
namespace config_detail {

using detail::checked_add;
using detail::checked_mul;

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

void Reader::read_sizes() {
  const auto h = gpt2_keys()
                     ? required_int({"n_embd", "hidden_size", "n_embed", "d_model"}, "hidden size")
                     : required_int({"hidden_size", "n_embd", "n_embed", "d_model"}, "hidden size");
  if (h) c.hidden = h->value, hidden_key = h->key, hidden_ok = true;
  const char* meaning = "number of decoder layers";
  const auto l = gpt2_keys()
                     ? required_int({"n_layer", "num_hidden_layers", "num_layers"}, meaning)
                     : required_int({"num_hidden_layers", "n_layer", "num_layers"}, meaning);
  if (l) c.layers = l->value, layers_ok = true;
  const auto n = gpt2_keys()
                     ? required_int({"n_head", "num_attention_heads"}, "number of attention heads")
                     : required_int({"num_attention_heads", "n_head"}, "number of attention heads");
  if (n) c.heads = n->value, heads_key = n->key, heads_ok = true;
  if (auto v = required_int({"padded_vocab_size", "vocab_size"}, "vocabulary size"))
    c.vocab = v->value;
  read_context();
}

void Reader::read_context() {
  const Keys keys = {"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length",
                     "n_ctx"};
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

void Reader::read_kv_heads() {
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

void Reader::check_kv_heads() {
  if (kv_ok && heads_ok) kv_ok = check_divides(c.kv_heads, kv_key, c.heads, heads_key);
}

bool Reader::falcon_new_architecture() {
  return doc.value("model_type", "") == "RefinedWeb" || flag("new_decoder_architecture", false);
}

// Falcon: new_decoder_architecture (or the legacy RefinedWeb type) → num_kv_heads / n_head_kv;
// else multi_query → 1.
void Reader::read_falcon_kv_heads() {
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

void Reader::read_head_dim() {
  const Keys keys = {"head_dim", "kv_channels", "attention_head_dim"};
  if (auto found = first_int(keys)) {
    c.head_dim = found->value, head_dim_ok = true;
    return;
  }
  if (any_bad(keys) || !heads_ok || !hidden_ok) return;
  if (!check_divides(c.heads, heads_key, c.hidden, hidden_key)) return;
  c.head_dim = c.hidden / c.heads, head_dim_ok = true;
}

void Reader::read_intermediate() {
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
bool Reader::halve_qwen_intermediate(const Field& found) {
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

void Reader::read_window() {
  if (!flag("use_sliding_window", true)) return;
  c.sliding_window = optional_int("sliding_window");
}

void Reader::read_biases() {
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

void Reader::read_embeddings() {
  // Absent: the class's default (class_defaults.hpp). Null: not set, None to transformers, which
  // does not tie.
  c.tie_embeddings = flag("tie_word_embeddings", false);
  c.embed_dim = c.hidden;
  if (type == "opt") {
    if (auto p = optional_int("word_embed_proj_dim")) c.embed_dim = *p;
    if (context_ok)
      c.position_rows = add(c.max_positions, 2, "/max_position_embeddings", "OPT's position rows");
  } else if (type == "gpt2" || type == "gpt_bigcode") {
    c.position_rows = c.max_positions;
  }
}

void Reader::read_structure() {
  c.parallel_blocks = type == "phi" || type == "gptj" || type == "cohere" ||
                      (type == "falcon" && flag("parallel_attn", true)) ||
                      (type == "gpt_neox" && flag("use_parallel_residual", true)) ||
                      (type == "stablelm" && flag("use_parallel_residual", false));
  c.fused_qkv_weights = dialect.fused_qkv;
  c.fused_gate_up_weights = dialect.fused_gate_up;
}

std::int64_t Reader::norms_per_layer() {
  if (type == "falcon") return c.parallel_blocks && !falcon_new_architecture() ? 1 : 2;
  return dialect.norms_per_layer;
}

void Reader::count_norms() {
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

void Reader::note_generic() {
  if (!doc.contains("model_type") && !doc.contains("architectures") && type == "gpt2") {
    assume("no model_type or architectures: read as gpt2 (the keys are GPT-2's: n_embd)");
    return;
  }
  if (!type.empty() && find_dialect(type)) return;
  const std::string what =
      type.empty() ? "no known model_type or architecture" : "unknown model_type '" + type + "'";
  assume(what +
         ": read the standard keys with Llama's conventions (gated MLP gate/up/down, "
         "RMSNorm, no biases) and PretrainedConfig's defaults for absent keys "
         "(tie_word_embeddings true)");
}

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
  // An absent key means the config class's default (class_defaults.hpp).
  json filled = doc;
  std::vector<std::string> defaults;
  fill_class_defaults(filled, known ? type : *written, defaults);
  Reader r(filled, file, dialect, known ? type : *written, c, fields);
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
  c.assumptions.insert(c.assumptions.end(), defaults.begin(), defaults.end());
  return c;
}

// A wrapper's language model (`key`: text_config, ...), its problems placed under /key.
ModelConfig parse_nested(const json& doc, const std::string& key, const std::string& file,
                         io::JsonProblems& problems) {
  json inner = doc.at(key);
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
  c.assumptions.insert(c.assumptions.begin(), said.begin(), said.end());
  return c;
}

}  // namespace config_detail

ModelConfig parse_model_config(const nlohmann::json& doc, const std::string& file) {
  using namespace config_detail;
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

}  // namespace tenet::llm
