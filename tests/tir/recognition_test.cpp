// Every fixture kernel's extracted fields against a hand derivation from its TVMScript text.
#include <catch2/catch.hpp>

#include "tenet/error.hpp"
#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"
#include "tir/tir_data.hpp"

using namespace tenet;

namespace {

using tenet_test::tir_data;

// What a reader derives by hand from a fixture's text.
struct Expected {
  const char* file;
  const char* func;
  tir::SymbolValues bind;
  std::int64_t batch, m, n, k;
  llm::Layout layout;
  workload::OperandRole b_operand;
  std::vector<std::string> epilogue;
  const char* a_dtype;
  const char* accumulate;
  const char* output;
  const char* preset;  // matching_preset of the auto scheme ("" = none)
  // Dequantize chain ("" storage: none).
  const char* storage = "";
  const char* storage_dtype = "";
  int bits = 0, per_word = 1;
  const char* pack_axis = "";
  std::int64_t group = 0;
  const char* scale_dtype = "";
  std::vector<std::int64_t> scale_shape = {};
  bool zero_point = false;
  double offset = -1;  // -1: none
  const char* group_index = "";
  std::size_t approximations = 0;
};

using L = llm::Layout;
using B = workload::OperandRole;

const std::vector<Expected>& cases() {
  static const std::vector<Expected> all = {
      // variants.py: A[vi, vk] * B[vk, vj], B a (256, 48) parameter, n = 100 bound.
      {"variants.py",
       "matmul_black",
       {{"n", 100}, {"m", 48}},
       1,
       100,
       48,
       256,
       L::kNN,
       B::kWeight,
       {},
       "float32",
       "float32",
       "float32",
       "q0f32"},
      // vi = T.axis.S(n, i), vj = T.axis.S(T.int32(96), j0 * T.int32(32) + j1),
      // vk = T.axis.R(64, k0 * 16 + k1).
      {"variants.py",
       "matmul_int8_split",
       {{"n", 5}},
       1,
       5,
       96,
       64,
       L::kNN,
       B::kWeight,
       {},
       "int8",
       "int32",
       "int32",
       ""},
      // GEMV: C[v_i, v_j] += A[v_i, v_k] * W[v_j, v_k] with v_i of extent 1; then D = C * s[()].
      {"variants.py",
       "gemv_sblock",
       {},
       1,
       1,
       256,
       512,
       L::kNT,
       B::kWeight,
       {"multiply"},
       "float32",
       "float32",
       "float32",
       "q0f32"},
      {"variants.py",
       "matmul_legacy",
       {},
       1,
       64,
       96,
       32,
       L::kNT,
       B::kWeight,
       {},
       "float16",
       "float32",
       "float32",
       ""},
      // C = A[vi, vk] * B[vk, vj] + C (the accumulator on the right).
      {"variants.py",
       "matmul_buffer_subscript",
       {},
       1,
       16,
       24,
       8,
       L::kNN,
       B::kWeight,
       {},
       "float16",
       "float16",
       "float16",
       "q0f16"},
      // quant.py: lv1[v_i // 8, v_j] (K/8 × N), scale lv2[v_i // 32, v_j]: q4f16_0.
      {"quant.py",
       "fused_dequantize_matmul_q4f16_0",
       {{"seq_len", 7}},
       1,
       7,
       4096,
       1024,
       L::kNN,
       B::kWeight,
       {},
       "float16",
       "float16",
       "float16",
       "q4f16_0",
       "lv1",
       "uint32",
       4,
       8,
       "k",
       32,
       "float16",
       {32, 4096},
       false,
       7,
       ""},
      {"quant.py", "fused_dequantize_NT_matmul_g40",
       {},         1,
       1,          256,
       1280,       L::kNT,
       B::kWeight, {},
       "float16",  "float16",
       "float16",  "",
       "lv1",      "uint32",
       4,          8,
       "k",        40,
       "float16",  {256, 32},
       false,      7},
      {"quant.py", "fused_dequantize_NT_matmul_g128",
       {{"n", 5}}, 1,
       5,          512,
       1024,       L::kNT,
       B::kWeight, {},
       "float16",  "float16",
       "float16",  "",
       "lv1",      "uint32",
       4,          8,
       "k",        128,
       "float16",  {512, 8},
       false,      7},
      // int3 in uint16: mask 7, lv1[v_i0, v_i1 // 5], minus 3, groups of 40.
      {"quant.py", "fused_dequantize_NT_matmul_int3",
       {},         1,
       4,          128,
       640,        L::kNT,
       B::kWeight, {},
       "float16",  "float16",
       "float16",  "",
       "lv1",      "uint16",
       3,          5,
       "k",        40,
       "float16",  {128, 16},
       false,      3},
      {"quant.py", "fused_dequantize_NT_matmul_zero_point",
       {},         1,
       1,          256,
       1024,       L::kNT,
       B::kWeight, {},
       "float16",  "float16",
       "float16",  "",
       "qweight",  "uint32",
       4,          8,
       "k",        128,
       "float16",  {256, 8},
       true},
      // scales[g_idx[v_k], v_n]: 1024 / 8 rows = groups of 128, flagged as an approximation.
      {"quant.py", "fused_dequantize_matmul_g_idx",
       {},         1,
       2,          256,
       1024,       L::kNN,
       B::kWeight, {},
       "float16",  "float16",
       "float16",  "",
       "qweight",  "uint32",
       4,          8,
       "k",        128,
       "float16",  {8, 256},
       false,      8,
       "g_idx",    1},
      // GPTQ: qweight[k // 8, n], packed zeros qzeros[k // 128, n // 8] subtracted (+ 1),
      // fp32 accumulation cast to fp16: the gptq_w4a16_g128 preset.
      {"quant.py", "fused_dequantize_matmul_gptq",
       {},         1,
       1,          128,
       512,        L::kNN,
       B::kWeight, {"cast"},
       "float16",  "float32",
       "float16",  "gptq_w4a16_g128",
       "qweight",  "uint32",
       4,          8,
       "k",        128,
       "float16",  {4, 128},
       true},
      // int8 weights, one scale per output channel.
      {"quant.py", "fused_dequantize_NT_matmul_int8",
       {},         1,
       3,          384,
       256,        L::kNT,
       B::kWeight, {},
       "float16",  "float16",
       "float16",  "",
       "wq",       "int8",
       8,          1,
       "",         0,
       "float16",  {384}},
      // attention.py: q[b, h, i, r] * k[b, h, j, r]: batch 1 × 32 heads, N = kv_len, NT.
      {"attention.py",
       "fused_NT_matmul_multiply_maximum",
       {{"seq_len", 9}, {"kv_len", 20}},
       32,
       9,
       20,
       128,
       L::kNT,
       B::kActivation,
       {"multiply", "maximum"},
       "float16",
       "float16",
       "float16",
       "q0f16"},
      // p[b, h, i, r] * v[b, h, r, j]: K = kv_len, NN; the output buffer has no dtype (float32).
      {"attention.py",
       "fused_matmul_cast",
       {{"seq_len", 9}, {"kv_len", 20}},
       32,
       9,
       128,
       20,
       L::kNN,
       B::kActivation,
       {"cast"},
       "float16",
       "float16",
       "float32",
       ""},
      {"attention.py",
       "fused_NT_matmul_silu",
       {},
       1,
       4,
       96,
       64,
       L::kNT,
       B::kWeight,
       {"silu"},
       "float16",
       "float16",
       "float16",
       "q0f16"},
      {"attention.py",
       "fused_NT_matmul_add_gelu",
       {},
       1,
       4,
       96,
       64,
       L::kNT,
       B::kWeight,
       {"add", "gelu"},
       "float16",
       "float16",
       "float16",
       "q0f16"},
      // gpt2_phase3.py: the decode GEMV next to the seed's kernel.
      {"gpt2_phase3.py",
       "fused_dequantize_NT_matmul",
       {},
       1,
       1,
       3072,
       1024,
       L::kNT,
       B::kWeight,
       {},
       "float16",
       "float16",
       "float16",
       "q4f16_1",
       "lv1",
       "uint32",
       4,
       8,
       "k",
       32,
       "float16",
       {3072, 32},
       false,
       7},
  };
  return all;
}

}  // namespace

