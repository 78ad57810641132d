// The physical limits under a microarchitecture's DMA engine (docs/model.md §7, issue 34): the
// DRAM-bandwidth cycles of hw::compute_bounds price the operands that must stay SRAM-resident at
// the DMA engine's throughput (burst latency, throttle gaps) rather than at the DRAM's burst rate.
// On random problems and random DMA engines no mapping the model evaluates takes fewer cycles, and
// on the SAURIA presets the bound is within a small factor of what their auto tiling reaches.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <random>

#include "random_cases.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/hw/bounds.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

// random_acc with an active microarchitecture: a DMA engine with random commands, bursts, beats,
// outstanding bursts, channels and throttle, and a random set of roles that must stay resident.
Accelerator random_dma_acc(std::mt19937& rng) {
  AcceleratorSpec s = random_acc(rng).spec();
  std::uniform_int_distribution<long long> pick(0, 3), small(0, 40), beat(1, 16);
  arch::Microarch& u = s.micro;
  u.dma.enabled = true;
  u.dma.command_cycles = small(rng);
  u.dma.beat_bytes = beat(rng);
  u.dma.max_burst_bytes = pick(rng) == 0 ? 0 : u.dma.beat_bytes * (1 + small(rng));
  u.dma.outstanding_bursts = pick(rng);
  u.dma.burst_latency_cycles = pick(rng) == 0 ? small(rng) : 0;
  u.dma.separate_channels = pick(rng) < 2;
  if (pick(rng) != 0) {
    u.dma.throttle_bytes = 1 + small(rng) * 4;
    u.dma.throttle_gap_cycles = 1 + small(rng);
  }
  const char* roles[] = {"activation", "weight", "output"};
  for (const char* role : roles)
    if (pick(rng) != 0) u.sram_resident.push_back(role);
  u.tile_fits_one_bank = pick(rng) == 0;
  u.accumulate_from_dram = pick(rng) < 2;
  u.tile_overhead_cycles = small(rng);
  if (pick(rng) == 0) u.layouts["activation"].contiguous = "m";
  if (pick(rng) == 0) u.layouts["output"].contiguous = "m";
  return Accelerator(s);
}

// ceil(bytes / bandwidth): the DRAM cycles of the bound before the DMA engine was priced.
long long plain_dram_cycles(const Accelerator& acc, long long bytes) {
  const arch::Bandwidth& bw = acc.spec().dram.bandwidth;
  if (bw.unlimited) return 0;
  return static_cast<long long>(std::ceil(static_cast<double>(bytes) / bw.bytes_per_cycle - 1e-9));
}

}  // namespace

TEST_CASE("bounds under a DMA engine: no feasible mapping beats them", "[hw][bounds][micro]") {
  // TENET_DMA_BOUNDS_TRIALS runs more by hand (3000 pass)
  const char* env = std::getenv("TENET_DMA_BOUNDS_TRIALS");
  const int trials = env && *env ? std::atoi(env) : 300;
  std::mt19937 rng(3434);
  long long checked = 0, dma_binding = 0, dram_binding = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const Accelerator acc = random_dma_acc(rng);
    const hw::GemmProblem p = random_problem(rng);
    hw::Options options;
    options.edge_transfers = trial % 4 != 0;
    const hw::Bounds b = hw::compute_bounds(acc, p, options);
    REQUIRE(b.cycles == std::max(b.compute_cycles, b.dram_cycles));
    if (options.edge_transfers && b.dram_cycles > plain_dram_cycles(acc, b.dram_bytes))
      ++dma_binding;
    for (Dataflow df :
         {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
      std::vector<Tiling> all = hw::tiling_candidates(acc, p, df);
      std::shuffle(all.begin(), all.end(), rng);
      all.resize(std::min<size_t>(all.size(), 10));
      all.push_back(hw::choose_tiling(acc, p, df, options));
      all.push_back(Tiling{});
      for (const Tiling& t : all) {
        const std::optional<hw::Result> r = hw::evaluate_gemm_if_fits(acc, p, df, t, options);
        if (!r) continue;  // breaks a residency rule: no mapping
        INFO(p << " " << mapping::to_string(df) << " " << mapping::to_string(t) << " on " << acc);
        REQUIRE(b.dram_bytes <= r->dram_bytes);
        REQUIRE(b.cycles <= r->cycles.total);
        // no time below the link: every byte at the bandwidth, or with separate read and write
        // channels (each of the bandwidth) half of them
        if (options.edge_transfers) {
          const long long link = acc.spec().micro.dma.separate_channels
                                     ? plain_dram_cycles(acc, r->dram_bytes / 2)
                                     : plain_dram_cycles(acc, r->dram_bytes);
          CHECK(r->cycles.total >= link);
        }
        if (b.dram_cycles > b.compute_cycles) ++dram_binding;
        ++checked;
      }
    }
  }
  CHECK(checked >= 3000);
  // The DMA engine's terms lift the DRAM cycles above bytes / bandwidth on many cases, and the
  // DRAM term is the binding one on many mappings (the checks above are not vacuous).
  CHECK(dma_binding > 50);
  CHECK(dram_binding > 500);
}

