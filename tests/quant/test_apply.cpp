#include <catch2/catch.hpp>
#include <random>

#include "brute_force.hpp"
#include "tenet/error.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/poly/context.hpp"
#include "tenet/poly/count.hpp"
#include "tenet/quant/apply.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using namespace tenet::quant;
using namespace tenet::quant::test;
using workload::OperandRole;

namespace {

ScaleLevel level_of(Granularity g, long long group = 0, long long bn = 0, long long bk = 0) {
  ScaleLevel l;
  l.granularity = g;
  l.group_size = group;
  l.block_n = bn;
  l.block_k = bk;
  l.dtype = DataType::fp16();
  return l;
}

// A spec with one scale level on one operand.
QuantSpec spec_with(OperandRole kind, const ScaleLevel& level) {
  QuantSpec spec;
  spec.name = "t";
  OperandSpec op;
  op.dtype = DataType::signed_int(8);
  op.scales = {level};
  if (kind == OperandRole::kActivation) spec.activations = op;
  if (kind == OperandRole::kWeight) spec.weights = op;
  if (kind == OperandRole::kOutput) spec.output = op;
  if (kind == OperandRole::kKvCache) spec.kv_cache = op;
  validate(spec);
  return spec;
}

const workload::Access& access_named(const workload::Workload& w, const std::string& id) {
  for (const auto& a : w.accesses())
    if (a.tensor == id) return a;
  FAIL("no access " << id);
  throw;
}

poly::Integer unique_of(const workload::Workload& w, const workload::Access& a) {
  return poly::count(a.relation.intersect_domain(w.domain()).range());
}

poly::Integer total_of(const workload::Workload& w, const workload::Access& a) {
  return poly::count(a.relation.intersect_domain(w.domain()));
}

poly::Integer output_pairs_of(const workload::Workload& w, const workload::Access& a) {
  const auto& c = access_named(w, "C");
  return poly::count(c.relation.range_product(a.relation).intersect_domain(w.domain()).range());
}

// Closed forms of docs/quantization.md.
long long expected_count(const Shape& s, OperandRole kind, const ScaleLevel& l,
                         const ApplyOptions& o) {
  const bool kv_token_n = o.kv_token_axis == KvTokenAxis::kN;
  const long long rows = kind == OperandRole::kActivation ? s.m
                         : kind == OperandRole::kKvCache  ? (kv_token_n ? s.n : s.k)
                                                          : s.n;
  const long long columns = kind == OperandRole::kKvCache && !kv_token_n ? s.n : s.k;
  switch (l.granularity) {
    case Granularity::kPerTensor:
      return 1;
    case Granularity::kPerChannel:
      return kind == OperandRole::kKvCache ? columns : s.n;
    case Granularity::kPerToken:
      return kind == OperandRole::kKvCache ? rows : s.m;
    case Granularity::kPerInputChannel:
      return s.k;
    case Granularity::kGroup:
      return rows * ceil_div(columns, l.group_size);
    case Granularity::kBlock:
      return ceil_div(s.n, l.block_n) * ceil_div(s.k, l.block_k);
  }
  return -1;
}

struct Case {
  OperandRole kind;
  ScaleLevel level;
  ApplyOptions options;
};

std::vector<Case> random_cases(std::mt19937& rng) {
  std::uniform_int_distribution<long long> g(1, 7), b(1, 5);
  ApplyOptions kv_n, kv_k;
  kv_n.b = kv_k.b = OperandRole::kKvCache;
  kv_k.kv_token_axis = KvTokenAxis::kK;
  using G = Granularity;
  using K = OperandRole;
  return {
      {K::kActivation, level_of(G::kPerTensor), {}},
      {K::kActivation, level_of(G::kPerToken), {}},
      {K::kActivation, level_of(G::kPerInputChannel), {}},
      {K::kActivation, level_of(G::kGroup, g(rng)), {}},
      {K::kWeight, level_of(G::kPerTensor), {}},
      {K::kWeight, level_of(G::kPerChannel), {}},
      {K::kWeight, level_of(G::kGroup, g(rng)), {}},
      {K::kWeight, level_of(G::kBlock, 0, b(rng), b(rng)), {}},
      {K::kOutput, level_of(G::kPerTensor), {}},
      {K::kOutput, level_of(G::kPerChannel), {}},
      {K::kOutput, level_of(G::kPerToken), {}},
      {K::kKvCache, level_of(G::kPerToken), kv_n},
      {K::kKvCache, level_of(G::kPerToken), kv_k},
      {K::kKvCache, level_of(G::kPerChannel), kv_n},
      {K::kKvCache, level_of(G::kPerChannel), kv_k},
      {K::kKvCache, level_of(G::kGroup, g(rng)), kv_n},
      {K::kKvCache, level_of(G::kGroup, g(rng)), kv_k},
      {K::kKvCache, level_of(G::kPerTensor), kv_k},
  };
}

std::string operand_tensor(OperandRole kind) {
  return kind == OperandRole::kActivation ? "A" : kind == OperandRole::kOutput ? "C" : "B";
}

}  // namespace

TEST_CASE("apply: bits and the scale relations of q4f16_1", "[quant][apply]") {
  const auto gemm = mapping::make_gemm_workload({4, 6, 70});
  const auto w = apply(gemm, load_preset("q4f16_1"));
  CHECK(access_named(w, "A").bits == 16);
  CHECK(access_named(w, "B").bits == 4);
  CHECK(access_named(w, "C").bits == 16);
  const auto& s = access_named(w, "B_scale");
  CHECK(s.role == OperandRole::kScale);
  CHECK(s.kind == workload::AccessKind::kRead);
  CHECK(s.bits == 16);
  CHECK(report_name(s) == "B.scale");
  const isl::map expected(poly::thread_context().get(), "{ S[i,j,k] -> B_scale[j, floor(k/32)] }");
  CHECK(s.relation.is_equal(expected));
  CHECK(w.accesses().size() == 4);
  CHECK(unique_of(w, s) == 6 * 3);  // N·⌈70/32⌉
}