TEST_CASE("tir: every fixture kernel equals its hand derivation", "[tir]") {
  for (const Expected& e : cases()) {
    INFO(e.file << " " << e.func);
    const tir::Module module = tir::read_module(tir_data(e.file));
    const tir::Recognition r = tir::find_matmuls(module, e.func);
    REQUIRE(r.kernels.size() == 1);
    CHECK(r.skipped.empty());
    const tir::MatmulKernel& k = r.kernels[0];
    const tir::BoundKernel b = tir::bind(k, e.bind);
    CHECK(b.shape.name == e.func);
    CHECK(b.shape.batch == e.batch);
    CHECK(b.shape.m == e.m);
    CHECK(b.shape.n == e.n);
    CHECK(b.shape.k == e.k);
    CHECK(b.shape.layout == e.layout);
    CHECK(b.shape.b_operand == e.b_operand);
    CHECK(k.epilogue == e.epilogue);
    CHECK(b.shape.epilogue_ops == static_cast<int>(e.epilogue.size()));
    CHECK(k.a_dtype == e.a_dtype);
    CHECK(k.accumulate_dtype == e.accumulate);
    CHECK(k.output_dtype == e.output);
    CHECK(k.approximations.size() == e.approximations);
    CHECK(b.shape.weights_quantized == (std::string(e.storage) != ""));
    REQUIRE(b.quant);
    CHECK(tir::matching_preset(*b.quant, k.layout) == e.preset);
    if (std::string(e.storage).empty()) {
      CHECK_FALSE(k.storage);
      CHECK(b.quant->dequant.placement == quant::DequantPlacement::kNone);
      continue;
    }
    REQUIRE(k.storage);
    const tir::WeightStorage& w = *k.storage;
    CHECK(w.buffer == e.storage);
    CHECK(w.storage_dtype == e.storage_dtype);
    CHECK(w.bits == e.bits);
    CHECK(w.elems_per_word == e.per_word);
    CHECK(w.pack_axis == e.pack_axis);
    CHECK(w.group_size == e.group);
    CHECK(w.group_axis == (e.group > 0 ? "k" : ""));
    CHECK(w.scale_dtype == e.scale_dtype);
    CHECK(b.scale_shape == e.scale_shape);
    CHECK(w.zero_buffer.empty() == !e.zero_point);
    CHECK(w.offset.has_value() == (e.offset >= 0));
    if (w.offset) CHECK(*w.offset == e.offset);
    CHECK(w.group_index_buffer == e.group_index);
    // The auto scheme: int<b> with an implicit offset, uint<b> with a zero point.
    if (e.per_word > 1) {
      CHECK(b.quant->weights.dtype == (e.zero_point ? quant::DataType::unsigned_int(e.bits)
                                                    : quant::DataType::signed_int(e.bits)));
      REQUIRE(b.quant->weights.packing);
      CHECK(b.quant->weights.packing->values_per_word == e.per_word);
    }
    REQUIRE(b.quant->weights.scales.size() == 1);
    CHECK(b.quant->weights.scales[0].granularity ==
          (e.group > 0 ? quant::Granularity::kGroup : quant::Granularity::kPerChannel));
    CHECK(b.quant->weights.scales[0].zero.has_value() == e.zero_point);
    CHECK(b.quant->dequant.placement == quant::DequantPlacement::kSramToArray);
  }
}

