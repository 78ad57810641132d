// An MLP fused on a chip whose compiler keeps its weights on chip (fusion.mlp_resident_bytes):
// the weights read once, each token block's chain serial and the blocks pipelined, the last
// write's latency exposed beyond the link (docs/model.md#fused-kernels). Without the key the
// blocked model is unchanged.
#include <catch2/catch.hpp>
#include <cmath>

#include "bf16_request.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/kernel.hpp"

namespace fused_mlp_resident_test {

using namespace tenet;

std::shared_ptr<const arch::Accelerator> tpu(long long resident_bytes) {
  arch::AcceleratorSpec s = arch::load_accelerator_preset("tpu-v6e").spec();
  s.chip.mlp_resident_bytes = resident_bytes;
  return std::make_shared<const arch::Accelerator>(s);
}

fused::KernelResult run(std::shared_ptr<const arch::Accelerator> acc, const fused::FfnKernel& k,
                        std::vector<fused::Blocking> blockings = {}) {
  return eval::evaluate_kernel({k, test::bf16_ws_request(std::move(acc)), std::move(blockings)});
}

const fused::TensorResult& tensor(const fused::KernelResult& r, const std::string& name) {
  for (const fused::TensorResult& t : r.tensors)
    if (t.name == name) return t;
  FAIL("no tensor " << name);
  return r.tensors.front();
}

const fused::StageResult& stage(const fused::KernelResult& r, const std::string& name) {
  for (const fused::StageResult& s : r.stages)
    if (s.name == name) return s;
  FAIL("no stage " << name);
  return r.stages.front();
}

TEST_CASE("resident MLP weights are read once over all token blocks", "[fused][resident]") {
  const fused::FfnKernel k{8192, 384, 1536, fused::Activation::kGelu, true};
  const fused::KernelResult kept = run(tpu(32 << 20), k, {{1024, 0}});
  const fused::KernelResult streamed = run(tpu(-1), k, {{1024, 0}});
  CHECK(kept.blocking.resident);
  CHECK_FALSE(streamed.blocking.resident);
  CHECK(tensor(kept, "W1").dram_elements == 384 * 1536);
  CHECK(tensor(kept, "W2").dram_elements == 1536 * 384);
  CHECK(tensor(kept, "b1").dram_elements == 1536);
  CHECK(tensor(streamed, "W1").dram_elements == 8 * 384 * 1536);  // once per 1024-token block
  CHECK(tensor(kept, "X").dram_elements == tensor(streamed, "X").dram_elements);
  // every input and output once: the compulsory bytes (the intermediates stay on chip)
  CHECK(kept.placement == "on_chip");
  CHECK(kept.dram_bytes == kept.compulsory_dram_bytes);
  // the weights are held whole: the footprint grows by them less the two streamed fold tiles
  CHECK(kept.footprint_bytes > streamed.footprint_bytes);
  // the searched blocking is resident too
  CHECK(run(tpu(32 << 20), k).blocking.resident);
}

TEST_CASE("a resident MLP's blocks: the chain serial per block, pipelined over the blocks",
          "[fused][resident]") {
  const auto acc = tpu(32 << 20);
  const double latency = static_cast<double>(acc->spec().dram.latency_cycles);
  for (const fused::FfnKernel& k :
       {fused::FfnKernel{128, 384, 1536, fused::Activation::kGelu, true},
        fused::FfnKernel{4096, 384, 1536, fused::Activation::kGelu, true},
        fused::FfnKernel{2048, 512, 1024, fused::Activation::kSiluGated, false}}) {
    for (std::int64_t rows : {64, 512, 4096}) {
      if (rows > k.s) continue;
      INFO("S " << k.s << " block " << rows);
      const fused::KernelResult r = run(acc, k, {{rows, 0}});
      const double up = stage(r, "up").cycles, down = stage(r, "down").cycles;
      const double blocks = std::ceil(static_cast<double>(k.s) / static_cast<double>(rows));
      // one block's up and down matmuls: the stages' cycles per block (equal blocks)
      const double up1 = up / blocks, down1 = down / blocks;
      const double busy = static_cast<double>(r.cycles) - r.launch_cycles - r.exposed_cycles;
      // the vector unit waits for the first block's up and the last block's down
      CHECK(busy >= r.vector_cycles + up1 + down1 - 1);
      // the matrix units wait for one block's activation
      CHECK(busy >= r.matrix_cycles + r.vector_cycles / blocks - 1);
      if (blocks == 1) CHECK(busy >= up + down + r.vector_cycles - 1);  // all three in series
      // the link: every byte, and the latency of the read and of the last write
      CHECK(static_cast<double>(r.cycles) - r.launch_cycles >= r.dram_cycles + latency - 1);
    }
  }
}

TEST_CASE("a DRAM-bound MLP: the last write's latency beyond the link only when resident",
          "[fused][resident]") {
  // one token against 16 MiB of weights: the link's time dwarfs the arrays' and the vector unit's
  const fused::FfnKernel k{1, 2048, 2048, fused::Activation::kGelu, false};
  const auto kept_chip = tpu(32 << 20), plain_chip = tpu(-1);
  const fused::KernelResult kept = run(kept_chip, k), plain = run(plain_chip, k);
  REQUIRE(kept.bound == "dram");
  REQUIRE(plain.bound == "dram");
  CHECK(kept.dram_bytes == plain.dram_bytes);  // one block: the weights once either way
  const double latency = static_cast<double>(kept_chip->spec().dram.latency_cycles);
  CHECK(static_cast<double>(plain.cycles) ==
        std::ceil(plain.dram_cycles + plain.launch_cycles - 1e-9));
  CHECK(static_cast<double>(kept.cycles) ==
        std::ceil(kept.dram_cycles + latency + kept.launch_cycles - 1e-9));
}

}  // namespace fused_mlp_resident_test
