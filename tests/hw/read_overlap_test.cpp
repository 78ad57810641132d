// dram.read_overlap_fraction (arch::Dram, docs/hardware.md#read-overlap): the share of a tile's
// input reads that runs under the matrix units' work. The default (1) is today's model field for
// field; below 1 a tile lasts max(busy, window) + min(array, (1 - share) x reads), so a run is
// never faster, never slower than today's plus its compute, moves the same bytes, and the term
// is checked against its formula; the key's bounds and its JSON form.
#include <catch2/catch.hpp>
#include <random>

#include "fixtures.hpp"
#include "hw/model.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/evaluate.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

Accelerator with_read_overlap(const Accelerator& acc, double fraction) {
  AcceleratorSpec s = acc.spec();
  s.dram.read_overlap_fraction = fraction;
  return Accelerator(s);
}

}  // namespace

TEST_CASE("read overlap: the formula of one tile", "[hw][read_overlap]") {
  using hw::detail::overlapped_cycles;
  // full overlap: the longer of the array and its window, whatever the reads
  CHECK(overlapped_cycles({100, 90}, 70, {60, 1.0}) == 100);
  CHECK(overlapped_cycles({100, 90}, 170, {160, 1.0}) == 170);
  // none: the reads and the matrix units exclude each other, up to the units' own cycles
  CHECK(overlapped_cycles({100, 90}, 70, {60, 0.0}) == 100 + 60);
  CHECK(overlapped_cycles({100, 90}, 170, {160, 0.0}) == 170 + 90);
  // a quarter overlapped: ⌈0.75 x 60⌉ = 45 serialised
  CHECK(overlapped_cycles({100, 90}, 70, {60, 0.25}) == 145);
  CHECK(overlapped_cycles({100, 90}, 70, {61, 0.25}) == 146);  // ⌈45.75⌉
  // nothing read or nothing computed: nothing serialised
  CHECK(overlapped_cycles({100, 90}, 70, {0, 0.0}) == 100);
  CHECK(overlapped_cycles({5, 0}, 70, {60, 0.0}) == 70);
}

TEST_CASE("read overlap: 1 is today's model, below 1 never faster, bounded, same bytes",
          "[hw][read_overlap]") {
  std::mt19937 rng(11);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 200; ++trial) {
    const Accelerator acc =
        make_acc(pick(2, 8), pick(2, 8), pick(256, 8192), Bandwidth::of(pick(1, 16)),
                 Bandwidth::of(pick(1, 8)), pick(0, 20));
    const GemmShape shape{pick(1, 40), pick(1, 40), pick(1, 40)};
    const auto problem = hw::make_gemm_problem(shape);
    const Dataflow df = static_cast<Dataflow>(pick(0, 2));
    const Tiling t{pick(1, shape.m), pick(1, shape.n), pick(1, shape.k)};
    const auto base = hw::evaluate_gemm_if_fits(acc, problem, df, t);
    if (!base) continue;
    INFO("trial " << trial);
    REQUIRE(*hw::evaluate_gemm_if_fits(with_read_overlap(acc, 1.0), problem, df, t) == *base);
    const auto half = hw::evaluate_gemm_if_fits(with_read_overlap(acc, 0.5), problem, df, t);
    const auto none = hw::evaluate_gemm_if_fits(with_read_overlap(acc, 0.0), problem, df, t);
    REQUIRE(half.has_value());
    REQUIRE(none.has_value());
    REQUIRE(base->cycles.total <= half->cycles.total);
    REQUIRE(half->cycles.total <= none->cycles.total);
    // at most every fold's cycles serialised once more
    REQUIRE(none->cycles.total <= base->cycles.total + base->cycles.compute);
    REQUIRE(none->cycles.compute == base->cycles.compute);
    REQUIRE(none->dram_bytes == base->dram_bytes);
    REQUIRE(none->cycles.stall_dram ==
            none->cycles.total - none->cycles.compute - none->cycles.stall_sram);
  }
}

TEST_CASE("read overlap: a DRAM-bound tile pair serialises its reads with the folds",
          "[hw][read_overlap]") {
  // 8x8 ws array, double-buffered buffer, 4 bytes/cycle, no latency: two tiles along M
  const Accelerator acc = make_acc(8, 8, 1 << 20, Bandwidth::infinite(), Bandwidth::of(4), 0);
  AcceleratorSpec s = acc.spec();
  s.global_buffer.double_buffered = true;
  const Accelerator db(s);
  const auto problem = hw::make_gemm_problem({64, 8, 8});
  const Tiling t{32, 8, 8};
  const hw::Result full = hw::evaluate_gemm(db, problem, Dataflow::kWeightStationary, t);
  const hw::Result none =
      hw::evaluate_gemm(with_read_overlap(db, 0.0), problem, Dataflow::kWeightStationary, t);
  // the first tile's window reads the second tile's A (32 x 8 fp16 = 512 bytes = 128 cycles);
  // the second tile's window writes the first tile's C (not a read): only the first tile grows,
  // by the shorter of its folds' cycles and its reads' 128 cycles
  // one fold: 32 streamed rows + the ws pipeline base 2R + C - 2 (single-buffered weights)
  const long long fold = 32 + 2 * 8 + 8 - 2;
  REQUIRE(none.cycles.total - full.cycles.total == std::min<long long>(fold, 128));
}