TEST_CASE("tir: functions without a matmul are skipped with a reason and a line", "[tir]") {
  const tir::Recognition v = tir::find_matmuls(tir::read_module(tir_data("variants.py")));
  CHECK(v.kernels.size() == 5);
  REQUIRE(v.skipped.size() == 1);
  CHECK(v.skipped[0] == tir::Skipped{"add_only", "no matmul block (blocks: T_add)", 93});

  // RMS norm reduces A * A: a sum of squares, not a product of two operands.
  const tir::Recognition g = tir::find_matmuls(tir::read_module(tir_data("gpt2_phase3.py")));
  CHECK(g.kernels.size() == 2);
  REQUIRE(g.skipped.size() == 1);
  CHECK(g.skipped[0] ==
        tir::Skipped{"rms_norm", "block 'Ared_temp' reduces but its update is not C = C + A * B",
                     64});
}

TEST_CASE("tir: binding checks every symbolic size", "[tir]") {
  const tir::Module m = tir::read_module(tir_data("attention.py"));
  const tir::MatmulKernel k = tir::find_matmuls(m, "fused_matmul_cast").kernels.at(0);
  CHECK(k.symbols == std::vector<std::string>{"kv_len", "seq_len"});
  try {
    tir::bind(k, {{"seq_len", 4}});
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kMissingField);
    CHECK(e.message().find("'kv_len'") != std::string::npos);
  }
  try {
    tir::bind(k, {{"seq_len", 0}, {"kv_len", 3}});
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kRange);
  }
  const tir::BoundKernel big = tir::bind(k, {{"seq_len", 1LL << 40}, {"kv_len", 3}});
  CHECK(big.shape.m == (1LL << 40));
  CHECK_THROWS_AS(tir::find_matmuls(m, "no_such_function"), InputError);
}

TEST_CASE("tir: --bind text", "[tir]") {
  CHECK(tir::parse_bindings("") == tir::SymbolValues{});
  CHECK(tir::parse_bindings("seq_len=512,n=128") ==
        tir::SymbolValues{{"seq_len", 512}, {"n", 128}});
  for (const char* bad : {"seq_len", "=3", "n=", "n=3x", "n=1,,m=2", "n=1,n=2"}) {
    INFO(bad);
    CHECK_THROWS_AS(tir::parse_bindings(bad), InputError);
  }
}

TEST_CASE("tir: convolutions are skipped with a reason, never reported as a matmul",
          "[tir][conv]") {
  // conv2d.py, modelled on TOPI's conv2d_nchw as TVM prints it: the input index
  // v_yy * 2 + v_ry slides the output row over the kernel row (stride 2, 3×3).
  const tir::Module m = tir::read_module(tir_data("conv2d.py"));
  const tir::Recognition r = tir::find_matmuls(m);
  CHECK(r.kernels.empty());
  REQUIRE(r.skipped.size() == 2);  // one entry per function
  std::size_t convolutions = 0;
  for (const tir::Skipped& s : r.skipped) {
    INFO(s.func << ": " << s.reason);
    if (s.reason.rfind("convolution: ", 0) != 0) continue;
    ++convolutions;
    CHECK(s.reason.find("'v_yy'") != std::string::npos);
    CHECK(s.reason.find("'v_ry'") != std::string::npos);
  }
  CHECK(convolutions == 2);  // a 1×1 kernel still slides yy over ry (extent 1): refused too
}
