// A fused kernel on a chip of several matrix units: a stage's tiles issue back to back and their
// folds are dealt over the units — the stage takes its tiles' one-unit cycles spread over the
// units, no less than its longest tile on the chip and no more than its tiles one after another;
// never below the MACs at the chip's peak. A one-unit chip: the sum of its tiles
// (docs/model.md#fused-kernels). bf16 tiles run in the faster of their two orientations.
#include <catch2/catch.hpp>
#include <cmath>

#include "bf16_request.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/eval/pipeline.hpp"

namespace fused_chip_stage_test {

using namespace tenet;

std::shared_ptr<const arch::Accelerator> with_units(const arch::Accelerator& acc, long long n) {
  arch::AcceleratorSpec s = acc.spec();
  s.chip.matrix_units = n;
  s.chip.attention = {};  // the generic stage law (the chip's kernel: attention_kernel_test)
  return std::make_shared<const arch::Accelerator>(s);
}

eval::Request base(std::shared_ptr<const arch::Accelerator> acc) {
  return test::bf16_ws_request(std::move(acc));
}

TEST_CASE("chip stage: a stage's tile folds are dealt over the matrix units", "[fused][chip]") {
  const arch::Accelerator tpu = arch::load_accelerator_preset("tpu-v6e");
  const fused::Kernel kernels[] = {
      fused::AttentionKernel{24, 8, 1, 8192, 128, true, fused::ScoresPlace::kOnChip},
      fused::AttentionKernel{96, 96, 328, 328, 32, false, fused::ScoresPlace::kOnChip},
      fused::FfnKernel{512, 384, 1536, fused::Activation::kGelu, true}};
  for (long long units : {1, 2, 4}) {
    const auto chip = with_units(tpu, units), one = with_units(tpu, 1);
    for (const fused::Kernel& k : kernels) {
      const std::vector<fused::Blocking> blockings = {std::holds_alternative<fused::FfnKernel>(k)
                                                          ? fused::Blocking{128, 0}
                                                          : fused::Blocking{32, 128}};
      eval::KernelRequest q{k, base(chip), blockings}, q1{k, base(one), blockings};
      const fused::KernelResult r = eval::evaluate_kernel(q);
      INFO(fused::kind_name(k) << " on " << units << " units");
      for (const fused::StageResult& s : r.stages) {
        if (s.unit != "matrix") continue;
        double serial = 0, one_unit = 0, longest = 0;
        for (const fused::TileCost& t : s.tiles) {
          // the orientation the chip runs faster (bf16: either input held in the array), on
          // one unit
          const auto cycles = [&](const eval::KernelRequest& e, std::array<std::int64_t, 3> x) {
            return poly::to_int64(
                eval::evaluate(eval::tile_request(e, s.name, x)).call_cost().cycles);
          };
          const std::array<std::int64_t, 3> flip{t.shape[1], t.shape[0], t.shape[2]};
          const bool flipped = t.shape[0] != t.shape[1] && cycles(q, flip) < cycles(q, t.shape);
          CHECK(t.cycles == std::min(cycles(q, t.shape), cycles(q, flip)));
          const double c1 = static_cast<double>(cycles(q1, flipped ? flip : t.shape));
          serial += static_cast<double>(t.count * t.cycles);
          one_unit += static_cast<double>(t.count) * c1;
          longest = std::max(longest, static_cast<double>(t.cycles));
        }
        const double expected =
            units == 1 ? serial : std::min(serial, std::max(std::ceil(one_unit / units), longest));
        CHECK(s.cycles == Approx(expected));
        CHECK(s.cycles <= serial);
        CHECK(s.cycles * units * tpu.rows() * tpu.cols() >= static_cast<double>(s.macs));
      }
      CHECK(static_cast<double>(r.cycles) >= r.matrix_cycles);
    }
  }
}

}  // namespace fused_chip_stage_test
