// How the folds of a GEMM occupy the PE array (hw::ArrayUse) and the note that says when a
// compute-bound matmul is slow because the mapping under-uses the array, not because of its MAC
// rate (docs/output.md#array-use).
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hw/model.hpp"

namespace tenet::hw {

const char* dimension_name(mapping::GemmDim d) {
  return d == mapping::GemmDim::kM ? "M" : d == mapping::GemmDim::kN ? "N" : "K";
}

namespace detail {
namespace {

long long size_of(const mapping::GemmShape& s, mapping::GemmDim d) {
  return d == mapping::GemmDim::kM ? s.m : d == mapping::GemmDim::kN ? s.n : s.k;
}

// The mean fraction of a dimension's fold pieces (`split` lanes each, over all tiles) that hold
// the matmul's own `size` elements.
double share_of(const DimPlan& d, long long size) {
  const double offered = static_cast<double>(d.fold_intervals()) * static_cast<double>(d.split);
  return offered > 0 ? std::min(1.0, static_cast<double>(size) / offered) : 0;
}

}  // namespace

ArrayUse Model::array_use(const Result& r) const {
  const Plan& p = plan_;
  ArrayUse u;
  u.row_dim = p.dims.rows, u.col_dim = p.dims.cols, u.stream_dim = p.dims.stream;
  u.row_size = size_of(p.logical, u.row_dim);
  u.col_size = size_of(p.logical, u.col_dim);
  u.stream_size = size_of(p.logical, u.stream_dim);
  // A tile that covers a whole dimension covers its padding too: the matmul's part of it.
  u.row_tile = std::min(p.tiling.extent(u.row_dim), u.row_size);
  u.col_tile = std::min(p.tiling.extent(u.col_dim), u.col_size);
  u.stream_tile = std::min(p.tiling.extent(u.stream_dim), u.stream_size);
  u.row_lanes = p.row_lanes();
  u.rows_used = std::min(p.rows, ceil_div(u.row_tile, u.row_lanes));
  u.cols_used = std::min(p.cols, u.col_tile);
  u.row_share = share_of(p.dim[static_cast<int>(u.row_dim)], u.row_size);
  u.col_share = share_of(p.dim[static_cast<int>(u.col_dim)], u.col_size);
  const double lanes = static_cast<double>(p.rows) * static_cast<double>(p.cols) *
                       static_cast<double>(p.macs_per_cycle);
  if (r.busy.compute > 0 && lanes > 0)
    u.compute_share =
        std::min(1.0, static_cast<double>(r.macs) * static_cast<double>(p.cycles_per_mac) /
                          (static_cast<double>(r.busy.compute) * lanes));
  const double spatial = u.row_share * u.col_share;
  u.pipeline_share = spatial > 0 ? std::min(1.0, u.compute_share / spatial) : 0;
  u.stream_cycles = p.stream_cycles(p.dim[static_cast<int>(u.stream_dim)].tile);
  u.fold_overhead_cycles = p.base;
  return u;
}

}  // namespace detail

namespace {

// A part of the note: at most half of the rows or columns hold the matmul's elements.
// `offered`: rows or columns of the array; `split`: the lanes a fold offers along the dimension.
std::string spatial_part(const char* what, long long offered, long long used, mapping::GemmDim d,
                         long long size, long long tile, long long split, double share) {
  const std::string count =
      used < offered ? fmt::format("{} of {} {} busy", used, offered, what)
                     : fmt::format("{:.0f} % of the {} busy on average", share * 100, what);
  const char* name = dimension_name(d);
  if (size <= split) return fmt::format("{}: {} = {}", count, name, size);
  if (tile < split) return fmt::format("{}: {} tile = {}", count, name, tile);
  return fmt::format("{}: {} = {} in folds of {}", count, name, size, split);
}

// The pipeline part: each fold's stream is short against what every fold pays besides it, or
// (under a microarchitecture's tile overheads) the share of the busy cycles that stream MACs.
std::string pipeline_part(const ArrayUse& u, long long rows, long long cols) {
  if (u.fold_overhead_cycles >= u.stream_cycles) {
    const char* what =
        u.fold_overhead_cycles > rows + cols - 2 ? "preload, fill and drain" : "fill and drain";
    const char* name = dimension_name(u.stream_dim);
    const std::string why = u.stream_tile < u.stream_size
                                ? fmt::format("{} tile = {}", name, u.stream_tile)
                                : fmt::format("{} = {}", name, u.stream_size);
    return fmt::format("{} streamed cycle{} per fold against {} of {}: {}", u.stream_cycles,
                       u.stream_cycles == 1 ? "" : "s", u.fold_overhead_cycles, what, why);
  }
  return fmt::format("{:.0f} % of the busy cycles stream MACs (tile and fold overheads)",
                     u.pipeline_share * 100);
}

}  // namespace

std::string array_use_note(const ArrayUse& u, long long rows, long long cols, Bound bound) {
  if (bound != Bound::kCompute || !(u.compute_share <= 0.5)) return "";
  std::vector<std::string> parts;
  if (u.row_share <= 0.5)
    parts.push_back(spatial_part("rows", rows, u.rows_used, u.row_dim, u.row_size, u.row_tile,
                                 rows * u.row_lanes, u.row_share));
  if (u.col_share <= 0.5)
    parts.push_back(spatial_part("columns", cols, u.cols_used, u.col_dim, u.col_size, u.col_tile,
                                 cols, u.col_share));
  if (u.pipeline_share <= 0.5) parts.push_back(pipeline_part(u, rows, cols));
  if (parts.empty())  // no part alone, but together: each of them
    parts.push_back(fmt::format(
        "{:.0f} % of the rows, {:.0f} % of the columns busy on average, {:.0f} % of the busy "
        "cycles streaming MACs",
        u.row_share * 100, u.col_share * 100, u.pipeline_share * 100));
  std::string note = "compute";
  for (std::size_t i = 0; i < parts.size(); ++i) note += (i == 0 ? ", " : "; ") + parts[i];
  return note;
}

}  // namespace tenet::hw
