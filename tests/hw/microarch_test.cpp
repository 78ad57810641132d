// The microarchitecture terms (arch::Microarch, docs/hardware.md §3b): the per-tile law against a
// brute-force walk over every tile in loop order, the README's SAURIA law by hand, and the
// default path left unchanged by terms that do nothing.
#include <catch2/catch.hpp>
#include <random>

#include "fixtures.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/evaluate.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

long long cdiv(long long a, long long b) { return (a + b - 1) / b; }
long long up(long long v, long long m) { return m <= 1 ? v : cdiv(v, m) * m; }

AcceleratorSpec base_spec(long long rows, long long cols) {
  AcceleratorSpec s = make_acc(rows, cols).spec();
  s.global_buffer.bytes = 1LL << 40;
  s.dram.bandwidth = Bandwidth::of(8);
  s.dram.latency_cycles = 5;
  return s;
}

// Brute force of §3b for an os GEMM (A m×k activation, B k×n weight, C m×n output, 16 bits):
// every tile in loop order, every transfer priced on its own, every DMA run at its own address
// (packed placement: A, B, C one after another from address 0).
struct Brute {
  long long cycles = 0;
  long long bytes = 0;  // on the DRAM bus: reads in whole beats, writes their bytes (edges too)
  // placed runs: how far a tile of a class may differ from the class's representative (the
  // model evaluates placement on one tile per class): 2 beats (bytes) and 2 beats' and bursts'
  // costs (cycles) per run
  long long slack_bytes = 0, slack_cycles = 0;
};

// The tiles: padded sizes, tile extents (a tile covering the logical dimension covers its
// padding), tile counts.
struct Grid {
  std::array<long long, 3> size{}, tile{}, count{};
  long long ext(int d, long long q) const { return std::min(tile[d], size[d] - q * tile[d]); }
};
Grid grid_of(const AcceleratorSpec& s, GemmShape shape, const Tiling& tiling) {
  const arch::Microarch& u = s.micro;
  Grid g;
  g.size = {shape.m, shape.n, shape.k};
  if (u.pad_to_array) g.size[0] = up(g.size[0], s.rows), g.size[1] = up(g.size[1], s.cols);
  // the stream dimension is padded unless only aligned tiles are and the K tile as given is
  // neither the whole dimension (0 or beyond K) nor a multiple
  const bool whole_k = tiling.k == 0 || tiling.k > shape.k;
  if (!u.pad_stream_aligned_tiles_only || whole_k || tiling.k % u.pad_stream_multiple == 0)
    g.size[2] = up(g.size[2], u.pad_stream_multiple);
  g.tile = {tiling.m, tiling.n, tiling.k};
  const std::array<long long, 3> logical{shape.m, shape.n, shape.k};
  for (int d = 0; d < 3; ++d) {
    if (g.tile[d] == 0 || g.tile[d] >= logical[d]) g.tile[d] = g.size[d];
    g.count[d] = cdiv(g.size[d], g.tile[d]);
  }
  return g;
}

// An operand: the dims it depends on, its role key, its DRAM base (packed placement).
struct BruteOp {
  std::array<bool, 3> uses;
  const char* role;
  bool output;
  long long base;
};
struct Cost {
  long long commands = 0, read = 0, write = 0, bytes = 0;
  bool any = false;
};

// Every DMA run of a tile transfer at its own address, priced on its own.
struct BruteDma {
  const AcceleratorSpec& s;
  const Grid& g;
  long long slack_bytes = 0, slack_cycles = 0;

  // a run of `beats` beats in `bursts` bursts
  long long run_cost(long long beats, long long bursts) const {
    const arch::DmaEngine& dma = s.micro.dma;
    const long long bytes = beats * dma.beat_bytes;
    const long long batches = dma.outstanding_bursts > 0 ? cdiv(bursts, dma.outstanding_bursts) : 1;
    long long per =
        batches * (s.dram.latency_cycles + dma.burst_latency_cycles) +
        static_cast<long long>(std::ceil(bytes / s.dram.bandwidth.bytes_per_cycle - 1e-9));
    if (dma.throttle_bytes > 0)  // walk the bursts one by one
      for (long long left = bytes; left > 0;) {
        const long long b = dma.max_burst_bytes > 0 ? std::min(left, dma.max_burst_bytes) : left;
        per += (b - 1) / dma.throttle_bytes * dma.throttle_gap_cycles;
        left -= b;
      }
    return std::max(per, dma.command_setup_cycles);
  }