TEST_CASE("apply: zero tensors, second levels and report names", "[quant][apply]") {
  const auto gemm = mapping::make_gemm_workload({3, 5, 256});
  const auto awq = apply(gemm, load_preset("awq_w4a16_g128"));
  const auto& z = access_named(awq, "B_zero");
  CHECK(z.role == OperandRole::kZero);
  CHECK(z.bits == 4);
  CHECK(report_name(z) == "B.zero");
  const auto w4a8 = apply(gemm, load_preset("w4a8"));
  CHECK(report_name(access_named(w4a8, "B_scale2")) == "B.scale2");
  CHECK(report_name(access_named(w4a8, "A_scale")) == "A.scale");
  CHECK(access_named(w4a8, "A").bits == 8);
  CHECK(unique_of(w4a8, access_named(w4a8, "B_scale2")) == 5);
  CHECK(unique_of(w4a8, access_named(w4a8, "A_scale")) == 3);
  // Non-scale tensors keep their id as report name, even when it looks like one.
  workload::Access other{"X_scale", workload::AccessKind::kRead, {}, 16, OperandRole::kOther};
  CHECK(report_name(other) == "X_scale");
  CHECK(scale_tensor_id("W", 2) == "W_scale3");
  CHECK(zero_tensor_id("W", 0) == "W_zero");
}

TEST_CASE("apply: scale volumes equal brute-force enumeration for every granularity",
          "[quant][apply][brute]") {
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<long long> size(1, 9);
  for (int trial = 0; trial < 12; ++trial) {
    const Shape s{size(rng), size(rng), size(rng)};
    const auto gemm = mapping::make_gemm_workload({s.m, s.n, s.k});
    for (const Case& c : random_cases(rng)) {
      INFO("M=" << s.m << " N=" << s.n << " K=" << s.k << " operand " << to_string(c.kind) << " "
                << to_string(c.level.granularity) << " g=" << c.level.group_size << " block "
                << c.level.block_n << "x" << c.level.block_k << " kv token axis "
                << (c.options.kv_token_axis == KvTokenAxis::kN ? "n" : "k"));
      const auto w = apply(gemm, spec_with(c.kind, c.level), c.options);
      const auto& a = access_named(w, operand_tensor(c.kind) + "_scale");
      const ScaleVolumes brute = brute_scale(s, c.kind, c.level, c.options);
      CHECK(unique_of(w, a) == static_cast<long>(brute.unique.size()));
      CHECK(unique_of(w, a) == static_cast<long>(expected_count(s, c.kind, c.level, c.options)));
      CHECK(total_of(w, a) == static_cast<long>(brute.total));
      CHECK(output_pairs_of(w, a) == static_cast<long>(brute.output_pairs.size()));
    }
  }
}

TEST_CASE("apply: B stored as B[j, k] (NK layout)", "[quant][apply]") {
  auto ctx = poly::thread_context().get();
  const isl::set domain(ctx, "{ S[i,j,k] : 0 <= i < 2 and 0 <= j < 7 and 0 <= k < 45 }");
  using workload::AccessKind;
  const workload::Workload gemm(
      "nt", domain,
      {{"A", AccessKind::kRead, isl::map(ctx, "{ S[i,j,k] -> A[i,k] }"), 16,
        OperandRole::kActivation},
       {"W", AccessKind::kRead, isl::map(ctx, "{ S[i,j,k] -> W[j,k] }"), 16, OperandRole::kWeight},
       {"Y", AccessKind::kWrite, isl::map(ctx, "{ S[i,j,k] -> Y[i,j] }"), 16,
        OperandRole::kOutput}});
  ApplyOptions o;
  o.b_layout = workload::Layout::kNT;
  const auto w = apply(gemm, load_preset("q4f16_1"), o);
  const auto& s = access_named(w, "W_scale");
  CHECK(s.relation.is_equal(isl::map(ctx, "{ S[i,j,k] -> W_scale[j, floor(k/32)] }")));
  CHECK(report_name(s) == "W.scale");
  CHECK(unique_of(w, s) == 7 * 2);
}

TEST_CASE("apply: errors", "[quant][apply][errors]") {
  auto ctx = poly::thread_context().get();
  using workload::AccessKind;
  const isl::set domain(ctx, "{ S[i,k] : 0 <= i < 4 and 0 <= k < 4 }");
  const workload::Workload no_weights(
      "w", domain,
      {{"A", AccessKind::kRead, isl::map(ctx, "{ S[i,k] -> A[i,k] }"), 16,
        OperandRole::kActivation}});
  try {
    apply(no_weights, load_preset("q4f16_1"));
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kUsage);
  }
  CHECK_NOTHROW(apply(no_weights, load_preset("q0f16")));  // nothing to quantize there
  const workload::Workload three_d(
      "w", domain,
      {{"B", AccessKind::kRead, isl::map(ctx, "{ S[i,k] -> B[i,k,0] }"), 16,
        OperandRole::kWeight}});
  try {
    apply(three_d, load_preset("q4f16_1"));
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kSpace);
  }
  ApplyOptions kv;
  kv.b = OperandRole::kKvCache;
  try {
    apply(mapping::make_gemm_workload({2, 2, 2}), load_preset("q4f16_1"), kv);
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kMissingField);
    CHECK(e.where() == "/kv_cache");
  }
}
