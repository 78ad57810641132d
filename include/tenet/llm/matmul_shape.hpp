// One matmul of an LLM workload: C[batch][M×N] = A[batch][M×K] · B[batch][K×N], called `count`
// times. Produced by the model generator (model_matmuls.hpp) and by the workload-log reader
// (input/workload_log.hpp); consumed by a LayerEvaluator (layer_cost.hpp).
//
// Work of an entry = count × batch × M·N·K multiply-accumulates. `batch` is the kernel's own
// batch dimension (e.g. B·n_kv independent attention products in one call); `count` is how many
// times that call happens (e.g. once per layer, or every decode step of a log).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "tenet/poly/count.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::llm {

using poly::Integer;

// Which inference phase a matmul belongs to. kUnspecified: a log line that does not say.
enum class Phase { kUnspecified, kPrefill, kDecode };
const char* to_string(Phase p);              // "unspecified", "prefill", "decode"
Phase parse_phase(const std::string& name);  // "prefill" | "decode"; else InputError(unknown-name)

// B's storage layout: the one workload::Layout (NT = N×K, NN = K×N).
using workload::Layout;
using workload::parse_layout;

// What the B operand is: model weights (quantizable with the weight scheme), the KV cache
// (K or V of earlier tokens, quantizable with the KV-cache scheme), or another activation.
// One of workload::OperandRole's kWeight, kKvCache, kActivation.
using workload::OperandRole;
// "weight" | "kv_cache" | "activation"; else InputError(unknown-name).
OperandRole parse_b_operand(const std::string& name);

// Element types as written in the log ("float16", "int4", ...); empty = not stated.
struct DataTypes {
  std::string in;     // A (activations)
  std::string w;      // B (weights / KV cache)
  std::string out;    // C
  std::string accum;  // accumulator
  friend bool operator==(const DataTypes& a, const DataTypes& b) {
    return a.in == b.in && a.w == b.w && a.out == b.out && a.accum == b.accum;
  }
  friend bool operator!=(const DataTypes& a, const DataTypes& b) { return !(a == b); }
};

// A row that is one fused attention kernel (eval::evaluate_kernel; docs/llm.md#fused-attention)
// rather than one matmul: per sequence `heads` query heads and `kv_heads` KV heads; the row's M
// queries attend N keys of head dimension K (causal: the queries are the last M of N positions),
// for `batch` sequences — the kernel HQ = batch·heads, HKV = batch·kv_heads, Q = M, KV = N, D = K;
// a sliding-window layer's queries see at most `window` keys each (0: no window).
struct FusedAttention {
  std::int64_t heads = 1, kv_heads = 1;
  bool causal = true;
  std::int64_t window = 0;
  friend bool operator==(const FusedAttention& a, const FusedAttention& b) {
    return a.heads == b.heads && a.kv_heads == b.kv_heads && a.causal == b.causal &&
           a.window == b.window;
  }
  friend bool operator!=(const FusedAttention& a, const FusedAttention& b) { return !(a == b); }
};

// A row that is one fused MLP kernel (docs/llm.md#fused-mlp): M tokens, K = H hidden, N = I
// intermediate; gated: X·[W_gate|W_up], SiLU·up, ·W_down; plain: X·W_up, GELU, ·W_down.
struct FusedFfn {
  bool gated = true;
  bool bias = false;
  friend bool operator==(const FusedFfn& a, const FusedFfn& b) {
    return a.gated == b.gated && a.bias == b.bias;
  }
  friend bool operator!=(const FusedFfn& a, const FusedFfn& b) { return !(a == b); }
};

struct MatmulShape {
  std::string name;                  // layer name ("qkv_proj") or kernel name from a log
  std::int64_t batch = 1;            // independent products per call (>= 1)
  std::int64_t m = 1, n = 1, k = 1;  // C is M×N, the reduction runs over K (all >= 1)
  std::int64_t count = 1;            // calls (>= 1)
  Phase phase = Phase::kUnspecified;
  Layout layout = Layout::kNT;
  OperandRole b_operand = OperandRole::kWeight;
  // From a log: whether the kernel dequantizes its weights (kernel name holds "dequantize", or
  // the record says so). Unset for generated shapes: the quantization scheme decides.
  std::optional<bool> weights_quantized;
  int epilogue_ops = 0;  // fused element-wise ops per output element (e.g. adds)
  std::string quant;     // quantization scheme named by a log record; empty = none stated
  DataTypes dtypes;
  // C = C + A·B: C holds values in DRAM before the call, read before its first update
  // (`--accumulate`). False: C = A·B.
  bool accumulate = false;
  // Set: the row is a fused attention kernel (Q·Kᵀ, online softmax, P·V; scores on chip), B the
  // KV cache; its MACs are both products' over the unmasked (query, key) pairs.
  std::optional<FusedAttention> fused_attention;
  // Set: the row is a fused MLP kernel (the accelerator's "fusion": {"mlp": true}); its MACs are
  // the chain's, M·K·N·(3 gated, 2 plain).
  std::optional<FusedFfn> fused_ffn;

  bool has_weights() const { return b_operand == OperandRole::kWeight; }
  // batch·M·N·K, exact; a fused attention row: 2·batch·heads·pairs·K, pairs the unmasked
  // (query, key) pairs (M·N, or M·N − M(M−1)/2 causal; with a window W query i sees
  // min(N − M + i + 1, W) keys).
  Integer macs_per_call() const;
  Integer macs() const;  // count·batch·M·N·K, exact

  friend bool operator==(const MatmulShape& a, const MatmulShape& b);
  friend bool operator!=(const MatmulShape& a, const MatmulShape& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const MatmulShape& s);
};

// True when two entries describe the same kernel call (everything but `name` and `count`):
// such entries may be merged by adding their counts.
bool same_call(const MatmulShape& a, const MatmulShape& b);

}  // namespace tenet::llm