  void transfer(Cost& c, const BruteOp& op, const std::array<long long, 3>& t, bool write) {
    const arch::Microarch& u = s.micro;
    const long long beat = u.dma.beat_bytes, burst = u.dma.max_burst_bytes;
    long long volume = 1;
    for (int d = 0; d < 3; ++d)
      if (op.uses[d]) volume *= g.ext(d, t[d]);
    long long runs = 1, run = volume;
    long long first = -1, stride = 0;  // placed runs: byte address of the first, step
    auto it = u.layouts.find(op.role);
    const bool laid = it != u.layouts.end();
    int cd = -1;
    bool cut = false;
    if (laid && !it->second.retiled && !it->second.contiguous.empty()) {
      cd = static_cast<int>(std::string("mnk").find(it->second.contiguous));
      cut = op.uses[cd] && g.count[cd] > 1;
      if (cut) run = g.ext(cd, t[cd]), runs = volume / run;
    }
    if (u.packed_placement && laid) {
      std::vector<int> dims;
      for (int d = 0; d < 3; ++d)
        if (op.uses[d]) dims.push_back(d);
      if (it->second.retiled) {
        const long long index = t[dims[0]] * g.count[dims[1]] + t[dims[1]];
        first = op.base + index * g.tile[dims[0]] * g.tile[dims[1]] * 2;
      } else if (cd >= 0 && op.uses[cd]) {
        const int od = dims[0] == cd ? dims[1] : dims[0];
        first = op.base + (t[od] * g.tile[od] * g.size[cd] + (cut ? t[cd] * g.tile[cd] : 0)) * 2;
        stride = g.size[cd] * 2;
      }
    }
    const long long run_bytes = cdiv(run * 16, 8);
    const long long beats0 = cdiv(run_bytes, beat);
    const long long bursts0 = burst > 0 ? cdiv(beats0 * beat, burst) : 1;
    const long long least = run_cost(beats0, bursts0);
    // a run straddling one more boundary costs one more beat / burst than the least
    const long long db = run_cost(beats0 + 1, bursts0) - least;
    const long long dk = run_cost(beats0, bursts0 + 1) - least;
    for (long long r = 0; r < runs; ++r) {  // each run at its address
      long long beats = beats0, bursts = bursts0;
      if (first >= 0) {
        const long long a = first + r * stride, e = a + run_bytes - 1;
        beats = e / beat - a / beat + 1;
        bursts = burst > 0 ? e / burst - a / burst + 1 : 1;
        slack_cycles += 2 * (std::abs(db) + std::abs(dk));
        if (!write) slack_bytes += 2 * beat;
      }
      (write ? c.write : c.read) += least + (beats - beats0) * db + (bursts - bursts0) * dk;
      c.bytes += write ? run_bytes : beats * beat;
    }
    c.commands += runs;
    c.any = true;
  }
};

