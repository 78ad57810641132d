// eval::evaluate_kernel: bytes per tensor in storage format, the matrix stages costed by
// eval::evaluate tile by tile, no time below a link, spilled intermediates counted, quantized
// operands (docs/model.md#fused-kernels).
#include <catch2/catch.hpp>

#include "fused/model.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/settings.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace fused_eval_test {

using namespace tenet;

eval::KernelRequest request(fused::Kernel k, const std::string& quant = "q0f16",
                            const std::string& arch = "scalable-32x32") {
  eval::Settings s;
  s.arch = arch;
  s.quant = quant;
  return {std::move(k), eval::make_request(s), {}};
}

const fused::TensorResult& tensor(const fused::KernelResult& r, const std::string& name) {
  for (const fused::TensorResult& t : r.tensors)
    if (t.name == name) return t;
  FAIL("no tensor " << name);
  throw std::logic_error("unreachable");
}

// No time below any link: DRAM bytes at the bandwidth, the array's and the vector unit's busy
// cycles.
void check_links(const fused::KernelResult& r, const arch::Accelerator& acc) {
  const double bw = acc.spec().dram.bandwidth.bytes_per_cycle;
  CHECK(static_cast<double>(r.cycles) >= static_cast<double>(r.dram_bytes) / bw);
  CHECK(static_cast<double>(r.cycles) >= r.matrix_cycles);
  CHECK(static_cast<double>(r.cycles) >= r.vector_cycles);
  // The MACs at the array's peak (fp16: one MAC per PE per cycle on these presets).
  CHECK(r.cycles * acc.rows() * acc.cols() >= r.macs);
  CHECK(r.seconds == Approx(static_cast<double>(r.cycles) / (acc.spec().clock_mhz * 1e6)));
}

// The matrix stages' cycles are eval::evaluate's cycles of their tiles.
void check_stages(const eval::KernelRequest& q, const fused::KernelResult& r) {
  for (const fused::StageResult& s : r.stages) {
    if (s.unit != "matrix") continue;
    double cycles = 0;
    for (const fused::TileCost& t : s.tiles) {
      const eval::Evaluation e = eval::evaluate(eval::tile_request(q, s.name, t.shape));
      CHECK(poly::to_int64(e.call_cost().cycles) == t.cycles);
      cycles += static_cast<double>(t.count) * static_cast<double>(t.cycles);
    }
    CHECK(s.cycles == Approx(cycles));
  }
}

TEST_CASE("fused attention: fp16 bytes are two per element, K/V once per query block",
          "[fused][eval]") {
  for (bool causal : {false, true}) {
    const fused::AttentionKernel a{8, 2, 300, 700, 64, causal};
    const eval::KernelRequest q = request(a);
    const fused::KernelResult r = eval::evaluate_kernel(q);
    INFO("causal " << causal << " blocking " << r.blocking.rows << "x" << r.blocking.cols);
    CHECK(r.placement == "on_chip");
    for (const fused::TensorResult& t : r.tensors) CHECK(t.dram_bytes == 2 * t.dram_elements);
    CHECK(tensor(r, "Q").dram_bytes == 8 * 300 * 64 * 2);
    CHECK(tensor(r, "O").dram_bytes == 8 * 300 * 64 * 2);
    const std::int64_t query_blocks = (300 + r.blocking.rows - 1) / r.blocking.rows;
    if (!causal) CHECK(tensor(r, "K").dram_bytes == query_blocks * 2 * 700 * 64 * 2);
    CHECK(tensor(r, "K").dram_bytes <= query_blocks * 2 * 700 * 64 * 2);
    CHECK(r.compulsory_dram_bytes == 2 * (2 * 8 * 300 * 64 + 2 * 2 * 700 * 64));
    CHECK(r.dram_bytes >= r.compulsory_dram_bytes);
    check_links(r, *q.base.accelerator);
    check_stages(q, r);
    for (const fused::IntermediateResult& i : r.intermediates) CHECK(i.on_chip == i.produced);
  }
}

TEST_CASE("fused attention: decode with GQA reads K and V once", "[fused][eval]") {
  const fused::AttentionKernel a{32, 8, 1, 4096, 128, true};
  const eval::KernelRequest q = request(a);
  const fused::KernelResult r = eval::evaluate_kernel(q);
  CHECK(tensor(r, "K").dram_bytes == 8 * 4096 * 128 * 2);
  CHECK(tensor(r, "V").dram_bytes == 8 * 4096 * 128 * 2);
  CHECK(r.dram_bytes == r.compulsory_dram_bytes);
  CHECK(static_cast<double>(r.cycles) >= r.dram_cycles);
  check_links(r, *q.base.accelerator);
}

