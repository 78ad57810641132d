// Floors of a candidate's cycles from its planned model (no timing): the DRAM windows, the SRAM
// ports, the stalls, their most (cycles_floor), and the DRAM-channel time of a traffic floor.
// The tiling search's alone: the hardware model times, the search bounds.
#include <algorithm>
#include <cmath>

#include "hw/search/search_detail.hpp"

namespace tenet::hw::search {
namespace {

double bytes_of(long long elements, int bits) { return static_cast<double>(elements) * bits / 8.0; }

}  // namespace

// The windows of all tiles move, per operand X whose tile classes are exact (every index plain,
// g <= 1, or cut into tiles that are multiples of its group g, or not cut), every distinct
// element of X except those of one tile: a resident input's tile is fetched whenever its tile
// coordinates change, except the first one (before cycle 0); a resident output's tile is written
// back when they change, except the last one; a non-resident operand streams at least its tile's
// elements in every tile. Each window takes at least bytes / bandwidth cycles, plus the latency
// when it is not empty, and total >= the sum of the windows (a tile takes max(folds, window), or
// their sum). Other operands are left out: their tile classes use representative group counts.
// Rounding: every window is ceil(bytes / bw - 1e-9); the bound is rounded down with a cycle's
// margin.
// The bytes the tiles' windows move at least for operand x, when its tile classes are exact
// (every index plain: g <= 1, not cut, or cut into tiles that are multiples of its group g),
// else 0: every distinct element, but (resident) those of its edge tile. The first tile of a
// resident input and the last of a resident output move before cycle 0 and after the last step:
// in the edge windows (cycles_lower_bound adds them) or free (edge transfers off).
double window_bytes_floor(const detail::Model& m, const detail::OperandPlan& x) {
  for (int d = 0; d < 3; ++d) {
    const long long g = x.op->group[d];
    const detail::DimPlan& dp = m.plan().dim[d];
    if (!(g <= 1 || dp.tiles() == 1 || dp.tile % g == 0)) return 0;
  }
  double moved = bytes_of(x.unique, x.op->bits);
  if (x.resident) {
    const detail::TileIndex first{0, 0, 0};
    const detail::TileIndex last{m.plan().dim[0].tiles() - 1, m.plan().dim[1].tiles() - 1,
                                 m.plan().dim[2].tiles() - 1};
    moved -= bytes_of(m.tile_volume(x, x.op->output ? last : first), x.op->bits);
  }
  return std::max(0.0, moved);
}

long long dram_windows_floor(const detail::Model& m) {
  const arch::Dram& dram = m.accelerator().spec().dram;
  if (m.options().unlimited_dram_bandwidth || dram.bandwidth.unlimited) return 0;
  double bytes = 0;
  for (const detail::OperandPlan& x : m.operands()) bytes += window_bytes_floor(m, x);
  // Every tile but the last has a non-empty window (latency included) when each dimension cut
  // into several tiles indexes some input: that input's next tile is fetched (resident) or its
  // own traffic streams (not resident).
  bool windows_nonempty = true;
  for (int d = 0; d < 3; ++d) {
    if (m.plan().dim[d].tiles() <= 1) continue;
    bool indexed = false;
    for (const detail::OperandPlan& x : m.operands())
      indexed = indexed || (!x.op->output && x.op->group[d] > 0);
    windows_nonempty = windows_nonempty && indexed;
  }
  const double latency = windows_nonempty ? static_cast<double>(m.tiles() - 1) *
                                                static_cast<double>(dram.latency_cycles)
                                          : 0.0;
  const double cycles =
      (latency + bytes / dram.bandwidth.bytes_per_cycle * (1 - 1e-9)) * dram_channel_share(m) -
      1e-9 * static_cast<double>(m.tiles()) - 1;
  return cycles <= 0 ? 0 : static_cast<long long>(cycles);
}

// A DMA engine with separate read and write channels (arch::DmaEngine::separate_channels) moves
// both at once: a window takes the longer, at least half their sum (the reads pay the latency).
double dram_channel_share(const detail::Model& m) {
  const arch::DmaEngine& dma = m.accelerator().spec().micro.dma;
  return m.micro() && dma.enabled && dma.separate_channels ? 0.5 : 1.0;
}

// Σ over tiles of with_sram >= Σ over folds of the port cycles; a fold's port cycles on a partition
// are >= (the fold's distinct elements of the partition's operands, in bytes, twice for a
// revisited output) / bandwidth: fold_port_cycles counts max_distinct_groups >= the distinct
// elements of any piece, and the distinct elements of all folds are fold_accesses.
long long sram_cycles_floor(const detail::Model& m) {
  if (m.options().unlimited_sram_bandwidth) return 0;
  double best = 0;
  for (const detail::PartitionPlan& part : m.partitions()) {
    if (part.bandwidth.unlimited) continue;
    double bytes = 0;
    for (int i : part.members) {
      const detail::OperandPlan& x = m.operands()[i];
      bytes += bytes_of(x.fold_accesses, x.op->bits) * (x.fold_rmw_reads > 0 ? 2 : 1);
    }
    best = std::max(best, bytes / part.bandwidth.bytes_per_cycle);
  }
  const double cycles = best * (1 - 1e-9) - 1e-9 * static_cast<double>(m.folds()) - 1;
  return cycles <= 0 ? 0 : static_cast<long long>(cycles);
}

long long dram_cycles_floor(const detail::Model& m, const GemmProblem& problem, double dram_bytes) {
  const arch::Dram& dram = m.accelerator().spec().dram;
  if (m.options().unlimited_dram_bandwidth || dram.bandwidth.unlimited) return 0;
  double free = 0;  // bytes no window carries
  if (!m.options().edge_transfers) {
    const std::array<long long, 3> tile{m.plan().dim[0].tile, m.plan().dim[1].tile,
                                        m.plan().dim[2].tile};
    const std::array<long long, 3> size{m.plan().dim[0].size, m.plan().dim[1].size,
                                        m.plan().dim[2].size};
    for (const Operand& op : problem.operands)
      free += static_cast<double>(detail::tile_footprint_bytes(op, tile, size, false));
  }
  return detail::dram_channel_cycles_floor(dram, dram_bytes - free, dram_channel_share(m),
                                           m.tiles());
}

// A step is at least the tile's pipeline cycles plus its exposed window (double-buffered global
// buffer) or plus its whole window (not double-buffered). The exposed windows carry the
// transfers of the resident operands that are not double-buffered: per such operand whose tile
// classes are exact (as dram_cycles_lower_bound), every distinct element but those of its edge
// tile (first input tile, last output tile); each window takes at least bytes / bandwidth.
// Rounding as dram_cycles_lower_bound.
long long stall_cycles_floor(const detail::Model& m) {
  if (m.micro() || !m.dram_priced()) return 0;
  if (!m.accelerator().spec().global_buffer.double_buffered) return dram_windows_floor(m);
  double bytes = 0;
  for (const detail::OperandPlan& x : m.operands())
    if (x.resident && !x.double_buffered) bytes += window_bytes_floor(m, x);
  if (bytes <= 0) return 0;
  const double cycles = bytes / m.accelerator().spec().dram.bandwidth.bytes_per_cycle * (1 - 1e-9) -
                        1e-9 * static_cast<double>(m.tiles()) - 1;
  return cycles <= 0 ? 0 : static_cast<long long>(cycles);
}

// total = Σ steps + once + edges, and Σ steps is at least the tiles' pipeline cycles (compute
// cycles - once) plus their stalls, their DRAM windows and their SRAM port cycles.
// (The prologue is `once`, or the microarchitecture's run overhead.)
long long cycles_floor(const detail::Model& m) {
  const detail::Model::EdgeCycles edge = m.edge_transfer_cycles();
  const long long edges = detail::add(edge.fill, edge.drain);
  const long long prologue =
      m.micro() ? detail::add(m.accelerator().spec().micro.run_overhead_cycles, m.plan().launch)
                : m.plan().once;
  return detail::add(std::max({detail::add(m.compute_cycles(), stall_cycles_floor(m)),
                               detail::add(dram_windows_floor(m), prologue),
                               detail::add(sram_cycles_floor(m), prologue)}),
                     edges);
}

}  // namespace tenet::hw::search
