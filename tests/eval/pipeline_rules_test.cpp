// eval::evaluate / eval::make_cost_model: the rules of the pipeline's quantization stage (which
// quantization applies to B, batch, layout, logged flags), the defaults and the settings' errors.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "layer_request.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using namespace tenet::llm;
using mapping::Dataflow;

namespace {

Integer big(long long v) { return Integer(static_cast<long>(v)); }

MatmulShape weight_shape(std::int64_t m, std::int64_t n, std::int64_t k) {
  MatmulShape s;
  s.name = "proj";
  s.m = m, s.n = n, s.k = k;
  return s;
}

MatmulShape kv_shape(std::int64_t batch, std::int64_t m, std::int64_t n, std::int64_t k,
                     Layout layout) {
  MatmulShape s = weight_shape(m, n, k);
  s.name = layout == Layout::kNT ? "qk" : "pv";
  s.batch = batch;
  s.layout = layout;
  s.b_operand = OperandRole::kKvCache;
  return s;
}

bool has_tensor(const quant::ProductResult& r, const std::string& name) {
  for (const auto& t : r.traffic)
    if (t.name == name) return true;
  return false;
}

const arch::Accelerator& scalable() {
  static const arch::Accelerator acc = arch::load_accelerator_preset("scalable-32x32");
  return acc;
}

}  // namespace

TEST_CASE("q4f16_1 weights: packed bytes and group scales from DRAM (issue 4 example)") {
  const auto q4 = quant::load_preset("q4f16_1");
  const auto e = tenet::eval::evaluate(tenet::test::layer_request(
      scalable(), Dataflow::kOutputStationary, q4, weight_shape(1, 1024, 1024)));
  CHECK(e.product().tensor("B").dram_bytes == 524288);
  CHECK(e.product().tensor("B.scale").dram_bytes == 65536);
  CHECK(e.call_cost().dram_bytes == e.product().dram_bytes);
  CHECK(e.call_cost().sram_bytes == e.product().sram_bytes);
  CHECK(e.call_cost().cycles == big(e.product().total_cycles));
  CHECK(e.call_cost().energy_pj == Approx(e.product().energy.total()));
  CHECK(e.call_cost().bound == hw::to_string(e.product().bound));
  // No throughput in the preset: the default unit, which keeps up with the array at the MAC
  // rate (fp16: one MAC per PE per cycle, so one element per array column per cycle).
  CHECK(e.dequant_rate.elements_per_cycle == 32);
  CHECK(eval::defaults::dequant_elements_per_cycle(scalable(), Dataflow::kInputStationary,
                                                   workload::DataType::fp16()) ==
        scalable().rows());

  const auto f16 = tenet::eval::evaluate(
      tenet::test::layer_request(scalable(), Dataflow::kOutputStationary,
                                 quant::load_preset("q0f16"), weight_shape(1, 1024, 1024)));
  CHECK(f16.product().tensor("B").dram_bytes == 2097152);
}

TEST_CASE("a layer's cost is its product's: cycles are counts, layout NT as kNK") {
  const auto scheme = quant::load_preset("awq_w4a16_g128");
  const auto shape = weight_shape(37, 200, 300);
  tenet::test::LayerOptions o;
  o.dequant_elements_per_cycle = 8;
  const auto e = tenet::eval::evaluate(
      tenet::test::layer_request(scalable(), Dataflow::kWeightStationary, scheme, shape, o));
  CHECK(e.scheme->apply.b_layout == workload::Layout::kNT);
  const quant::ProductResult& direct = e.product();
  CHECK(direct.total_cycles == std::max(direct.hw.cycles.total, direct.dequant_cycles));
  CHECK(direct.hw.cycles.last_write_index == direct.hw.cycles.total - 1);
  const LayerCost& c = e.call_cost();
  CHECK(c.cycles == big(direct.total_cycles));
  CHECK(c.dram_bytes == direct.dram_bytes);
  CHECK(c.energy_pj == Approx(direct.energy.total()));
  CHECK(c.utilization > 0);
  CHECK(c.utilization <= 1);
}

