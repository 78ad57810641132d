// Kernel names of MLC-LLM / TVM: quantization, layout and epilogue read from the name.
#include "llm/kernel_name.hpp"

#include <catch2/catch.hpp>
#include <sstream>

using namespace tenet::llm;

TEST_CASE("the seed's kernel: quantized, NT, one epilogue chain of two adds", "[llm][kernel]") {
  const KernelTraits t =
      interpret_kernel_name("fused_fused_dequantize1_fused_NT_matmul6_add7_add8");
  CHECK(t.weights_quantized);
  REQUIRE(t.layout.has_value());
  CHECK(*t.layout == Layout::kNT);
  CHECK(t.has_epilogue());
  CHECK(t.epilogue_ops == 2);
  CHECK(t.epilogue_adds == 2);
  std::ostringstream text;
  text << t;
  CHECK(text.str() == "{weights quantized, layout NT, epilogue 1 chain of 2 ops (2 adds)}");
}

TEST_CASE("kernel names, table-driven", "[llm][kernel]") {
  struct Case {
    const char* name;
    bool quantized;
    std::optional<Layout> layout;
    int ops, adds;
  };
  const Case cases[] = {
      {"fused_NT_matmul", false, Layout::kNT, 0, 0},
      {"NT_matmul14", false, Layout::kNT, 0, 0},
      {"matmul3", false, Layout::kNN, 0, 0},
      {"fused_matmul2_add4", false, Layout::kNN, 1, 1},
      {"fused_fused_dequantize2_fused_NT_matmul7_add9_gelu", true, Layout::kNT, 2, 1},
      {"fused_NT_matmul1_multiply2_add3", false, Layout::kNT, 2, 1},
      {"fused_fused_dequantize_fused_NT_matmul_silu_multiply", true, Layout::kNT, 2, 0},
      {"fused_add_NT_matmul", false, Layout::kNT, 0, 0},  // add before the matmul: not epilogue
      {"fused_NT_matmul_add_matmul1", false, Layout::kNN, 0, 0},     // the last matmul decides
      {"fused_NT_matmul2_reshape3_add1", false, Layout::kNT, 1, 1},  // reshape is not an op
      {"fused_fused_dequantize_take1", true, std::nullopt, 0, 0},
      {"softmax", false, std::nullopt, 0, 0},
      {"", false, std::nullopt, 0, 0},
      {"dequantizer_matmul_addition", false, Layout::kNN, 0, 0},  // whole words only
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const KernelTraits t = interpret_kernel_name(c.name);
    CHECK(t.weights_quantized == c.quantized);
    CHECK(t.layout == c.layout);
    CHECK(t.epilogue_ops == c.ops);
    CHECK(t.epilogue_adds == c.adds);
    CHECK(t.has_epilogue() == (c.ops > 0));
  }
}

TEST_CASE("non-matmul kernel names of MLC-LLM: kind and work per element",
          "[llm][kernel_name][generate]") {
  using tenet::llm::interpret_vector_kernel;
  struct Case {
    const char* name;
    const char* kind;
    const char* op;
    int ops, inputs, outputs;
  };
  const Case cases[] = {
      {"rms_norm1", "norm", "rms_norm", 4, 1, 1},
      {"fuse_add_norm_prefill", "norm", "add_rms_norm", 5, 2, 2},
      {"fuse_add_norm_decode", "norm", "add_rms_norm", 5, 2, 2},
      {"layer_norm2", "norm", "layer_norm", 7, 1, 1},
      {"fused_rope", "rotary", "rotary", 3, 1, 1},
      {"tir_kv_cache_transpose_append", "kv_append", "kv_append", 1, 1, 1},
      {"fused_dequantize_take1", "embedding", "embedding", 1, 0, 1},
      {"fused_split_silu_multiply", "activation", "gated_silu", 5, 2, 1},
      {"fused_split2_gelu_tanh2_multiply7", "activation", "gated_gelu", 9, 2, 1},
      {"softmax_with_temperature", "logits", "sampling", 5, 1, 1},
      {"chunk_lse", "logits", "sampling", 5, 1, 1},
      {"softmax_with_chunked_sum", "logits", "sampling", 5, 1, 1},
      {"argsort_probs", "logits", "sort", 0, 1, 1},
      {"top4_softmax", "routing", "top_k", 6, 1, 1},
      {"top8_softmax", "routing", "top_k", 6, 1, 1},
      {"moe_sum", "routing", "moe", 1, 1, 1},
      {"softmax", "softmax", "softmax", 5, 1, 1},
      {"add", "residual", "elementwise", 1, 2, 1},
      {"multiply6", "residual", "elementwise", 1, 2, 1},
      {"fused_add1_cast2", "residual", "elementwise", 2, 2, 1},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const auto t = interpret_vector_kernel(c.name);
    REQUIRE(t);
    CHECK(t->kind == c.kind);
    CHECK(t->op == c.op);
    CHECK(t->ops_per_element == c.ops);
    CHECK(t->inputs == c.inputs);
    CHECK(t->outputs == c.outputs);
  }
  CHECK(interpret_vector_kernel("fused_dequantize_take1")->table_input);
  CHECK(interpret_vector_kernel("tir_kv_cache_transpose_append")->kv_output);
  CHECK(interpret_vector_kernel("argsort_probs")->sort);
  // Matmuls, attention kernels and unknown pieces are not non-matmul operators.
  for (const char* name : {"fused_fused_dequantize1_fused_NT_matmul6_add7_add8", "NT_matmul",
                           "batch_prefill_paged_kv", "batch_decode_paged_kv",
                           "batch_prefill_ragged_kv", "concat_te", "extend_te", "fused_reshape"})
    CHECK_FALSE(interpret_vector_kernel(name));
}
