// The call's fixed cost (kernel_launch_ns) is paid once per kernel call: once by a fused kernel
// however many matmul tiles its stages hold (the tiles eval::evaluate_kernel costs do not pay it),
// and once by a plain GEMM however many buffer tiles it walks (docs/model.md#fused-kernels).
#include <catch2/catch.hpp>

#include "bf16_request.hpp"
#include "hw/model.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/settings.hpp"

namespace fused_launch_test {

using namespace tenet;

std::shared_ptr<const arch::Accelerator> with_launch(const arch::Accelerator& acc, double ns) {
  arch::AcceleratorSpec s = acc.spec();
  s.chip.kernel_launch_ns = ns;
  s.chip.attention = {};  // the generic stage law (the chip's kernel: attention_kernel_test)
  s.chip.mlp_resident_bytes = -1;  // every MLP fused (its matmuls in sequence: tests/eval)
  return std::make_shared<const arch::Accelerator>(s);
}

eval::Request base(std::shared_ptr<const arch::Accelerator> acc) {
  return test::bf16_ws_request(std::move(acc));
}

// A tile's cycles as evaluate_kernel times it: the faster of its two orientations (bf16
// operands: C = A·B or Cᵀ = Bᵀ·Aᵀ, the other input held in the array).
std::int64_t tile_cycles(const eval::KernelRequest& q, const std::string& stage,
                         const std::array<std::int64_t, 3>& s) {
  const auto c = [&](std::int64_t m, std::int64_t n) {
    return poly::to_int64(
        eval::evaluate(eval::tile_request(q, stage, {m, n, s[2]})).call_cost().cycles);
  };
  return std::min(c(s[0], s[1]), c(s[1], s[0]));
}

std::int64_t tile_count(const fused::KernelResult& r) {
  std::int64_t n = 0;
  for (const fused::StageResult& s : r.stages)
    for (const fused::TileCost& t : s.tiles) n += t.count;
  return n;
}

TEST_CASE("launch: a fused kernel pays kernel_launch_ns once, its tiles none", "[fused][launch]") {
  const arch::Accelerator tpu = arch::load_accelerator_preset("tpu-v6e");
  const auto none = with_launch(tpu, 0), some = with_launch(tpu, 2000);
  const long long launch = hw::detail::launch_cycles(some->spec());
  REQUIRE(launch == 3500);  // 2000 ns at 1.75 GHz
  const fused::Kernel kernels[] = {
      fused::FfnKernel{4096, 384, 1536, fused::Activation::kGelu, true},
      fused::FfnKernel{512, 2048, 8192, fused::Activation::kSiluGated, false},
      fused::AttentionKernel{24, 8, 512, 2048, 128, true, fused::ScoresPlace::kOnChip},
      fused::AttentionKernel{12, 12, 384, 384, 32, false, fused::ScoresPlace::kDram}};
  for (const fused::Kernel& k : kernels) {
    eval::KernelRequest a{k, base(none), {}}, b{k, base(some), {}};
    const fused::KernelResult ra = eval::evaluate_kernel(a), rb = eval::evaluate_kernel(b);
    INFO(fused::kind_name(k) << " blocking " << rb.blocking.rows << "x" << rb.blocking.cols);
    REQUIRE(tile_count(rb) > 1);  // many tiles, one call
    CHECK(rb.blocking == ra.blocking);
    CHECK(rb.matrix_cycles == ra.matrix_cycles);  // no tile pays the launch
    CHECK(ra.launch_cycles == 0);
    CHECK(rb.launch_cycles == launch);
    CHECK(rb.cycles - ra.cycles == launch);
    // each tile evaluation alone is the same with or without the accelerator's launch
    for (const fused::StageResult& s : rb.stages)
      for (const fused::TileCost& t : s.tiles) {
        CHECK(tile_cycles(b, s.name, t.shape) == t.cycles);
        CHECK(tile_cycles(a, s.name, t.shape) == t.cycles);
      }
  }
}

TEST_CASE("launch: a plain GEMM of many buffer tiles pays kernel_launch_ns once",
          "[fused][launch]") {
  const arch::Accelerator tpu = arch::load_accelerator_preset("tpu-v6e");
  const auto none = with_launch(tpu, 0), some = with_launch(tpu, 2000);
  for (const std::array<long long, 3> mnk :
       {std::array<long long, 3>{4096, 2048, 8192}, {1, 128256, 2048}, {300, 700, 900}}) {
    eval::Request a = base(none), b = base(some);
    for (eval::Request* r : {&a, &b})
      r->matmul.m = mnk[0], r->matmul.n = mnk[1], r->matmul.k = mnk[2];
    mapping::Tiling t;  // small tiles: many of them
    t.m = 128, t.n = 256, t.k = 512;
    a.tiling = t, b.tiling = t;
    const eval::Evaluation ea = eval::evaluate(a), eb = eval::evaluate(b);
    REQUIRE(eb.hw().tiles > 1);
    CHECK(eb.hw().cycles.total - ea.hw().cycles.total == 3500);
  }
}

}  // namespace fused_launch_test
