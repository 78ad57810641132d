// The three kinds of kernel issue 34 found missed (point 9): scheduled MoE GEMVs and group GEMMs
// whose expert weight is read through an index buffer, size names used in shapes without a
// declaration, zero points read in fused s-block kernels. Every row is derived by hand from the
// fixture's text; the MACs and, for the GEMVs, the DRAM bytes (every operand read once) too.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "input_error_of.hpp"
#include "tenet/error.hpp"
#include "tir/log_join.hpp"
#include "tir/relation.hpp"
#include "tir/tir_cases.hpp"
#include "tir/tir_data.hpp"

using namespace tenet;
using namespace tenet_test::tir_cases;
using json = nlohmann::json;
using tenet::test::error_of;
using tenet::test::run_cli;
using tenet_test::tir_data;

namespace {

// The JSON rows of `tenet tir --bind ARGS` over a fixture, by function name; nothing skipped.
std::map<std::string, json> rows(const std::string& file, const std::string& args) {
  const auto r = run_cli("tir --input " + tir_data(file) + " --bind " + args + " --format json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("skipped").empty());
  std::map<std::string, json> out;
  for (const json& k : j.at("kernels")) out[k.at("func").get<std::string>()] = k;
  return out;
}

std::int64_t macs(const tir::BoundKernel& b) {
  return b.shape.batch * b.shape.m * b.shape.n * b.shape.k;
}

}  // namespace

TEST_CASE("tir held-out kinds: scheduled MoE GEMVs and group GEMMs gather the expert weight",
          "[tir][scheduled][moe]") {
  // clang-format off
  const Case cases[] = {
      // Dlight-style rfactor: v_e (blockIdx.y) reaches w only through expert_ids[v_e]: 2 experts
      // run (batch) of 8; K = k0 32 × rf 16 × k2 8; words vk0 * 16 + vrf (512 for 4096: 8 per
      // word), scale vk0 * 4 + vrf // 4 (128: groups of 32), minus 7: q4f16_1.
      {"moe_scheduled.py", "fused_moe_dequantize_gemv_rf",
       {}, 2, 1, 14336, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("w", "uint32", 4, 8, "k").groups(32).minus(7), "q4f16_1", 8},
      // Lowered cross-thread reduction, one token row per expert (x[v_e, v_k]: batch 6, M 1),
      // K = 11 × 64 × 8 = 5632, scale groups of 128 (no preset: q4f16_1 groups by 32).
      {"moe_scheduled.py", "fused_moe_dequantize_gemv_cross_thread",
       {}, 6, 1, 2048, 5632, L::kNT, B::kWeight, "float16", "float16", {},
       packed("w", "uint32", 4, 8, "k").groups(128).minus(7), "", 64},
      // The enclosing gemv_o block's e, a local copy of the gathered weight, rfactor inside.
      {"moe_scheduled.py", "moe_dequantize_gemv_o_rf",
       {}, 4, 1, 2816, 2048, L::kNT, B::kWeight, "float16", "float16", {},
       packed("w", "uint32", 4, 8, "k").groups(32).minus(7), "q4f16_1", 60},
      // The expert through a let (`eid: T.int32 = expert_ids[0, v_e]`), fp16 weights.
      {"moe_scheduled.py", "moe_gemv_expert_let",
       {}, 4, 1, 1408, 2048, L::kNT, B::kWeight, "float16", "float16", {},
       {}, "q0f16", 16},
      // MLC-LLM's group GEMM: tiles of 8 × 128 at run-time offsets; M = B rows of X, N = 14336
      // of w, K = 4096; the expert e = cur_e[0]; fp32 accumulation, cast out.
      {"moe_scheduled.py", "dequantize_group_gemm",
       {{"B", 37}}, 1, 37, 14336, 4096, L::kNT, B::kWeight, "float32", "float16", {"cast"},
       packed("w", "uint32", 4, 8, "k").groups(32).minus(7), "", 8},
      {"moe_scheduled.py", "group_gemm",
       {{"B", 100}}, 1, 100, 2048, 1024, L::kNT, B::kWeight, "float16", "float16", {},
       {}, "q0f16", 4},
      // fp8 expert weights (MLC-LLM's dequantize_float8_gemv): stored as float8_e4m3fn with one
      // fp32 scale, or packed 4 per uint32 and reinterpreted; DeepSeek's 128 × 128 block scales.
      {"moe_scheduled.py", "moe_dequantize_gemv_fp8",
       {}, 6, 1, 1408, 2048, L::kNT, B::kWeight, "float16", "float16", {},
       packed("w", "float8_e4m3fn", 8, 1), "", 64},
      {"moe_scheduled.py", "moe_dequantize_gemv_fp8_packed",
       {}, 6, 1, 1408, 2048, L::kNT, B::kWeight, "float16", "float16", {},
       packed("w", "uint32", 8, 4, "k"), "", 64},
      {"moe_scheduled.py", "moe_block_scale_fp8",
       {}, 8, 1, 2048, 7168, L::kNT, B::kWeight, "bfloat16", "bfloat16", {},
       packed("w", "float8_e4m3fn", 8, 1).groups(128, "k", 128), "", 256},
      // The expert a scalar parameter (`expert: T.int32`, used in no shape): one expert's GEMV.
      {"moe_scheduled.py", "moe_gemv_scalar_expert",
       {}, 1, 1, 1408, 2048, L::kNT, B::kWeight, "float16", "float16", {}, {}, "q0f16", 8},
      // Thread extents by `T.launch_thread` (lets of the function, thread indices, not data):
      // v_e indexes o, x and w (through indptr): batch 2; M 1.
      {"moe_scheduled.py", "moe_gemv_launch_thread",
       {}, 2, 1, 512, 1024, L::kNT, B::kWeight, "float16", "float16", {}, {}, "q0f16", 16},
  };
  // clang-format on
  const std::vector<tir::BoundKernel> got = check_all(cases);
  CHECK(macs(got[0]) == 2LL * 14336 * 4096);
  CHECK(macs(got[4]) == 37LL * 14336 * 4096);
  CHECK(got[0].kernel.expert_index_buffer == "expert_ids");
  CHECK(got[1].kernel.expert_index_buffer == "indptr");
  CHECK(got[3].kernel.expert_index_buffer == "expert_ids");
  CHECK(got[4].kernel.expert_index_buffer == "cur_e");  // e: T.int32 = cur_e[0]
  CHECK(got[9].kernel.expert_index_buffer == "expert");
  CHECK(got[9].kernel.symbols.empty());  // a selector, not a size to bind
  CHECK_FALSE(got[0].kernel.runtime_tile);
  CHECK(got[4].kernel.runtime_tile);
  CHECK(got[5].kernel.runtime_tile);
  for (std::size_t i = 6; i < 9; ++i) {
    INFO(got[i].kernel.func);
    CHECK(got[i].quant->weights.dtype == quant::DataType::fp8_e4m3());
    CHECK(got[i].kernel.storage->value_dtype == "float8_e4m3fn");
  }
  REQUIRE(got[6].quant->weights.scales.size() == 1);
  CHECK(got[6].quant->weights.scales[0].granularity == quant::Granularity::kPerTensor);
  REQUIRE(got[8].quant->weights.scales.size() == 1);
  CHECK(got[8].quant->weights.scales[0].granularity == quant::Granularity::kBlock);
  CHECK(got[8].quant->weights.scales[0].block_n == 128);
  CHECK(got[8].quant->weights.scales[0].block_k == 128);
  bool noted = false;
  for (const std::string& a : got[4].kernel.approximations)
    noted = noted || a.find("one tile at a run-time offset") != std::string::npos;
  CHECK(noted);
  // The exact engine's relations would be one tile's: refused, naming the block.
  const tir::Module m = tir::read_module(tir_data("moe_scheduled.py"));
  const InputError e = error_of([&] { tir::kernel_workload(m, got[4]); });
  CHECK(e.code() == error_code::kUnknownName);
  CHECK_THAT(e.message(), Catch::Contains("compute_update"));

  // DRAM bytes of a GEMV (every operand read once, M = 1), by hand: per expert run, the packed
  // weight N·K/2, the fp16 scales N·K/32·2, x K·2 and the output row N·2.
  const auto r = rows("moe_scheduled.py", "B=37 --arch systolic-32x32");
  const json& rf = r.at("fused_moe_dequantize_gemv_rf");
  CHECK(rf["macs"] == 2LL * 14336 * 4096);
  CHECK(rf["experts"] == 8);
  CHECK(rf["dram_bytes"] == 2 * (14336LL * 4096 / 2 + 14336LL * 128 * 2 + 4096 * 2 + 14336 * 2));
  const json& o_rf = r.at("moe_dequantize_gemv_o_rf");
  CHECK(o_rf["dram_bytes"] == 4 * (2816LL * 2048 / 2 + 2816LL * 64 * 2 + 2048 * 2 + 2816 * 2));
  // The group GEMM: X (B × K) and O (B × N) once, one expert's weight and scales.
  const json& gg = r.at("group_gemm");
  CHECK(gg["M"] == 37);
  CHECK(gg["macs"] == 37LL * 2048 * 1024);
  CHECK(gg["dram_bytes"] == 2048LL * 1024 * 2 + 37 * 1024 * 2 + 37 * 2048 * 2);
  // fp8 experts: 1 byte a weight, one fp32 scale per expert run.
  CHECK(r.at("moe_dequantize_gemv_fp8")["dram_bytes"] ==
        6 * (1408LL * 2048 + 4 + 2048 * 2 + 1408 * 2));
  CHECK(r.at("moe_block_scale_fp8")["dram_bytes"] ==
        8 * (2048LL * 7168 + 16 * 56 * 4 + 7168 * 2 + 2048 * 2));
}

TEST_CASE("tir held-out kinds: undeclared size names are symbolic sizes --bind sets",
          "[tir][bind]") {
  const tir::Module m = tir::read_module(tir_data("undeclared_sizes.py"));
  CHECK(m.skipped.empty());
  const tir::PrimFunc* f = m.find_function("fused_NT_matmul_add_undeclared_n");
  REQUIRE(f);
  const tir::Symbol* n = f->find_symbol("n");
  REQUIRE(n);
  CHECK_FALSE(n->declared);
  CHECK(n->use == "the shape of buffer 'A' (line 10)");
  CHECK(n->line == 10);
  const tir::Symbol* declared = m.find_function("NT_matmul_var_declared")->find_symbol("n");
  REQUIRE(declared);  // n = T.var("int64"), the older spelling
  CHECK(declared->declared);
  CHECK(declared->dtype == "int64");
  // clang-format off
  const Case cases[] = {
      {"undeclared_sizes.py", "fused_NT_matmul_add_undeclared_n",
       {{"n", 37}}, 1, 37, 11008, 4096, L::kNT, B::kWeight, "float16", "float16", {"add"},
       {}, "q0f16"},
      {"undeclared_sizes.py", "fused_dequantize_NT_matmul_undeclared_seq_len",
       {{"seq_len", 9}}, 1, 9, 4096, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("lv1", "uint32", 4, 8, "k").groups(32).minus(7), "q4f16_1"},
      // M folds batch_size × seq_len (both undeclared, both only in shapes and the grid).
      {"undeclared_sizes.py", "matmul_batch_seq_undeclared_int32",
       {{"batch_size", 2}, {"seq_len", 5}}, 1, 10, 5632, 2048, L::kNN, B::kWeight, "float16",
       "float16", {}, {}, "q0f16"},
      // The KV cache's length: heads are the batch, K the activation (a symbolic extent).
      {"undeclared_sizes.py", "NT_matmul_kv_len_undeclared",
       {{"kv_len", 300}}, 32, 1, 300, 128, L::kNT, B::kActivation, "float32", "float32", {}},
      // Padded to (m + 31) // 32 * 32 in the staging; the parameter's own m is M.
      {"undeclared_sizes.py", "matmul_padded_undeclared_m",
       {{"m", 45}}, 1, 45, 512, 1024, L::kNN, B::kWeight, "float16", "float16", {},
       {}, "q0f16"},
      {"undeclared_sizes.py", "NT_matmul_var_declared",
       {{"n", 3}}, 1, 3, 256, 512, L::kNT, B::kWeight, "float32", "float32", {}, {}, "q0f32"},
  };
  // clang-format on
  const std::vector<tir::BoundKernel> got = check_all(cases);
  CHECK(macs(got[2]) == 10LL * 5632 * 2048);
  CHECK(got[0].kernel.undeclared ==
        std::map<std::string, std::string>{{"n", "the shape of buffer 'A' (line 10)"}});
  CHECK(got[5].kernel.undeclared.empty());
  // Unbound: the error names the kernel, the name and where it is used.
  const InputError e = error_of([&] { tir::bind(got[0].kernel, {}); });
  CHECK(e.code() == error_code::kMissingField);
  CHECK_THAT(e.message(), Catch::Contains("symbolic size 'n' of kernel "
                                          "fused_NT_matmul_add_undeclared_n (block NT_matmul"));
  CHECK_THAT(e.message(), Catch::Contains("'n' is not declared"));
  CHECK_THAT(e.message(), Catch::Contains("used in the shape of buffer 'A' (line 10)"));

  // The CLI: --bind accepts the names; without them, exit 2 naming kernel, name and use.
  const auto r = rows("undeclared_sizes.py",
                      "n=5,seq_len=7,batch_size=2,kv_len=33,m=45 --arch systolic-32x32");
  CHECK(r.at("fused_NT_matmul_add_undeclared_n")["symbols"] == json{{"n", 5}});
  CHECK(r.at("fused_NT_matmul_add_undeclared_n")["macs"] == 5LL * 11008 * 4096);
  const auto unbound = run_cli("tir --input " + tir_data("undeclared_sizes.py") +
                               " --func matmul_batch_seq_undeclared_int32 --bind batch_size=2");
  CHECK(unbound.exit_code == 2);
  CHECK_THAT(unbound.out, Catch::Contains("'seq_len' of kernel matmul_batch_seq_undeclared_int32"));
  CHECK_THAT(unbound.out, Catch::Contains("used in the shape of buffer 'a' (line 54)"));
  const auto unknown = run_cli("tir --input " + tir_data("undeclared_sizes.py") +
                               " --func NT_matmul_var_declared --bind m=3");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.out, Catch::Contains("'m' is not a symbolic size of NT_matmul_var_declared"));

