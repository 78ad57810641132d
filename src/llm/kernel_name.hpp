// What a TVM / MLC-LLM kernel name says about its matmul.
//
// MLC names fused TIR functions after their pieces, e.g.
// "fused_fused_dequantize1_fused_NT_matmul6_add7_add8": `dequantize` = the weights are quantized
// and dequantized in the kernel; `NT_matmul` = B stored N×K; `matmul` without NT = K×N (NN);
// the element-wise pieces after the matmul (`add7`, `add8`) form the fused epilogue. docs/logs.md.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "tenet/llm/matmul_shape.hpp"

namespace tenet::llm {

struct KernelTraits {
  bool weights_quantized = false;  // a `dequantize` piece
  std::optional<Layout> layout;    // NT_matmul -> NT, matmul -> NN; unset if no matmul piece
  // The element-wise ops fused after the matmul, applied to each output element in one pass
  // (one epilogue chain): their number, and how many of them are adds.
  int epilogue_ops = 0;
  int epilogue_adds = 0;
  bool has_epilogue() const { return epilogue_ops > 0; }  // the name has one epilogue chain

  friend bool operator==(const KernelTraits& a, const KernelTraits& b) {
    return a.weights_quantized == b.weights_quantized && a.layout == b.layout &&
           a.epilogue_ops == b.epilogue_ops && a.epilogue_adds == b.epilogue_adds;
  }
  friend std::ostream& operator<<(std::ostream& os, const KernelTraits& t);
};

// Pure; never throws. Pieces are the '_'-separated words of the name with trailing digits
// removed ("add7" -> "add"). Epilogue pieces: the words after the last `matmul` word that are
// element-wise op names (add, subtract, multiply, divide, maximum, minimum, gelu, silu, relu,
// tanh, sigmoid, exp, cast, ...); `fused`/`tir`/`T` connectives are skipped.
KernelTraits interpret_kernel_name(const std::string& kernel);

// What the name of a non-matmul kernel of an MLC-LLM log says (docs/logs.md#non-matmul-kernels):
// the vector-unit kind that runs it and its work per output element of its loop nest.
struct VectorKernelTraits {
  std::string kind;           // one of arch::vector_op_kinds()
  std::string op;             // "rms_norm", "add_rms_norm", "layer_norm", "softmax", "gated_silu",
                              // "silu", "gelu", "elementwise", "rotary", "kv_append", "embedding",
                              // "sampling", "sort", "top_k", "moe"
  int ops_per_element = 1;    // elementary operations per output element
  int inputs = 1;             // tensors of the output's size read (activation format)
  int outputs = 1;            // tensors of the output's size written
  bool table_input = false;   // embedding: reads rows of the table at the weights' format
  bool kv_output = false;     // kv_append: writes the cache at the KV-cache format
  bool norm_weights = false;  // reads one weight vector of the last extent (norms)
  bool sort = false;          // + ceil(log2(last extent)) compares per element (argsort)
};

// The traits of a kernel whose name has no `matmul` word and names a non-matmul operator
// (norm, softmax, activation, element-wise, rope, KV-cache append, take, sampling, MoE top-k);
// nothing for other names (a matmul, an attention kernel, an unknown piece). Pure; never throws.
std::optional<VectorKernelTraits> interpret_vector_kernel(const std::string& kernel);

}  // namespace tenet::llm