TEST_CASE("Request::tiling_objective reaches hw::choose_tiling") {
  // 200x400x600 on systolic-8x8 (os): the latency and DRAM-traffic optima differ.
  const auto acc = arch::load_accelerator_preset("systolic-8x8");
  const auto flow = Dataflow::kOutputStationary;
  for (const char* name : {"q0f16", "q4f16_1"}) {
    const auto scheme = quant::load_preset(name);
    std::vector<mapping::Tiling> chosen;
    for (const hw::TilingObjective objective :
         {hw::TilingObjective::kLatency, hw::TilingObjective::kEnergy,
          hw::TilingObjective::kDramBytes, hw::TilingObjective::kEdp}) {
      INFO(name << " " << hw::to_string(objective));
      tenet::test::LayerOptions o;
      o.tiling_objective = objective;
      const auto e = tenet::eval::evaluate(
          tenet::test::layer_request(acc, flow, scheme, weight_shape(200, 400, 600), o));
      CHECK(e.product().hw.tiling ==
            hw::choose_tiling(acc, e.product().problem, flow, {}, {objective}));
      chosen.push_back(e.product().hw.tiling);
    }
    CHECK_FALSE(chosen[0] == chosen[2]);  // latency and dram_bytes choose differently here
  }
  // make_cost_model: Settings::tiling_objective by name.
  eval::Settings spec;
  spec.arch = "systolic-8x8";
  spec.tiling_objective = "dram_bytes";
  tenet::test::LayerOptions o;
  o.tiling_objective = hw::TilingObjective::kDramBytes;
  const MatmulShape s = weight_shape(200, 400, 600);
  const auto q0 = quant::load_preset("q0f16");
  CHECK(eval::make_cost_model(spec).evaluate(s) ==
        tenet::eval::evaluate(tenet::test::layer_request(acc, flow, q0, s, o)).call_cost());
  CHECK_FALSE(eval::make_cost_model(spec).evaluate(s) ==
              tenet::eval::evaluate(tenet::test::layer_request(acc, flow, q0, s)).call_cost());
}

TEST_CASE("batch products run one after another: cycles, bytes, energy x batch") {
  const auto scheme = quant::load_preset("kv_int8");
  for (std::int64_t batch : {1, 3, 8}) {
    const auto one = tenet::eval::evaluate(tenet::test::layer_request(
        scalable(), Dataflow::kOutputStationary, scheme, kv_shape(1, 4, 77, 64, Layout::kNT)));
    const auto many = tenet::eval::evaluate(tenet::test::layer_request(
        scalable(), Dataflow::kOutputStationary, scheme, kv_shape(batch, 4, 77, 64, Layout::kNT)));
    const Integer b(static_cast<long>(batch));
    CHECK(many.call_cost().cycles == one.call_cost().cycles * b);
    CHECK(many.call_cost().dram_bytes == one.call_cost().dram_bytes * b);
    CHECK(many.call_cost().sram_bytes == one.call_cost().sram_bytes * b);
    CHECK(many.call_cost().energy_pj ==
          Approx(one.call_cost().energy_pj * static_cast<double>(batch)));
    CHECK(many.call_cost().utilization == one.call_cost().utilization);
    CHECK(many.call_cost().bound == one.call_cost().bound);
  }
}

TEST_CASE("KV cache: the scheme's kv_cache part, token axis from the layout") {
  const auto scheme = quant::load_preset("kv_int8");  // int8, one fp16 scale per token
  const auto qk = tenet::eval::evaluate(tenet::test::layer_request(
      scalable(), Dataflow::kOutputStationary, scheme, kv_shape(2, 4, 77, 64, Layout::kNT)));
  CHECK(qk.scheme->apply.b == workload::OperandRole::kKvCache);
  CHECK(qk.scheme->apply.kv_token_axis == quant::KvTokenAxis::kN);
  CHECK(qk.product().tensor("B").bits == 8);
  CHECK(qk.product().counts().tensor("B.scale").elements == 77);  // one per token = N
  const auto pv = tenet::eval::evaluate(tenet::test::layer_request(
      scalable(), Dataflow::kOutputStationary, scheme, kv_shape(2, 4, 64, 77, Layout::kNN)));
  CHECK(pv.scheme->apply.kv_token_axis == quant::KvTokenAxis::kK);
  CHECK(pv.product().counts().tensor("B.scale").elements == 77);  // tokens = K
  // The weights of the same scheme are not quantized.
  const auto w = tenet::eval::evaluate(tenet::test::layer_request(
      scalable(), Dataflow::kOutputStationary, scheme, weight_shape(4, 64, 77)));
  CHECK(w.product().tensor("B").bits == 16);
  CHECK_FALSE(has_tensor(w.product(), "B.scale"));
}

TEST_CASE("KV cache without a kv_cache section: the activations' format") {
  const auto q4 = tenet::eval::evaluate(tenet::test::layer_request(
      scalable(), Dataflow::kOutputStationary, quant::load_preset("q4f16_1"),
      kv_shape(1, 4, 50, 64, Layout::kNT)));
  CHECK(q4.product().tensor("B").bits == 16);
  CHECK_FALSE(has_tensor(q4.product(), "B.scale"));
  CHECK(q4.product().placement == quant::DequantPlacement::kNone);
  // SmoothQuant: int8 activations with a dynamic per-token scale -> int8 KV, per-token scale.
  const auto sq = tenet::eval::evaluate(tenet::test::layer_request(
      scalable(), Dataflow::kOutputStationary, quant::load_preset("smoothquant_w8a8"),
      kv_shape(1, 4, 50, 64, Layout::kNT)));
  CHECK(sq.product().tensor("B").bits == 8);
  CHECK(sq.product().counts().tensor("B.scale").elements == 50);
  CHECK(sq.product().hw.precision == workload::DataType::signed_int(8));
}