Brute brute_total(const AcceleratorSpec& s, GemmShape shape, const Tiling& tiling, bool edges,
                  bool accumulate) {
  const arch::Microarch& u = s.micro;
  const Grid g = grid_of(s, shape, tiling);
  const long long a_bytes = g.size[0] * g.size[2] * 2, b_bytes = g.size[2] * g.size[1] * 2;
  const BruteOp ops[3] = {{{true, false, true}, "activation", false, 0},
                          {{false, true, true}, "weight", false, a_bytes},
                          {{true, true, false}, "output", true, a_bytes + b_bytes}};
  std::vector<std::array<long long, 3>> seq;
  std::array<int, 3> order{};
  for (int p = 0; p < 3; ++p) order[p] = static_cast<int>(tiling.order[p]);
  std::array<long long, 3> q{};
  for (q[order[0]] = 0; q[order[0]] < g.count[order[0]]; ++q[order[0]])
    for (q[order[1]] = 0; q[order[1]] < g.count[order[1]]; ++q[order[1]])
      for (q[order[2]] = 0; q[order[2]] < g.count[order[2]]; ++q[order[2]]) seq.push_back(q);
  BruteDma dma{s, g};
  auto transfer = [&](Cost& c, const BruteOp& op, const std::array<long long, 3>& t, bool write) {
    dma.transfer(c, op, t, write);
  };
  const auto& count = g.count;
  auto ext = [&](int d, long long t) { return g.ext(d, t); };
  auto price = [&](const Cost& c) {
    if (!c.any) return 0LL;
    const long long t = u.dma.separate_channels ? std::max(c.read, c.write) : c.read + c.write;
    return c.commands * u.dma.command_cycles + t;
  };
  auto changed = [](const BruteOp& op, const std::array<long long, 3>& a,
                    const std::array<long long, 3>& b) {
    for (int d = 0; d < 3; ++d)
      if (op.uses[d] && a[d] != b[d]) return true;
    return false;
  };
  const bool read_outputs = u.accumulate_from_dram || accumulate;
  const long long base = s.rows + s.cols - 2;
  long long total = u.run_overhead_cycles, moved = 0;
  for (size_t i = 0; i < seq.size(); ++i) {
    const auto& t = seq[i];
    const long long len = ext(2, t[2]);
    long long st = len, stall = 0;
    const long long n = cdiv(ext(0, t[0]), s.rows) * cdiv(ext(1, t[1]), s.cols);
    if (u.feeder_word > 1 && len % u.feeder_word != 0) {
      st = static_cast<long long>(std::ceil(st * u.unaligned_factor - 1e-9));
      stall = n * static_cast<long long>(std::ceil(len * u.unaligned_stall_cycles - 1e-9));
    }
    const long long d = u.tile_fill_drain_cycles >= 0 ? u.tile_fill_drain_cycles : base;
    long long busy;
    if (u.accumulator_double_buffered) {
      const long long p = count[2] > 1 || accumulate ? u.drain_cycles_reload : u.drain_cycles;
      busy = (n - 1) * std::max(st, p) + std::max(st + d, u.min_tile_cycles);
    } else {
      busy = std::max(n * (st + base) - base + d, u.min_tile_cycles);
    }
    busy += stall;
    Cost w;
    if (i + 1 < seq.size())
      for (const BruteOp& op : ops)
        if (changed(op, t, seq[i + 1]) && (!op.output || read_outputs || seq[i + 1][2] > 0))
          transfer(w, op, seq[i + 1], false);
    if (i > 0 && changed(ops[2], seq[i - 1], t)) transfer(w, ops[2], seq[i - 1], true);
    total += std::max(u.tile_overhead_cycles + busy, price(w));
    moved += w.bytes;
  }
  Cost fill, drain;
  for (const BruteOp& op : ops)
    if (!op.output || read_outputs) transfer(fill, op, seq.front(), false);
  transfer(drain, ops[2], seq.back(), true);
  if (edges) total += price(fill) + price(drain);
  return {total, moved + fill.bytes + drain.bytes, dma.slack_bytes, dma.slack_cycles};
}

}  // namespace

