// The model one tensor-parallel chip runs (Megatron-LM's split, as serving engines such as vLLM
// apply it): every layer's heads, KV heads, MLP and expert widths, hybrid mixers' heads and the
// vocabulary divided by tp; what cannot be divided evenly is refused, naming the model, the layer
// kind and tp (docs/generate.md#parallelism).
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "llm/checked_int.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/generation.hpp"

namespace tenet::llm {
namespace {

using ::tenet::llm::detail::ceil_div;

[[noreturn]] void refuse(const ModelConfig& m, std::int64_t tp, const std::string& kind,
                         const std::string& what) {
  throw InputError(
      error_code::kRange, "", "tp",
      fmt::format("{}: tensor parallelism over tp = {} chips: {}: {}", m.name, tp, kind, what));
}

// `count` units (heads, channels, a width) of `kind` divided over the chips: count / tp.
std::int64_t split(const ModelConfig& m, std::int64_t tp, const std::string& kind,
                   const std::string& unit, std::int64_t count) {
  if (count % tp != 0)
    refuse(
        m, tp, kind,
        fmt::format("the {} {} do not split over {} chips (tp must divide them)", count, unit, tp));
  return count / tp;
}

// Heads that may be split (count / tp) or, when fewer than the chips, replicated: each chip holds
// one, shared by tp / count chips (KV heads; Mamba-2's B/C groups). Neither: refused.
std::int64_t split_or_replicate(const ModelConfig& m, std::int64_t tp, const std::string& kind,
                                const std::string& unit, std::int64_t count) {
  if (count % tp == 0) return count / tp;
  if (tp % count == 0) return 1;
  refuse(m, tp, kind,
         fmt::format("the {} {} can be neither split over {} chips nor replicated evenly (tp "
                     "must divide them or be a multiple of them)",
                     count, unit, tp));
}

void shard_attention(const ModelConfig& m, std::int64_t tp, ModelConfig& c) {
  if (m.layers_with(MixerKind::kAttention) == 0) return;
  const std::string kind = m.mla ? "attention layers (MLA)" : "attention layers";
  c.heads = split(m, tp, kind, "query heads", m.heads);
  if (m.mla) {
    // Per-head up-projections split with the heads; the latent (q_a_proj, kv_a_proj_with_mqa,
    // the cached c_KV) and the indexer are replicated.
    c.kv_heads = c.heads;
    for (LayerSpec& l : c.stack)
      if (l.mixer == MixerKind::kAttention) l.kv_heads = c.heads;
    return;
  }
  c.kv_heads = split_or_replicate(m, tp, kind, "KV heads", m.kv_heads);
  for (LayerSpec& l : c.stack)
    if (l.mixer == MixerKind::kAttention)
      l.kv_heads = split_or_replicate(m, tp, kind, "KV heads", l.kv_heads);
}

void shard_mixers(const ModelConfig& m, std::int64_t tp, ModelConfig& c) {
  if (m.ssm && m.layers_with(MixerKind::kMamba2) > 0) {
    const std::string kind = "Mamba-2 layers";
    c.ssm->heads = split(m, tp, kind, "heads", m.ssm->heads);
    c.ssm->inner = m.ssm->inner / tp;  // heads · head size
    c.ssm->groups = split_or_replicate(m, tp, kind, "B/C groups (n_groups)", m.ssm->groups);
  } else if (m.ssm && m.layers_with(MixerKind::kMamba) > 0) {
    // vLLM's Mamba-1: in_proj, dt_proj by columns, x_proj and out_proj by rows.
    c.ssm->inner =
        split(m, tp, "Mamba layers", "inner channels (mamba_expand·hidden)", m.ssm->inner);
  }
  if (m.deltanet && m.layers_with(MixerKind::kGatedDeltaNet) > 0) {
    const std::string kind = "Gated DeltaNet layers";
    c.deltanet->key_heads = split(m, tp, kind, "key heads", m.deltanet->key_heads);
    c.deltanet->value_heads = split(m, tp, kind, "value heads", m.deltanet->value_heads);
  }
  const bool linear = std::any_of(m.stack.begin(), m.stack.end(), [](const LayerSpec& l) {
    return l.mixer == MixerKind::kLinear || l.ffn == FfnKind::kLinear;
  });
  if (linear) split(m, tp, "linear (replace_with_linear) blocks", "hidden channels", m.hidden);
}

void shard_ffn(const ModelConfig& m, std::int64_t tp, ModelConfig& c) {
  const std::string dense = m.mlp == MlpKind::kGated ? "dense MLP (gated)" : "dense MLP";
  for (LayerSpec& l : c.stack)
    if (l.ffn == FfnKind::kDense) l.ffn_width = split(m, tp, dense, "MLP channels", l.ffn_width);
  // The summary width follows the layers that use it (all-MoE models: the experts' width).
  c.intermediate = m.intermediate % tp == 0 ? m.intermediate / tp : ceil_div(m.intermediate, tp);
  if (m.moe) {
    // Every chip holds every routed expert at 1/tp of its width (vLLM's tensor-parallel MoE):
    // the router and the routing are the same on every chip.
    c.moe->expert_intermediate =
        split(m, tp, "MoE experts", "channels of each expert", m.moe->expert_intermediate);
    if (m.moe->shared_intermediate > 0)
      c.moe->shared_intermediate =
          split(m, tp, "MoE shared experts", "shared-expert channels", m.moe->shared_intermediate);
  }
}

}  // namespace

ModelConfig tensor_parallel_shard(const ModelConfig& model, std::int64_t tp) {
  if (tp <= 0)
    throw InputError(error_code::kRange, "", "tp",
                     fmt::format("expected a positive tensor-parallel degree, got {}", tp));
  if (tp == 1) return model;
  ModelConfig c = model;
  c.shards = tp;
  shard_attention(model, tp, c);
  shard_mixers(model, tp, c);
  shard_ffn(model, tp, c);
  // Vocabulary-parallel embedding and lm_head: V / tp rows each, V padded up to a multiple of tp.
  c.vocab = ceil_div(model.vocab, tp);
  // Hybrid mixers' conv weights, A, D, dt biases and norms follow their heads; gpt-oss's sinks and
  // expert biases their heads and experts' channels: divided (rounded up).
  c.other_parameters = ceil_div(model.other_parameters, tp);
  return c;
}

}  // namespace tenet::llm