namespace {

// A dram fraction key of the accelerator file: not written at its default; `out_of_range` and a
// string fail naming the field; `good` parses and is written back. The parsed accelerator.
Accelerator check_fraction_key(const std::string& key, double out_of_range, double good) {
  const nlohmann::json j = arch::to_json(arch::load_accelerator_preset("systolic-32x32"));
  REQUIRE_FALSE(j["dram"].contains(key));  // the default is not written
  nlohmann::json bad = j;
  bad["dram"][key] = out_of_range;
  CHECK_THAT(parse_error_of(bad),
             Catch::Contains("chip.json /dram/" + key) && Catch::Contains("from 0 to 1"));
  bad["dram"][key] = "half";
  CHECK_THAT(parse_error_of(bad), Catch::Contains("/dram/" + key));
  nlohmann::json with = j;
  with["dram"][key] = good;
  const Accelerator a = arch::parse_accelerator(with, "chip.json");
  REQUIRE(arch::to_json(a)["dram"][key] == good);
  return a;
}

}  // namespace

TEST_CASE("read overlap: the key's bounds and JSON form", "[hw][read_overlap][errors]") {
  const Accelerator a = check_fraction_key("read_overlap_fraction", 1.5, 0.25);
  REQUIRE(a.spec().dram.read_overlap_fraction == 0.25);
  // the tpu-v6e preset sets it (docs/validation.md#tpu-v6e)
  REQUIRE(arch::load_accelerator_preset("tpu-v6e").spec().dram.read_overlap_fraction < 1);
}

// dram.oversized_read_overlap_fraction: the reads of an operand whose whole tensor is at least
// the buffer's capacity (one the chip can only stream) hide by their own share.
TEST_CASE("oversized reads: the formula of one tile", "[hw][read_overlap]") {
  using hw::detail::overlapped_cycles;
  // absent (fraction 1, no cycles): the one-fraction law
  CHECK(overlapped_cycles({100, 90}, 70, {60, 0.25, 0, 1.0}) == 145);
  // 60 cycles of fitting reads at a quarter (45 serialised) + 40 of oversized reads at 0.75 (10)
  CHECK(overlapped_cycles({100, 90}, 120, {60, 0.25, 40, 0.75}) == 120 + 55);
  // only oversized reads, fully overlapped: the longer of the two
  CHECK(overlapped_cycles({100, 90}, 120, {0, 0.0, 40, 1.0}) == 120);
  // still never more than the units' own cycles serialised
  CHECK(overlapped_cycles({100, 90}, 300, {200, 0.0, 200, 0.0}) == 300 + 90);
}

TEST_CASE("oversized reads: absent is today's model, only operands the buffer cannot hold move",
          "[hw][read_overlap]") {
  std::mt19937 rng(23);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  int compared = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const long long buffer = pick(256, 8192);
    const Accelerator acc =
        with_read_overlap(make_acc(pick(2, 8), pick(2, 8), buffer, Bandwidth::of(pick(1, 16)),
                                   Bandwidth::of(pick(1, 8)), pick(0, 20)),
                          0.25);
    const GemmShape shape{pick(1, 60), pick(1, 60), pick(1, 60)};
    const auto problem = hw::make_gemm_problem(shape);
    const Dataflow df = static_cast<Dataflow>(pick(0, 2));
    const Tiling t{pick(1, shape.m), pick(1, shape.n), pick(1, shape.k)};
    const auto base = hw::evaluate_gemm_if_fits(acc, problem, df, t);
    if (!base) continue;
    INFO("trial " << trial);
    AcceleratorSpec s = acc.spec();
    s.dram.oversized_read_overlap_fraction = 1.0;
    const auto hidden = hw::evaluate_gemm_if_fits(Accelerator(s), problem, df, t);
    s.dram.oversized_read_overlap_fraction = 0.25;  // the same share, counted apart
    const auto same = hw::evaluate_gemm_if_fits(Accelerator(s), problem, df, t);
    REQUIRE(hidden.has_value());
    REQUIRE(same.has_value());
    // fp16 inputs A (m x k) and B (k x n): oversized when at least the buffer's bytes
    const bool a_big = 2 * shape.m * shape.k >= buffer, b_big = 2 * shape.k * shape.n >= buffer;
    if (!a_big && !b_big) {
      REQUIRE(*hidden == *base);  // nothing oversized: the key changes nothing
      REQUIRE(*same == *base);
      ++compared;
    }
    // hiding the oversized reads is never slower, never faster than full overlap; same bytes
    REQUIRE(hidden->cycles.total <= base->cycles.total);
    REQUIRE(hidden->cycles.total >=
            hw::evaluate_gemm_if_fits(with_read_overlap(acc, 1.0), problem, df, t)->cycles.total);
    REQUIRE(hidden->dram_bytes == base->dram_bytes);
    // the same share counted apart: at most a latency and a rounding per tile away
    REQUIRE(std::llabs(same->cycles.total - base->cycles.total) <=
            base->tiles * (acc.spec().dram.latency_cycles + 2));
  }
  CHECK(compared > 10);
}

