// What a tiling search hands back besides its tiling, and the model's results without timing:
// the Result it leaves in TilingSearchOptions::result (made from its own timing of the tiling it
// chose, not timed again) is evaluate_gemm's of the tiling it returns, field for field, or none
// exactly when that tiling does not fit; evaluate_gemm_tensors is evaluate_gemm's tensors. On
// random problems and accelerators (shared or partitioned buffers, DMA engines, residency rules)
// and on the presets, under every objective.
#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "random_cases.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

const hw::TilingObjective kObjectives[] = {
    hw::TilingObjective::kLatency, hw::TilingObjective::kEnergy, hw::TilingObjective::kDramBytes,
    hw::TilingObjective::kEdp};

const Dataflow kDataflows[] = {Dataflow::kOutputStationary, Dataflow::kWeightStationary,
                               Dataflow::kInputStationary};

// random_acc, every other one with a microarchitecture: a DMA engine, roles that must stay
// resident (a tiling may then not fit), per-tile overheads.
Accelerator random_any_acc(std::mt19937& rng) {
  AcceleratorSpec s = random_acc(rng).spec();
  std::uniform_int_distribution<long long> pick(0, 3), small(0, 40), beat(1, 16);
  if (pick(rng) < 2) return Accelerator(s);
  arch::Microarch& u = s.micro;
  u.dma.enabled = pick(rng) != 0;
  u.dma.command_cycles = small(rng);
  u.dma.beat_bytes = beat(rng);
  u.dma.separate_channels = pick(rng) < 2;
  if (pick(rng) != 0) u.sram_resident.push_back("weight");
  u.tile_overhead_cycles = 1 + small(rng);
  u.accumulate_from_dram = pick(rng) == 0;
  return Accelerator(s);
}

// The search's Result against evaluate_gemm's of the tiling it returns; whether it fits.
bool check_search_result(const Accelerator& acc, const hw::GemmProblem& p, Dataflow df,
                         const hw::Options& options, hw::TilingObjective objective) {
  std::optional<hw::Result> searched;
  const Tiling chosen =
      hw::choose_tiling(acc, p, df, options, {objective, nullptr, nullptr, &searched});
  const std::optional<hw::Result> fresh = hw::evaluate_gemm_if_fits(acc, p, df, chosen, options);
  REQUIRE(searched.has_value() == fresh.has_value());
  if (!fresh) return false;
  CHECK(*searched == *fresh);
  CHECK(searched->cycles.total == fresh->cycles.total);  // (named: the figure the search ranks)
  return true;
}

}  // namespace

TEST_CASE("the Result a tiling search leaves is evaluate_gemm's of its tiling (random cases)",
          "[hw][tiling][search_result]") {
  std::mt19937 rng(1919);
  int fitted = 0, unfit = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Accelerator acc = random_any_acc(rng);
    const hw::GemmProblem p = random_problem(rng);
    hw::Options options;
    options.edge_transfers = trial % 3 != 0;
    options.kernel_launch = trial % 5 != 0;
    const Dataflow df = kDataflows[trial % 3];
    const hw::TilingObjective objective = kObjectives[(trial / 3) % 4];
    CAPTURE(trial, p.shape.m, p.shape.n, p.shape.k, mapping::to_string(df),
            hw::to_string(objective));
    (check_search_result(acc, p, df, options, objective) ? fitted : unfit)++;
  }
  CHECK(fitted >= 40);  // most random cases fit: the comparison ran on them
  // A slot given but no tiling fits: left as it was.
  AcceleratorSpec s = make_acc(4, 4, 8).spec();  // less than one 4x4 16-bit tile
  s.micro.sram_resident = {"activation", "weight", "output"};
  s.micro.tile_fits_one_bank = true;
  const Accelerator tiny(s);
  const hw::GemmProblem p = hw::make_gemm_problem({64, 64, 64});
  std::optional<hw::Result> searched;
  const Tiling chosen =
      hw::choose_tiling(tiny, p, Dataflow::kWeightStationary, {},
                        {hw::TilingObjective::kLatency, nullptr, nullptr, &searched});
  REQUIRE_FALSE(hw::evaluate_gemm_if_fits(tiny, p, Dataflow::kWeightStationary, chosen));
  CHECK_FALSE(searched.has_value());
}

TEST_CASE("the Result a tiling search leaves is evaluate_gemm's of its tiling (presets)",
          "[hw][tiling][search_result]") {
  struct Case {
    const char* preset;
    long long m, n, k;
    mapping::GemmBits bits;
  };
  const Case cases[] = {
      {"scalable-32x32", 1, 4096, 4096, {16, 4, 16}},
      {"scalable-32x32", 512, 1024, 768, {16, 16, 16}},
      {"systolic-128x128", 300, 128, 2048, {8, 8, 32}},
      {"tpu-v6e", 128, 4096, 1024, {16, 16, 32}},
      {"sauria-int8-8x16", 64, 256, 512, {8, 8, 32}},
      {"sauria-fp16-8x16", 100, 96, 200, {16, 16, 16}},
      {"gemmini", 256, 256, 512, {8, 8, 32}},
      {"eyeriss", 96, 160, 300, {16, 16, 16}},
  };
  int fitted = 0;
  for (const Case& c : cases) {
    const Accelerator acc = arch::load_accelerator_preset(c.preset);
    const hw::GemmProblem p = hw::make_gemm_problem({c.m, c.n, c.k}, c.bits);
    for (const Dataflow df : kDataflows)
      for (const hw::TilingObjective objective : kObjectives) {
        CAPTURE(c.preset, c.m, c.n, c.k, mapping::to_string(df), hw::to_string(objective));
        fitted += check_search_result(acc, p, df, {}, objective) ? 1 : 0;
      }
  }
  CHECK(fitted == 8 * 3 * 4);
}

TEST_CASE("evaluate_gemm_tensors is evaluate_gemm's tensors", "[hw][search_result]") {
  std::mt19937 rng(2020);
  int compared = 0, refused = 0;
  for (int trial = 0; trial < 80; ++trial) {
    const Accelerator acc = random_any_acc(rng);
    const hw::GemmProblem p = random_problem(rng);
    const Dataflow df = kDataflows[trial % 3];
    std::vector<Tiling> all = hw::tiling_candidates(acc, p, df);
    const Tiling t = all[std::uniform_int_distribution<size_t>(0, all.size() - 1)(rng)];
    hw::Options options;
    options.unlimited_buffer = trial % 4 == 0;
    CAPTURE(trial, p.shape.m, p.shape.n, p.shape.k, mapping::to_string(df), mapping::to_string(t));
    const std::optional<hw::Result> r = hw::evaluate_gemm_if_fits(acc, p, df, t, options);
    if (!r) {  // the same error as evaluate_gemm
      CHECK_THROWS_AS(hw::evaluate_gemm_tensors(acc, p, df, t, options), InputError);
      ++refused;
      continue;
    }
    CHECK(hw::evaluate_gemm_tensors(acc, p, df, t, options) == r->tensors);
    ++compared;
  }
  CHECK(compared >= 50);
  CHECK(compared + refused == 80);
}
