// The matmuls of one forward pass of a decoder-only model (prefill of a prompt, or one decode
// step), aggregated: identical calls appear once with a count. Formulas in docs/llm.md.
#pragma once

#include <cstdint>
#include <vector>

#include "tenet/llm/matmul_shape.hpp"
#include "tenet/llm/model_config.hpp"

namespace tenet::llm {

enum class LmHead { kLastToken, kAllTokens };

struct GenerationOptions {
  Phase phase = Phase::kPrefill;  // kPrefill or kDecode
  std::int64_t batch = 1;         // B: sequences processed together
  std::int64_t prompt = 0;        // S: prompt tokens per sequence (prefill)
  std::int64_t context = 0;       // L: tokens in the KV cache attended by the new token (decode)
  bool fused_qkv = true;          // one QKV projection (MLC, GPT-2's c_attn) or q, k, v apart
  bool fused_gate_up = true;      // one gate_up projection (MLC) or gate and up apart (gated MLPs)
  LmHead lm_head = LmHead::kLastToken;  // prefill: logits of the last token only (MLC) or of all
};

// Throws InputError (where = "--batch", "--prompt", "--context", "--phase") when a length is
// <= 0, exceeds the model's max_positions, or a derived size overflows 64 bits.
std::vector<MatmulShape> generate_matmuls(const ModelConfig& model,
                                          const GenerationOptions& options);

// Merges entries for which same_call() holds (adding counts; names joined with "+"), keeping
// the order of first appearance.
std::vector<MatmulShape> aggregate_matmuls(const std::vector<MatmulShape>& shapes);

}  // namespace tenet::llm