TEST_CASE("oversized reads: the key's bounds and JSON form", "[hw][read_overlap][errors]") {
  const Accelerator a = check_fraction_key("oversized_read_overlap_fraction", -0.1, 0.8);
  REQUIRE(a.spec().dram.oversized_read_overlap_fraction == 0.8);
  // the tpu-v6e preset sets it (docs/validation.md#tpu-v6e)
  REQUIRE(arch::load_accelerator_preset("tpu-v6e").spec().dram.oversized_read_overlap_fraction);
}

// dram.window_read_overlap_fraction: the serialised reads run within the DRAM window's slack, a
// tile lasts max(window, busy + serial) (uncapped: the units and the reads they wait for exclude
// each other), never below max(busy, window) nor above it plus the window.
TEST_CASE("read overlap: the window law of one tile", "[hw][read_overlap]") {
  using hw::detail::overlapped_cycles;
  hw::detail::Reads none{60, 0.0};
  none.within_window = true;
  CHECK(overlapped_cycles({100, 90}, 70, none) == 160);   // array-bound: busy + all reads
  CHECK(overlapped_cycles({100, 90}, 170, none) == 170);  // link-bound: the slack absorbs them
  none.cycles = 160;
  CHECK(overlapped_cycles({100, 90}, 170, none) == 260);  // not capped at the units' cycles
  hw::detail::Reads quarter{60, 0.25};
  quarter.within_window = true;
  CHECK(overlapped_cycles({100, 90}, 120, quarter) == 145);  // ⌈0.75 x 60⌉ = 45
  quarter.oversized = 40, quarter.oversized_fraction = 0.5;  // + 20
  CHECK(overlapped_cycles({100, 90}, 120, quarter) == 165);
  CHECK(overlapped_cycles({100, 0}, 120, quarter) == 120);  // nothing computed
}

TEST_CASE("read overlap: the window key, its bounds and JSON form", "[hw][read_overlap][errors]") {
  std::mt19937 rng(7);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 200; ++trial) {
    const Accelerator acc =
        make_acc(pick(2, 8), pick(2, 8), pick(256, 8192), Bandwidth::of(pick(1, 16)),
                 Bandwidth::of(pick(1, 8)), pick(0, 20));
    AcceleratorSpec s = acc.spec();
    s.global_buffer.double_buffered = true;
    const Accelerator db(s);
    s.dram.window_read_overlap_fraction = 0.0;
    const Accelerator window(s);
    const GemmShape shape{pick(1, 40), pick(1, 40), pick(1, 40)};
    const auto problem = hw::make_gemm_problem(shape);
    const Dataflow df = static_cast<Dataflow>(pick(0, 2));
    const Tiling t{pick(1, shape.m), pick(1, shape.n), pick(1, shape.k)};
    const auto full = hw::evaluate_gemm_if_fits(db, problem, df, t);
    if (!full) continue;
    INFO("trial " << trial);
    const auto w = hw::evaluate_gemm_if_fits(window, problem, df, t);
    REQUIRE(w.has_value());
    REQUIRE(full->cycles.total <= w->cycles.total);  // never faster than full overlap
    // each tile at most max(busy, window) + its window's reads: no more than all windows once more
    REQUIRE(w->cycles.total <= full->cycles.total + full->busy.dram);
    REQUIRE(w->dram_bytes == full->dram_bytes);
    REQUIRE(w->cycles.compute == full->cycles.compute);
    // at 1 the window law is full overlap, field for field
    s = db.spec();
    s.dram.window_read_overlap_fraction = 1.0;
    REQUIRE(*hw::evaluate_gemm_if_fits(Accelerator(s), problem, df, t) == *full);
  }
  const Accelerator a = check_fraction_key("window_read_overlap_fraction", 1.5, 0.0);
  REQUIRE(a.spec().dram.window_read_overlap_fraction == 0.0);
  REQUIRE(arch::load_accelerator_preset("tpu-v6e").spec().dram.window_read_overlap_fraction);
}