TEST_CASE("microarchitecture: the per-tile law equals a walk over every tile", "[hw][micro]") {
  std::mt19937_64 rng(23);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  const char* orders[] = {"mnk", "mkn", "nmk", "nkm", "kmn", "knm"};
  for (int c = 0; c < 600; ++c) {
    AcceleratorSpec s = base_spec(pick(1, 5), pick(1, 5));
    arch::Microarch& u = s.micro;
    u.accumulator_double_buffered = pick(0, 1);
    u.drain_cycles = pick(0, 20), u.drain_cycles_reload = pick(0, 30);
    u.tile_fill_drain_cycles = pick(-1, 15), u.min_tile_cycles = pick(0, 40);
    u.tile_overhead_cycles = pick(0, 9), u.run_overhead_cycles = pick(0, 9);
    u.dma.enabled = true;
    u.dma.command_cycles = pick(0, 7), u.dma.max_burst_bytes = pick(0, 3) * 16;
    u.dma.beat_bytes = pick(1, 8), u.dma.outstanding_bursts = pick(0, 2);
    u.dma.burst_latency_cycles = pick(0, 4), u.dma.separate_channels = pick(0, 1);
    u.dma.throttle_bytes = pick(0, 2) * 8, u.dma.throttle_gap_cycles = pick(0, 6);
    const char* dims[] = {"", "m", "n", "k"};
    u.layouts["activation"] = {dims[pick(0, 3)], pick(0, 3) == 0};
    u.layouts["weight"] = {dims[pick(0, 3)], pick(0, 3) == 0};
    u.layouts["output"] = {dims[pick(0, 3)], pick(0, 3) == 0};
    u.accumulate_from_dram = pick(0, 1);
    u.sram_resident = {"activation", "weight", "output"};
    u.pad_to_array = pick(0, 1), u.pad_stream_multiple = pick(1, 4);
    u.feeder_word = pick(1, 4), u.unaligned_factor = 1 + 0.5 * static_cast<double>(pick(0, 4));
    // the terms of the general feeder path, unpadded K, command setup and placement
    u.unaligned_stall_cycles = 0.75 * static_cast<double>(pick(0, 3));
    u.pad_stream_aligned_tiles_only = pick(0, 1);
    u.dma.command_setup_cycles = pick(0, 1) * pick(0, 30);
    u.packed_placement = pick(0, 1);
    const Accelerator acc(s);
    const GemmShape shape{pick(1, 30), pick(1, 30), pick(1, 30)};
    Tiling tiling =
        mapping::parse_tiling(std::to_string(pick(0, 12)) + "x" + std::to_string(pick(0, 12)) +
                                  "x" + std::to_string(pick(0, 12)) + ":" + orders[pick(0, 5)],
                              "--tile");
    const bool edges = pick(0, 1);
    hw::GemmProblem problem = hw::make_gemm_problem(shape);
    problem.accumulate = pick(0, 2) == 0;
    hw::Options o;
    o.edge_transfers = edges;
    const hw::Result r = hw::evaluate_gemm(acc, problem, Dataflow::kOutputStationary, tiling, o);
    INFO("case " << c << " shape " << shape.m << "x" << shape.n << "x" << shape.k << " tile "
                 << mapping::to_string(tiling) << " edges " << edges << " accumulate "
                 << problem.accumulate);
    const Brute b = brute_total(s, shape, tiling, edges, problem.accumulate);
    // Placement is evaluated on each tile class's representative: exact with one tile, else
    // within the slack of the runs that may straddle differently.
    if (r.tiles == 1 || !u.packed_placement) {
      CHECK(r.cycles.total == b.cycles);
      CHECK(r.dram_bytes == b.bytes);
    } else {
      CHECK(std::abs(r.cycles.total - b.cycles) <= b.slack_cycles);
      CHECK(std::abs(r.dram_bytes - b.bytes) <= b.slack_bytes);
    }
    CHECK(r.cycles.total >= r.cycles.compute);
    CHECK(r.macs == shape.m * shape.n * shape.k);  // utilisation from the logical MACs
  }
}

TEST_CASE("microarchitecture: SAURIA's per-tile law by hand", "[hw][micro]") {
  // 8x16 os, one 64x64x128 tile (32 contexts), P0 = 81, D = 94, Fmin = 123, ideal memory:
  // busy = 31 max(128, 81) + max(128 + 94, 123) = 4190 (the RTL's core_busy_cycles).
  AcceleratorSpec s = base_spec(8, 16);
  s.dram.bandwidth = Bandwidth::infinite();
  s.dram.latency_cycles = 0;
  s.micro.accumulator_double_buffered = true;
  s.micro.drain_cycles = 81, s.micro.drain_cycles_reload = 113;
  s.micro.tile_fill_drain_cycles = 94, s.micro.min_tile_cycles = 123;
  const Accelerator acc(s);
  auto total = [&](GemmShape g, Tiling t) {
    return hw::evaluate_gemm(acc, hw::make_gemm_problem(g), Dataflow::kOutputStationary, t)
        .cycles.total;
  };
  CHECK(total({64, 64, 128}, {}) == 4190);
  CHECK(total({64, 64, 8}, {}) == 31 * 81 + 123);  // drain-bound contexts, Fmin floor
  // K split over two tiles: partial sums reloaded, P1 = 113 per context.
  CHECK(total({64, 64, 64}, {64, 64, 32, {GemmDim::kM, GemmDim::kN, GemmDim::kK}}) ==
        2 * (31 * 113 + (32 + 94)));
}

TEST_CASE("microarchitecture: terms at their defaults leave §3's timing unchanged", "[hw][micro]") {
  std::mt19937_64 rng(7);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  for (int c = 0; c < 100; ++c) {
    AcceleratorSpec s = base_spec(pick(1, 6), pick(1, 6));
    const Accelerator plain(s);
    s.micro.min_tile_cycles = 1;  // active, but never binding
    s.micro.tile_fill_drain_cycles = s.rows + s.cols - 2;
    const Accelerator micro(s);
    REQUIRE(s.micro.active());
    const GemmShape shape{pick(1, 40), pick(1, 40), pick(1, 40)};
    const Tiling tiling{
        pick(0, 15), pick(0, 15), pick(0, 15), {GemmDim::kN, GemmDim::kK, GemmDim::kM}};
    hw::Options o;
    o.edge_transfers = pick(0, 1);
    const auto problem = hw::make_gemm_problem(shape);
    const hw::Result a = hw::evaluate_gemm(plain, problem, Dataflow::kOutputStationary, tiling, o);
    const hw::Result b = hw::evaluate_gemm(micro, problem, Dataflow::kOutputStationary, tiling, o);
    CHECK(a.cycles.total == b.cycles.total);
    CHECK(a.cycles.compute == b.cycles.compute);
    CHECK(a.dram_bytes == b.dram_bytes);
  }
}

