#include "llm/model_summary.hpp"

#include <set>

#include "detail/exact.hpp"
#include "llm/expert_routing.hpp"

namespace tenet::llm {
namespace {

using ::tenet::detail::big;

// The weight matrices of one decode step, each counted once per layer it appears in; routed
// experts are recognised by their name prefix and counted E times per MoE layer.
Integer matmul_weights(const ModelConfig& model, const GenerationOptions& o, bool active_only) {
  Integer total;
  for (const WeightMatrix& w : weight_matrices(model, o, active_only))
    total += big(w.batch) * big(w.n) * big(w.k) * big(w.copies);
  return total;
}

// Per layer of the stack: attention biases (its own KV heads), dense-MLP biases (its width).
Integer bias_parameters(const ModelConfig& m) {
  Integer total;
  for (const LayerSpec& l : m.stack) {
    if (l.mixer == MixerKind::kAttention && !m.mla) {
      if (m.qkv_bias) total += big((m.heads + 2 * l.kv_heads) * m.head_dim);
      if (m.o_bias) total += big(m.hidden);
    }
    if (l.ffn == FfnKind::kDense && m.mlp_bias) {
      const std::int64_t up = m.mlp == MlpKind::kGated ? 2 * l.ffn_width : l.ffn_width;
      total += big(up + m.hidden);
    }
  }
  if (m.lm_head_bias) total += big(m.vocab);
  return total;
}

Integer kv_elements(const ModelConfig& m, const GenerationOptions& o) {
  if (m.mla) {
    GenerationOptions decode = o;
    decode.phase = Phase::kDecode;
    const MlaConfig& a = *m.mla;
    const Integer per_layer =
        resolved_mla_path(decode) == MlaPath::kAbsorbed
            ? Integer(big(a.kv_lora_rank) + big(a.qk_rope_head_dim))
            : Integer(big(m.heads) * big(a.qk_nope_head_dim + a.qk_rope_head_dim + a.v_head_dim));
    return per_layer * big(m.layers_with(MixerKind::kAttention));
  }
  Integer total;  // attention layers only: the state of Mamba / DeltaNet layers is not a KV cache
  for (const LayerSpec& l : m.stack) {
    if (l.mixer == MixerKind::kAttention) total += big(2) * big(l.kv_heads) * big(m.head_dim);
  }
  return total;
}

}  // namespace

std::vector<WeightMatrix> weight_matrices(const ModelConfig& model, const GenerationOptions& o,
                                          bool active_only) {
  GenerationOptions one = o;
  one.phase = Phase::kDecode;
  one.batch = 1;
  one.context = 1;
  one.routing.clear();
  one.fused_mlp = false;  // the weight matrices, not the fused row
  const std::string experts = model.names.moe + "experts.";
  std::vector<WeightMatrix> out;
  std::set<std::string> seen_experts;
  for (const MatmulShape& s : generate_matmuls(model, one)) {
    if (!s.has_weights()) continue;
    if (model.moe && s.name.compare(0, experts.size(), experts) == 0) {
      if (!seen_experts.insert(s.name).second) continue;
      const std::int64_t copies = active_only ? model.moe->top_k : model.moe->experts;
      out.push_back({s.name, s.batch, s.n, s.k, copies * model.moe->moe_layers});
      continue;
    }
    out.push_back({s.name, s.batch, s.n, s.k, s.count});
  }
  return out;
}

ModelSummary summarize_model(const ModelConfig& m, const GenerationOptions& o) {
  ModelSummary s;
  s.matmul_parameters = matmul_weights(m, o, false);
  s.embedding_parameters = big(m.position_rows) * big(m.hidden);
  if (!m.tie_embeddings) s.embedding_parameters += big(m.vocab) * big(m.embed_dim);
  const Integer rest = s.embedding_parameters + bias_parameters(m) + big(m.norm_parameters) +
                       big(m.other_parameters);
  s.parameters = s.matmul_parameters + rest;
  s.active_parameters = matmul_weights(m, o, true) + rest;
  s.kv_cache_elements_per_token = kv_elements(m, o);
  s.kv_cache_bytes_per_token = s.kv_cache_elements_per_token * big(2);
  if (m.moe && o.phase == Phase::kDecode) {
    s.expected_active_experts = expected_active_experts(o.batch, m.moe->top_k, m.moe->experts);
  }
  s.non_matmul_ops = non_matmul_ops(m);
  return s;
}

nlohmann::ordered_json summary_json(const ModelSummary& s) {
  nlohmann::ordered_json j = {
      {"parameters", ::tenet::detail::exact_json(s.parameters)},
      {"active_parameters", ::tenet::detail::exact_json(s.active_parameters)},
      {"embedding_parameters", ::tenet::detail::exact_json(s.embedding_parameters)},
      {"kv_cache_bytes_per_token", ::tenet::detail::exact_json(s.kv_cache_bytes_per_token)}};
  if (s.expected_active_experts) j["expected_active_experts"] = *s.expected_active_experts;
  if (!s.non_matmul_ops.empty()) {
    nlohmann::ordered_json ops = nlohmann::ordered_json::array();
    for (const NonMatmulOp& op : s.non_matmul_ops)
      ops.push_back({{"name", op.name}, {"kind", op.kind}, {"layers", op.layers}});
    j["not_costed"] = ops;
  }
  return j;
}

}  // namespace tenet::llm
