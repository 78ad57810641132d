// The non-matmul operators of one forward pass (prefill of a prompt or one decode step) of a
// decoder-only model: normalisation, rotary embedding, attention softmax, activation and gating,
// residual adds, KV-cache append, embedding lookup, logits/sampling and MoE routing, with their
// element counts, elementary operations and bytes, under the default fusion rules (MLC-LLM's).
// Formulas and fusion rules in docs/generate.md#operators.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "llm/kernel_name.hpp"
#include "tenet/llm/matmul_shape.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"

namespace tenet::llm {

// Bits per element of the tensors the operators read and write.
struct ElementBits {
  int activation = 16;  // activations, residual stream, logits (the scheme's activations)
  int kv_cache = 16;    // the KV cache (the scheme's kv_cache, else its activations)
  int embedding = 16;   // the token-embedding table (the scheme's weights)
};

struct VectorOp {
  std::string kind;             // one of arch::vector_op_kinds()
  std::string name;             // "attn_norm", "residual_add", "rotary", ...
  std::int64_t count = 1;       // calls per pass
  std::int64_t elements = 0;    // output elements of one call
  std::int64_t ops = 0;         // elementary operations of one call
  std::int64_t sram_bytes = 0;  // bytes in and out of the vector unit, one call
  std::int64_t dram_bytes = 0;  // DRAM bytes of one call (0 when fused into a matmul)
  std::string fused_with;       // the kernel it runs in ("" = its own kernel)
  bool per_layer = true;        // part of a decoder layer (else embedding / head side)
};

// The operators of the pass `options` describes; `matmuls` is that pass's matmul list as one
// chip runs it (softmax and activation elements are read from its attention and MLP entries);
// with tensor parallelism `model` is the chip's shard (llm::tensor_parallel_shard).
std::vector<VectorOp> vector_ops(const ModelConfig& model, const GenerationOptions& options,
                                 const std::vector<MatmulShape>& matmuls, const ElementBits& bits);

// A non-matmul kernel of a workload log (interpret_vector_kernel) whose loop nest has the
// `extents` (its output elements: their product): its own kernel, so every tensor it reads or
// writes crosses DRAM (docs/logs.md#non-matmul-kernels). `count` calls. InputError(overflow)
// when a size does not fit 64 bits.
VectorOp logged_vector_op(const std::string& kernel, const VectorKernelTraits& traits,
                          const std::vector<std::int64_t>& extents, std::int64_t count,
                          const ElementBits& bits);

}  // namespace tenet::llm
