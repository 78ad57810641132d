// Fused kernels as workloads (docs/model.md#fused-kernels): a chain of statements — matmul stages
// on the PE array, element-wise stages on the vector unit — whose intermediate tensors are kept on
// chip when the blocking lets them, spilled to DRAM (and counted) when not. Two kinds: attention
// (Q·Kᵀ, softmax, P·V; GQA/MQA/MHA, causal or not, prefill/extend/decode) and MLPs (gated:
// X·[W_gate|W_up], SiLU(gate)·up, ·W_down; ungated: X·W_up (+ bias), GELU, ·W_down (+ bias)).
// This header holds the kernel descriptions and the blocking; the exact counts are
// fused/counts.hpp, the evaluation eval::evaluate_kernel (tenet/eval/kernel.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace tenet::fused {

// Where the attention scores (S = Q·Kᵀ, P = softmax(S)) live: on chip (FlashAttention's online
// softmax, the default), through DRAM (Q·Kᵀ writes S, the softmax reads S and writes P, P·V
// reads P: three kernels), or materialised (a compiler's plain attention, e.g. XLA's: S and P of
// every head whole, kept on chip when they fit the global buffer and spilled when not; the
// softmax over whole rows; the heads' matmuls issued back to back: docs/model.md#fused-kernels),
// or the chip's own (the default): on chip for causal attention, the accelerator's
// fusion.non_causal_attention for non-causal attention (eval::evaluate_kernel resolves it).
enum class ScoresPlace { kOnChip, kDram, kMaterialised, kChip };
const char* to_string(ScoresPlace p);  // "on_chip", "dram", "materialised", "chip"
ScoresPlace parse_scores_place(const std::string& text);  // InputError(unknown-name, "scores")

// O[hq, i, :] = softmax(Q[hq, i, :]·K[hq / g, :, :]ᵀ / sqrt(D)) · V[hq / g, :, :], g = HQ / HKV.
// With `causal`, query i (0 <= i < Q) sees the keys j <= KV - Q + i: the queries are the last Q
// positions of a sequence of KV tokens (prefill: Q = KV; extend: Q < KV; decode: Q = 1). With a
// sliding `window` W (causal only) it sees the last W of those: KV - Q + i - W < j <= KV - Q + i.
struct AttentionKernel {
  std::int64_t hq = 1, hkv = 1, q = 1, kv = 1, d = 1;
  bool causal = false;
  ScoresPlace scores = ScoresPlace::kChip;
  std::int64_t window = 0;  // keys a query sees, itself included (causal); 0: no window
  std::int64_t group() const { return hq / hkv; }  // query heads per KV head
};

// The MLP's activation: SiLU(gate)·up (gated: W1 = [W_gate | W_up], H × 2I) or GELU (ungated:
// W1 = W_up, H × I).
enum class Activation { kSiluGated, kGelu };
const char* to_string(Activation a);                   // "silu_gated", "gelu"
Activation parse_activation(const std::string& text);  // InputError(unknown-name, "activation")

// Y[S, H] = act(X[S, H]·W1 (+ b1)) · W2[I, H] (+ b2).
struct FfnKernel {
  std::int64_t s = 1, h = 1, i = 1;
  Activation activation = Activation::kSiluGated;
  bool bias = false;
  std::int64_t w1_cols() const { return activation == Activation::kSiluGated ? 2 * i : i; }
};

using Kernel = std::variant<AttentionKernel, FfnKernel>;
const char* kind_name(const Kernel& k);  // "attention", "ffn"

// InputError(range | overflow | usage, where = "attention" or "ffn", naming the size) for sizes
// < 1, HQ not a multiple of HKV, a causal Q > KV (query 0 would see no key), a window < 0 or
// without a causal mask, Q or KV above 2^24
// tokens or a MAC count beyond 2^60.
void validate(const Kernel& k);

// How the chain is blocked. Attention: `rows` queries of one KV head's whole group (g·rows rows
// of Q·Kᵀ) against `cols` keys per step; the Q block and the O accumulator stay on chip over the
// key blocks, each K and V block is read once per query block for the whole group. MLP: `rows`
// tokens per block; W1 and W2 stream once per token block (`cols` unused, 0) — or, `resident`
// (an accelerator whose compiler keeps an MLP's weights on chip: arch::Chip::mlp_resident_bytes),
// W1, W2 and the biases are read once and kept on chip over the token blocks.
// `padded` (attention; the accelerator's fixed query block, arch::AttentionKernelSpec): every
// query block is computed whole, `rows` queries — the last one's missing queries as padding rows
// of Q·Kᵀ, the softmax and P·V — while Q and O move only the real queries.
struct Blocking {
  std::int64_t rows = 1;  // queries (attention) or tokens (MLP) per block
  std::int64_t cols = 0;  // keys per block (attention); 0 for the MLP
  bool padded = false;
  bool resident = false;  // MLP: the weights read once, resident over the token blocks
  friend bool operator==(const Blocking& a, const Blocking& b) {
    return a.rows == b.rows && a.cols == b.cols && a.padded == b.padded && a.resident == b.resident;
  }
};

}  // namespace tenet::fused
