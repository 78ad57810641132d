// The matmuls of one forward pass of a decoder-only model (prefill of a prompt, or one decode
// step), aggregated: identical calls appear once with a count. Formulas in docs/llm.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tenet/llm/matmul_shape.hpp"
#include "tenet/llm/model_config.hpp"

namespace tenet::llm {

enum class LmHead { kLastToken, kAllTokens };

// Prefill attention: kCausal computes, like a blocked (FlashAttention-style) kernel, only the
// attention_tile × attention_tile tiles of Q·Kᵀ and P·V that hold an unmasked entry (the lower
// triangle, cut further by a sliding window); kDense computes the full S×S products.
enum class AttentionMask { kCausal, kDense };
AttentionMask parse_attention_mask(const std::string& name);  // "causal" | "dense" (--attention)
const char* to_string(AttentionMask a);

// Multi-head latent attention: kNaive expands the latent into per-head K and V (kv_b_proj) and
// caches them; kAbsorbed folds kv_b_proj into the query and the output (q_absorb, v_absorb) and
// attends over the cached latent. kAuto: naive in prefill, absorbed in decode.
enum class MlaPath { kAuto, kNaive, kAbsorbed };
MlaPath parse_mla_path(const std::string& name);  // "naive" | "absorbed" (--mla)
const char* to_string(MlaPath p);                 // "auto", "naive", "absorbed"
// "fused" -> true | "unfused" -> false (--attention-kernel); else InputError(unknown-name).
bool parse_attention_kernel(const std::string& name);

struct GenerationOptions {
  Phase phase = Phase::kPrefill;  // kPrefill or kDecode
  std::int64_t batch = 1;         // B: sequences processed together
  std::int64_t prompt = 0;        // S: prompt tokens per sequence (prefill)
  std::int64_t context = 0;       // L: tokens in the KV cache attended by the new token (decode)
  bool fused_qkv = true;          // one QKV projection (MLC, GPT-2's c_attn) or q, k, v apart
  bool fused_gate_up = true;      // one gate_up projection (MLC) or gate and up apart (gated MLPs)
  LmHead lm_head = LmHead::kLastToken;  // prefill: logits of the last token only (MLC) or of all
  AttentionMask attention = AttentionMask::kCausal;
  std::int64_t attention_tile = 128;  // query and key block of the causal kernel
  MlaPath mla = MlaPath::kAuto;
  // Attention as one fused kernel per layer kind (`self_attn.attention` rows: Q·Kᵀ, online softmax
  // and P·V with the scores on chip, eval::evaluate_kernel) or as today's two matmuls `qk` and `pv`
  // with the scores through DRAM (false: `--attention-kernel unfused`). MLA, the indexer and a
  // sliding window shorter than the prompt keep the two matmuls (docs/llm.md#fused-attention).
  bool fused_attention = true;
  // Each dense MLP as one fused kernel row `<mlp prefix>.ffn` (tenet kernel --ffn) instead of its
  // projections; set from the accelerator's "fusion": {"mlp": true} (docs/llm.md#fused-mlp).
  // MoE experts keep their projections.
  bool fused_mlp = false;
  // Tokens routed to each expert in every MoE layer (--routing FILE); empty: uniform routing.
  std::vector<std::int64_t> routing;
};

// Throws InputError (where = the GenerationOptions field: "batch", "prompt", "context", "phase",
// "routing", "attention", "mla"; the CLI names its options) when a
// length is <= 0, exceeds the model's max_positions, a derived size overflows 64 bits, or a
// routing histogram does not fit the model (one entry per expert, T·k tokens in all).
std::vector<MatmulShape> generate_matmuls(const ModelConfig& model,
                                          const GenerationOptions& options);

// A layer operation that is not a matmul and is not costed (the scan of Mamba layers, the
// delta-rule recurrence of Gated DeltaNet layers), listed so that a report says what it omits.
struct NonMatmulOp {
  std::string name;  // "mixer.ssd_scan", "mamba.selective_scan", "linear_attn.gated_delta_rule"
  std::string kind;  // the layer kind: "mamba2", "mamba", "gated_deltanet"
  std::int64_t layers = 0;
};
std::vector<NonMatmulOp> non_matmul_ops(const ModelConfig& model);

// The MLA path a phase runs (kAuto resolved).
MlaPath resolved_mla_path(const GenerationOptions& options);

// Merges entries for which same_call() holds (adding counts; names joined with "+"), keeping
// the order of first appearance.
std::vector<MatmulShape> aggregate_matmuls(const std::vector<MatmulShape>& shapes);

}  // namespace tenet::llm
