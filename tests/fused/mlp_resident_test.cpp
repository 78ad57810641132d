// An MLP fused on a chip whose compiler keeps its weights on chip (fusion.mlp_resident_bytes):
// the weights read once, each token block's chain serial and the blocks pipelined, the last
// write's latency exposed beyond the link (docs/model.md#fused-kernels). Without the key the
// blocked model is unchanged.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "bf16_request.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/kernel.hpp"

namespace fused_mlp_resident_test {

using namespace tenet;

// The preset with its MLP keys set: by default the weights streamed fold by fold under the units
// and no cost per token block (the law before fusion.mlp_weights_whole / mlp_block_ns).
std::shared_ptr<const arch::Accelerator> tpu(long long resident_bytes, bool whole = false,
                                             double block_ns = 0) {
  arch::AcceleratorSpec s = arch::load_accelerator_preset("tpu-v6e").spec();
  s.chip.mlp_resident_bytes = resident_bytes;
  s.chip.mlp_weights_whole = whole;
  s.chip.mlp_block_ns = block_ns;
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

TEST_CASE(
    "resident weights waited for whole: the up matmuls after X's first block and W1, the "
    "down matmuls after W2",
    "[fused][resident]") {
  const auto streamed = tpu(32 << 20), whole = tpu(32 << 20, true);
  const double bw = whole->spec().dram.bandwidth.bytes_per_cycle;
  const double latency = static_cast<double>(whole->spec().dram.latency_cycles);
  for (const fused::FfnKernel& k :
       {fused::FfnKernel{1, 384, 1536, fused::Activation::kGelu, true},
        fused::FfnKernel{32, 384, 1536, fused::Activation::kGelu, true},
        fused::FfnKernel{512, 384, 1536, fused::Activation::kGelu, true},
        fused::FfnKernel{1, 2048, 2048, fused::Activation::kGelu, false}}) {
    for (std::int64_t rows : {16, 128, 1024}) {
      INFO("S " << k.s << " block " << rows);
      const fused::KernelResult w = run(whole, k, {{rows, 0}});
      const fused::KernelResult s = run(streamed, k, {{rows, 0}});
      REQUIRE(w.blocking.resident);
      CHECK(w.dram_bytes == s.dram_bytes);  // the same bytes, only their timing differs
      const double x1 =
          static_cast<double>(std::min(rows, k.s) * k.h * 2);  // the first X block, bf16
      const double w1 = static_cast<double>(tensor(w, "W1").dram_bytes) +
                        static_cast<double>(k.bias ? tensor(w, "b1").dram_bytes : 0);
      const double w2 = static_cast<double>(tensor(w, "W2").dram_bytes) +
                        static_cast<double>(k.bias ? tensor(w, "b2").dram_bytes : 0);
      const double start = (x1 + w1) / bw + latency, w2_wait = w2 / bw;
      const double y_last = static_cast<double>(std::min(rows, k.s) * k.h * 2) / bw + latency;
      const double t = static_cast<double>(w.cycles) - w.launch_cycles;
      // nothing computes before X's first block and W1; the down matmuls not before W2; after
      // them the last output block's write
      CHECK(t >= start + w2_wait + stage(w, "down").cycles + y_last - 2);
      CHECK(t >= start + stage(w, "up").cycles + stage(w, "down").cycles / 2 - 2);
      // never below the link
      CHECK(t >= w.dram_cycles + latency - 1);
    }
  }
}

TEST_CASE("a resident MLP's cost per token block after the first", "[fused][resident]") {
  const double ns = 120;
  const auto plain = tpu(32 << 20, true), stepped = tpu(32 << 20, true, ns);
  const double per_block = ns * plain->spec().clock_mhz / 1000;
  const fused::FfnKernel k{4096, 384, 1536, fused::Activation::kGelu, true};
  for (std::int64_t rows : {128, 512, 1024, 4096}) {
    INFO("block " << rows);
    const fused::KernelResult a = run(plain, k, {{rows, 0}}), b = run(stepped, k, {{rows, 0}});
    const double blocks = static_cast<double>(k.s / rows);
    CHECK(b.overhead_cycles == Approx(per_block * (blocks - 1)));
    // on the units' side: the time grows by it unless the link hides it, never by more
    CHECK(static_cast<double>(b.cycles) <= static_cast<double>(a.cycles) + b.overhead_cycles + 1);
    CHECK(b.cycles >= a.cycles);
    if (a.bound != "dram") CHECK(b.cycles >= a.cycles + std::floor(b.overhead_cycles));
  }
  // one block: nothing beyond the launch
  CHECK(run(stepped, k, {{4096, 0}}).cycles == run(plain, k, {{4096, 0}}).cycles);
}

TEST_CASE("fusion.mlp_weights_whole and mlp_block_ns: the preset's values, round trip, errors",
          "[fused][resident]") {
  const arch::Accelerator tpu = arch::load_accelerator_preset("tpu-v6e");
  CHECK(tpu.spec().chip.mlp_weights_whole);
  CHECK(tpu.spec().chip.mlp_block_ns == 120);
  CHECK(arch::parse_accelerator(arch::to_json(tpu)) == tpu);
  for (const char* name : {"scalable-32x32", "tpu-v1"}) {  // absent: today's law, not written
    const arch::Accelerator acc = arch::load_accelerator_preset(name);
    CHECK_FALSE(acc.spec().chip.mlp_weights_whole);
    CHECK(acc.spec().chip.mlp_block_ns == 0);
    CHECK_FALSE(arch::to_json(acc).contains("fusion"));
  }
  nlohmann::json j = arch::to_json(tpu);
  for (const nlohmann::json& bad : {nlohmann::json(-1), nlohmann::json("120ns")}) {
    j["fusion"]["mlp_block_ns"] = bad;
    INFO(bad.dump());
    CHECK_THROWS_WITH(arch::parse_accelerator(j, "x.json"),
                      Catch::Contains("/fusion/mlp_block_ns") && Catch::Contains("x.json"));
  }
  j["fusion"]["mlp_block_ns"] = 0;
  j["fusion"]["mlp_weights_whole"] = "yes";
  CHECK_THROWS_WITH(arch::parse_accelerator(j, "x.json"),
                    Catch::Contains("/fusion/mlp_weights_whole") && Catch::Contains("x.json"));
}

}  // namespace fused_mlp_resident_test
