// The chip's own attention kernel ("fusion": {"attention"}, arch::AttentionKernelSpec): its fixed
// query block (the last block padded), its stages' folds streamed back to back, the array and the
// vector unit taking turns, its fixed costs; applied to causal attention only, and no kernel time
// below the DRAM link or the MAC rate (docs/model.md#fused-kernels).
#include <catch2/catch.hpp>
#include <cmath>

#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/kernel.hpp"

namespace fused_attention_kernel_test {

using namespace tenet;

std::shared_ptr<const arch::Accelerator> with_kernel(const arch::AttentionKernelSpec& a) {
  arch::AcceleratorSpec s = arch::load_accelerator_preset("tpu-v6e").spec();
  s.chip.attention = a;
  return std::make_shared<const arch::Accelerator>(s);
}

fused::KernelResult run(const fused::Kernel& k, std::shared_ptr<const arch::Accelerator> acc,
                        bool relation_centric = false) {
  eval::KernelRequest q;
  q.kernel = k;
  q.base.bits = {16, 16, 16};
  q.base.dataflow = mapping::Dataflow::kWeightStationary;
  q.base.accelerator = std::move(acc);
  q.relation_centric = relation_centric;
  return eval::evaluate_kernel(q);
}

fused::AttentionKernel attention(std::int64_t q, std::int64_t kv, bool causal = true) {
  return {24, 8, q, kv, 128, causal, fused::ScoresPlace::kOnChip};
}

TEST_CASE("attention kernel: the preset's query block, the last block padded",
          "[fused][attention_kernel]") {
  arch::AttentionKernelSpec spec;
  spec.query_block = 128;
  const auto acc = with_kernel(spec);
  // Q = 132: two blocks of 128 queries; the second computes 124 padding rows
  const fused::KernelResult r = run(attention(132, 132), acc, true);  // relations checked too
  CHECK(r.blocking.rows == 128);
  CHECK(r.blocking.padded);
  std::int64_t qk_rows = 0;
  for (const fused::TileCost& t : r.stages[0].tiles) qk_rows += t.count * t.shape[0];
  CHECK(qk_rows % (3 * 128) == 0);  // every tile g x 128 rows
  // Q and O move the real queries only: 24 heads x 132 x 128 x 2 bytes each
  for (const fused::TensorResult& t : r.tensors)
    if (t.name == "Q" || t.name == "O") CHECK(t.dram_bytes == 24 * 132 * 128 * 2);
  // Q <= the block: one block of Q rows, nothing padded in effect
  CHECK(run(attention(32, 512), acc).blocking.rows == 32);
  // non-causal (encoder) attention keeps the search: the block is not forced
  CHECK_FALSE(run(attention(132, 132, false), acc).blocking.padded);
}

TEST_CASE("attention kernel: fixed costs per block, per row and per call",
          "[fused][attention_kernel]") {
  arch::AttentionKernelSpec base;
  base.query_block = 128;
  arch::AttentionKernelSpec costly = base;
  costly.block_ns = 100, costly.row_ns = 2, costly.call_ns = 1000;
  const fused::KernelResult a = run(attention(132, 132), with_kernel(base));
  const fused::KernelResult b = run(attention(132, 132), with_kernel(costly));
  // 8 KV heads x 2 query blocks; 24 heads x 256 computed rows; one call; at 1.75 cycles per ns
  const double expected = 1.75 * (100.0 * 16 + 2.0 * 24 * 256 + 1000);
  CHECK(b.overhead_cycles == Approx(expected));
  CHECK(a.overhead_cycles == 0);
  // the array's side is the longer here: every cost adds
  CHECK(b.cycles - a.cycles == Approx(expected).margin(1));
  // non-causal attention pays none of them
  CHECK(run(attention(132, 132, false), with_kernel(costly)).overhead_cycles == 0);
  // a DRAM-bound decode: the block and row costs run on the compute side, under the K/V stream;
  // only the call's cost adds
  const fused::KernelResult d0 = run(attention(1, 131072), with_kernel(base));
  const fused::KernelResult d1 = run(attention(1, 131072), with_kernel(costly));
  REQUIRE(d1.dram_cycles >
          d1.matrix_cycles + d1.vector_cycles + d1.exposed_cycles + 1.75 * (100.0 * 8 + 2.0 * 24));
  CHECK(d1.overhead_cycles == Approx(1.75 * (100.0 * 8 + 2.0 * 24 + 1000)));
  CHECK(d1.cycles - d0.cycles == Approx(1.75 * 1000).margin(1));
  CHECK(static_cast<double>(d1.cycles) >= d1.dram_cycles);
}

TEST_CASE("attention kernel: the K/V pipeline's ramp per query block",
          "[fused][attention_kernel]") {
  arch::AttentionKernelSpec base;
  base.query_block = 128;
  arch::AttentionKernelSpec ramp = base;
  ramp.ramp_keys = 1000, ramp.ramp_ns_per_key = 2;
  // Q = 256 against KV = 1024 (causal): two query blocks; the first computes the key blocks up
  // to key 895, the second all 1024 keys: min(keys, 1000) each
  for (const std::int64_t kv : {1024, 300}) {
    const std::int64_t q = std::min<std::int64_t>(256, kv);
    const fused::KernelResult a = run(attention(q, kv), with_kernel(base));
    const fused::KernelResult r = run(attention(q, kv), with_kernel(ramp));
    const std::int64_t cols = r.blocking.cols;
    double keys = 0;
    for (std::int64_t qb = 0; qb * 128 < q; ++qb) {
      const std::int64_t last = kv - q + std::min<std::int64_t>(q, (qb + 1) * 128) - 1;
      keys +=
          static_cast<double>(std::min<std::int64_t>(1000, std::min(kv, (last / cols + 1) * cols)));
    }
    INFO("KV " << kv << " key block " << cols);
    CHECK(r.overhead_cycles == Approx(1.75 * 2 * keys));
    CHECK(r.cycles - a.cycles == Approx(1.75 * 2 * keys).margin(1));
  }
}

TEST_CASE("attention kernel: its softmax's operations per score", "[fused][attention_kernel]") {
  arch::AttentionKernelSpec five;
  five.query_block = 128;
  arch::AttentionKernelSpec four = five;
  four.softmax_ops_per_score = 4;
  const fused::KernelResult a = run(attention(128, 2048), with_kernel(five));
  const fused::KernelResult b = run(attention(128, 2048), with_kernel(four));
  // one operation less per score: 24 heads x 128 rows x 2048 keys at 1024 ops per cycle
  const std::int64_t scores = 24LL * 128 * 2048;
  CHECK(a.vector_cycles - b.vector_cycles == Approx(static_cast<double>(scores) / 1024));
  CHECK(a.stages.back().ops - b.stages.back().ops == scores);
  // non-causal attention keeps the generic count
  CHECK(run(attention(128, 2048, false), with_kernel(four)).vector_cycles ==
        run(attention(128, 2048, false), with_kernel(five)).vector_cycles);
}

TEST_CASE("attention kernel: back-to-back folds and turns stay above every link",
          "[fused][attention_kernel]") {
  arch::AttentionKernelSpec spec;
  spec.query_block = 128;
  spec.back_to_back = true;
  const auto acc = with_kernel(spec);
  const double peak = 4.0 * 256 * 256;  // MACs per cycle of the chip
  for (const auto& k : {attention(1, 131072), attention(32, 8192), attention(512, 2048),
                        attention(1, 128), attention(2048, 2048)}) {
    const fused::KernelResult plain = run(k, with_kernel({}));
    const fused::KernelResult r = run(k, acc);
    INFO("Q " << k.q << " KV " << k.kv);
    for (const fused::StageResult& s : r.stages)
      if (s.unit == "matrix") CHECK(s.cycles >= std::ceil(static_cast<double>(s.macs) / peak));
    CHECK(static_cast<double>(r.cycles) >= r.dram_cycles);
    CHECK(static_cast<double>(r.cycles) >= r.matrix_cycles);
    // a decode's fill and drain once per stage, not per fold: the array is not the bound
    if (k.q == 1 && k.kv == 131072) {
      CHECK(r.matrix_cycles <= plain.matrix_cycles);
      CHECK(r.matrix_cycles < r.dram_cycles);
      CHECK(r.bound == "dram");
    }
  }
  // serial_softmax: the array and the vector unit add
  arch::AttentionKernelSpec serial = spec;
  serial.serial_softmax = true;
  const fused::KernelResult t = run(attention(512, 512), with_kernel(serial));
  CHECK(static_cast<double>(t.cycles) >= t.matrix_cycles + t.vector_cycles);
}

TEST_CASE("attention kernel: the accelerator file's keys, read and written back",
          "[fused][attention_kernel]") {
  const arch::Accelerator tpu = arch::load_accelerator_preset("tpu-v6e");
  const arch::AttentionKernelSpec& a = tpu.spec().chip.attention;
  CHECK(a.query_block == 128);
  CHECK(a.back_to_back);
  CHECK(a.serial_softmax);
  CHECK(arch::parse_accelerator(arch::to_json(tpu)) == tpu);
  // every other preset: the defaults (none of the rules)
  CHECK_FALSE(arch::load_accelerator_preset("scalable-32x32").spec().chip.attention.active());
  nlohmann::json j = arch::to_json(tpu);
  j["fusion"]["attention"]["row_ns"] = -1;
  CHECK_THROWS_WITH(arch::parse_accelerator(j, "x.json"),
                    Catch::Contains("/fusion/attention/row_ns") && Catch::Contains("x.json"));
  j["fusion"]["attention"]["row_ns"] = 1;
  for (const char* key : {"ramp_keys", "ramp_ns_per_key", "softmax_ops_per_score"}) {
    nlohmann::json bad = j;
    bad["fusion"]["attention"][key] = -1;
    CHECK_THROWS_WITH(arch::parse_accelerator(bad, "x.json"),
                      Catch::Contains(std::string("/fusion/attention/") + key));
  }
  CHECK(a.softmax_ops_per_score == 4);
  CHECK(a.ramp_keys == 8192);
  j["fusion"]["attention"]["query_blocks"] = 1;
  CHECK_THROWS_WITH(arch::parse_accelerator(j, "x.json"), Catch::Contains("query_blocks"));
}

}  // namespace fused_attention_kernel_test
