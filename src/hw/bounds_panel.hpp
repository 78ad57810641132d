// The regimes of hw::compute_bounds' data-movement bound (internal): the problem as they see it
// and the panel regimes (ii)/(iii), the least traffic with one input's panel on chip
// (bounds_panel.cpp). Shared by bounds.cpp and the tests that check panel_bound's skipped steps
// against evaluating every step.
#pragma once

#include <cmath>

namespace tenet::hw::regimes {

// The regimes are computed in double (fast; byte counts keep a relative error near 1e-16, and the
// result is rounded down with a margin of 1e-12). The whole number of rows (columns, ...) that fits
// a capacity computed as `v` with fractional widths: floor(v), nudged up by a relative 1e-12 so
// that rounding in v never takes one off (more reads than a mapping could need would lift the
// bound above it).
inline double whole_below(double v) { return std::floor(v * (1 + 1e-12)); }
// ceil(v) for a count of reads or tiles, nudged down by a relative 1e-12 for the same reason.
inline double whole_above(double v) { return std::ceil(v * (1 - 1e-12)); }

// The problem as the regimes of compute_bounds see it: bytes, extents in values, widths in bytes
// per value (scales and zero points that travel with A or B included in theirs).
struct Regimes {
  double a_bytes = 0, b_bytes = 0, c_bytes = 0;  // A's, B's and C's bytes
  double m = 0, n = 0, k = 0;                    // the GEMM's extents
  double wa = 0, wb = 0, wc = 0;                 // bytes per value of A, B and C
  double span = 0;      // the PE array's longer side (values of M or N per fold)
  double kspan = 0;     // values of K the PE array holds (span x MACs per cycle along k)
  double capacity = 0;  // the usable buffer, bytes
};

// Which input's panel stays on chip (panel_bound).
enum class PanelOf { kA, kB };

// How panel_bound went: the chunk steps whose bytes it evaluated (the rest were skipped).
struct PanelSteps {
  int evaluated = 0;
};

// The least traffic with `panel`'s panel on chip (bounds_panel.cpp); `whole_fits`: the whole
// input fits the buffer in one copy. `skip` false evaluates every step (the reference the tests
// compare the skipping path with: the same double); `steps`, when given, counts them.
double panel_bound(const Regimes& g, PanelOf panel, bool whole_fits, bool skip = true,
                   PanelSteps* steps = nullptr);

}  // namespace tenet::hw::regimes
