// Issue 34 through eval::evaluate: the default dequant unit keeps up with the array it feeds at
// the scheme's MAC rate (a 4-bit weight dequantized to int8 on precision-scalable PEs is not
// slower than int8 weights), and on the SAURIA presets a 4-bit weight's auto tiling holds B as
// stored (packed) in the buffer: the array's view of B (dequantized) is not held against it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "hw/misfit.hpp"
#include "layer_request.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/defaults.hpp"
#include "tenet/quant/quant_json.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace eval_dequant_and_sauria_test {

using namespace tenet;
using mapping::Dataflow;

namespace {

llm::MatmulShape weight(std::int64_t m, std::int64_t n, std::int64_t k) {
  llm::MatmulShape s;
  s.name = "proj";
  s.m = m, s.n = n, s.k = k;
  return s;
}

eval::Evaluation run(const arch::Accelerator& acc, const char* scheme, const llm::MatmulShape& s,
                     Dataflow flow = Dataflow::kOutputStationary) {
  return eval::evaluate(test::layer_request(acc, flow, quant::load_preset(scheme), s));
}

}  // namespace

TEST_CASE("the default dequant unit keeps up with the array at the scheme's MAC rate",
          "[eval][dequant]") {
  const arch::Accelerator scalable = arch::load_accelerator_preset("scalable-32x32");
  // precision-scalable PEs: 2 int8 MACs per PE per cycle, 1 fp16
  CHECK(eval::defaults::dequant_elements_per_cycle(scalable, Dataflow::kOutputStationary,
                                                   workload::DataType::signed_int(8)) == 64);
  CHECK(eval::defaults::dequant_elements_per_cycle(scalable, Dataflow::kInputStationary,
                                                   workload::DataType::signed_int(8)) == 64);
  CHECK(eval::defaults::dequant_elements_per_cycle(scalable, Dataflow::kOutputStationary,
                                                   workload::DataType::fp16()) == 32);
  // a slower precision (TPU v1's int16 at a quarter of the rate) keeps the lanes' full rate: its
  // stationary weights still shift in at one element per column and cycle
  const arch::Accelerator tpu = arch::load_accelerator_preset("tpu-v1");
  CHECK(eval::defaults::dequant_elements_per_cycle(tpu, Dataflow::kWeightStationary,
                                                   workload::DataType::signed_int(16)) == 256);

  // W4A8 (int4 -> int8 between SRAM and the array) is as fast as W8A8 on the default preset.
  const auto prefill = weight(512, 4096, 4096);
  const eval::Evaluation w4 = run(scalable, "w4a8", prefill);
  const eval::Evaluation w8 = run(scalable, "smoothquant_w8a8", prefill);
  CHECK(w4.dequant_rate.elements_per_cycle == 64);
  CHECK(w4.product().dequant_cycles <= w4.product().hw.cycles.compute);
  CHECK(w4.product().bound != hw::Bound::kDequant);
  CHECK(w4.call_cost().cycles.get_d() <= 1.01 * w8.call_cost().cycles.get_d());
  // a given rate still wins: one element per column is the bottleneck it was
  test::LayerOptions slow;
  slow.dequant_elements_per_cycle = 32;
  const eval::Evaluation w4_slow = eval::evaluate(test::layer_request(
      scalable, Dataflow::kOutputStationary, quant::load_preset("w4a8"), prefill, slow));
  CHECK(w4_slow.product().bound == hw::Bound::kDequant);
  CHECK(w4_slow.call_cost().cycles.get_d() > 1.5 * w8.call_cost().cycles.get_d());

  // On random shapes, dataflows and presets, the default unit is never busier than the array's
  // compute cycles (it keeps up by construction) under the 4-bit schemes.
  std::mt19937 rng(34);
  std::uniform_int_distribution<std::int64_t> size(1, 700);
  const std::vector<std::pair<const char*, const char*>> cases{{"scalable-32x32", "w4a8"},
                                                               {"scalable-32x32", "q4f16_1"},
                                                               {"systolic-16x16", "awq_w4a16_g128"},
                                                               {"sauria-int8-8x16", "w4a8"},
                                                               {"sauria-fp16-8x16", "q4f16_1"}};
  for (int trial = 0; trial < 40; ++trial) {
    const auto& [preset, scheme] = cases[trial % cases.size()];
    const arch::Accelerator acc = arch::load_accelerator_preset(preset);
    const Dataflow flow =
        acc.spec().dataflow.empty()
            ? std::array<Dataflow, 3>{Dataflow::kOutputStationary, Dataflow::kWeightStationary,
                                      Dataflow::kInputStationary}[trial % 3]
            : Dataflow::kOutputStationary;
    // K a multiple of the 128-element groups
    const auto s = weight(size(rng), size(rng), 128 * (1 + size(rng) % 6));
    INFO(preset << " " << scheme << " " << mapping::to_string(flow) << " " << s.m << "x" << s.n
                << "x" << s.k);
    const eval::Evaluation e = run(acc, scheme, s, flow);
    CHECK(e.product().dequant_cycles <= e.product().hw.cycles.compute);
  }
}

TEST_CASE("SAURIA presets: a 4-bit weight's auto tiling fits the buffer as B is stored",
          "[eval][sauria]") {
  // Llama-3-8B's lm_head (M = 1, N = 128256, K = 4096) under W4A8 on sauria-int8-32x32: its
  // auto tiling keeps the packed B in SRAM B (one 64 KiB bank), while B as the array sees it
  // (int8) would need twice as much.
  const arch::Accelerator acc = arch::load_accelerator_preset("sauria-int8-32x32");
  for (const auto& s : {weight(1, 128256, 4096), weight(512, 14336, 4096), weight(7, 300, 1024)}) {
    INFO(s.m << "x" << s.n << "x" << s.k);
    const eval::Evaluation e = run(acc, "w4a8", s);
    CHECK_FALSE(hw::tiling_misfit(acc, e.problem, Dataflow::kOutputStationary, e.tiling()));
    CHECK(e.call_cost().cycles > 0);
    CHECK(e.call_cost().bounds->cycles <= e.call_cost().cycles);
  }
  const arch::Accelerator fp16 = arch::load_accelerator_preset("sauria-fp16-8x16");
  for (const char* scheme : {"q4f16_1", "awq_w4a16_g128", "gptq_w4a16_g128", "q0f16"}) {
    INFO(scheme);
    const eval::Evaluation e = run(fp16, scheme, weight(1, 32000, 4096));
    CHECK_FALSE(hw::tiling_misfit(fp16, e.problem, Dataflow::kOutputStationary, e.tiling()));
  }
}

}  // namespace eval_dequant_and_sauria_test
