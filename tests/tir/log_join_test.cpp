// Log entries bound to their kernels (the library side of `tenet log --tir`).
#include "tir/log_join.hpp"

#include <catch2/catch.hpp>

#include "input_error_of.hpp"
#include "tir/relation.hpp"
#include "tir/tir_data.hpp"

using namespace tenet;
using tenet::test::error_of;

namespace {

using tenet_test::tir_data;

llm::MatmulShape logged(const std::string& kernel, std::int64_t batch, std::int64_t m,
                        std::int64_t n, std::int64_t k) {
  llm::MatmulShape s;
  s.name = kernel;
  s.batch = batch;
  s.m = m;
  s.n = n;
  s.k = k;
  s.count = 5;
  s.phase = llm::Phase::kDecode;
  s.layout = llm::Layout::kNN;  // as a log without NT in the name would say
  return s;
}

}  // namespace

TEST_CASE("tir log join: the logged extents bind the kernel's sizes", "[tir]") {
  const tir::Module m = tir::read_module(tir_data("attention.py"));
  const tir::MatmulKernel qk =
      tir::find_matmuls(m, "fused_NT_matmul_multiply_maximum").kernels.at(0);
  // batch 32 (1 × 32 heads), M = seq_len, N = kv_len.
  CHECK(tir::solve_symbols(qk, logged(qk.func, 32, 7, 300, 128)) ==
        tir::SymbolValues{{"seq_len", 7}, {"kv_len", 300}});
  const InputError wrong_k =
      error_of([&] { tir::solve_symbols(qk, logged(qk.func, 32, 7, 300, 64)); });
  CHECK(wrong_k.code() == error_code::kRange);
  CHECK_THAT(wrong_k.message(), Catch::Contains("logged batch, M, N, K = 32, 7, 300, 64"));
  const InputError wrong_batch =
      error_of([&] { tir::solve_symbols(qk, logged(qk.func, 3, 7, 300, 128)); });
  CHECK(wrong_batch.code() == error_code::kRange);
}

TEST_CASE("tir log join: an extent that is not symbol × constants cannot be solved", "[tir]") {
  const std::string text = R"(@T.prim_func
def padded(p_a: T.handle, B: T.Buffer((8, 8), "float16"), p_c: T.handle):
    n = T.int64()
    A = T.match_buffer(p_a, ((n + 1) // 2 * 2, 8), "float16")
    C = T.match_buffer(p_c, ((n + 1) // 2 * 2, 8), "float16")
    for i, j, k in T.grid((n + 1) // 2 * 2, 8, 8):
        with T.block("mm"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vj, vk]
)";
  const tir::Module m = tir::parse_module(text, "padded.py");
  const tir::MatmulKernel k = tir::find_matmuls(m).kernels.at(0);
  CHECK(tir::bind(k, {{"n", 5}}).shape.m == 6);
  const InputError e = error_of([&] { tir::solve_symbols(k, logged("padded", 1, 6, 8, 8)); });
  CHECK(e.code() == error_code::kMissingField);
  CHECK_THAT(e.message(), Catch::Contains("'n'"));
}

TEST_CASE("tir log join: entries take their kernel's structure", "[tir]") {
  const tir::Module m = tir::read_module(tir_data("gpt2_phase3.py"));
  const std::vector<llm::MatmulShape> entries = {
      logged("fused_fused_dequantize1_fused_NT_matmul6_add7_add8", 1, 37, 1024, 1024),
      logged("fused_dequantize_NT_matmul", 1, 1, 3072, 1024),
      logged("not_in_the_dump", 1, 2, 3, 4)};
  const tir::LogJoin j = tir::join_log(entries, m);
  REQUIRE(j.shapes.size() == 3);
  const llm::MatmulShape& seed = j.shapes[0];
  CHECK(seed.name == entries[0].name);
  CHECK(seed.count == 5);
  CHECK(seed.phase == llm::Phase::kDecode);
  CHECK(seed.m == 37);
  CHECK(seed.layout == llm::Layout::kNT);
  CHECK(seed.epilogue_ops == 2);
  CHECK(seed.weights_quantized == true);
  CHECK(seed.quant == "q4f16_1");
  CHECK(seed.dtypes.w == "uint32");
  CHECK(j.shapes[1].epilogue_ops == 0);
  CHECK(j.shapes[2] == entries[2]);
  REQUIRE(j.warnings.size() == 1);
  CHECK_THAT(j.warnings[0], Catch::Contains("not_in_the_dump has no recognised matmul"));
  // A logged scheme is kept.
  std::vector<llm::MatmulShape> named = {entries[0]};
  named[0].quant = "q4f16_0";
  CHECK(tir::join_log(named, m).shapes[0].quant == "q4f16_0");
}

TEST_CASE("tir: block relations derived when T.reads / T.writes are absent", "[tir]") {
  const tir::Module m = tir::read_module(tir_data("variants.py"));
  const tir::PrimFunc& f = *m.find_function("matmul_black");
  const tir::BlockRelations r = tir::block_relations(f, f.blocks.at(0));
  REQUIRE(r.accesses.size() == 4);  // C, A, B read by the update; C written
  CHECK(r.accesses[0].buffer == "C");
  CHECK(r.accesses[1].buffer == "A");
  CHECK(r.accesses[2].buffer == "B");
  CHECK(r.accesses[3].kind == workload::AccessKind::kWrite);
  CHECK(r.domain.rfind("[n, m] -> ", 0) == 0);
}

TEST_CASE("tir: several matmuls in one function, an empty file, a Relax-only file", "[tir]") {
  const std::string two = R"(@T.prim_func
def two(A: T.Buffer((4, 8), "float16"), B: T.Buffer((8, 6), "float16"), D: T.Buffer((6, 5), "float16"), E: T.Buffer((4, 5), "float16")):
    C = T.alloc_buffer((4, 6), "float16")
    for i, j, k in T.grid(4, 6, 8):
        with T.block("first"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    for i, j, k in T.grid(4, 5, 6):
        with T.block("second"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            E[vi, vj] = E[vi, vj] + C[vi, vk] * D[vk, vj]
)";
  const tir::Recognition r = tir::find_matmuls(tir::parse_module(two, "two.py"));
  REQUIRE(r.kernels.size() == 2);
  CHECK(r.kernels[0].block == "first");
  CHECK(r.kernels[1].block == "second");
  CHECK(r.kernels[1].a_buffer == "C");
  CHECK(tir::bind(r.kernels[1], {}).shape.k == 6);
  const tir::Module empty = tir::parse_module("", "empty.py");
  CHECK(empty.functions.empty());
  CHECK(tir::find_matmuls(empty).kernels.empty());
  const tir::Module relax = tir::parse_module(
      "@R.function\ndef main(x: R.Tensor((\"n\", 4), dtype=\"float16\")):\n    with R.dataflow():\n"
      "        gv = R.add(x, x)\n        R.output(gv)\n    return gv\n",
      "relax.py");
  CHECK(relax.relax_functions == 1);
  CHECK(relax.functions.empty());
}
