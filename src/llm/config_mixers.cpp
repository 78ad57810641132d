// The experts (MoE), multi-head latent attention, and the hybrid mixers (Mamba-1/2, Gated
// DeltaNet) of a config.json, with the non-matmul weights they add; the indexer of DeepSeek-V3.2.
#include <algorithm>

#include "llm/config_reader.hpp"

namespace tenet::llm::config_detail {

using detail::checked_add;
using detail::checked_mul;

void StackReader::read_moe() {
  const Keys& expert_keys = keys::experts();
  auto experts = first_int(expert_keys);
  known.moe_failed = true;  // until the end
  if (!experts) {
    known.moe_failed = any_bad(expert_keys);
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
  if (known.layers) moe_layer_mask = moe_mask();
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
  if (family.shared_expert) m.shared_intermediate = m.expert_intermediate;
  m.expert_mlp = family.expert_mlp;
  const std::vector<bool>& mask = *moe_layer_mask;
  m.moe_layers = std::count(mask.begin(), mask.end(), true);
  if (m.moe_layers > 0) c.moe = m;
  known.moe_failed = false;
}

void StackReader::read_mla() {
  auto rank = optional_int("kv_lora_rank");
  if (!rank) {
    known.mla_failed = bad("kv_lora_rank");
    return;
  }
  MlaConfig m;
  m.kv_lora_rank = *rank;
  m.q_lora_rank = optional_int("q_lora_rank");
  const auto nope = required_int({"qk_nope_head_dim"}, "MLA no-rope head size");
  const auto rope = required_int({"qk_rope_head_dim"}, "MLA rope head size");
  const auto v = required_int({"v_head_dim"}, "MLA value head size");
  known.mla_failed = !nope || !rope || !v || bad("q_lora_rank");
  // the naive path: every head has its own K and V
  c.kv_heads = c.heads, known.kv = known.heads && !known.mla_failed;
  known.head_dim = !known.mla_failed;
  if (known.mla_failed) return;
  m.qk_nope_head_dim = nope->value;
  m.qk_rope_head_dim = rope->value;
  m.v_head_dim = v->value;
  c.mla = m;
  c.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
}

// Non-matmul weights of every layer of kind `k`, `per_layer` each.
void StackReader::other(MixerKind k, std::int64_t per_layer, const char* where) {
  c.other_parameters =
      add(c.other_parameters, mul(c.layers_with(k), per_layer, where, "weights"), where, "weights");
}

void StackReader::read_mamba2() {
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
  if (!heads || !head_dim || any_bad(group_keys) || !state || !conv || !known.hidden) return;
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

void StackReader::read_mamba1() {
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
  if (bad("mamba_expand") || !state || !conv || !dt_rank || !known.hidden) return;
  m.inner = mul(expand.value_or(2), c.hidden, "/mamba_expand", "Mamba inner width");
  m.state = state->value, m.conv = conv->value, m.dt_rank = *dt_rank;
  std::int64_t per_layer = mul(m.inner, m.conv, "/mamba_d_conv", "conv weights");
  if (m.conv_bias) per_layer += m.inner;
  per_layer += m.inner;                                                 // dt_proj bias
  per_layer += mul(m.inner, m.state, "/mamba_d_state", "A") + m.inner;  // A_log, D
  if (family.mamba_inner_norms) per_layer += m.dt_rank + 2 * m.state;   // dt, B, C layernorms
  if (m.proj_bias) per_layer += 2 * m.inner + c.hidden;
  other(MixerKind::kMamba, per_layer, "/mamba_d_state");
  c.ssm = m;
}

void StackReader::read_deltanet() {
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
  const std::int64_t vd = mul(d.value_heads, d.value_dim, "/linear_value_head_dim", "value width");
  const std::int64_t conv_dim = add(2 * kd, vd, "/linear_value_head_dim", "conv channels");
  // conv1d (no bias), dt_bias and A_log per value head, the gated RMSNorm of one value head
  other(MixerKind::kGatedDeltaNet,
        mul(conv_dim, d.conv, "/linear_conv_kernel_dim", "conv weights") + 2 * d.value_heads +
            d.value_dim,
        "/linear_num_value_heads");
  c.deltanet = d;
}

void StackReader::read_attention_extras() {
  c.gated_attention = flag("attn_output_gate", family.gated_attention);
  if (family.qk_norm && known.head_dim) other(MixerKind::kAttention, 2 * c.head_dim, "/head_dim");
  if (family.attention_sinks && known.heads)
    other(MixerKind::kAttention, c.heads, "/num_attention_heads");  // one sink per head
  if (family.expert_biases) read_expert_biases();
  read_indexer();
}

// A bias on the router (E) and on every expert (E·(2·I_e + h)), in each MoE layer.
void StackReader::read_expert_biases() {
  if (!c.moe || !known.hidden) return;
  const MoeConfig& m = *c.moe;
  const std::int64_t per_layer =
      add(m.experts,
          mul(m.experts, add(2 * m.expert_intermediate, c.hidden, "/hidden_size", "biases"),
              "/num_local_experts", "expert biases"),
          "/num_local_experts", "MoE biases");
  c.other_parameters =
      add(c.other_parameters, mul(per_layer, m.moe_layers, "/num_local_experts", "MoE biases"),
          "/num_local_experts", "weights");
}

void StackReader::read_indexer() {
  const auto heads = optional_int("index_n_heads");
  if (!heads) return;
  if (!c.mla || !c.mla->q_lora_rank) {
    if (!known.mla_failed) {
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

}  // namespace tenet::llm::config_detail