TEST_CASE("activation B operand ignores the KV-cache and weight schemes") {
  MatmulShape s = kv_shape(1, 8, 40, 16, Layout::kNN);
  s.b_operand = OperandRole::kActivation;
  const auto e = tenet::eval::evaluate(tenet::test::layer_request(
      scalable(), Dataflow::kOutputStationary, quant::load_preset("kv_int8"), s));
  CHECK(e.product().tensor("B").bits == 16);
  CHECK_FALSE(has_tensor(e.product(), "B.scale"));
}

TEST_CASE("logged weights_quantized=false: unquantized weights only for dequantizing schemes") {
  MatmulShape s = weight_shape(5, 96, 128);
  s.weights_quantized = false;
  const auto q4 = tenet::eval::evaluate(tenet::test::layer_request(
      scalable(), Dataflow::kOutputStationary, quant::load_preset("q4f16_1"), s));
  CHECK(q4.product().tensor("B").bits == 16);
  CHECK_FALSE(has_tensor(q4.product(), "B.scale"));
  CHECK(q4.product().dequant_cycles == 0);
  const auto sq = tenet::eval::evaluate(tenet::test::layer_request(
      scalable(), Dataflow::kOutputStationary, quant::load_preset("smoothquant_w8a8"), s));
  CHECK(sq.product().tensor("B").bits == 8);  // W8A8 kernels never say "dequantize"
  s.weights_quantized = true;
  const auto q4q = tenet::eval::evaluate(tenet::test::layer_request(
      scalable(), Dataflow::kOutputStationary, quant::load_preset("q4f16_1"), s));
  CHECK(q4q.product().tensor("B").bits == 4);
}

TEST_CASE("layout NT / NN does not change the cost of a weight matmul") {
  for (const char* name : {"q0f16", "q4f16_1", "gptq_w4a16_g128", "smoothquant_w8a8"}) {
    const auto scheme = quant::load_preset(name);
    MatmulShape nt = weight_shape(17, 300, 260), nn = nt;
    nn.layout = Layout::kNN;
    CHECK(tenet::eval::evaluate(
              tenet::test::layer_request(scalable(), Dataflow::kWeightStationary, scheme, nt))
              .call_cost() ==
          tenet::eval::evaluate(
              tenet::test::layer_request(scalable(), Dataflow::kWeightStationary, scheme, nn))
              .call_cost());
  }
}

TEST_CASE("epilogue ops add energy only: one add at the output type per op and element") {
  const auto scheme = quant::load_preset("q0f16");
  MatmulShape s = weight_shape(3, 64, 64);
  const LayerCost plain =
      tenet::eval::evaluate(
          tenet::test::layer_request(scalable(), Dataflow::kOutputStationary, scheme, s))
          .call_cost();
  s.epilogue_ops = 2;
  s.batch = 1;
  const auto e = tenet::eval::evaluate(
      tenet::test::layer_request(scalable(), Dataflow::kOutputStationary, scheme, s));
  CHECK(e.call_cost().cycles == plain.cycles);
  CHECK(e.systolic().epilogue_energy_pj == Approx(2 * 3 * 64 * 0.4));  // fp16 add: 0.4 pJ
  CHECK(e.call_cost().energy_pj == Approx(plain.energy_pj + e.systolic().epilogue_energy_pj));
}

