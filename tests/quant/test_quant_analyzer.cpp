// QuantAnalyzer: the quantization set algebra built once on the parametric GEMM [M, N, K] and
// counted per size must give exactly what analyze_quant gives on the concrete workload, and
// both must agree with plain loops.
#include <catch2/catch.hpp>
#include <random>

#include "brute_force.hpp"
#include "input_error_of.hpp"
#include "layer_request.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/quant/quant_costs.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using namespace tenet::quant;
using namespace tenet::quant::test;

namespace {

poly::ParameterValues values_of(const Shape& s) { return {{"M", s.m}, {"N", s.n}, {"K", s.k}}; }

// The GEMM with B's access relation in the layout the apply options declare: B[k, j] (kKN, as
// the generator makes it) or B[j, k] (kNK). Parametric without a shape.
workload::Workload gemm(workload::Layout layout, const Shape* shape = nullptr) {
  const workload::Workload w = shape ? mapping::make_gemm_workload({shape->m, shape->n, shape->k})
                                     : mapping::make_parametric_gemm_workload();
  if (layout == workload::Layout::kNN) return w;
  std::vector<workload::Access> accesses = w.accesses();
  for (auto& a : accesses)
    if (a.tensor == "B") a.relation = isl::map(a.relation.ctx(), "{ S[i,j,k] -> B[j,k] }");
  return workload::Workload(w.name() + " (B as N x K)", w.domain(), accesses);
}

void require_same(const QuantCosts& got, const QuantCosts& want) {
  REQUIRE(got.tensors.size() == want.tensors.size());
  for (std::size_t i = 0; i < want.tensors.size(); ++i) {
    INFO("tensor " << want.tensors[i].name);
    CHECK(got.tensors[i] == want.tensors[i]);
  }
  CHECK(got.macs == want.macs);
  CHECK(got.mac == want.mac);
  CHECK(got.mac_energy_pj == want.mac_energy_pj);
  CHECK(got.weight_storage_bits == want.weight_storage_bits);
  CHECK(got.weight_bytes == want.weight_bytes);
  CHECK(got.effective_bits_per_weight == want.effective_bits_per_weight);
  CHECK(got.ops.dequant_elements == want.ops.dequant_elements);
  CHECK(got.ops.dequant_ops_per_element == want.ops.dequant_ops_per_element);
  CHECK(got.ops.dequant == want.ops.dequant);
  CHECK(got.ops.epilogue == want.ops.epilogue);
  CHECK(got.ops.rescale == want.ops.rescale);
  CHECK(got.ops.zero_sums == want.ops.zero_sums);
  CHECK(got.ops.activation_quant == want.ops.activation_quant);
  CHECK(got.ops.output_quant == want.ops.output_quant);
  CHECK(got.dequant_cycles == want.dequant_cycles);
  CHECK(got.energy.total() == want.energy.total());
  CHECK(got.energy.dequant == want.energy.dequant);
  CHECK(got.energy.rescale == want.energy.rescale);
}

std::vector<ApplyOptions> apply_variants() {
  std::vector<ApplyOptions> out;
  for (workload::Layout layout : {workload::Layout::kNN, workload::Layout::kNT}) {
    out.push_back({OperandRole::kWeight, KvTokenAxis::kN, layout});
    for (KvTokenAxis axis : {KvTokenAxis::kN, KvTokenAxis::kK})
      out.push_back({OperandRole::kKvCache, axis, layout});
  }
  return out;
}

}  // namespace

TEST_CASE("quant analyzer: parametric counts equal the concrete analysis for every preset",
          "[quant][analyzer]") {
  std::mt19937 rng(20261121);
  std::uniform_int_distribution<long long> small(1, 19), wide(1, 300);
  const std::vector<ApplyOptions> variants = apply_variants();
  int compared = 0;
  for (const std::string& name : preset_names()) {
    const QuantSpec spec = load_preset(name);
    for (std::size_t v = 0; v < variants.size(); ++v) {
      if (variants[v].b == OperandRole::kKvCache && !spec.kv_cache) continue;
      CostOptions options;
      options.apply = variants[v];
      options.tile_m = v % 2 == 0 ? 0 : 4;  // re-dequantization per M-tile on some variants
      const QuantAnalyzer analyzer(gemm(options.apply.b_layout), spec, options);
      CHECK(analyzer.parameters() == std::vector<std::string>{"K", "M", "N"});
      for (int trial = 0; trial < 4; ++trial) {
        // Odd and small sizes, and K across group boundaries (groups of 32 / 128).
        const Shape s{small(rng), trial % 2 ? wide(rng) : small(rng), trial < 2 ? wide(rng) : 129};
        INFO(name << " variant " << v << " shape " << s.m << "x" << s.n << "x" << s.k);
        const QuantCosts parametric = analyzer.evaluate(values_of(s));
        require_same(parametric, analyze_quant(gemm(options.apply.b_layout, &s), spec, options));
        // B's layout changes no count.
        CostOptions kn = options;
        kn.apply.b_layout = workload::Layout::kNN;
        require_same(parametric, analyze_quant(gemm(workload::Layout::kNN, &s), spec, kn));
        ++compared;
      }
    }
  }
  CHECK(compared >= static_cast<int>(preset_names().size() * 2 * 4));
}

