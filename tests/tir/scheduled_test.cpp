// Scheduled TensorIR (issue 25): every scheduled fixture kernel against the batch, M, N, K,
// layout and quantization derived by hand from its text, one test per class of schedule.
#include <fmt/core.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "cli_run.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/count.hpp"
#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"
#include "tir/relation.hpp"
#include "tir/tir_cases.hpp"
#include "tir/tir_data.hpp"

using namespace tenet;
using json = nlohmann::json;

namespace {

using tenet_test::tir_data;

using namespace tenet_test::tir_cases;

}  // namespace

TEST_CASE("tir scheduled: Dlight GEMV with rfactor, thread bindings, staging and inline q4",
          "[tir][scheduled]") {
  // clang-format off
  const Case cases[] = {
      // K = rf 16 × k0 32 × k2 8; storage lv611[v0, k0 * 16 + k2 // 8 + rf] (512 words for K 4096:
      // 8 per word), scale lv612[v0, (...) // 32], minus 7: MLC's q4f16_1.
      {"dlight_gemv.py", "fused_fused_dequantize_NT_matmul_q4_rf",
       {}, 1, 1, 11008, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("lv611", "uint32", 4, 8, "k").groups(32).minus(7), "q4f16_1"},
      // fp16 weights through a local copy, the vector through shared, rf 128 × 8 × 2; bias add.
      {"dlight_gemv.py", "fused_NT_matmul1_add_gemv_f16",
       {}, 1, 1, 2560, 2048, L::kNT, B::kWeight, "float16", "float16", {"add"},
       {}, "q0f16"},
      // Lowered cross-thread reduction: a scalar accumulator, T.tvm_thread_allreduce, write-back.
      {"dlight_gemv.py", "fused_dequantize_gemv_cross_thread_allreduce",
       {}, 1, 1, 4096, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("lv_w", "uint32", 4, 8, "k").groups(32).minus(7), "q4f16_1"},
      // Low-batch GEMV: the batch padded to 4 in shared (T.if_then_else): M is batch_size itself.
      {"dlight_gemv.py", "fused_dequantize_NT_matmul_low_batch",
       {{"batch_size", 3}}, 1, 3, 4096, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("lv_w", "uint32", 4, 8, "k").groups(32).minus(7), "q4f16_1"},
      // A zeros buffer inline: groups of 2048 / 16 = 128 from the shapes (the index is split).
      {"dlight_gemv.py", "fused_dequantize_NT_matmul_zeros_rf",
       {}, 1, 1, 2048, 2048, L::kNT, B::kWeight, "float16", "float16", {},
       packed("qweight", "uint32", 4, 8, "k").groups(128).zeros("zeros", "original")},
      // int8 weights with one scale per output channel, the vector in shared, rf 64 × 64.
      {"dlight_gemv.py", "fused_dequantize_NT_matmul_int8_per_channel_rf",
       {}, 1, 1, 1024, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("lv_q", "int8", 8, 1)},
  };
  // clang-format on
  const std::vector<tir::BoundKernel> got = check_all(cases);
  const tir::BoundKernel& q4 = got[0];
  CHECK(q4.kernel.b_dtype == "float16");  // what the MACs read: the dequantized value
  CHECK(q4.shape.dtypes.w == "uint32");   // what is stored
}

TEST_CASE("tir scheduled: Dlight prefill matmul with fp32 accumulation", "[tir][scheduled]") {
  // clang-format off
  const Case cases[] = {
      // M padded to (seq_len + 31) // 32 * 32 in the reindexed staging: seq_len is the true M.
      {"dlight_matmul.py", "fused_NT_matmul_fp32_accumulate_cast",
       {{"seq_len", 100}}, 1, 100, 4096, 4096, L::kNT, B::kWeight, "float32", "float16", {"cast"}},
      // inp1[v2, v1] staged into inp1_reindex_shared[v0, v1, v2]: B is stored K×N (NN).
      {"dlight_matmul.py", "matmul_nn_transposed_staging",
       {{"m", 50}}, 1, 50, 1024, 2048, L::kNN, B::kWeight, "float32", "float32", {},
       {}, "q0f32"},
      // The dequantize inlined into the shared staging of the weight.
      {"dlight_matmul.py", "fused_dequantize_NT_matmul_prefill_q4",
       {{"seq_len", 7}}, 1, 7, 11008, 4096, L::kNT, B::kWeight, "float32", "float16", {"cast"},
       packed("lv_w", "uint32", 4, 8, "k").groups(32).minus(7)},
  };
  // clang-format on
  const std::vector<tir::BoundKernel> got = check_all(cases);
  const tir::BoundKernel& b = got[0];
  CHECK(b.quant->accumulator == quant::DataType::fp32());
}

