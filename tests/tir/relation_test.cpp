// Blocks as relations: imported domains and accesses checked against brute-force enumeration,
// and the TENET metrics of imported GEMMs against the generated GEMM workload.
#include "tir/relation.hpp"

#include <fmt/core.h>

#include <catch2/catch.hpp>
#include <random>
#include <set>

#include "poly/parse.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/poly/count.hpp"
#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"
#include "tir/tir_data.hpp"

using namespace tenet;

namespace {

using tenet_test::tir_data;

isl::map map_of(const std::string& text) { return poly::parse_map(text, {"test", ""}); }

const workload::Access& access(const workload::Workload& w, const std::string& tensor) {
  for (const workload::Access& a : w.accesses())
    if (a.tensor == tensor) return a;
  FAIL("no access to " << tensor);
  throw std::logic_error("unreachable");
}

// Distinct elements of a tensor the workload touches, counted by the exact engine.
poly::Integer footprint(const workload::Workload& w, const std::string& tensor) {
  return poly::count(access(w, tensor).relation.intersect_domain(w.domain()).range());
}

// A dequantize + matmul kernel in MLC's phase-3 style with the given sizes: weights packed
// `per_word` values of `bits` bits in a uint32, groups of `group` along K, NT ([n, k // p]) or
// NN ([k // p, n]) storage.
std::string dequant_kernel(long long m, long long n, long long k, int bits, int per_word,
                           long long group, bool nt) {
  const long long words = k / per_word, groups = k / group;
  const std::string storage =
      nt ? fmt::format("({}, {})", n, words) : fmt::format("({}, {})", words, n);
  const std::string scale =
      nt ? fmt::format("({}, {})", n, groups) : fmt::format("({}, {})", groups, n);
  const std::string w_index =
      nt ? fmt::format("v_n, v_k // {}", per_word) : fmt::format("v_k // {}, v_n", per_word);
  const std::string s_index =
      nt ? fmt::format("v_n, v_k // {}", group) : fmt::format("v_k // {}, v_n", group);
  const std::string decoded = nt ? fmt::format("({}, {})", n, k) : fmt::format("({}, {})", k, n);
  const std::string d_index = nt ? "v_j, v_r" : "v_r, v_j";
  const std::string d_loop = nt ? fmt::format("for n, k in T.grid({}, {}):", n, k)
                                : fmt::format("for k, n in T.grid({}, {}):", k, n);
  const std::string d_vars =
      nt ? "v_n, v_k = T.axis.remap(\"SS\", [n, k])" : "v_k, v_n = T.axis.remap(\"SS\", [k, n])";
  const std::string d_store = nt ? "w[v_n, v_k]" : "w[v_k, v_n]";
  return fmt::format(R"(@T.prim_func
def kernel(q: T.Buffer({storage}, "uint32"), s: T.Buffer({scale}, "float16"), p_x: T.handle, y: T.Buffer((T.int64({m}), {n}), "float16")):
    seq = T.int64()
    x = T.match_buffer(p_x, (seq, {k}), "float16")
    w = T.alloc_buffer({decoded}, "float16")
    {d_loop}
        with T.block("dequantize"):
            {d_vars}
            {d_store} = (T.Cast("float16", T.bitwise_and(T.shift_right(q[{w_index}], T.Cast("uint32", v_k % {p} * {bits})), T.uint32({mask}))) - T.float16({offset})) * s[{s_index}]
    for i, j, r in T.grid(seq, {n}, {k}):
        with T.block("matmul"):
            v_i, v_j, v_r = T.axis.remap("SSR", [i, j, r])
            with T.init():
                y[v_i, v_j] = T.float16(0)
            y[v_i, v_j] = y[v_i, v_j] + x[v_i, v_r] * w[{d_index}]
)",
                     fmt::arg("storage", storage), fmt::arg("scale", scale), fmt::arg("m", m),
                     fmt::arg("n", n), fmt::arg("k", k), fmt::arg("decoded", decoded),
                     fmt::arg("d_loop", d_loop), fmt::arg("d_vars", d_vars),
                     fmt::arg("d_store", d_store), fmt::arg("w_index", w_index),
                     fmt::arg("p", per_word), fmt::arg("bits", bits),
                     fmt::arg("mask", (1 << bits) - 1), fmt::arg("offset", (1 << (bits - 1)) - 1),
                     fmt::arg("s_index", s_index), fmt::arg("d_index", d_index));
}

}  // namespace

