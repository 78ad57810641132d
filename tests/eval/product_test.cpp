// One result type (issue 22): an unquantized GEMM is the identity scheme, so it takes the same
// product stage as a quantized one and its figures are the hardware model's; the cost of a call is
// absent under TENET timing and every path that needs it says so; the bound is chosen by one
// function, hw::bounding_resource.
#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <string>

#include "hw/format.hpp"
#include "quant/quant_hw_format.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/eval/traffic_curve.hpp"
#include "tenet/hw/evaluate.hpp"

using namespace tenet;
using mapping::Dataflow;

namespace {

poly::Integer product_big(long long v) { return poly::Integer(static_cast<long>(v)); }

// The bound as the docs state it: the first of compute, SRAM, DRAM, dequant whose busy cycles
// no other resource exceeds.
hw::Bound first_largest(const hw::ResourceCycles& busy, long long dequant) {
  const long long t[] = {busy.compute, busy.sram, busy.dram, dequant};
  int best = 0;
  for (int i = 1; i < 4; ++i)
    if (t[i] > t[best]) best = i;
  return static_cast<hw::Bound>(best);
}

// A 24x40x56 GEMM under the settings.
eval::Request small_gemm(const eval::Settings& s) {
  eval::Request r = eval::make_request(s);
  r.matmul.name = "g";
  r.matmul.m = 24, r.matmul.n = 40, r.matmul.k = 56;
  return r;
}

}  // namespace

TEST_CASE("an unquantized GEMM is the identity scheme: its product is the hardware model's",
          "[eval][product]") {
  std::mt19937 rng(22);
  std::uniform_int_distribution<long long> size(1, 300), bits(1, 32), batch(1, 4);
  const char* presets[] = {"systolic-8x8", "scalable-32x32", "systolic-16x16", "tpu-v1"};
  const Dataflow flows[] = {Dataflow::kOutputStationary, Dataflow::kWeightStationary,
                            Dataflow::kInputStationary};
  int evaluated = 0;
  for (int trial = 0; trial < 36; ++trial) {
    eval::Request r;
    r.accelerator = std::make_shared<const arch::Accelerator>(
        arch::load_accelerator_preset(presets[trial % 4]));
    r.dataflow = flows[trial % 3];
    r.matmul.name = "g";
    r.matmul.m = size(rng), r.matmul.n = size(rng), r.matmul.k = size(rng);
    r.matmul.batch = batch(rng);
    if (trial % 4 != 3) r.bits = {static_cast<int>(bits(rng)), static_cast<int>(bits(rng)), 16};
    if (trial % 5 == 0) r.tiling = mapping::Tiling{8, 16, 24};
    INFO(presets[trial % 4] << " " << mapping::to_string(r.dataflow) << " " << r.matmul.m << "x"
                            << r.matmul.n << "x" << r.matmul.k << " batch " << r.matmul.batch);
    eval::Evaluation e;
    try {
      e = eval::evaluate(r);
    } catch (const InputError&) {  // widths the accelerator has no MACs for
      continue;
    }
    ++evaluated;
    REQUIRE(e.is_systolic());
    const quant::ProductResult& p = e.product();
    // The identity scheme: no name, no counts, no dequant work, no traffic of its own.
    CHECK(p.scheme.empty());
    CHECK_FALSE(p.costs);
    CHECK_THROWS_AS(p.counts(), InternalError);
    CHECK(p.placement == quant::DequantPlacement::kNone);
    CHECK(p.dequant_cycles == 0);
    CHECK(p.traffic.empty());
    CHECK_FALSE(quant::precision_fallback(p));
    // The hardware model on the problem as stored, with the tiling the pipeline chose.
    const hw::Result direct =
        hw::evaluate_gemm(*r.accelerator, e.problem, r.dataflow, e.tiling(), r.hw);
    CHECK(p.hw == direct);
    CHECK(p.total_cycles == direct.cycles.total);
    CHECK(p.bound == direct.bound);
    CHECK(p.dram_bytes == product_big(direct.dram_bytes));
    poly::Integer sram, register_file;
    for (const hw::TensorResult& t : direct.tensors) {
      sram += ((product_big(t.sram_reads) + product_big(t.sram_writes)) * t.bits + 7) / 8;
      register_file +=
          ((product_big(t.register_reads) + product_big(t.register_writes)) * t.bits + 7) / 8;
    }
    CHECK(p.sram_bytes == sram);
    CHECK(p.register_file_bytes == register_file);
    CHECK(p.energy.total() == direct.energy_pj.total);  // exactly: the same sum
    // The report's keys are the hardware model's.
    CHECK(quant::to_json(p) == hw::to_json(direct));
    CHECK(quant::format_table(p).empty());
    // The call: batch products of that one product.
    const llm::LayerCost& c = e.call_cost();
    const poly::Integer b = product_big(r.matmul.batch);
    CHECK(c.dram_bytes == b * product_big(direct.dram_bytes));
    CHECK(c.sram_bytes == b * sram);
    CHECK(c.bound == hw::to_string(direct.bound));
    CHECK(c.scheme.empty());
    CHECK(c.energy_pj == static_cast<double>(r.matmul.batch) * direct.energy_pj.total);
  }
  CHECK(evaluated >= 24);  // most widths have MACs on these accelerators
}

