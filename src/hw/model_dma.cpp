// The DMA engine of the hardware model (arch::Microarch::dma, docs/hardware.md §3b): contiguous
// DRAM runs per tile transfer, bytes on the bus in whole beats, and the cycles of a window's
// commands. Part of detail::Model (src/hw/model.hpp); the rest of the model is in model.cpp.
#include <algorithm>

#include "hw/model.hpp"

namespace tenet::hw::detail {

// One transfer of operand x's tile q (a read, or a write-back) through the DMA: one command per
// contiguous DRAM run (the whole tile when re-laid out per tile or when its contiguous dimension
// is not cut; else one run per position of its other dimensions).
Model::Runs Model::dram_runs(const OperandPlan& x, const TileIndex& q) const {
  const arch::Microarch& u = acc_.spec().micro;
  Runs r;
  r.elements = tile_volume(x, q);
  const auto found = u.layouts.find(role_key(x.op->role));
  if (found == u.layouts.end()) return r;
  const arch::DramLayout& layout = found->second;
  int cd = -1;       // the contiguous dimension
  bool cut = false;  // cut into tiles: one run per position of the other dimensions
  if (!layout.retiled && !layout.contiguous.empty()) {
    cd = static_cast<int>(std::string("mnk").find(layout.contiguous));
    const DimPlan& dp = plan_.dim[cd];
    cut = x.op->group[cd] > 0 && dp.tiles() > 1;
    if (cut) {
      const long long volume = r.elements;
      r.elements = interval_weight(dp.tile_start(q[cd]), dp.tile_extent(q[cd]), x.op->group[cd]);
      r.count = std::max(1LL, volume / std::max(1LL, r.elements));
    }
  }
  // Placed (packed_placement): the addresses of an operand indexed plainly by two dimensions,
  // in whole bytes per element; any other keeps its runs on boundaries.
  if (x.dram_base < 0 || x.op->bits % 8 != 0) return r;
  std::array<int, 2> dims{-1, -1};
  int n = 0;
  for (int d = 0; d < 3; ++d) {
    if (x.op->group[d] == 0) continue;
    if (x.op->group[d] != 1 || n == 2) return r;
    dims[n++] = d;
  }
  if (n != 2) return r;
  const long long element = x.op->bits / 8;
  if (layout.retiled) {
    // tiles stored one after another, row-major over their coordinates in the order m, n, k,
    // each the bytes of a whole tile (exact when the tile extents divide the dimensions)
    const DimPlan &outer = plan_.dim[dims[0]], &inner = plan_.dim[dims[1]];
    const long long index = add(mul(q[dims[0]], inner.tiles()), q[dims[1]]);
    r.first = add(x.dram_base, mul(mul(index, mul(outer.tile, inner.tile)), element));
    return r;
  }
  if (cd < 0 || x.op->group[cd] == 0) return r;
  const int od = dims[0] == cd ? dims[1] : dims[0];  // rows of the contiguous dimension
  const long long row = plan_.dim[cd].size;
  const long long offset =
      add(mul(plan_.dim[od].tile_start(q[od]), row), cut ? plan_.dim[cd].tile_start(q[cd]) : 0);
  r.first = add(x.dram_base, mul(offset, element));
  r.stride = mul(row, element);
  return r;
}

// Beats and bursts: a run of b bytes takes ⌈b / beat⌉ beats and ⌈beats · beat / max_burst_bytes⌉
// bursts when it starts on a boundary; placed, the blocks of a beat (of max_burst_bytes, the
// boundary no burst crosses) that [address, address + b) touches, summed over the runs in closed
// form (floor sums over the arithmetic progression of run addresses).
Model::RunBeats Model::run_beats(const Runs& r, int bits) const {
  const arch::DmaEngine& dma = acc_.spec().micro.dma;
  RunBeats out;
  const long long bytes = ceil_bytes(r.elements, bits);
  if (bytes <= 0) return out;
  const long long beat = dma.beat_bytes, burst = dma.max_burst_bytes;
  if (r.first < 0) {
    const long long run = round_up(bytes, beat);
    out.beats = mul(r.count, run / beat);
    out.bursts = mul(r.count, burst > 0 ? ceil_div(run, burst) : 1);
    return out;
  }
  auto blocks = [&](long long unit) {
    const long long start = r.first % unit, step = r.stride % unit;
    return add(add(floor_sum(r.count, unit, step, start + bytes - 1),
                   -floor_sum(r.count, unit, step, start)),
               r.count);
  };
  out.beats = blocks(beat);
  out.bursts = burst > 0 ? blocks(burst) : r.count;
  return out;
}

// Bytes on the bus: a read moves whole beats; a write moves its bytes (the beats' other bytes
// are masked: write strobes).
long long Model::bus_bytes(const OperandPlan& x, const TileIndex& q, bool write) const {
  const Runs runs = dram_runs(x, q);
  if (runs.elements <= 0) return 0;
  if (write) return mul(runs.count, ceil_bytes(runs.elements, x.op->bits));
  return mul(run_beats(runs, x.op->bits).beats, acc_.spec().micro.dma.beat_bytes);
}

// Each run: every batch of outstanding bursts waits the latency, then its beats move at the DRAM
// bandwidth, with the throttle's idle gaps inside bursts; it lasts at least command_setup_cycles
// (the next command's programming, overlapped with it). A placed run costs the aligned run's
// cycles plus, per beat (burst) boundary it straddles more than the aligned run takes, the cost
// of one more beat (burst): linear in the boundaries, so summed over the runs in closed form.
void Model::add_transfer(DmaCost& cost, const OperandPlan& x, const TileIndex& q,
                         bool write) const {
  const arch::Microarch& u = acc_.spec().micro;
  const arch::Dram& dram = acc_.spec().dram;
  const Runs runs = dram_runs(x, q);
  if (runs.elements <= 0) return;
  const RunBeats total = run_beats(runs, x.op->bits);
  const long long beat = u.dma.beat_bytes;
  const long long beats = ceil_div(ceil_bytes(runs.elements, x.op->bits), beat);
  const long long bursts =
      u.dma.max_burst_bytes > 0 ? ceil_div(mul(beats, beat), u.dma.max_burst_bytes) : 1;
  auto run_cycles = [&](long long run_beats, long long run_bursts) {
    const long long run_bytes = mul(run_beats, beat);
    const long long batches =
        u.dma.outstanding_bursts > 0 ? ceil_div(run_bursts, u.dma.outstanding_bursts) : 1;
    long long c = add(mul(batches, add(dram.latency_cycles, u.dma.burst_latency_cycles)),
                      transfer_cycles(static_cast<double>(run_bytes), dram.bandwidth, false));
    if (u.dma.throttle_bytes > 0 && u.dma.throttle_gap_cycles > 0) {  // idle gaps inside bursts
      const long long size = u.dma.max_burst_bytes > 0 ? u.dma.max_burst_bytes : run_bytes;
      const long long full = run_bytes / size, rest = run_bytes % size;
      long long gaps = mul(full, (size - 1) / u.dma.throttle_bytes);
      if (rest > 0) gaps = add(gaps, (rest - 1) / u.dma.throttle_bytes);
      c = add(c, mul(gaps, u.dma.throttle_gap_cycles));
    }
    return std::max(c, u.dma.command_setup_cycles);
  };
  const long long least = run_cycles(beats, bursts);
  long long cycles = mul(runs.count, least);
  const long long more_beats = total.beats - mul(runs.count, beats);
  const long long more_bursts = total.bursts - mul(runs.count, bursts);
  if (more_beats != 0) cycles = add(cycles, mul(more_beats, run_cycles(beats + 1, bursts) - least));
  if (more_bursts != 0)
    cycles = add(cycles, mul(more_bursts, run_cycles(beats, bursts + 1) - least));
  cost.commands = add(cost.commands, runs.count);
  (write ? cost.write : cost.read) = add(write ? cost.write : cost.read, cycles);
  cost.bytes += static_cast<double>(bus_bytes(x, q, write));
}

// Commands are programmed one after another; reads and writes transfer one after the other, or
// at once on separate channels.
long long Model::dma_cycles(const DmaCost& cost) const {
  const arch::DmaEngine& dma = acc_.spec().micro.dma;
  const long long transfer =
      dma.separate_channels ? std::max(cost.read, cost.write) : add(cost.read, cost.write);
  return add(mul(cost.commands, dma.command_cycles), transfer);
}

}  // namespace tenet::hw::detail