TEST_CASE("tir relations: the seed's blocks", "[tir]") {
  const tir::Module m = tir::read_module(tir_data("gpt2_phase3.py"));
  const tir::PrimFunc& f = *m.find_function("fused_fused_dequantize1_fused_NT_matmul6_add7_add8");
  const tir::BlockRelations compute = tir::block_relations(f, f.blocks.at(0));
  CHECK(map_of(compute.accesses.at(0).relation)
            .is_equal(map_of("[seq_len] -> { S[a, b] -> lv397[a, floor(b/8)] }")));
  CHECK(poly::parse_set(compute.domain, {})
            .is_equal(
                poly::parse_set("[seq_len] -> { S[a, b] : 0 <= a < 1024 and 0 <= b < 1024 }", {})));
  const tir::BlockRelations matmul = tir::block_relations(f, f.blocks.at(2));
  CHECK(poly::parse_set(matmul.domain, {})
            .is_equal(poly::parse_set("[seq_len] -> { S[a, b, c, d] : a = 0 and 0 <= b < seq_len "
                                      "and 0 <= c < 1024 and 0 <= d < 1024 }",
                                      {})));
  REQUIRE(matmul.accesses.size() == 3);  // two T.reads, one T.writes
  CHECK(matmul.accesses[2].kind == workload::AccessKind::kWrite);
  CHECK_FALSE(matmul.accesses[0].approximated);
  // Bound: the parameter disappears.
  const tir::SymbolValues v{{"seq_len", 5}};
  CHECK(poly::count(poly::parse_set(tir::block_relations(f, f.blocks.at(2), &v).domain, {})) ==
        5 * 1024 * 1024);
}

TEST_CASE("tir relations: the seed's kernel as a workload through the exact engine", "[tir]") {
  const tir::Module m = tir::read_module(tir_data("gpt2_phase3.py"));
  const tir::MatmulKernel k =
      tir::find_matmuls(m, "fused_fused_dequantize1_fused_NT_matmul6_add7_add8").kernels.at(0);
  const tir::KernelWorkload kw = tir::kernel_workload(m, tir::bind(k, {{"seq_len", 3}}));
  const workload::Workload& w = kw.workload;
  CHECK(kw.approximations.empty());
  CHECK(poly::count(w.domain()) == 3 * 1024 * 1024);
  REQUIRE(w.accesses().size() == 4);
  CHECK(access(w, "lv397").role == workload::OperandRole::kWeight);
  CHECK(access(w, "lv397").bits == 32);
  CHECK(access(w, "lv398").role == workload::OperandRole::kScale);
  CHECK(access(w, "reshape195").role == workload::OperandRole::kActivation);
  CHECK(access(w, "NT_matmul_intermediate").kind == workload::AccessKind::kWrite);
  // The packed storage access w[n, k // 8] and the group scale s[n, k // 32] composed through
  // the producer blocks: N·K/8 words and N·K/32 scales.
  CHECK(footprint(w, "lv397") == 1024 * 128);
  CHECK(footprint(w, "lv398") == 1024 * 32);
  CHECK(footprint(w, "reshape195") == 3 * 1024);
  CHECK(access(w, "lv397").relation.is_equal(map_of("{ S[a, b, c, d] -> lv397[c, floor(d/8)] }")));
  // Without tracing, B is the dequantized buffer.
  const tir::KernelWorkload plain = tir::kernel_workload(m, tir::bind(k, {{"seq_len", 3}}), false);
  CHECK(footprint(plain.workload, "dequantize_intermediate_intermediate") == 1024 * 1024);
}