TEST_CASE("quant analyzer: parametric scale counts and rescale pairs equal plain loops",
          "[quant][analyzer][brute]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<long long> size(1, 23);
  for (const std::string name : {"q4f16_1", "awq_w4a16_g128", "smoothquant_w8a8", "w4a8",
                                 "fp8_e4m3fn_bf16_block_scale", "kv_int4"}) {
    const QuantSpec spec = load_preset(name);
    for (const ApplyOptions& o : apply_variants()) {
      if (o.b == OperandRole::kKvCache && !spec.kv_cache) continue;
      CostOptions options;
      options.apply = o;
      const QuantAnalyzer analyzer(gemm(o.b_layout), spec, options);
      const OperandRole b_kind =
          o.b == OperandRole::kKvCache ? OperandRole::kKvCache : OperandRole::kWeight;
      for (int trial = 0; trial < 3; ++trial) {
        const Shape s{size(rng), size(rng), 3 * size(rng) + 1};
        INFO(name << " shape " << s.m << "x" << s.n << "x" << s.k);
        const QuantCosts q = analyzer.evaluate(values_of(s));
        // Every scale tensor's element count, and the rescale work of k-indexed levels that the
        // dequantization does not consume.
        long long rescale = 0;
        for (const auto& [kind, tensor] :
             {std::pair{OperandRole::kActivation, "A"}, std::pair{b_kind, "B"}}) {
          const OperandSpec& op = spec.operand(kind);
          for (std::size_t l = 0; l < op.scales.size(); ++l) {
            const ScaleVolumes v = brute_scale(s, kind, op.scales[l], o);
            const std::string scale =
                std::string(tensor) + ".scale" + (l == 0 ? "" : std::to_string(l + 1));
            CHECK(poly::to_int64(q.tensor(scale).elements) ==
                  static_cast<long long>(v.unique.size()));
            const bool skipped =
                kind != OperandRole::kActivation && applied_in_dequant(spec, op.scales[l]);
            if (!skipped && indexed_by_k(op.scales[l].granularity))
              rescale +=
                  static_cast<long long>(v.output_pairs.size()) * (op.scales[l].zero ? 2 : 1);
          }
        }
        CHECK(poly::to_int64(q.ops.rescale) == rescale);
        CHECK(poly::to_int64(q.macs) == s.m * s.n * s.k);
        CHECK(poly::to_int64(q.tensor("C").elements) == s.m * s.n);
      }
    }
  }
}

TEST_CASE("quant analyzer: bad parameter values are input errors", "[quant][analyzer][errors]") {
  const QuantAnalyzer analyzer(mapping::make_parametric_gemm_workload(), load_preset("q4f16_1"));
  const InputError missing = tenet::test::error_of([&] {
    analyzer.evaluate({{"M", 4}, {"N", 8}});
  });
  CHECK(missing.code() == error_code::kMissingField);
  CHECK(missing.where() == "/parameters/K");
  const InputError unknown = tenet::test::error_of([&] {
    analyzer.evaluate({{"M", 4}, {"N", 8}, {"K", 9}, {"B", 2}});
  });
  CHECK(unknown.code() == error_code::kUnknownName);
  const InputError empty = tenet::test::error_of([&] {
    analyzer.evaluate({{"M", 0}, {"N", 8}, {"K", 9}});
  });
  CHECK(empty.code() == error_code::kRange);
  CHECK_THAT(empty.message(), Catch::Contains("M = 0"));
  // Options that shape the sets cannot change per evaluation.
  CostOptions other;
  other.tile_m = 16;
  CHECK_THROWS_AS(analyzer.evaluate({{"M", 4}, {"N", 8}, {"K", 9}}, other), InternalError);
}

TEST_CASE("quant analyzer: evaluate_quant_gemm's cached analysis equals analyze_quant",
          "[quant][analyzer][hw]") {
  const arch::Accelerator acc = arch::load_accelerator_preset("systolic-8x8");
  std::mt19937 rng(3);
  std::uniform_int_distribution<long long> size(1, 90);
  // Alternate schemes so that the per-thread cache serves several entries.
  const std::vector<std::string> schemes{"q0f16", "q4f16_1", "smoothquant_w8a8", "awq_w4a16_g128",
                                         "q3f16_1"};
  for (int trial = 0; trial < 40; ++trial) {
    const QuantSpec spec = load_preset(schemes[trial % schemes.size()]);
    const mapping::GemmShape shape{size(rng), size(rng), size(rng)};
    tenet::test::QuantGemmOptions options;
    options.tiling = {16, 24, 40};
    options.dequant_elements_per_cycle = 8;
    options.apply.b_layout = trial % 3 == 0 ? workload::Layout::kNT : workload::Layout::kNN;
    const ProductResult r = tenet::test::evaluate_quant_gemm(
        acc, shape, spec, mapping::Dataflow::kWeightStationary, options);
    INFO(spec.name << " " << shape.m << "x" << shape.n << "x" << shape.k);
    CostOptions cost;  // the generated GEMM indexes B[k, j]: analysed as kKN whatever the layout
    cost.dequant_elements = r.counts().ops.dequant_elements;
    require_same(r.counts(), analyze_quant(mapping::make_gemm_workload(shape), spec, cost));
  }
}