TEST_CASE("microarchitecture: SRAM-resident operands must fit, C read at every tile start",
          "[hw][micro]") {
  AcceleratorSpec s = base_spec(4, 4);
  s.global_buffer.bytes = 2 * (4 * 4 * 2) * 3;  // two banks of one 4x4 16-bit tile per operand
  s.micro.sram_resident = {"activation", "weight", "output"};
  s.micro.tile_fits_one_bank = true;
  s.micro.accumulate_from_dram = true;
  const Accelerator acc(s);
  const auto problem = hw::make_gemm_problem({8, 8, 8});
  const Tiling fits{4, 4, 4, {GemmDim::kM, GemmDim::kN, GemmDim::kK}};
  const hw::Result r = hw::evaluate_gemm(acc, problem, Dataflow::kOutputStationary, fits);
  // C: 4 output tiles of 16 elements, k innermost: each written back once and, with
  // accumulate_from_dram, read once at its start (without it, never read).
  auto c_reads = [&](const hw::Result& res) {
    long long reads = -1;
    for (const auto& t : res.tensors)
      if (t.output) reads = t.dram_reads;
    return reads;
  };
  CHECK(c_reads(r) == 4 * 16);
  AcceleratorSpec no_acc = s;
  no_acc.micro.accumulate_from_dram = false;
  CHECK(c_reads(hw::evaluate_gemm(Accelerator(no_acc), problem, Dataflow::kOutputStationary,
                                  fits)) == 0);
  const Tiling too_big{8, 4, 4, {GemmDim::kM, GemmDim::kN, GemmDim::kK}};
  CHECK_THROWS_AS(hw::evaluate_gemm(acc, problem, Dataflow::kOutputStationary, too_big),
                  InputError);
}