TEST_CASE("tir scheduled: tensorized MMA, WMMA and dot-product intrinsic blocks",
          "[tir][scheduled]") {
  // clang-format off
  const Case cases[] = {
      // WMMA: v1_o (32) × 16, v2_o (8) × 16, v3_o (16) × 16 from the regions' tile widths.
      {"tensorized.py", "matmul_wmma_f32_accumulate",
       {}, 1, 512, 128, 256, L::kNT, B::kWeight, "float32", "float32", {},
       {}, "", 0, "T.tvm_mma_sync"},
      // PTX MMA m16n8k16: 64 × 16, 32 × 8, 32 × 16; B staged transposed from B[k, n]: NN.
      {"tensorized.py", "dense_ptx_mma_m16n8k16",
       {}, 1, 1024, 256, 512, L::kNN, B::kWeight, "float32", "float32", {},
       {}, "", 0, "T.ptx_mma"},
      // VNNI: compute[i, j_o * 16:+16], X[i, k_o * 4:+4] → N 48 × 16, K 192 × 4.
      {"tensorized.py", "dense_vnni_u8s8s32",
       {}, 1, 128, 768, 768, L::kNT, B::kWeight, "int32", "int32", {},
       {}, "", 0, "llvm.x86.avx512.vpdpbusd.512"},
      {"tensorized.py", "dense_arm_sdot_s8s8s32",
       {}, 1, 64, 256, 512, L::kNT, B::kWeight, "int32", "int32", {},
       {}, "", 0, "llvm.aarch64.neon.sdot.v4i32.v16i8"},
  };
  // clang-format on
  check_all(cases);
  // The exact engine needs scalar relations: a tensorized block is refused by name.
  const tir::Module m = tir::read_module(tir_data("tensorized.py"));
  const tir::MatmulKernel k = tir::find_matmuls(m, "dense_vnni_u8s8s32").kernels.at(0);
  try {
    tir::kernel_workload(m, tir::bind(k, {}));
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.message().find("tensorized") != std::string::npos);
  }
}

