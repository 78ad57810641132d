// The panel regimes of the data-movement bound (hw/bounds_panel.hpp): panel_bound skips the chunk
// steps whose floor cannot beat the best so far; on random problems (decode and prefill shapes,
// packed and scaled widths, small and large buffers, K on both sides of the 64 exact steps) it
// returns the very double that evaluating every step gives, and it does skip steps.
#include "hw/bounds_panel.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>

namespace {

using tenet::hw::regimes::panel_bound;
using tenet::hw::regimes::PanelOf;
using tenet::hw::regimes::PanelSteps;
using tenet::hw::regimes::Regimes;

// A size log-uniform in [1, top] (M = 1 for a fifth of them: decode).
double random_extent(std::mt19937& rng, double top) {
  std::uniform_real_distribution<double> e(0, std::log(top));
  return std::floor(std::exp(e(rng)));
}

Regimes random_regimes(std::mt19937& rng) {
  std::uniform_int_distribution<int> pick(0, 4);
  const double widths[] = {0.5, 1, 2, 4, 0.5625};  // int4, int8, fp16, fp32, int4 + group scales
  const double spans[] = {4, 8, 32, 128, 256};
  Regimes g;
  g.m = pick(rng) == 0 ? 1 : random_extent(rng, 20000);
  g.n = random_extent(rng, 20000);
  g.k = pick(rng) == 0 ? random_extent(rng, 64) : random_extent(rng, 20000);
  g.wa = widths[pick(rng)], g.wb = widths[pick(rng)], g.wc = widths[pick(rng)];
  g.a_bytes = g.m * g.k * g.wa, g.b_bytes = g.k * g.n * g.wb, g.c_bytes = g.m * g.n * g.wc;
  g.span = spans[pick(rng)];
  g.kspan = g.span * (1 << (pick(rng) % 3));
  std::uniform_real_distribution<double> capacity(std::log(1024.0), std::log(64.0 * 1024 * 1024));
  g.capacity = std::floor(std::exp(capacity(rng)));
  return g;
}

bool same_double(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("panel_bound's skipped steps never change the bound", "[hw][bounds]") {
  std::mt19937 rng(20240619);
  int skipped = 0, several = 0, fits = 0, unbounded = 0;
  const int kCases = 20000;
  for (int i = 0; i < kCases; ++i) {
    const Regimes g = random_regimes(rng);
    for (PanelOf panel : {PanelOf::kA, PanelOf::kB}) {
      const double once = panel == PanelOf::kA ? g.a_bytes : g.b_bytes;
      const bool whole_fits = once <= g.capacity;
      PanelSteps fast, every;
      const double skipping = panel_bound(g, panel, whole_fits, true, &fast);
      const double reference = panel_bound(g, panel, whole_fits, false, &every);
      INFO("m " << g.m << " n " << g.n << " k " << g.k << " widths " << g.wa << " " << g.wb << " "
                << g.wc << " span " << g.span << " kspan " << g.kspan << " capacity " << g.capacity
                << " panel " << (panel == PanelOf::kA ? "A" : "B"));
      REQUIRE(same_double(skipping, reference));
      REQUIRE(fast.evaluated <= every.evaluated);
      skipped += fast.evaluated < every.evaluated;
      several += fast.evaluated > 1;
      fits += whole_fits;
      unbounded += std::isinf(reference);
    }
  }
  // Both sides of the skip: most cases skip steps, many still evaluate several (the floor does
  // not cut everything), with the whole panel fitting or not.
  CHECK(skipped > kCases);
  CHECK(several > kCases / 4);
  CHECK(fits > kCases / 10);
  CHECK(fits < 2 * kCases - kCases / 10);
  CHECK(unbounded < kCases / 10);
}

TEST_CASE("panel_bound on a decode product: the first chunk is the least", "[hw][bounds]") {
  // M = 1: A's panel (one row) is read once, B streamed once past it and C written once (one
  // chunk of all K); C's partial sums only grow with more chunks, so every step after the first is
  // skipped.
  Regimes g;
  g.m = 1, g.n = 4096, g.k = 4096, g.wa = g.wb = g.wc = 2;
  g.a_bytes = g.m * g.k * 2, g.b_bytes = g.k * g.n * 2, g.c_bytes = g.m * g.n * 2;
  g.span = g.kspan = 32, g.capacity = 2 * 1024 * 1024;
  PanelSteps fast, every;
  const double skipping = panel_bound(g, PanelOf::kA, true, true, &fast);
  const double reference = panel_bound(g, PanelOf::kA, true, false, &every);
  CHECK(same_double(skipping, reference));
  CHECK(reference == g.a_bytes + g.b_bytes + g.c_bytes);
  CHECK(fast.evaluated == 1);
  CHECK(every.evaluated == 128);
}