TEST_CASE("tir relations: packed and grouped accesses equal brute-force enumeration", "[tir]") {
  std::mt19937 rng(11);
  struct Packing {
    int bits, per_word;
  };
  const std::vector<Packing> packings = {{4, 8}, {3, 10}, {2, 16}, {8, 4}};
  for (int trial = 0; trial < 24; ++trial) {
    const Packing p = packings[trial % packings.size()];
    const long long group = p.per_word * (1 + rng() % 3);
    const long long k = group * (1 + rng() % 4);
    const long long n = 1 + rng() % 7;
    const long long m = 1 + rng() % 5;
    const bool nt = rng() % 2 == 0;
    INFO("m=" << m << " n=" << n << " k=" << k << " bits=" << p.bits << " group=" << group
              << " nt=" << nt);
    const tir::Module mod =
        tir::parse_module(dequant_kernel(m, n, k, p.bits, p.per_word, group, nt), "gen.py");
    const tir::Recognition r = tir::find_matmuls(mod);
    REQUIRE(r.kernels.size() == 1);
    const tir::BoundKernel b = tir::bind(r.kernels[0], {{"seq", m}});
    CHECK(b.shape.m == m);
    CHECK(b.shape.n == n);
    CHECK(b.shape.k == k);
    CHECK(b.shape.layout == (nt ? llm::Layout::kNT : llm::Layout::kNN));
    REQUIRE(b.kernel.storage);
    CHECK(b.kernel.storage->bits == p.bits);
    CHECK(b.kernel.storage->elems_per_word == p.per_word);
    CHECK(b.kernel.storage->group_size == group);
    const workload::Workload w = tir::kernel_workload(mod, b).workload;
    // Brute force: every (i, j, r) instance, the words and scales it reads.
    std::set<std::pair<long long, long long>> words, scales, pairs_q;
    long long instances = 0;
    for (long long i = 0; i < m; ++i)
      for (long long j = 0; j < n; ++j)
        for (long long r2 = 0; r2 < k; ++r2) {
          ++instances;
          words.insert(nt ? std::make_pair(j, r2 / p.per_word)
                          : std::make_pair(r2 / p.per_word, j));
          scales.insert(nt ? std::make_pair(j, r2 / group) : std::make_pair(r2 / group, j));
        }
    CHECK(poly::count(w.domain()) == static_cast<long>(instances));
    CHECK(footprint(w, "q") == static_cast<long>(words.size()));
    CHECK(footprint(w, "s") == static_cast<long>(scales.size()));
    CHECK(poly::count(access(w, "q").relation.intersect_domain(w.domain())) ==
          static_cast<long>(instances));
  }
}

TEST_CASE("tir relations: an indirect index is a flagged over-approximation", "[tir]") {
  const tir::Module m = tir::read_module(tir_data("quant.py"));
  const tir::MatmulKernel k = tir::find_matmuls(m, "fused_dequantize_matmul_g_idx").kernels.at(0);
  const tir::KernelWorkload kw = tir::kernel_workload(m, tir::bind(k, {}));
  REQUIRE(kw.approximations.size() == 1);
  CHECK_THAT(kw.approximations[0], Catch::Contains("g_idx[v_k]"));
  // scales[g_idx[k], n]: every row may be read — the whole (8, 256) buffer.
  CHECK(footprint(kw.workload, "scales") == 8 * 256);
  CHECK(footprint(kw.workload, "g_idx") == 1024);
}