TEST_CASE("tir scheduled: scale groups along N and zero points in every spelling",
          "[tir][scheduled][quant]") {
  // clang-format off
  const Case cases[] = {
      // w_scale_inv[n // 128, k // 128]: a 128×128 block scale.
      {"quant_spellings.py", "fused_dequantize_NT_matmul_block_scale",
       {}, 1, 8, 1536, 2048, L::kNT, B::kWeight, "float16", "float16", {},
       packed("w", "int8", 8, 1).groups(128, "k", 128)},
      // lv2[v_j // 64]: groups of 64 along N only, a 64 × K block.
      {"quant_spellings.py", "fused_dequantize_matmul_groups_along_n",
       {{"n", 5}}, 1, 5, 1024, 1024, L::kNN, B::kWeight, "float16", "float16", {},
       packed("lv1", "uint32", 4, 8, "k").groups(64, "n").minus(7)},
      // q * s - z * s: the zero subtracted before scaling, in effect.
      {"quant_spellings.py", "fused_dequantize_NT_matmul_scaled_zeros",
       {}, 1, 1, 512, 1024, L::kNT, B::kWeight, "float16", "float16", {},
       packed("qweight", "uint32", 4, 8, "k").groups(64).zeros("zeros", "original")},
      {"quant_spellings.py", "fused_dequantize_NT_matmul_rescaled_zeros",
       {}, 1, 2, 512, 1024, L::kNT, B::kWeight, "float16", "float16", {},
       packed("qweight", "uint32", 4, 8, "k").groups(128).zeros("zeros", "rescale")},
      {"quant_spellings.py", "fused_dequantize_NT_matmul_uint8_offset8",
       {}, 1, 1, 256, 512, L::kNT, B::kWeight, "float16", "float16", {},
       packed("w", "uint8", 4, 2, "k").groups(32).minus(8)},
      // Packed zeros unpacked in a T.sblock: qzeros[k // 128, n // 8] subtracted.
      {"quant_spellings.py", "fused_dequantize_matmul_packed_zeros_sblock",
       {}, 1, 1, 1024, 1024, L::kNN, B::kWeight, "float16", "float16", {},
       packed("qweight", "int32", 4, 8, "k").groups(128).zeros("qzeros", "original")},
      {"quant_spellings.py", "fused_dequantize_NT_matmul_q3_ten_per_word",
       {}, 1, 1, 512, 1024, L::kNT, B::kWeight, "float16", "float16", {},
       packed("lv1", "uint32", 3, 10, "k").groups(40).minus(3), "q3f16_1"},
      // AutoAWQ: packed along N (qweight[k, n // 8]), packed zeros, groups of 128 along K.
      {"quant_spellings.py", "fused_dequantize_matmul_awq_packed_n",
       {{"seq_len", 9}}, 1, 9, 2048, 2048, L::kNN, B::kWeight, "float16", "float16", {},
       packed("qweight", "int32", 4, 8, "n").groups(128).zeros("qzeros", "original"),
       "q4f16_autoawq"},
  };
  // clang-format on
  const std::vector<tir::BoundKernel> got = check_all(cases);
  const tir::BoundKernel& block = got[0];
  REQUIRE(block.quant->weights.scales.size() == 1);
  CHECK(block.quant->weights.scales[0].granularity == quant::Granularity::kBlock);
  CHECK(block.quant->weights.scales[0].block_n == 128);
  CHECK(block.quant->weights.scales[0].block_k == 128);
  const tir::BoundKernel& along_n = got[1];
  CHECK(along_n.quant->weights.scales[0].granularity == quant::Granularity::kBlock);
  CHECK(along_n.quant->weights.scales[0].block_n == 64);
  CHECK(along_n.quant->weights.scales[0].block_k == 1024);
  const tir::BoundKernel& rescale = got[3];
  CHECK(rescale.quant->weights.scales[0].zero_mode == quant::ZeroMode::kRescale);
}

TEST_CASE("tir scheduled: decode attention GEMVs keep heads as batch, M = 1", "[tir][scheduled]") {
  // clang-format off
  const Case cases[] = {
      // q[0, h, 0, k] has no variable of its own in C: it is A (M = 1), K's rows are N = n.
      {"dlight_gemv.py", "fused_NT_matmul_divide_maximum_minimum_cast_heads",
       {{"n", 77}}, 32, 1, 77, 128, L::kNT, B::kActivation, "float16", "float32",
       {"minimum", "maximum", "multiply"}},
      // P·V: K = n (the padded shared copy of p is unpadded), N = 128 head channels, NN.
      {"dlight_gemv.py", "fused_matmul_attn_decode_pv",
       {{"n", 77}}, 32, 1, 128, 77, L::kNN, B::kActivation, "float16", "float16", {},
       {}, "q0f16"},
  };
  // clang-format on
  check_all(cases);
}

TEST_CASE("tir scheduled: MoE GEMVs gather expert weights through an index buffer",
          "[tir][scheduled][moe]") {
  // clang-format off
  const Case cases[] = {
      // w[indptr[0, e], i, j // 8]: 2 gathered experts (the batch) of 8 in the weight.
      {"moe.py", "moe_dequantize_gemv",
       {}, 2, 1, 14336, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("w", "uint32", 4, 8, "k").groups(32).minus(7), "q4f16_1", 8},
      // MLC-LLM's spelling: the dequantize block inside the expert's block writes y[i, j]; the
      // expert shows only in its gathered loads. 6 experts of 64.
      {"moe.py", "moe_dequantize_gemv_sblock",
       {}, 6, 1, 2816, 2048, L::kNT, B::kWeight, "float16", "float16", {},
       packed("w", "uint32", 4, 8, "k").groups(32).minus(7), "q4f16_1", 64},
      // The expert count is a symbol Relax binds: --bind num_experts=64.
      {"moe.py", "moe_gemv_num_experts",
       {{"num_experts", 64}}, 4, 1, 1408, 2048, L::kNT, B::kWeight, "float16", "float16", {},
       {}, "q0f16", 64},
  };
  // clang-format on
  check_all(cases);
  const tir::Module m = tir::read_module(tir_data("moe.py"));
  CHECK(m.relax_symbols == std::vector<std::string>{"num_experts"});
  const tir::MatmulKernel k = tir::find_matmuls(m, "moe_gemv_num_experts").kernels.at(0);
  CHECK(k.expert_index_buffer == "indptr");
  try {
    tir::bind(k, {});
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kMissingField);
    CHECK(e.message().find("num_experts") != std::string::npos);
  }
  const auto r = test::run_cli("tir --input " + tir_data("moe.py") +
                               " --func moe_gemv_num_experts --bind num_experts=64 --shapes-only "
                               "--format json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(json::parse(r.out)["kernels"][0]["experts"] == 64);
}

