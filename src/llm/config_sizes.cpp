// A config's sizes and conventions: h, layers, heads, KV heads, head size, MLP width, vocabulary,
// context, window, biases, embeddings, parallel blocks, norms (SizeReader). What the config does
// not state comes from its family's row (model_families.hpp).
#include "llm/config_reader.hpp"

namespace tenet::llm::config_detail {

void SizeReader::note_generic() {
  if (known_family && !doc.contains("model_type") && !doc.contains("architectures")) {
    assume("no model_type or architectures: read as " + family.model_type + " (the keys are " +
           family.display + "'s: " + family.implied_by_key + ")");
    return;
  }
  if (known_family) return;
  const std::string what =
      type.empty() ? "no known model_type or architecture" : "unknown model_type '" + type + "'";
  assume(what +
         ": read the standard keys with Llama's conventions (gated MLP gate/up/down, "
         "RMSNorm, no biases) and PretrainedConfig's defaults for absent keys "
         "(tie_word_embeddings true)");
}

void SizeReader::read_sizes() {
  const SizeKeys& k = family.size_keys;
  if (const auto h = required_int(k.hidden, "hidden size"))
    c.hidden = h->value, known.hidden_key = h->key, known.hidden = true;
  if (const auto l = required_int(k.layers, "number of decoder layers")) {
    // The layer stack holds one spec per layer: a count no model comes near is refused before
    // it is allocated (the largest published stacks have a few hundred layers).
    if (l->value > kMaxLayers)
      f.add(error_code::kRange, pointer(l->key),
            "expected at most " + std::to_string(kMaxLayers) + " decoder layers, got " +
                std::to_string(l->value));
    else
      c.layers = l->value, known.layers = true;
  }
  if (const auto n = required_int(k.heads, "number of attention heads"))
    c.heads = n->value, known.heads_key = n->key, known.heads = true;
  if (auto v = required_int(keys::vocab(), "vocabulary size")) c.vocab = v->value;
  read_context();
}

void SizeReader::read_context() {
  c.max_positions = kNoLimit;
  if (auto found = first_int(keys::context())) {
    c.max_positions = found->value, known.context = true;
  } else if (!any_bad(keys::context())) {
    known.context = true;
    assume("no context length (looked for " + key_list(keys::context()) +
           "): prompt and context lengths are not capped");
  }
}

void SizeReader::read_kv_heads() {
  known.kv_key = known.heads_key;
  if (auto found = first_int({"num_key_value_heads"})) {
    c.kv_heads = found->value, known.kv_key = found->key, known.kv = true;
  } else if (bad("num_key_value_heads")) {
    return;
  } else if (family.kv_heads == KvHeadsRule::kArchitecture) {
    read_architecture_kv_heads();
  } else if (family.kv_heads == KvHeadsRule::kGroups && flag("multi_query_attention", false)) {
    const auto g = required_int({"multi_query_group_num"},
                                "number of KV groups (multi_query_attention is set)");
    if (g) c.kv_heads = g->value, known.kv_key = g->key, known.kv = true;
  } else if (flag("multi_query", family.multi_query)) {
    c.kv_heads = 1, known.kv_key = "multi_query", known.kv = true;
  } else {
    c.kv_heads = c.heads, known.kv = known.heads;
  }
}

void SizeReader::check_kv_heads() {
  if (known.kv && known.heads)
    known.kv = check_divides(c.kv_heads, known.kv_key, c.heads, known.heads_key);
}

// The family's newer architecture: its model_type that always means it, or its key.
bool SizeReader::new_architecture() {
  return (!family.new_architecture_type.empty() &&
          doc.value("model_type", "") == family.new_architecture_type) ||
         family_flag(family.new_architecture);
}

// Falcon: the new architecture → num_kv_heads / n_head_kv; else multi_query → 1.
void SizeReader::read_architecture_kv_heads() {
  if (new_architecture()) {
    const Keys keys = {"num_kv_heads", "n_head_kv"};
    if (auto found = first_int(keys)) {
      c.kv_heads = found->value, known.kv_key = found->key, known.kv = true;
    } else if (!any_bad(keys)) {
      c.kv_heads = c.heads, known.kv = known.heads;
      assume(
          "new_decoder_architecture without num_kv_heads or n_head_kv: one KV head per "
          "query head (the transformers default)");
    }
  } else if (flag("multi_query", family.multi_query)) {
    c.kv_heads = 1, known.kv_key = "multi_query", known.kv = true;
  } else {
    c.kv_heads = c.heads, known.kv = known.heads;
  }
}

void SizeReader::read_head_dim() {
  if (auto found = first_int(keys::head_dim())) {
    c.head_dim = found->value, known.head_dim = true;
    return;
  }
  if (any_bad(keys::head_dim()) || !known.heads || !known.hidden) return;
  if (!check_divides(c.heads, known.heads_key, c.hidden, known.hidden_key)) return;
  c.head_dim = c.hidden / c.heads, known.head_dim = true;
}

void SizeReader::read_intermediate() {
  if (has("block_configs")) {  // per layer (read_stack)
    known.intermediate = true;
    return;
  }
  if (const std::string& key = family.dense_width_key; !key.empty()) {
    if (auto found = first_int({key.c_str()})) {
      c.intermediate = found->value;  // the dense layers' MLP; intermediate_size is each expert's
      known.intermediate = true;
      return;
    }
    if (bad(key)) return;
  }
  auto it = doc.find("n_inner");
  const bool n_inner_null = it != doc.end() && it->is_null();
  const Keys& keys = keys::intermediate();
  if (auto found = first_int(keys)) {
    c.intermediate = found->value;
    known.intermediate = !family.intermediate_is_sum || halve_intermediate(*found);
    return;
  }
  if (any_bad(keys)) return;
  if (n_inner_null || family.mlp_4h) {
    if (!known.hidden) return;
    c.intermediate = mul(4, c.hidden, pointer(known.hidden_key), "4·hidden");
    known.intermediate = true;
    if (!n_inner_null) {
      assume("MLP width 4·hidden = " + std::to_string(c.intermediate) +
             " (the family's default; the config states none)");
    }
    return;
  }
  if (c.moe && c.dense_layers() == 0) {  // every layer is MoE: no dense width needed
    c.intermediate = c.moe->expert_intermediate;
    known.intermediate = true;
    return;
  }
  if (known.moe_failed) return;  // whether a dense width is needed is unknown
  required_int(keys, "MLP width");
}

// Qwen (v1) writes the sum of its two gated projections' widths.
bool SizeReader::halve_intermediate(const Field& found) {
  if (found.value % 2 != 0) {
    f.add(error_code::kRange, pointer(found.key),
          family.display +
              "'s intermediate_size is twice each projection's width: expected an even number, "
              "got " +
              std::to_string(found.value));
    return false;
  }
  c.intermediate = found.value / 2;
  return true;
}

void SizeReader::read_window() {
  if (!flag("use_sliding_window", true)) return;
  c.sliding_window = optional_int("sliding_window");
}

void SizeReader::read_biases() {
  c.qkv_bias = family.qkv_bias, c.o_bias = family.o_bias, c.mlp_bias = family.mlp_bias;
  for (const char* key : {"bias", "enable_bias", "use_bias"}) {
    if (auto b = f.boolean(doc, "", key)) c.qkv_bias = c.o_bias = c.mlp_bias = *b;
  }
  if (auto b = f.boolean(doc, "", "attention_bias")) c.qkv_bias = c.o_bias = *b;
  if (auto b = f.boolean(doc, "", "mlp_bias")) c.mlp_bias = *b;
  if (auto b = f.boolean(doc, "", "add_qkv_bias")) c.qkv_bias = *b;
  if (auto b = f.boolean(doc, "", "use_qkv_bias")) c.qkv_bias = *b;  // StableLM
  if (auto b = f.boolean(doc, "", "add_bias_linear")) c.o_bias = c.mlp_bias = *b;
  if (family.no_bias.key && family_flag(family.no_bias)) c.o_bias = c.mlp_bias = false;
  c.lm_head_bias = family.lm_head_bias;
}

void SizeReader::read_embeddings() {
  // Absent: the class's default (the family's row). Null: not set, None to transformers, which
  // does not tie.
  c.tie_embeddings = flag("tie_word_embeddings", false);
  c.embed_dim = c.hidden;
  if (!family.embed_width_key.empty()) {
    if (auto p = optional_int(family.embed_width_key)) c.embed_dim = *p;
  }
  c.rotary = family.rotary;
  if (family.position_rows && known.context) {
    c.position_rows = add(c.max_positions, *family.position_rows, pointer(keys::context().front()),
                          family.display + "'s position rows");
  }
}

void SizeReader::read_structure() {
  c.parallel_blocks = family_flag(family.parallel_blocks);
  c.fused_qkv_weights = family.fused_qkv;
  c.fused_gate_up_weights = family.fused_gate_up;
  c.layer_norm = family.norm == NormKind::kLayer;  // the vector unit's cost of each norm
  c.norms_per_layer = norms_per_layer();
}

std::int64_t SizeReader::norms_per_layer() {
  if (family.one_norm_when_parallel && c.parallel_blocks && !new_architecture()) return 1;
  return family.norms_per_layer;
}

void SizeReader::count_norms() {
  if (!known.hidden || !known.layers || known.mla_failed || bad(known.hidden_key)) return;
  const bool bias = family.norm == NormKind::kLayer;
  const std::string where = pointer(known.hidden_key);
  const std::int64_t one = bias ? mul(2, c.hidden, where, "norm weights") : c.hidden;
  const std::int64_t norms =
      add(mul(c.layers, norms_per_layer(), where, "norms"), 1, where, "norms");
  std::int64_t total = mul(norms, one, where, "norm weights");
  if (family.embedding_norm) {  // word_embeddings_layernorm
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

}  // namespace tenet::llm::config_detail