TEST_CASE("make_layer_evaluator: defaults, presets, overrides, errors") {
  const CostModel def = eval::make_cost_model({});
  CHECK(def.clock_hz == 1e9);
  CHECK(def.description.find("scalable-32x32") != std::string::npos);
  const MatmulShape s = weight_shape(1, 512, 512);
  CHECK(def.evaluate(s) ==
        tenet::eval::evaluate(tenet::test::layer_request(scalable(), Dataflow::kOutputStationary,
                                                         quant::load_preset("q0f16"), s))
            .call_cost());

  eval::Settings spec;
  spec.arch = "tpu-v1";
  spec.array = "64x64";
  spec.dataflow = "ws";
  spec.quant = "smoothquant_w8a8";
  const CostModel tpu = eval::make_cost_model(spec);
  CHECK(tpu.clock_hz == Approx(700e6));
  const auto acc = arch::with_array_shape(arch::load_accelerator_preset("tpu-v1"), 64, 64);
  CHECK(tpu.evaluate(s) ==
        tenet::eval::evaluate(tenet::test::layer_request(acc, Dataflow::kWeightStationary,
                                                         quant::load_preset("smoothquant_w8a8"), s))
            .call_cost());

  // A log record's scheme is used when --quant is not given.
  MatmulShape logged = s;
  logged.quant = "q4f16_1";
  CHECK(def.evaluate(logged) ==
        tenet::eval::evaluate(tenet::test::layer_request(scalable(), Dataflow::kOutputStationary,
                                                         quant::load_preset("q4f16_1"), logged))
            .call_cost());

  auto where_of = [](const eval::Settings& bad) {
    try {
      eval::make_cost_model(bad);
    } catch (const InputError& e) {
      return e.where();
    }
    return std::string("no error");
  };
  // Each case sets text fields of default settings; the error names the field (the CLI maps
  // fields to its options).
  using Field = std::string eval::Settings::*;
  struct Case {
    std::vector<std::pair<Field, const char*>> set;
    const char* where;
  };
  const Case cases[] = {
      {{{&eval::Settings::arch, "no-such-accelerator"}}, "arch"},
      {{{&eval::Settings::dataflow, "diagonal"}}, "dataflow"},
      {{{&eval::Settings::quant, "q9f99"}}, "quant"},
      {{{&eval::Settings::timing, "tenet"}}, "timing"},
      {{{&eval::Settings::timing, "fast"}}, "timing"},
      {{{&eval::Settings::array, "0x4"}}, "array"},
      {{{&eval::Settings::tile, "12xbad"}}, "tile"},
      {{{&eval::Settings::tiling_objective, "fastest"}}, "tiling_objective"},
      {{{&eval::Settings::tile, "8x8x8"}, {&eval::Settings::tiling_objective, "energy"}},
       "tiling_objective"},  // nothing to choose
  };
  for (const Case& c : cases) {
    eval::Settings bad;
    for (const auto& [field, value] : c.set) bad.*field = value;
    CHECK(where_of(bad) == c.where);
  }
}

TEST_CASE("arch presets: by name, by file, unknown names listed") {
  const auto names = arch::accelerator_preset_names();
  CHECK(std::find(names.begin(), names.end(), arch::kDefaultAccelerator) != names.end());
  const auto by_file = arch::load_accelerator_preset(std::string(TENET_SOURCE_DIR) +
                                                     "/configs/arch/systolic-8x8.json");
  CHECK(by_file == arch::load_accelerator_preset("systolic-8x8"));
  try {
    arch::load_accelerator_preset("systolic-9x9");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kUnknownName);
    CHECK(e.message().find("systolic-8x8") != std::string::npos);
  }
  CHECK_THROWS_AS(arch::load_accelerator_preset("missing/dir/x.json"), InputError);
}

TEST_CASE("C = C + A·B through the pipeline: C's read in every view") {
  // --accumulate: the relation-centric workload reads C; the hardware problem reads C before its
  // first update (the DRAM bytes once more C, the compulsory traffic too), with or without a
  // scheme; everything else as without.
  for (const char* scheme_name : {"", "q4f16_1"}) {
    INFO("scheme " << scheme_name);
    eval::Request r;
    r.matmul = weight_shape(37, 64, 96);
    r.accelerator = std::make_shared<const arch::Accelerator>(scalable());
    r.relation_centric = true;
    r.bits = {16, 16, 16};
    r.tiling = mapping::Tiling{};  // one tile: C read once more, nothing else changes
    if (*scheme_name)
      r.scheme = std::make_shared<const quant::QuantSpec>(quant::load_preset(scheme_name));
    const eval::Evaluation plain = eval::evaluate(r);
    r.matmul.accumulate = true;
    const eval::Evaluation acc = eval::evaluate(r);
    REQUIRE(acc.has_relations());
    int c_reads = 0, c_writes = 0;
    for (const workload::Access& a : acc.relations().analyzed.workload.accesses())
      if (a.tensor == "C") (a.kind == workload::AccessKind::kRead ? c_reads : c_writes) += 1;
    CHECK(c_reads == 1);
    CHECK(c_writes == 1);
    CHECK(acc.problem.accumulate);
    CHECK(acc.hw().accumulate);
    const long long c_bytes = 37 * 64 * 2;  // fp16 outputs (q4f16_1: fp16 too)
    CHECK(acc.bounds().compulsory_dram_bytes == plain.bounds().compulsory_dram_bytes + c_bytes);
    CHECK(acc.hw().dram_bytes == plain.hw().dram_bytes + c_bytes);
    CHECK(acc.hw().macs == plain.hw().macs);
  }
}