TEST_CASE("tir scheduled: the 2021 tir. spelling and the newest tirx spelling",
          "[tir][scheduled]") {
  // clang-format off
  const Case cases[] = {
      // tir.block([4, 128, 64, reduce 8, reduce 8]): K = 4 × 8 × 8 with the rf part spatial.
      {"legacy_2021.py", "matmul_rfactor",
       {}, 1, 128, 64, 256, L::kNT, B::kWeight, "float32", "float32", {},
       {}, "q0f32"},
      {"legacy_2021.py", "matmul_f16_reads_writes",
       {}, 1, 64, 48, 32, L::kNN, B::kWeight, "float32", "float32", {}},
      {"legacy_2021.py", "gemv_rfactor_bound",
       {}, 1, 1, 1024, 512, L::kNT, B::kWeight, "float16", "float16", {},
       {}, "q0f16"},
      {"tirx_gemv.py", "fused_dequantize_NT_matmul_low_batch_tirx",
       {{"batch_size", 6}}, 1, 6, 2048, 2048, L::kNT, B::kWeight, "float16", "float16", {},
       packed("lv_w", "uint32", 4, 8, "k").groups(32).minus(7), "q4f16_1"},
  };
  // clang-format on
  check_all(cases);
}

TEST_CASE("tir scheduled: BitBLAS extern decode functions by their signature",
          "[tir][scheduled][quant]") {
  // clang-format off
  const Case cases[] = {
      // decode_i4s_to_f16 over B int8 (N, K / 2): signed 4-bit, 2 per byte, no scale.
      {"bitblas.py", "main_decode_i4s_to_f16",
       {}, 1, 1, 8192, 8192, L::kNT, B::kWeight, "float16", "float16", {},
       packed("B", "int8", 4, 2, "k").decoded_by("decode_i4s_to_f16")},
      // decode_i4u_to_f16_scale_zeros_original with Scale (N, K / 32): groups of 32.
      {"bitblas.py", "main_decode_i4u_to_f16_scale_zeros",
       {}, 1, 1, 4096, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("B", "int8", 4, 2, "k").groups(32).zeros("Zeros", "original")
           .decoded_by("decode_i4u_to_f16_scale_zeros_original")},
  };
  // clang-format on
  const std::vector<tir::BoundKernel> got = check_all(cases);
  const tir::BoundKernel& s = got[0];
  CHECK(s.quant->weights.dtype == quant::DataType::signed_int(4));
  const tir::BoundKernel& u = got[1];
  CHECK(u.quant->weights.dtype == quant::DataType::unsigned_int(4));
}

TEST_CASE("tir scheduled: every scheduled fixture reads in full, nothing skipped",
          "[tir][scheduled]") {
  const std::pair<const char*, std::size_t> files[] = {
      {"dlight_gemv.py", 8},      {"dlight_matmul.py", 3}, {"tensorized.py", 4},
      {"quant_spellings.py", 8},  {"moe.py", 3},           {"legacy_2021.py", 3},
      {"tirx_gemv.py", 1},        {"bitblas.py", 2},       {"moe_scheduled.py", 11},
      {"undeclared_sizes.py", 6}, {"zero_points.py", 9}};
  std::size_t total = 0;
  for (const auto& [file, count] : files) {
    INFO(file);
    const tir::Recognition r = tir::find_matmuls(tir::read_module(tir_data(file)));
    for (const tir::Skipped& s : r.skipped) INFO(s.func << ": " << s.reason);
    CHECK(r.skipped.empty());
    CHECK(r.kernels.size() == count);
    total += r.kernels.size();
  }
  CHECK(total >= 50);
}