TEST_CASE("microarchitecture: the terms of issue 37, each on and at its default", "[hw][micro]") {
  // 8x16 os with SAURIA's per-tile law and a DMA on a 128-byte bus; each term is compared with
  // the same file without it (its default), which must give the result of before.
  AcceleratorSpec s = base_spec(8, 16);
  s.dram.bandwidth = Bandwidth::of(128);
  s.dram.latency_cycles = 50;
  arch::Microarch& u = s.micro;
  u.accumulator_double_buffered = true;
  u.drain_cycles = 81, u.drain_cycles_reload = 116;
  u.tile_fill_drain_cycles = 94, u.min_tile_cycles = 122;
  u.dma.enabled = true;
  u.dma.command_cycles = 8, u.dma.beat_bytes = 128, u.dma.max_burst_bytes = 4096;
  u.dma.outstanding_bursts = 1;
  u.layouts["activation"] = {"m", false};
  u.layouts["weight"] = {"", true};
  u.layouts["output"] = {"m", false};
  u.accumulate_from_dram = true;
  u.sram_resident = {"activation", "weight", "output"};
  u.pad_to_array = true, u.pad_stream_multiple = 8, u.feeder_word = 8;
  const AcceleratorSpec plain = s;
  auto run = [](const AcceleratorSpec& spec, GemmShape g, const char* tile, bool acc = false) {
    hw::GemmProblem p = hw::make_gemm_problem(g, {8, 8, 32});
    p.accumulate = acc;
    hw::Options o;
    o.edge_transfers = false;  // the tiles alone
    return hw::evaluate_gemm(Accelerator(spec), p, Dataflow::kOutputStationary,
                             mapping::parse_tiling(tile, "tile"), o);
  };
  SECTION("accumulate: psum preload (P1) on every context, C's values read") {
    const hw::Result a = run(plain, {64, 16, 64}, "64x16x64:kmn");
    const hw::Result b = run(plain, {64, 16, 64}, "64x16x64:kmn", true);
    // one tile of 8 contexts: 7 max(64, P) + max(64 + 94, 122)
    CHECK(a.cycles.compute == 7 * 81 + 158);
    CHECK(b.cycles.compute == 7 * 116 + 158);
    CHECK(b.accumulate);
    // C is read at every output-tile start already (accumulate_from_dram): same bytes
    CHECK(a.dram_bytes == b.dram_bytes);
  }
  SECTION("unaligned_stall_cycles: the general feeder path stalls every context") {
    AcceleratorSpec on = plain;
    on.micro.unaligned_stall_cycles = 2;
    // K = 100 unpadded (a_aligned 0): K padded to 104 unless only aligned tiles are
    on.micro.pad_stream_aligned_tiles_only = true;
    AcceleratorSpec unpadded = plain;
    unpadded.micro.pad_stream_aligned_tiles_only = true;
    const hw::Result off = run(unpadded, {16, 16, 100}, "16x16x100:knm");
    const hw::Result r = run(on, {16, 16, 100}, "16x16x100:knm");
    CHECK(off.cycles.compute == 100 + 194);                   // max(100, 81) + 100 + 94, 2 contexts
    CHECK(r.cycles.compute == off.cycles.compute + 2 * 200);  // 2 contexts x 2 x 100
    // an aligned tile never stalls
    CHECK(run(on, {16, 16, 96}, "16x16x96:knm").cycles.compute ==
          run(plain, {16, 16, 96}, "16x16x96:knm").cycles.compute);
  }
  SECTION("stream_aligned_tiles_only: a K tile off the word runs unpadded") {
    AcceleratorSpec on = plain;
    on.micro.pad_stream_aligned_tiles_only = true;
    // the tile as given is off the word: K stays 100 (A 16x100, B 100x16 bytes)
    const hw::Result r = run(on, {16, 16, 100}, "16x16x100:knm");
    const hw::Result padded = run(plain, {16, 16, 100}, "16x16x100:knm");
    CHECK(r.tensor("A").dram_reads == 16 * 100);
    CHECK(padded.tensor("A").dram_reads == 16 * 104);  // the default pads K to 104
    // whole (0 or beyond K) or aligned tiles are padded as by default
    for (const char* tile : {"16x16x0:knm", "16x16x104:knm", "16x16x48:knm"})
      CHECK(run(on, {16, 16, 100}, tile) == run(plain, {16, 16, 100}, tile));
  }
  SECTION("command_setup_cycles: a run lasts at least the next command's programming") {
    AcceleratorSpec on = plain;
    on.micro.dma.command_setup_cycles = 60;
    on.dram.latency_cycles = 0;
    // 64x16x2048 in 32 tiles of 8x16: A's tiles are 2048 runs of 8 bytes (1 beat, 1 cycle each)
    const hw::Result off = run(plain, {64, 16, 2048}, "8x16x2048:knm");
    const hw::Result r = run(on, {64, 16, 2048}, "8x16x2048:knm");
    CHECK(r.cycles.total > off.cycles.total);
    AcceleratorSpec none = plain;
    none.micro.dma.command_setup_cycles = 0;
    CHECK(run(none, {64, 16, 2048}, "8x16x2048:knm") == off);
  }
  SECTION("dram_placement packed: runs straddle beats and 4 KiB boundaries") {
    AcceleratorSpec on = plain;
    on.micro.packed_placement = true;
    // SAURIA's nm20: A 24x24 at [0, 576), B 24x32 at [576, 1344), C 32x24 int32 at [1344, 4416):
    // reads 5 + 7 + 25 beats of 128 B, C's 3072 bytes written (strobes), 2 bursts for C
    hw::Options o;
    hw::GemmProblem p = hw::make_gemm_problem({20, 20, 20}, {8, 8, 32});
    const hw::Result r = hw::evaluate_gemm(Accelerator(on), p, Dataflow::kOutputStationary,
                                           mapping::parse_tiling("24x32x24:knm", "tile"), o);
    CHECK(r.dram_bytes == (5 + 7 + 25) * 128 + 3072);
    const hw::Result aligned = hw::evaluate_gemm(Accelerator(plain), p, Dataflow::kOutputStationary,
                                                 mapping::parse_tiling("24x32x24:knm", "tile"), o);
    CHECK(aligned.dram_bytes == (5 + 6 + 24) * 128 + 3072);
    CHECK(r.cycles.total > aligned.cycles.total);  // one more burst, its latency
  }
}
