// Kernel names of MLC-LLM / TVM: quantization, layout and epilogue read from the name.
#include "tenet/llm/kernel_name.hpp"

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
