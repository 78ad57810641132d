// The value types of a model config: names of kinds, equality, printing.
#include <algorithm>
#include <ostream>

#include "tenet/llm/model_config.hpp"

namespace tenet::llm {

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
         a.embed_dim == b.embed_dim && a.position_rows == b.position_rows && a.rotary == b.rotary &&
         a.tie_embeddings == b.tie_embeddings && a.qkv_bias == b.qkv_bias && a.o_bias == b.o_bias &&
         a.mlp_bias == b.mlp_bias && a.lm_head_bias == b.lm_head_bias &&
         a.parallel_blocks == b.parallel_blocks && a.fused_qkv_weights == b.fused_qkv_weights &&
         a.fused_gate_up_weights == b.fused_gate_up_weights &&
         a.norm_parameters == b.norm_parameters && a.layer_norm == b.layer_norm &&
         a.norms_per_layer == b.norms_per_layer && a.names == b.names && a.moe == b.moe &&
         a.mla == b.mla && a.stack == b.stack && a.attention_chunk == b.attention_chunk &&
         a.ssm == b.ssm && a.deltanet == b.deltanet && a.indexer == b.indexer &&
         a.gated_attention == b.gated_attention && a.other_parameters == b.other_parameters &&
         a.shards == b.shards && a.nested == b.nested && a.assumptions == b.assumptions;
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