TEST_CASE("TENET timing has no cost of a call, and the paths that need one say so",
          "[eval][product]") {
  eval::Settings s;
  s.arch = "systolic-8x8";
  s.timing = "tenet";
  for (const char* scheme : {"", "q4f16_1"}) {
    INFO("scheme '" << scheme << "'");
    s.quant = scheme;
    eval::Request r = small_gemm(s);
    const eval::Evaluation e = eval::evaluate(r);
    // The TENET-metrics mode: the relations, the quantization counts with a scheme, and no
    // hardware field of any kind (each accessor throws naming the mode).
    CHECK_FALSE(e.is_systolic());
    CHECK(std::string(e.mode_name()) == "TENET metrics");
    CHECK(e.has_relations());
    CHECK(e.relations().report.tensors.size() >= 3);
    CHECK(e.tenet().quant_counts.has_value() == (*scheme != '\0'));
    CHECK_THROWS_AS(e.call_cost(), InternalError);
    CHECK_THROWS_AS(e.hw(), InternalError);
    CHECK_THROWS_AS(e.product(), InternalError);
    CHECK_THROWS_AS(e.tiling(), InternalError);
    CHECK_THROWS_AS(e.bounds(), InternalError);
    CHECK_THROWS_AS(e.systolic(), InternalError);
    try {
      (void)e.systolic();
    } catch (const InternalError& x) {
      CHECK(std::string(x.what()).find("a TENET metrics evaluation") != std::string::npos);
    }
    // The doors that time systolically refuse TENET timing with a usage error on "timing".
    try {
      eval::traffic_curve(r, {r.matmul}, {1 << 16});
      FAIL("traffic_curve accepted TENET timing");
    } catch (const InputError& err) {
      CHECK(err.code() == error_code::kUsage);
      CHECK(err.where() == "timing");
    }
    try {
      eval::make_cost_model(s);
      FAIL("make_cost_model accepted TENET timing");
    } catch (const InputError& err) {
      CHECK(err.where() == "timing");
    }
  }
}

