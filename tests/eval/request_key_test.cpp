// The memo key (eval::hash / eval::same_evaluation): every field an Evaluation depends on tells
// requests apart, the fields left out do not, and accelerator / scheme ids are required.
#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <vector>

#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/request.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;

namespace {

eval::Request base() {
  eval::Request r;
  r.matmul.name = "qkv";
  r.matmul.m = 37, r.matmul.n = 512, r.matmul.k = 256;
  r.accelerator =
      std::make_shared<const arch::Accelerator>(arch::load_accelerator_preset("systolic-16x16"));
  r.accelerator_id = 0;  // id 0 is an id like any other
  return r;
}

bool same(const eval::Request& a, const eval::Request& b) {
  const bool equal = eval::same_evaluation(a, b);
  if (equal) CHECK(eval::hash(a) == eval::hash(b));
  return equal;
}

}  // namespace

TEST_CASE("every keyed request field tells requests apart", "[eval][memo]") {
  const eval::Request r = base();
  REQUIRE(same(r, r));
  const std::vector<std::pair<const char*, std::function<void(eval::Request&)>>> changes = {
      {"batch", [](eval::Request& q) { q.matmul.batch = 2; }},
      {"m", [](eval::Request& q) { q.matmul.m = 38; }},
      {"n", [](eval::Request& q) { q.matmul.n = 513; }},
      {"k", [](eval::Request& q) { q.matmul.k = 257; }},
      {"layout", [](eval::Request& q) { q.matmul.layout = llm::Layout::kNN; }},
      {"b_operand", [](eval::Request& q) { q.matmul.b_operand = llm::OperandRole::kActivation; }},
      {"weights_quantized", [](eval::Request& q) { q.matmul.weights_quantized = false; }},
      {"epilogue_ops", [](eval::Request& q) { q.matmul.epilogue_ops = 1; }},
      {"accumulate", [](eval::Request& q) { q.matmul.accumulate = true; }},
      {"bits.a", [](eval::Request& q) { q.bits.a = 8; }},
      {"bits.b", [](eval::Request& q) { q.bits.b = 8; }},
      {"bits.c", [](eval::Request& q) { q.bits.c = 32; }},
      {"accelerator_id", [](eval::Request& q) { q.accelerator_id = 1; }},
      {"dataflow", [](eval::Request& q) { q.dataflow = mapping::Dataflow::kWeightStationary; }},
      {"tiling", [](eval::Request& q) { q.tiling = mapping::Tiling{}; }},
      {"tiling.m",
       [](eval::Request& q) {
         q.tiling = mapping::Tiling{16, 0, 0};
       }},
      {"tiling.order",
       [](eval::Request& q) {
         q.tiling = mapping::Tiling{};
         q.tiling->order = {mapping::GemmDim::kK, mapping::GemmDim::kN, mapping::GemmDim::kM};
       }},
      {"tiling_objective",
       [](eval::Request& q) { q.tiling_objective = hw::TilingObjective::kDramBytes; }},
      {"timing", [](eval::Request& q) { q.timing = eval::Timing::kTenet; }},
      {"scheme",
       [](eval::Request& q) {
         q.scheme = std::make_shared<const quant::QuantSpec>(quant::load_quant("q4f16_1"));
         q.scheme_id = 0;
       }},
      {"dequant_rate", [](eval::Request& q) { q.dequant_rate.elements_per_cycle = 4; }},
      {"dequant_ops_rate", [](eval::Request& q) { q.dequant_rate.ops_per_cycle = 4; }},
      {"unlimited_sram_bandwidth", [](eval::Request& q) { q.hw.unlimited_sram_bandwidth = true; }},
      {"unlimited_dram_bandwidth", [](eval::Request& q) { q.hw.unlimited_dram_bandwidth = true; }},
      {"unlimited_buffer", [](eval::Request& q) { q.hw.unlimited_buffer = true; }},
      {"edge_transfers", [](eval::Request& q) { q.hw.edge_transfers = !q.hw.edge_transfers; }},
      {"relation_centric", [](eval::Request& q) { q.relation_centric = true; }},
  };
  for (const auto& [field, change] : changes) {
    INFO(field);
    eval::Request other = r;
    change(other);
    CHECK_FALSE(same(r, other));
  }
}

TEST_CASE("analysis settings count only when the relation-centric view runs", "[eval][memo]") {
  eval::Request a = base();
  eval::Request b = a;
  b.analysis.neighbourhood.hops = 2;
  CHECK(same(a, b));  // no relation-centric analysis: the settings change nothing
  a.relation_centric = b.relation_centric = true;
  CHECK_FALSE(same(a, b));
  b = a;
  b.analysis.energy.l2_per_access = 20;
  CHECK_FALSE(same(a, b));
  b = a;
  b.analysis.compute_delay = analysis::ComputeDelayConvention::kAvgActivePes;
  CHECK_FALSE(same(a, b));
}

TEST_CASE("the fields left out of the key do not split memo entries", "[eval][memo]") {
  const eval::Request r = base();
  eval::Request other = r;
  other.matmul.name = "o_proj";
  other.matmul.count = 12;
  other.matmul.phase = llm::Phase::kDecode;
  other.matmul.quant = "q4f16_1";
  other.matmul.dtypes.in = "float16";
  other.accelerator =
      std::make_shared<const arch::Accelerator>(arch::load_accelerator_preset("systolic-16x16"));
  CHECK(same(r, other));  // same id: the same accelerator by contract
}

TEST_CASE("requests without ids have no memo key", "[eval][memo]") {
  // Two requests with different accelerators and no ids must not compare equal: they are refused.
  eval::Request a = base();
  eval::Request b = base();
  a.accelerator_id.reset();
  b.accelerator_id.reset();
  b.accelerator =
      std::make_shared<const arch::Accelerator>(arch::load_accelerator_preset("systolic-8x8"));
  CHECK_THROWS_AS(eval::same_evaluation(a, b), InternalError);
  CHECK_THROWS_AS(eval::hash(a), InternalError);
  eval::Request q = base();
  q.scheme = std::make_shared<const quant::QuantSpec>(quant::load_quant("q4f16_1"));
  CHECK_THROWS_AS(eval::hash(q), InternalError);
  q.scheme_id = 3;
  CHECK_NOTHROW(eval::hash(q));
  eval::Request p = base();
  p.problem.emplace();
  CHECK_THROWS_AS(eval::hash(p), InternalError);
}