TEST_CASE("tir relations: TENET metrics of imported GEMMs equal the generated GEMM's", "[tir]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 12; ++trial) {
    const long long m = 1 + rng() % 9, n = 1 + rng() % 9, k = 1 + rng() % 9;
    const bool nt = trial % 2 == 0;
    const auto df = static_cast<mapping::Dataflow>(trial % 3);
    const long long rows = 2 + rng() % 3, cols = 2 + rng() % 3;
    INFO(m << "x" << n << "x" << k << " nt=" << nt << " dataflow=" << mapping::to_string(df)
           << " array " << rows << "x" << cols);
    const std::string b_shape = nt ? fmt::format("({}, {})", n, k) : fmt::format("({}, {})", k, n);
    const std::string text =
        fmt::format(R"(@T.prim_func
def gemm(A: T.Buffer(({m}, {k}), "float16"), B: T.Buffer({b_shape}, "float16"), C: T.Buffer(({m}, {n}), "float16")):
    for i, j, k in T.grid({m}, {n}, {k}):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float16(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[{b_index}]
)",
                    fmt::arg("m", m), fmt::arg("n", n), fmt::arg("k", k),
                    fmt::arg("b_shape", b_shape), fmt::arg("b_index", nt ? "vj, vk" : "vk, vj"));
    const tir::Module mod = tir::parse_module(text, "gemm.py");
    const tir::BoundKernel b = tir::bind(tir::find_matmuls(mod).kernels.at(0), {});
    const workload::Workload imported = tir::kernel_workload(mod, b).workload;
    const workload::Workload generated = mapping::make_gemm_workload({m, n, k});
    const arch::Architecture arch = mapping::make_systolic_array(rows, cols);
    const mapping::Mapping mapping = mapping::make_systolic_mapping(df, rows, cols);
    const analysis::Report x = analysis::analyze(imported, arch, mapping);
    const analysis::Report y = analysis::analyze(generated, arch, mapping);
    CHECK(x.macs == y.macs);
    CHECK(x.time_stamps == y.time_stamps);
    CHECK(x.active_pes == y.active_pes);
    CHECK(x.avg_active_pes == y.avg_active_pes);
    CHECK(x.delay == y.delay);
    CHECK(x.energy == y.energy);
    CHECK(x.multiplicity == y.multiplicity);
    REQUIRE(x.tensors.size() == y.tensors.size());
    for (std::size_t t = 0; t < x.tensors.size(); ++t) {
      analysis::TensorMetrics renamed = x.tensors[t];
      renamed.name = y.tensors[t].name;  // A, B, C: the same operands under TIR's names
      CHECK(renamed == y.tensors[t]);
    }
  }
}

TEST_CASE("tir relations: a dequantize kernel's packed accesses through analysis::analyze",
          "[tir]") {
  // 5 × 6 × 32, int4 in uint32, groups of 16: the traced workload reads q[j, floor(r/8)] and
  // s[j, floor(r/16)] instead of the dequantized B.
  const tir::Module mod = tir::parse_module(dequant_kernel(5, 6, 32, 4, 8, 16, true), "gen.py");
  const tir::BoundKernel b = tir::bind(tir::find_matmuls(mod).kernels.at(0), {{"seq", 5}});
  const workload::Workload w = tir::kernel_workload(mod, b).workload;
  const analysis::Report r =
      analysis::analyze(w, mapping::make_systolic_array(4, 4),
                        mapping::make_systolic_mapping(mapping::Dataflow::kOutputStationary, 4, 4));
  CHECK(r.macs == 5 * 6 * 32);
  REQUIRE(r.tensors.size() == 4);
  CHECK(r.tensors[1].name == "q");
  CHECK(r.tensors[1].bits == 32);
  CHECK(r.tensors[1].role == workload::OperandRole::kWeight);
  CHECK(r.tensors[1].total_volume == 5 * 6 * 32);  // one word per instance
  CHECK(r.tensors[2].name == "s");
  CHECK(r.tensors[2].role == workload::OperandRole::kScale);
  // Every distinct word / scale is fetched at least once: unique ≥ footprint.
  CHECK(r.tensors[1].unique_volume >= 6 * 4);
  CHECK(r.tensors[2].unique_volume >= 6 * 2);
}