TEST_CASE("a systolic evaluation has no TENET-metrics fields, and relations only when asked",
          "[eval][product]") {
  eval::Settings s;
  s.arch = "systolic-8x8";
  s.quant = "q4f16_1";
  eval::Request r = small_gemm(s);
  const eval::Evaluation e = eval::evaluate(r);
  REQUIRE(e.is_systolic());
  CHECK(std::string(e.mode_name()) == "systolic timing");
  CHECK(e.call_cost().cycles > 0);
  CHECK(e.tiling() == e.hw().tiling);
  CHECK(e.bounds().cycles <= e.hw().cycles.total);
  CHECK_THROWS_AS(e.tenet(), InternalError);
  CHECK_FALSE(e.has_relations());
  CHECK_THROWS_AS(e.relations(), InternalError);
  r.relation_centric = true;
  const eval::Evaluation both = eval::evaluate(r);
  REQUIRE(both.has_relations());
  CHECK(both.relations().report.tensors.size() >= 3);
  CHECK(both.call_cost() == e.call_cost());  // the relation-centric view changes no figure
  // A problem source is TENET metrics: no scheme, no cost.
  eval::Request p;
  p.problem = both.relations().analyzed;
  const eval::Evaluation loaded = eval::evaluate(p);
  CHECK_FALSE(loaded.is_systolic());
  CHECK_FALSE(loaded.scheme);
  CHECK_FALSE(loaded.tenet().quant_counts);
  CHECK(loaded.relations().report.tensors.size() == both.relations().report.tensors.size());
  CHECK_THROWS_AS(loaded.call_cost(), InternalError);
}

TEST_CASE("the bound: the resource with the most busy cycles, ties to the earlier",
          "[eval][product][bound]") {
  // Small values: most draws tie somewhere.
  std::mt19937 rng(5);
  std::uniform_int_distribution<long long> v(0, 3);
  for (int trial = 0; trial < 2000; ++trial) {
    const hw::ResourceCycles busy{v(rng), v(rng), v(rng)};
    const long long dequant = v(rng);
    INFO(busy.compute << " " << busy.sram << " " << busy.dram << " " << dequant);
    CHECK(hw::bounding_resource(busy, dequant) == first_largest(busy, dequant));
    CHECK(hw::bounding_resource(busy) == first_largest(busy, 0));
  }
  CHECK(hw::bounding_resource({0, 0, 0}) == hw::Bound::kCompute);
  CHECK(hw::bounding_resource({5, 5, 5}, 5) == hw::Bound::kCompute);
  CHECK(hw::bounding_resource({1, 2, 2}, 2) == hw::Bound::kSram);
  CHECK(hw::bounding_resource({1, 2, 3}, 3) == hw::Bound::kDram);
  CHECK(hw::bounding_resource({1, 2, 3}, 4) == hw::Bound::kDequant);
}

TEST_CASE("a quantized product's bound and cost come from the same choice",
          "[eval][product][bound]") {
  std::mt19937 rng(9);
  std::uniform_int_distribution<long long> size(1, 400);
  const char* schemes[] = {"q4f16_1", "smoothquant_w8a8", "awq_w4a16_g128", "q0f16", "q3f16_1"};
  for (int trial = 0; trial < 15; ++trial) {
    eval::Settings s;
    s.arch = trial % 2 ? "systolic-16x16" : "scalable-32x32";
    s.quant = schemes[trial % 5];
    s.dequant_rate = trial % 3 == 0 ? 1 : 0;  // a slow unit: often the bound
    eval::Request r = eval::make_request(s);
    r.matmul.name = "g";
    r.matmul.m = trial % 4 == 0 ? 1 : size(rng), r.matmul.n = size(rng) + 16;
    r.matmul.k = size(rng) + 16;
    INFO(s.quant << " " << r.matmul.m << "x" << r.matmul.n << "x" << r.matmul.k);
    const eval::Evaluation e = eval::evaluate(r);
    const quant::ProductResult& p = e.product();
    REQUIRE(p.costs);
    CHECK(p.bound == first_largest(p.hw.busy, p.dequant_cycles));
    CHECK(e.call_cost().bound == hw::to_string(p.bound));
    CHECK(quant::to_json(p)["bound"] == hw::to_string(p.bound));
    CHECK(p.total_cycles == std::max(p.hw.cycles.total, p.dequant_cycles));
    if (p.dequant_cycles == 0) CHECK(p.bound == p.hw.bound);
  }
}
