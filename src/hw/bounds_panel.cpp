// The panel regimes (ii)/(iii) of hw::compute_bounds' data-movement bound (hw/bounds_panel.hpp).
#include "hw/bounds_panel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tenet::hw::regimes {

// Least traffic with one input's panel on chip (regimes (ii)/(iii) in compute_bounds): the panel
// (x rows of a chunk of t ≤ K values of k, width w) read once, the other input `reads` times —
// ceil(count / x), a whole number of panels — and C's partial sums leaving and coming back per
// chunk, c_bytes·(2·ceil(K/t) − 1). Beside the panel the buffer holds a chunk of the streamed input
// (at least t values of width ws) unless that input streams through the PE array: then it is read
// once per fold, ceil(count / span) times, or — stationary in the PEs (ws / is) — once per panel,
// with C's tile (x values) in the buffer or C's partial sums leaving every chunk of k the PE array
// holds (kspan). Chunks are whole: q chunks of at least ceil(K/q) values, exact up to kSteps
// chunks; below that a geometric grid bounds the minimum: on [t0, t1] the streamed term is at least
// its value at t0 and the partial-sum term at t1.
double panel_bound(const Regimes& g, PanelOf panel, bool whole_fits, bool skip, PanelSteps* steps) {
  const bool a = panel == PanelOf::kA;
  const double once = a ? g.a_bytes : g.b_bytes, streamed = a ? g.b_bytes : g.a_bytes;
  const double count = a ? g.m : g.n, w = a ? g.wa : g.wb, ws = a ? g.wb : g.wa;
  const double wc = g.wc, c_bytes = g.c_bytes, k = g.k, span = g.span, kspan = g.kspan,
               capacity = g.capacity;
  constexpr int kSteps = 64;
  constexpr double kNone = std::numeric_limits<double>::infinity();
  const auto reads = [&](double rows) {
    const double whole = whole_below(rows);
    return whole < 1 ? kNone : streamed * whole_above(count / whole);
  };
  const auto partial_sums = [&](double t) {
    return c_bytes * (2 * whole_above(k / t) - 1);  // ceil(K/t) chunks
  };
  // The bytes with chunks t in [t0, t1]: the reads at t0 (the most rows), C's partial sums with
  // ceil(K/t1) chunks (the fewest).
  const double folds = streamed * whole_above(count / span);
  const auto at = [&](double t0, double t1) {
    if (steps) ++steps->evaluated;
    const double beside_chunk = reads((capacity - t0 * ws) / (t0 * w));
    const double beside_c = reads(capacity / (t0 * w + wc));
    const double alone = reads(capacity / (t0 * w));
    return once + std::min(std::min({beside_chunk, folds, beside_c}) + partial_sums(t1),
                           alone + partial_sums(std::min(t1, kspan)));
  };
  // at(t0, t1) >= once + (streamed + partial_sums(t1)), in floating point too: every read term
  // (folds included) is `streamed` times a whole count >= 1 (count >= 1), the partial sums of the
  // shorter chunk min(t1, kspan) are no fewer, and rounding is monotone. A step whose floor is
  // not below the best so far cannot lower it and is skipped (the least is unchanged).
  const double least_reads = count >= 1 ? streamed : 0;
  const auto below = [&](double t1, double best) {
    return !skip || once + (least_reads + partial_sums(t1)) < best;
  };
  // Exact for up to kSteps chunks (q chunks: the shortest chunk ceil(K/q) gives the most rows),
  // then a geometric grid over the shorter chunks t < ceil(K/kSteps).
  double best = kNone;
  // The panel is the whole input, kept in one copy (it never changes) in the whole buffer: the
  // other input may then stream past it once, stationary in the PEs, while C's partial sums leave
  // every chunk of k the PE array holds.
  if (whole_fits) best = std::min(best, once + streamed + partial_sums(std::min(k, kspan)));
  // t = ceil(K/q) never grows with q, so neither does the floor fall: the first step at or above
  // the best ends the loop; a t equal to the last one's gives the same bytes (skipped too).
  double last = 0;
  for (int q = 1; q <= kSteps && q <= k; ++q) {
    const double t = std::ceil(k / q);
    if (skip && t == last) continue;
    if (!below(t, best)) break;
    best = std::min(best, at(t, t));
    last = t;
  }
  const double shortest = std::ceil(k / kSteps);  // the chunks left are below it
  if (k > kSteps && shortest > 1) {
    const double ratio = std::pow(shortest, 1.0 / kSteps);
    double t0 = 1;
    for (int step = 1; step <= kSteps; ++step) {
      const double t1 = step == kSteps ? shortest : t0 * ratio;
      if (below(t1, best)) best = std::min(best, at(t0, t1));
      t0 = t1;
    }
  }
  return best;
}

}  // namespace tenet::hw::regimes