  // A log's dynamic sizes bind them too: M = 37 solves n; M = batch_size × seq_len cannot be
  // solved, and the error says where the names are used.
  CHECK(tir::solve_symbols(got[0].kernel, got[0].shape) == tir::SymbolValues{{"n", 37}});
  const InputError two = error_of([&] { tir::solve_symbols(got[2].kernel, got[2].shape); });
  CHECK(two.code() == error_code::kMissingField);
  CHECK_THAT(two.message(), Catch::Contains("used in the shape of buffer 'a' (line 54)"));
  const std::string log = std::string(TENET_BINARY_DIR) + "/tir_undeclared_log.txt";
  std::ofstream(log) << "fused_NT_matmul_add_undeclared_n: 1, 37, 11008, 4096\n";
  const auto joined = run_cli("log --input " + log + " --tir " + tir_data("undeclared_sizes.py") +
                              " --format json");
  INFO(joined.out);
  REQUIRE(joined.exit_code == 0);
  const json j = json::parse(joined.out);
  CHECK(j["layers"][0]["M"] == 37);
  CHECK(j["layers"][0]["epilogue_ops"] == 1);
}

TEST_CASE("tir held-out kinds: zero points read in fused s-block kernels",
          "[tir][scheduled][quant]") {
  // clang-format off
  const Case cases[] = {
      // The dequantize inline in the matmul s-block: (q - zeros[n, k // 32]) * scales[n, k // 32].
      {"zero_points.py", "fused_dequantize_NT_matmul_inline_zeros",
       {}, 1, 1, 11008, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("B", "uint32", 4, 8, "k").groups(32).zeros("zeros", "original")},
      // GPTQ: int32 words along K, zeros packed 8 per int32 along N, `+ 1`, groups of 128.
      {"zero_points.py", "fused_dequantize_matmul_gptq_packed_zeros",
       {{"seq_len", 5}}, 1, 5, 4096, 4096, L::kNN, B::kWeight, "float16", "float16", {},
       packed("qweight", "int32", 4, 8, "k").groups(128).zeros("qzeros", "original")},
      // MLC-LLM's AWQ chain (weight and zeros unpacked with the reordered shift, transposed).
      {"zero_points.py", "fused_fused_dequantize_transpose_NT_matmul_awq",
       {}, 1, 1, 11008, 4096, L::kNN, B::kWeight, "float16", "float16", {},
       packed("qweight", "uint32", 4, 8, "n").groups(128).zeros("qzeros", "original"),
       "q4f16_autoawq"},
      // GPTQ with g_idx: group = K / 32 scale rows.
      {"zero_points.py", "fused_dequantize_matmul_gptq_g_idx",
       {}, 1, 1, 4096, 4096, L::kNN, B::kWeight, "float16", "float16", {},
       packed("qweight", "uint32", 4, 8, "k").groups(128).zeros("qzeros", "original")},
      // The zero unpacked first, `0 - z + q`: qzeros[n, k // 1024] is not the weight.
      {"zero_points.py", "fused_dequantize_NT_matmul_zeros_unpacked_first",
       {}, 1, 2, 4096, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("qweight", "uint32", 4, 8, "k").groups(128).zeros("qzeros", "original")},
      // Scales and zeros in one buffer: sz[n, k // 64, 1] subtracted, sz[n, k // 64, 0] scales.
      {"zero_points.py", "fused_dequantize_NT_matmul_scale_zero_one_buffer",
       {}, 1, 1, 4096, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("B", "uint32", 4, 8, "k").groups(64).zeros("sz", "original")},
      // The zero through a let of the matmul block; two 4-bit values per uint8.
      {"zero_points.py", "fused_dequantize_NT_matmul_zero_let",
       {}, 1, 3, 5632, 2048, L::kNT, B::kWeight, "float16", "float16", {},
       packed("B", "uint8", 4, 2, "k").groups(64).zeros("zeros", "original")},
      // Scheduled rfactor GEMV: local copies of the weight and of the zeros packed 8 groups per
      // word (qzeros_local[v0, vk0 // 4]); K = 16 × 32 × 8.
      {"zero_points.py", "fused_dequantize_NT_matmul_packed_zeros_rf",
       {}, 1, 1, 4096, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("qweight", "uint32", 4, 8, "k").groups(128).zeros("qzeros", "original")},
      // A zero point stored negated and added to the scaled value: q·s + z is a rescale zero.
      {"zero_points.py", "fused_dequantize_NT_matmul_zeros_added",
       {}, 1, 1, 4096, 4096, L::kNT, B::kWeight, "float16", "float16", {},
       packed("B", "uint32", 4, 8, "k").groups(128).zeros("neg_zeros", "rescale")},
  };
  // clang-format on
  const std::vector<tir::BoundKernel> got = check_all(cases);
  CHECK(got[8].quant->weights.scales[0].zero_mode == quant::ZeroMode::kRescale);
  // The auto scheme: uint4 weights with one zero per group (uint4 when stored as integers,
  // float16 when stored as float16).
  for (const tir::BoundKernel& b : got) {
    INFO(b.kernel.func);
    CHECK(b.quant->weights.dtype == quant::DataType::unsigned_int(4));
    REQUIRE(b.quant->weights.scales.size() == 1);
    REQUIRE(b.quant->weights.scales[0].zero.has_value());
  }
  CHECK(*got[0].quant->weights.scales[0].zero == quant::DataType::fp16());
  CHECK(*got[1].quant->weights.scales[0].zero == quant::DataType::unsigned_int(4));
  CHECK(got[3].kernel.storage->group_index_buffer == "g_idx");
  CHECK(got[5].kernel.storage->scale_buffer == "sz");

  // DRAM bytes of the GEMVs by hand: packed weight N·K/2, scales N·K/g·2, zeros N·K/g·2 (fp16)
  // or N·K/g/2 (uint4), x K·2 (per row of M), out N·2 (per row of M).
  const auto r = rows("zero_points.py", "seq_len=5");
  CHECK(r.at("fused_dequantize_NT_matmul_inline_zeros")["dram_bytes"] ==
        11008LL * 4096 / 2 + 11008LL * 128 * 2 * 2 + 4096 * 2 + 11008 * 2);
  CHECK(r.at("fused_fused_dequantize_transpose_NT_matmul_awq")["dram_bytes"] ==
        11008LL * 4096 / 2 + 32LL * 11008 * 2 + 32LL * 11008 / 2 + 4096 * 2 + 11008 * 2);
  CHECK(r.at("fused_dequantize_NT_matmul_packed_zeros_rf")["dram_bytes"] ==
        4096LL * 4096 / 2 + 4096LL * 32 * 2 + 4096LL * 32 / 2 + 4096 * 2 + 4096 * 2);
  CHECK(r.at("fused_dequantize_NT_matmul_scale_zero_one_buffer")["dram_bytes"] ==
        4096LL * 4096 / 2 + 4096LL * 64 * 2 * 2 + 4096 * 2 + 4096 * 2);
  CHECK(r.at("fused_dequantize_NT_matmul_zero_let")["macs"] == 3LL * 5632 * 2048);
}