namespace {

// A Dlight-style rfactor GEMV with the q4-like dequantize inlined in the update: rf `r` lanes,
// reduction loops k0 (`k0s`) and k2 (`k2s`), K = r·k0s·k2s; `per_word` values per uint32 of
// `bits` bits, scale groups of `group`; the packed index either divides the whole split index
// (`(..) // per_word`) or is printed split (`k0 * (r·k2s / p) + rf * (k2s / p) + k2 // p`).
std::string rfactor_gemv(long long n, long long r, long long k0s, long long k2s, int bits,
                         int per_word, long long group, bool split_index) {
  const long long k = r * k0s * k2s;
  const std::string kx = fmt::format("vk0 * {} + vrf * {} + vk2", r * k2s, k2s);
  const std::string word = split_index ? fmt::format("vk0 * {} + vrf * {} + vk2 // {}",
                                                     r * k2s / per_word, k2s / per_word, per_word)
                                       : fmt::format("({}) // {}", kx, per_word);
  return fmt::format(
      R"(@T.prim_func
def gemv(w: T.Buffer(({n}, {words}), "uint32"), s: T.Buffer(({n}, {groups}), "float16"), x: T.Buffer((1, {k}), "float16"), out: T.Buffer((1, {n}), "float16")):
    T.func_attr({{"tir.is_scheduled": 1}})
    rf_local = T.alloc_buffer(({r}, 1, {n}), "float16", scope="local")
    w_local = T.alloc_buffer(({n}, {words}), "uint32", scope="local")
    for b in T.thread_binding({n}, thread="blockIdx.x"):
        for t in T.thread_binding({r}, thread="threadIdx.x"):
            with T.block("rf_init"):
                vrf = T.axis.spatial({r}, t)
                v0 = T.axis.spatial({n}, b)
                rf_local[vrf, 0, v0] = T.float16(0)
            for k0 in range({k0s}):
                for k2 in T.vectorized({k2s}):
                    with T.block("w_local"):
                        v0 = T.axis.spatial({n}, b)
                        v1 = T.axis.spatial({words}, (k0 * {rk2} + t * {k2s} + k2) // {p})
                        w_local[v0, v1] = w[v0, v1]
                    with T.block("rf_update"):
                        vrf = T.axis.spatial({r}, t)
                        v0 = T.axis.spatial({n}, b)
                        vk0, vk2 = T.axis.remap("RR", [k0, k2])
                        rf_local[vrf, 0, v0] = rf_local[vrf, 0, v0] + x[0, {kx}] * ((T.Cast("float16", T.bitwise_and(T.shift_right(w_local[v0, {word}], T.Cast("uint32", ({kx}) % {p}) * T.uint32({bits})), T.uint32({mask}))) - T.float16(7)) * s[v0, ({kx}) // {g}])
        for t in T.thread_binding({r}, thread="threadIdx.x"):
            with T.block("final"):
                vrf = T.axis.reduce({r}, t)
                v0 = T.axis.spatial({n}, b)
                with T.init():
                    out[0, v0] = T.float16(0)
                out[0, v0] = out[0, v0] + rf_local[vrf, 0, v0]
)",
      fmt::arg("n", n), fmt::arg("words", k / per_word), fmt::arg("groups", k / group),
      fmt::arg("k", k), fmt::arg("r", r), fmt::arg("k0s", k0s), fmt::arg("k2s", k2s),
      fmt::arg("rk2", r * k2s), fmt::arg("p", per_word), fmt::arg("kx", kx), fmt::arg("word", word),
      fmt::arg("bits", bits), fmt::arg("mask", (1 << bits) - 1), fmt::arg("g", group));
}

poly::Integer footprint_of(const workload::Workload& w, const std::string& tensor) {
  for (const workload::Access& a : w.accesses())
    if (a.tensor == tensor) return poly::count(a.relation.intersect_domain(w.domain()).range());
  FAIL("no access to " << tensor);
  return 0;
}

}  // namespace

TEST_CASE("tir scheduled: rfactor GEMVs with an inline dequantize equal brute-force enumeration",
          "[tir][scheduled]") {
  std::mt19937 rng(25);
  struct Packing {
    int bits, per_word;
  };
  const std::vector<Packing> packings = {{4, 8}, {2, 16}, {8, 4}, {1, 32}};
  for (int trial = 0; trial < 24; ++trial) {
    const Packing p = packings[trial % packings.size()];
    const bool split = trial % 3 == 0;
    const long long r = 1 + rng() % 5, k0s = 1 + rng() % 4, n = 1 + rng() % 6;
    // The split spelling needs whole words per k2 run; the divided one takes any k2 extent.
    const long long k2s = split ? p.per_word * (1 + rng() % 2) : 1 + rng() % 9;
    const long long k = r * k0s * k2s;
    if (k % p.per_word != 0) continue;
    std::vector<long long> groups;
    for (long long g = p.per_word; g <= k; g += p.per_word)
      if (k % g == 0) groups.push_back(g);
    const long long group = groups[rng() % groups.size()];
    INFO("n=" << n << " r=" << r << " k0=" << k0s << " k2=" << k2s << " bits=" << p.bits
              << " group=" << group << " split=" << split);
    const tir::Module mod =
        tir::parse_module(rfactor_gemv(n, r, k0s, k2s, p.bits, p.per_word, group, split), "gen.py");
    const tir::Recognition rec = tir::find_matmuls(mod);
    REQUIRE(rec.kernels.size() == 1);
    const tir::BoundKernel b = tir::bind(rec.kernels[0], {});
    CHECK(b.shape.batch == 1);
    CHECK(b.shape.m == 1);
    CHECK(b.shape.n == n);
    CHECK(b.shape.k == k);
    CHECK(b.kernel.output_buffer == "out");
    REQUIRE(b.kernel.storage);
    CHECK(b.kernel.storage->bits == p.bits);
    CHECK(b.kernel.storage->elems_per_word == p.per_word);
    CHECK(b.kernel.storage->group_size == (group > 1 ? group : 0));
    const workload::Workload w = tir::kernel_workload(mod, b).workload;
    // Brute force over the block's instances: the activations, words and scales they read.
    std::set<long long> xs;
    std::set<std::pair<long long, long long>> words, scales;
    long long instances = 0;
    for (long long vrf = 0; vrf < r; ++vrf)
      for (long long v0 = 0; v0 < n; ++v0)
        for (long long vk0 = 0; vk0 < k0s; ++vk0)
          for (long long vk2 = 0; vk2 < k2s; ++vk2) {
            ++instances;
            const long long kk = vk0 * r * k2s + vrf * k2s + vk2;
            xs.insert(kk);
            words.insert({v0, split ? vk0 * (r * k2s / p.per_word) + vrf * (k2s / p.per_word) +
                                          vk2 / p.per_word
                                    : kk / p.per_word});
            scales.insert({v0, kk / group});
          }
    CHECK(instances == n * k);  // the logical GEMV's n × K products, each once
    CHECK(poly::count(w.domain()) == static_cast<long>(instances));
    CHECK(footprint_of(w, "x") == static_cast<long>(xs.size()));
    CHECK(static_cast<long long>(xs.size()) == k);
    CHECK(footprint_of(w, "w") == static_cast<long>(words.size()));
    CHECK(footprint_of(w, "s") == static_cast<long>(scales.size()));
  }
}

TEST_CASE("tir scheduled: a scheduled strided convolution is still skipped as a convolution",
          "[tir][scheduled][conv]") {
  // data_shared[v_nn, v_yy * 2 + v_ry, ...]: staging and thread bindings do not hide the window.
  const tir::Recognition r = tir::find_matmuls(tir::read_module(tir_data("conv2d_scheduled.py")));
  CHECK(r.kernels.empty());
  REQUIRE(r.skipped.size() == 1);
  CHECK(r.skipped[0].reason.rfind("convolution: data_shared's index", 0) == 0);
  CHECK(r.skipped[0].reason.find("'v_yy'") != std::string::npos);
  CHECK(r.skipped[0].reason.find("'v_ry'") != std::string::npos);
}
