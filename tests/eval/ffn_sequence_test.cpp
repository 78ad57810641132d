// An MLP whose weights exceed the accelerator's fusion.mlp_resident_bytes runs as its matmuls one
// after another (eval/ffn_sequence.hpp, docs/model.md#fused-kernels): the call is the sum of the
// two matmuls as eval::evaluate costs them alone (tenet analyze --gemm) with the launch paid once;
// the switch on both sides of the threshold; no key, no change; the key's errors; the floors.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "bf16_request.hpp"
#include "hw/model.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/eval/pipeline.hpp"

namespace eval_ffn_sequence_test {

using namespace tenet;

std::shared_ptr<const arch::Accelerator> tpu_with(long long resident) {
  arch::AcceleratorSpec s = arch::load_accelerator_preset("tpu-v6e").spec();
  s.chip.mlp_resident_bytes = resident;
  return std::make_shared<const arch::Accelerator>(s);
}

eval::Request base(std::shared_ptr<const arch::Accelerator> acc) {
  return test::bf16_ws_request(std::move(acc));
}

fused::KernelResult run(const fused::FfnKernel& k, std::shared_ptr<const arch::Accelerator> acc) {
  return eval::evaluate_kernel(eval::KernelRequest{k, base(std::move(acc)), {}});
}

// One GEMM as `tenet analyze --gemm M,N,K` costs it: the chip's auto tiling, its launch included.
eval::Evaluation gemm(std::shared_ptr<const arch::Accelerator> acc, std::int64_t m, std::int64_t n,
                      std::int64_t k) {
  eval::Request r = base(std::move(acc));
  r.matmul.name = "gemm";
  r.matmul.m = m, r.matmul.n = n, r.matmul.k = k;
  return eval::evaluate(r);
}

std::int64_t cycles_of(const eval::Evaluation& e) { return poly::to_int64(e.call_cost().cycles); }

constexpr std::int64_t kLlamaWeights = (2048LL * 16384 + 8192LL * 2048) * 2;  // bf16 W1, W2

TEST_CASE("ffn sequence: the call is its two matmuls' evaluate() with the launch once",
          "[eval][ffn_sequence]") {
  const auto acc = tpu_with(32LL << 20);
  const long long launch = hw::detail::launch_cycles(acc->spec());
  REQUIRE(launch > 0);
  for (std::int64_t s : {1, 128, 777, 4096}) {
    INFO("S = " << s);
    const fused::KernelResult r = run({s, 2048, 8192, fused::Activation::kSiluGated, false}, acc);
    REQUIRE(r.placement == "matmuls");
    const eval::Evaluation up = gemm(acc, s, 16384, 2048), down = gemm(acc, s, 2048, 8192);
    // the activation (vector unit) hides under the up matmul
    REQUIRE(r.vector_cycles < static_cast<double>(cycles_of(up)));
    CHECK(r.cycles == cycles_of(up) + cycles_of(down) - launch);
    CHECK(r.launch_cycles == launch);
    CHECK(r.dram_bytes ==
          poly::to_int64(up.call_cost().dram_bytes) + poly::to_int64(down.call_cost().dram_bytes));
    CHECK(r.macs == 3 * s * 2048 * 8192);
    CHECK(r.compulsory_dram_bytes == 2 * (2 * s * 2048) + kLlamaWeights);
    REQUIRE(r.stages.size() == 3);
    CHECK(r.stages[0].name == "up");
    CHECK(r.stages[1].name == "down");
    CHECK(r.stages[2].name == "activation");
    CHECK(r.stages[2].ops == 5 * s * 8192);  // SiLU(gate)·up: 5 operations per element
    CHECK(r.stages[0].tiles.at(0).cycles + r.stages[1].tiles.at(0).cycles + launch == r.cycles);
    // the intermediate goes through DRAM: written by the up matmul, read by the down one
    std::int64_t intermediate = 0;
    for (const fused::TensorResult& t : r.tensors)
      if (t.kind == "intermediate") intermediate += t.dram_bytes;
    CHECK(intermediate >= 2 * s * 16384 + 2 * s * 8192);
    // energy: the sum of the two matmuls'
    const llm::LayerCost c = eval::kernel_call_cost(r, *acc, "");
    CHECK(c.energy_pj == Approx(up.call_cost().energy_pj + down.call_cost().energy_pj));
  }
}

TEST_CASE("ffn sequence: the threshold, both sides (weights in storage format, biases)",
          "[eval][ffn_sequence]") {
  const fused::FfnKernel llama{512, 2048, 8192, fused::Activation::kSiluGated, false};
  const fused::KernelResult fused_today = run(llama, tpu_with(-1));
  CHECK(fused_today.placement != "matmuls");
  // weights == the limit: still resident (fused, the weights read once: tests/fused
  // mlp_resident_test.cpp), the intermediates kept on chip as without the key
  const fused::KernelResult at = run(llama, tpu_with(kLlamaWeights));
  CHECK(at.placement == fused_today.placement);
  CHECK(at.blocking.resident);
  CHECK_FALSE(fused_today.blocking.resident);
  CHECK(at.dram_bytes == at.compulsory_dram_bytes);
  CHECK(at.dram_bytes <= fused_today.dram_bytes);
  CHECK(run(llama, tpu_with(kLlamaWeights - 1)).placement == "matmuls");
  // MiniLM with biases: W1, W2 bf16 + b1[I], b2[H] at the activations' format
  const fused::FfnKernel minilm{256, 384, 1536, fused::Activation::kGelu, true};
  const std::int64_t weights = 2 * 384 * 1536 * 2 + (1536 + 384) * 2;
  CHECK(run(minilm, tpu_with(weights)).placement != "matmuls");
  const auto below = tpu_with(weights - 1);
  const fused::KernelResult r = run(minilm, below);
  REQUIRE(r.placement == "matmuls");
  // the biases are read once, at the link's rate, beside the two matmuls
  const std::int64_t sum = cycles_of(gemm(below, 256, 1536, 384)) +
                           cycles_of(gemm(below, 256, 384, 1536)) -
                           hw::detail::launch_cycles(below->spec());
  const double bias_cycles = (1536 + 384) * 2 / below->spec().dram.bandwidth.bytes_per_cycle;
  CHECK(r.cycles == static_cast<std::int64_t>(std::ceil(static_cast<double>(sum) + bias_cycles)));
  CHECK(r.stages[2].ops == 8 * 256 * 1536 + 256 * (1536 + 384));  // GELU + the bias adds
}

TEST_CASE("ffn sequence: no key, no change, the preset key, other presets",
          "[eval][ffn_sequence]") {
  const arch::Accelerator tpu = arch::load_accelerator_preset("tpu-v6e");
  CHECK(tpu.spec().chip.mlp_resident_bytes == 32LL << 20);
  CHECK(arch::parse_accelerator(arch::to_json(tpu)) == tpu);
  // a limit no MLP exceeds: every MLP fused, its weights resident (read once) when they fit the
  // global buffer beside a block, else streamed per token block as without the key
  for (const fused::FfnKernel& k :
       {fused::FfnKernel{4096, 2048, 8192}, fused::FfnKernel{1, 2048, 8192},
        fused::FfnKernel{1024, 384, 1536, fused::Activation::kGelu, true}}) {
    const fused::KernelResult a = run(k, tpu_with(-1)), b = run(k, tpu_with(1LL << 62));
    CHECK_FALSE(a.blocking.resident);
    CHECK(b.blocking.resident);
    CHECK(b.dram_bytes <= a.dram_bytes);
    CHECK(b.placement == a.placement);
    CHECK(a.candidates == b.candidates);
  }
  // weights larger than the global buffer (Llama-3-8B's MLP, 352 MB): streamed, as without the key
  const fused::FfnKernel big{512, 4096, 14336};
  const fused::KernelResult a = run(big, tpu_with(-1)), b = run(big, tpu_with(1LL << 62));
  CHECK_FALSE(b.blocking.resident);
  CHECK(a.cycles == b.cycles);
  CHECK(a.dram_bytes == b.dram_bytes);
  CHECK(a.blocking == b.blocking);
  for (const char* name : {"scalable-32x32", "tpu-v1"}) {
    const arch::Accelerator acc = arch::load_accelerator_preset(name);
    CHECK(acc.spec().chip.mlp_resident_bytes == -1);
    CHECK_FALSE(arch::to_json(acc).contains("fusion"));
  }
}

TEST_CASE("ffn sequence: the key's errors name its JSON pointer", "[eval][ffn_sequence]") {
  nlohmann::json j = arch::to_json(arch::load_accelerator_preset("tpu-v6e"));
  for (const nlohmann::json& bad :
       {nlohmann::json(-1), nlohmann::json(1.5), nlohmann::json("32MiB")}) {
    j["fusion"]["mlp_resident_bytes"] = bad;
    INFO(bad.dump());
    CHECK_THROWS_WITH(arch::parse_accelerator(j, "x.json"),
                      Catch::Contains("/fusion/mlp_resident_bytes") && Catch::Contains("x.json"));
  }
  j["fusion"]["mlp_resident_bytes"] = 0;  // every MLP as its matmuls
  const auto zero = std::make_shared<const arch::Accelerator>(arch::parse_accelerator(j));
  CHECK(run({64, 384, 1536, fused::Activation::kGelu, true}, zero).placement == "matmuls");
}

TEST_CASE("ffn sequence: never below the DRAM link or the MAC rate, relation counts refused",
          "[eval][ffn_sequence]") {
  const auto acc = tpu_with(0);
  const double bw = acc->spec().dram.bandwidth.bytes_per_cycle;
  const double peak =
      static_cast<double>(acc->rows() * acc->cols() * acc->spec().chip.matrix_units);
  for (const fused::FfnKernel& k :
       {fused::FfnKernel{1, 2048, 8192}, fused::FfnKernel{333, 2048, 8192},
        fused::FfnKernel{8192, 2048, 8192},
        fused::FfnKernel{32, 384, 1536, fused::Activation::kGelu, true},
        fused::FfnKernel{32768, 384, 1536, fused::Activation::kGelu, true}}) {
    const fused::KernelResult r = run(k, acc);
    INFO("S = " << k.s << ", H = " << k.h);
    REQUIRE(r.placement == "matmuls");
    const double cycles = static_cast<double>(r.cycles);
    CHECK(cycles >= static_cast<double>(r.dram_bytes) / bw);
    CHECK(cycles >= static_cast<double>(r.compulsory_dram_bytes) / bw);
    CHECK(cycles >= static_cast<double>(r.macs) / peak);
    CHECK(cycles >= r.vector_cycles);
    const llm::LayerCost c = eval::kernel_call_cost(r, *acc, "");
    CHECK(r.cycles >= poly::to_int64(c.bounds->cycles));
  }
  eval::KernelRequest q{fused::FfnKernel{64, 2048, 8192}, base(acc), {}};
  q.relation_centric = true;
  CHECK_THROWS_WITH(eval::evaluate_kernel(q), Catch::Contains("analyze --gemm"));
}

}  // namespace eval_ffn_sequence_test