TEST_CASE("fused attention: scores through DRAM add S and P twice each", "[fused][eval]") {
  fused::AttentionKernel a{4, 4, 256, 256, 64, true};
  eval::KernelRequest q = request(a);
  q.blockings = {{64, 64}};
  const fused::KernelResult on_chip = eval::evaluate_kernel(q);
  std::get<fused::AttentionKernel>(q.kernel).scores = fused::ScoresPlace::kDram;
  const fused::KernelResult dram = eval::evaluate_kernel(q);
  CHECK(dram.placement == "dram");
  const std::int64_t scores = on_chip.intermediates[0].produced;
  CHECK(tensor(dram, "S").dram_bytes == 2 * 2 * scores);
  CHECK(tensor(dram, "P").dram_bytes == 2 * 2 * scores);
  CHECK(dram.dram_bytes == on_chip.dram_bytes + 8 * scores);
  CHECK(dram.cycles >= on_chip.cycles);
  check_links(dram, *q.base.accelerator);
}

TEST_CASE("fused attention: a quantized KV cache moves its storage bytes", "[fused][eval]") {
  const fused::AttentionKernel a{8, 8, 64, 512, 128, false};
  eval::KernelRequest q = request(a, "kv_int4");
  q.blockings = {{64, 128}};
  const fused::KernelResult r = eval::evaluate_kernel(q);
  // int4 in groups of 32 along D with an fp16 scale: 4 bits + 16/32 bits per element.
  CHECK(tensor(r, "K").dram_bytes == 8 * 512 * 128 / 2 + 8 * 512 * (128 / 32) * 2);
  CHECK(tensor(r, "Q").dram_bytes == 8 * 64 * 128 * 2);
  check_stages(q, r);
  check_links(r, *q.base.accelerator);
}

TEST_CASE("fused MLP: weights once per token block, quantized weights with their scales",
          "[fused][eval]") {
  const fused::FfnKernel f{100, 256, 704, fused::Activation::kSiluGated, false};
  eval::KernelRequest q = request(f);
  const fused::KernelResult r = eval::evaluate_kernel(q);
  const std::int64_t blocks = (100 + r.blocking.rows - 1) / r.blocking.rows;
  CHECK(tensor(r, "W1").dram_bytes == blocks * 256 * 2 * 704 * 2);
  CHECK(tensor(r, "W2").dram_bytes == blocks * 704 * 256 * 2);
  CHECK(tensor(r, "X").dram_bytes == 100 * 256 * 2);
  check_links(r, *q.base.accelerator);
  check_stages(q, r);

  eval::KernelRequest w4 = request(f, "q4f16_1");
  w4.blockings = {r.blocking};
  const fused::KernelResult r4 = eval::evaluate_kernel(w4);
  // int4 packed 8 per uint32 along K = H, an fp16 scale per group of 32 along K.
  CHECK(tensor(r4, "W1").dram_bytes == blocks * (256 * 1408 / 2 + 256 / 32 * 1408 * 2));
  CHECK(tensor(r4, "W2").dram_bytes == blocks * (704 * 256 / 2 + 704 / 32 * 256 * 2));
  CHECK(tensor(r4, "W1").dram_elements == tensor(r, "W1").dram_elements);
  CHECK(tensor(r4, "X").dram_bytes == tensor(r, "X").dram_bytes);
  check_stages(w4, r4);
}

TEST_CASE("fused MLP: intermediates that do not fit are spilled and counted", "[fused][eval]") {
  const fused::FfnKernel f{64, 128, 4096, fused::Activation::kGelu, true};
  eval::KernelRequest q = request(f);
  q.blockings = {{64, 0}};
  const fused::KernelResult fits = eval::evaluate_kernel(q);
  // The same kernel with a global buffer too small for a 64 x 4096 intermediate.
  eval::Settings s;
  s.quant = "q0f16";
  s.accelerator = std::make_shared<const arch::Accelerator>(
      arch::with_buffer_bytes(*q.base.accelerator, fits.footprint_bytes - 1));
  q.base = eval::make_request(s);
  const fused::KernelResult spilled = eval::evaluate_kernel(q);
  CHECK(fits.placement == "on_chip");
  CHECK(spilled.placement == "spilled");
  CHECK(tensor(spilled, "H1").dram_bytes == 2 * 64 * 4096 * 2);
  CHECK(tensor(spilled, "A").dram_bytes == 2 * 64 * 4096 * 2);
  CHECK(spilled.dram_bytes == fits.dram_bytes + 8 * 64 * 4096);
  for (const fused::IntermediateResult& i : spilled.intermediates) CHECK(i.spilled == i.produced);
  CHECK(tensor(fits, "b1").dram_bytes == 4096 * 2);

  // A buffer too small for 16-token blocks: the search falls back to 1..8 tokens.
  eval::KernelRequest big = request(fused::FfnKernel{256, 4096, 14336});
  s.accelerator = std::make_shared<const arch::Accelerator>(
      arch::with_buffer_bytes(*big.base.accelerator, 100000));
  big.base = eval::make_request(s);
  const fused::KernelResult small = eval::evaluate_kernel(big);
  CHECK(small.blocking.rows <= 8);
  CHECK(small.footprint_bytes <= 100000);
}

