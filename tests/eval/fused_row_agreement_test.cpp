// A model pass's fused attention row (llm::MatmulShape::fused_attention) gives the numbers of the
// fused kernel from every door: the cost model of `tenet model` / `tenet generate`
// (eval::make_cost_model), eval::evaluate_kernel of the row's kernel, and `tenet kernel
// --attention`; on random shapes (GQA/MQA/MHA, prefill, extend Q < KV, decode Q = 1, causal or
// not), several KV-cache schemes and two accelerators. Its bounds are never above what it
// achieves, and its MACs are the brute-force count of the unmasked (query, key) pairs.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "cli_run.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/settings.hpp"

namespace eval_fused_row_agreement_test {

using namespace tenet;
using nlohmann::json;

namespace {

llm::MatmulShape random_row(std::mt19937& rng, int trial) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  llm::MatmulShape s;
  s.name = "self_attn.attention";
  s.batch = pick(1, 2);
  const std::int64_t kv_heads = pick(1, 4), group = std::int64_t{1} << pick(0, 3);
  s.n = pick(1, 700);
  switch (trial % 3) {
    case 0:  // prefill
      s.m = s.n;
      break;
    case 1:  // extend: the last Q of KV positions
      s.m = pick(1, s.n);
      break;
    default:  // decode
      s.m = 1;
  }
  s.k = trial % 2 == 0 ? 64 : 128;
  s.b_operand = workload::OperandRole::kKvCache;
  s.phase = s.m == 1 ? llm::Phase::kDecode : llm::Phase::kPrefill;
  s.fused_attention = llm::FusedAttention{kv_heads * group, kv_heads, trial % 4 != 3};
  return s;
}

}  // namespace

TEST_CASE("fused attention rows: the cost model = evaluate_kernel = tenet kernel",
          "[eval][agreement][fused]") {
  std::mt19937 rng(36);
  int trial = 0;
  for (const char* arch : {"scalable-32x32", "tpu-v6e"}) {
    for (const char* scheme : {"q0f16", "kv_int8", "kv_int4", "q4f16_1"}) {
      eval::Settings settings;
      settings.arch = arch;
      settings.quant = scheme;
      const llm::CostModel model = eval::make_cost_model(settings);
      const eval::Request base = eval::make_request(settings);
      for (int i = 0; i < 3; ++i, ++trial) {
        const llm::MatmulShape row = random_row(rng, trial);
        INFO(arch << " " << scheme << " " << row);
        const llm::LayerCost c = model.evaluate(row);
        eval::KernelRequest k;
        k.kernel = eval::attention_kernel(row);
        k.base = base;
        const fused::KernelResult r = eval::evaluate_kernel(k);
        CHECK(c.cycles == poly::Integer(static_cast<long>(r.cycles)));
        CHECK(c.dram_bytes == poly::Integer(static_cast<long>(r.dram_bytes)));
        CHECK(c.sram_bytes == poly::Integer(static_cast<long>(r.sram_bytes)));
        CHECK(c.bound == r.bound);
        // Physically sound: the bounds never above the kernel, the compulsory bytes at least
        // Q, K, V and O once.
        REQUIRE(c.bounds);
        CHECK(c.bounds->cycles <= c.cycles);
        CHECK(c.bounds->dram_bytes <= c.dram_bytes);
        CHECK(c.bounds->compute_cycles > 0);
        CHECK(c.utilization > 0);
        CHECK(c.utilization <= 1);
        CHECK(c.energy_pj > 0);

        // The CLI door, on a few.
        if (i == 0) {
          const fused::AttentionKernel a = eval::attention_kernel(row);
          const std::string args = "kernel --attention " + std::to_string(a.hq) + "," +
                                   std::to_string(a.hkv) + "," + std::to_string(a.q) + "," +
                                   std::to_string(a.kv) + "," + std::to_string(a.d) +
                                   (a.causal ? " --causal" : "") + " --arch " + arch + " --quant " +
                                   scheme + " --format json";
          const test::CliRun run = test::run_cli(args);
          INFO(args << "\n" << run.out);
          REQUIRE(run.exit_code == 0);
          const json j = json::parse(run.out);
          CHECK(j["cycles"].get<long long>() == r.cycles);
          CHECK(j["dram_bytes"].get<long long>() == r.dram_bytes);
        }

        // MACs: both products over the unmasked pairs, counted one by one.
        std::int64_t pairs = 0;
        for (std::int64_t q = 0; q < row.m; ++q)
          for (std::int64_t key = 0; key < row.n; ++key)
            if (!row.fused_attention->causal || key <= row.n - row.m + q) ++pairs;
        CHECK(row.macs_per_call() ==
              poly::Integer(
                  static_cast<long>(2 * row.batch * row.fused_attention->heads * pairs * row.k)));
      }
    }
  }
}

TEST_CASE("eval::evaluate costs a fused row in its fused-kernel mode: evaluate_fused_row's cost",
          "[eval][fused]") {
  eval::Settings settings;
  settings.arch = "scalable-32x32";
  eval::Request r = eval::make_request(settings);
  r.matmul.name = "self_attn.attention";
  r.matmul.m = 16, r.matmul.n = 40, r.matmul.k = 64, r.matmul.batch = 1;
  r.matmul.fused_attention = llm::FusedAttention{8, 2, true};
  const eval::Evaluation e = eval::evaluate(r);
  CHECK(std::string(e.mode_name()) == "fused kernel");
  CHECK(e.call_cost() == eval::evaluate_fused_row(r, r.matmul));
  CHECK(e.call_cost().cycles > 0);
  // a fused kernel has no single product, tiling or relation-centric view
  CHECK_THROWS_AS(e.product(), InternalError);
  CHECK_THROWS_AS(e.tiling(), InternalError);
  CHECK_FALSE(e.has_relations());
  // and no TENET timing
  r.timing = eval::Timing::kTenet;
  CHECK_THROWS_AS(eval::evaluate(r), InputError);
}

}  // namespace eval_fused_row_agreement_test