TEST_CASE("the SAURIA presets' cycle bound uses the throttled DMA throughput",
          "[hw][bounds][micro]") {
  // SAURIA's testbench DRAM moves 1280 B at 256 B per core cycle and then idles 27 cycles, one
  // burst in flight after a 50-cycle latency: about 32 B per cycle with 3840-byte bursts, not the
  // 254 B per cycle of the burst rate.
  const Accelerator acc = arch::load_accelerator_preset("sauria-int8-32x32");
  // a weight GEMV (decode) and a prefill GEMM, int8 x int8 -> int32
  for (const GemmShape shape : {GemmShape{1, 4096, 4096}, GemmShape{512, 4096, 4096}}) {
    INFO(shape.m << "x" << shape.n << "x" << shape.k);
    const hw::GemmProblem p = hw::make_gemm_problem(shape, {8, 8, 32});
    const hw::Bounds b = hw::compute_bounds(acc, p);
    const Tiling t = hw::choose_tiling(acc, p, Dataflow::kOutputStationary);
    const hw::Result r = hw::evaluate_gemm(acc, p, Dataflow::kOutputStationary, t);
    CHECK(b.cycles <= r.cycles.total);
    // At most 32 B per cycle per channel: the inputs (A and B, each read once) at 32 B per
    // cycle, all the traffic at twice that even with separate read and write channels (the
    // preset has one: its copy commands run one at a time). At least 2.5x the cycles of the
    // burst rate.
    const long long inputs = shape.m * shape.k + shape.k * shape.n;
    CHECK(static_cast<double>(inputs) / static_cast<double>(b.dram_cycles) <= 32.5);
    CHECK(static_cast<double>(b.dram_bytes) / static_cast<double>(b.dram_cycles) <= 65);
    CHECK(b.dram_cycles >= 2.5 * plain_dram_cycles(acc, b.dram_bytes));
    // the GEMV is DRAM-bound: its bound within 1.5x of what the auto tiling achieves (10x when
    // the bound took the burst rate)
    if (shape.m == 1) {
      CHECK(b.dram_cycles > b.compute_cycles);
      CHECK(static_cast<double>(r.cycles.total) <= 1.5 * static_cast<double>(b.cycles));
    }
  }
  // Without a throttle or latency (the ideal memory) the DMA engine moves at the burst rate; its
  // copy commands run one at a time (dma.separate_channels false, as SAURIA's DMA controller
  // does), so every byte of the GEMV (1 MiB of B, 1 KiB of A, 4 KiB of int32 C) takes the one
  // channel: the link's cycles of all the bytes are the bound.
  const Accelerator ideal = arch::load_accelerator_preset("sauria-int8-8x16-idealmem");
  REQUIRE_FALSE(ideal.spec().micro.dma.separate_channels);
  const hw::GemmProblem gemv = hw::make_gemm_problem({1, 1024, 1024}, {8, 8, 32});
  const hw::Bounds bi = hw::compute_bounds(ideal, gemv);
  CHECK(bi.dram_bytes == 1024 * 1024 + 1024 + 4 * 1024);
  CHECK(bi.dram_cycles == plain_dram_cycles(ideal, bi.dram_bytes));
  CHECK(bi.cycles <= hw::evaluate_gemm(ideal, gemv, Dataflow::kOutputStationary,
                                       hw::choose_tiling(ideal, gemv, Dataflow::kOutputStationary))
                         .cycles.total);
}