TEST_CASE("the pruned blocking search chooses what evaluating every candidate chooses",
          "[fused][eval]") {
  const std::vector<fused::Kernel> kernels = {
      fused::AttentionKernel{32, 8, 4096, 4096, 128, true},
      fused::AttentionKernel{16, 16, 300, 900, 64, false},
      fused::AttentionKernel{8, 2, 37, 1000, 128, true, fused::ScoresPlace::kDram},
      fused::FfnKernel{1000, 1024, 2816, fused::Activation::kSiluGated, false},
      fused::FfnKernel{77, 768, 3072, fused::Activation::kGelu, true}};
  for (const char* arch : {"scalable-32x32", "systolic-128x128"})
    for (const fused::Kernel& k : kernels) {
      const eval::KernelRequest q = request(k, "q0f16", arch);
      const fused::KernelResult chosen = eval::evaluate_kernel(q);
      const fused::TileEvaluator tiles = [&](const std::string& stage, const fused::TileShape& t) {
        const eval::Evaluation e = eval::evaluate(eval::tile_request(q, stage, t));
        fused::TileEvaluation x;
        x.cycles = poly::to_int64(e.call_cost().cycles);
        for (const hw::TensorResult& r : e.product().hw.tensors)
          (r.name[0] == 'A' ? x.a_bytes : r.name[0] == 'B' ? x.b_bytes : x.c_bytes) += r.dram_bytes;
        return x;
      };
      const fused::ModelInputs in{*q.base.accelerator, 16, tiles, {}};
      std::vector<fused::KernelResult> all;
      for (const fused::Blocking& b : fused::candidate_blockings(k)) {
        fused::KernelResult r = fused::evaluate_blocking(k, b, in);
        if (r.footprint_bytes <= r.capacity_bytes) all.push_back(r);
      }
      REQUIRE_FALSE(all.empty());
      std::int64_t fastest = all.front().cycles;
      for (const fused::KernelResult& r : all) fastest = std::min(fastest, r.cycles);
      const fused::KernelResult* best = nullptr;
      for (const fused::KernelResult& r : all)
        if (r.cycles * 100 <= fastest * 102 &&
            (!best || r.dram_bytes < best->dram_bytes ||
             (r.dram_bytes == best->dram_bytes && r.cycles < best->cycles)))
          best = &r;
      INFO(arch << " " << fused::kind_name(k) << " evaluated " << chosen.evaluated << " of "
                << chosen.candidates);
      CHECK(chosen.blocking == best->blocking);
      CHECK(chosen.cycles == best->cycles);
      CHECK(chosen.dram_bytes == best->dram_bytes);
      CHECK(chosen.cycles <= fastest * 102 / 100);
    }
}

TEST_CASE("relation-centric kernels count the chosen blocking from the isl relations",
          "[fused][eval][relations]") {
  for (const fused::Kernel& k :
       {fused::Kernel{fused::AttentionKernel{12, 4, 77, 301, 64, true}},
        fused::Kernel{fused::AttentionKernel{8, 1, 1, 999, 128, true, fused::ScoresPlace::kDram}},
        fused::Kernel{fused::FfnKernel{333, 256, 704, fused::Activation::kGelu, true}}}) {
    eval::KernelRequest q = request(k);
    const fused::KernelResult plain = eval::evaluate_kernel(q);
    CHECK(plain.relation_counts.empty());
    q.relation_centric = true;
    const fused::KernelResult r = eval::evaluate_kernel(q);
    CHECK(r.relation_counts.at("macs") == r.macs);
    for (const fused::TensorResult& t : r.tensors)
      if (t.kind != "intermediate") CHECK(r.relation_counts.at(t.name) == t.dram_elements);
    for (const fused::IntermediateResult& i : r.intermediates)
      CHECK(r.relation_counts.at(i.name) == i.produced);
    CHECK(r.cycles == plain.cycles);
  }
}

TEST_CASE("fused kernels: TENET timing and oversized kernels are errors", "[fused][eval]") {
  eval::KernelRequest q = request(fused::AttentionKernel{2, 1, 8, 8, 8});
  q.base.timing = eval::Timing::kTenet;
  CHECK_THROWS_AS(eval::evaluate_kernel(q), InputError);
  eval::KernelRequest tiny = request(fused::FfnKernel{16, 4096, 4096});
  eval::Settings s;
  s.quant = "q0f16";
  s.accelerator = std::make_shared<const arch::Accelerator>(
      arch::with_buffer_bytes(*tiny.base.accelerator, 1024));
  tiny.base = eval::make_request(s);
  CHECK_THROWS_WITH(eval::evaluate_kernel(tiny), Catch::Contains("no blocking"));
}

}  // namespace fused_eval_test
