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
// every tile in loop order, every transfer priced on its own.
struct Brute {
  long long cycles = 0;
  long long bytes = 0;  // on the DRAM bus: every transfer (edges included) in whole beats
};
Brute brute_total(const AcceleratorSpec& s, GemmShape shape, const Tiling& tiling, bool edges) {
  const arch::Microarch& u = s.micro;
  std::array<long long, 3> size{shape.m, shape.n, shape.k};
  if (u.pad_to_array) size[0] = up(size[0], s.rows), size[1] = up(size[1], s.cols);
  size[2] = up(size[2], u.pad_stream_multiple);
  std::array<long long, 3> tile{tiling.m, tiling.n, tiling.k};
  const std::array<long long, 3> logical{shape.m, shape.n, shape.k};
  for (int d = 0; d < 3; ++d)  // a tile covering the logical dimension covers its padding
    if (tile[d] == 0 || tile[d] >= logical[d]) tile[d] = size[d];
  std::array<long long, 3> count{};
  for (int d = 0; d < 3; ++d) count[d] = cdiv(size[d], tile[d]);
  auto ext = [&](int d, long long q) { return std::min(tile[d], size[d] - q * tile[d]); };
  // operands: dims they depend on, role key
  struct Op {
    std::array<bool, 3> uses;
    const char* role;
    bool output;
  };
  const Op ops[3] = {{{true, false, true}, "activation", false},
                     {{false, true, true}, "weight", false},
                     {{true, true, false}, "output", true}};
  std::vector<std::array<long long, 3>> seq;
  std::array<int, 3> order{};
  for (int p = 0; p < 3; ++p) order[p] = static_cast<int>(tiling.order[p]);
  std::array<long long, 3> q{};
  for (q[order[0]] = 0; q[order[0]] < count[order[0]]; ++q[order[0]])
    for (q[order[1]] = 0; q[order[1]] < count[order[1]]; ++q[order[1]])
      for (q[order[2]] = 0; q[order[2]] < count[order[2]]; ++q[order[2]]) seq.push_back(q);
  const double bw = s.dram.bandwidth.bytes_per_cycle;
  struct Cost {
    long long commands = 0, read = 0, write = 0, bytes = 0;
    bool any = false;
  };
  auto transfer = [&](Cost& c, const Op& op, const std::array<long long, 3>& t, bool write) {
    long long volume = 1;
    for (int d = 0; d < 3; ++d)
      if (op.uses[d]) volume *= ext(d, t[d]);
    long long runs = 1, run = volume;
    auto it = u.layouts.find(op.role);
    if (it != u.layouts.end() && !it->second.retiled && !it->second.contiguous.empty()) {
      const int cd = static_cast<int>(std::string("mnk").find(it->second.contiguous));
      if (op.uses[cd] && count[cd] > 1) run = ext(cd, t[cd]), runs = volume / run;
    }
    const long long bytes = up(cdiv(run * 16, 8), u.dma.beat_bytes);
    const long long bursts = u.dma.max_burst_bytes > 0 ? cdiv(bytes, u.dma.max_burst_bytes) : 1;
    const long long batches =
        u.dma.outstanding_bursts > 0 ? cdiv(bursts, u.dma.outstanding_bursts) : 1;
    long long per = batches * (s.dram.latency_cycles + u.dma.burst_latency_cycles) +
                    static_cast<long long>(std::ceil(bytes / bw - 1e-9));
    if (u.dma.throttle_bytes > 0)  // walk the bursts one by one
      for (long long left = bytes; left > 0;) {
        const long long b =
            u.dma.max_burst_bytes > 0 ? std::min(left, u.dma.max_burst_bytes) : left;
        per += (b - 1) / u.dma.throttle_bytes * u.dma.throttle_gap_cycles;
        left -= b;
      }
    c.commands += runs;
    (write ? c.write : c.read) += runs * per;
    c.bytes += runs * bytes;
    c.any = true;
  };
  auto price = [&](const Cost& c) {
    if (!c.any) return 0LL;
    const long long t = u.dma.separate_channels ? std::max(c.read, c.write) : c.read + c.write;
    return c.commands * u.dma.command_cycles + t;
  };
  auto changed = [](const Op& op, const std::array<long long, 3>& a,
                    const std::array<long long, 3>& b) {
    for (int d = 0; d < 3; ++d)
      if (op.uses[d] && a[d] != b[d]) return true;
    return false;
  };
  const long long base = s.rows + s.cols - 2;
  long long total = u.run_overhead_cycles, moved = 0;
  for (size_t i = 0; i < seq.size(); ++i) {
    const auto& t = seq[i];
    const long long len = ext(2, t[2]);
    long long st = len;
    if (u.feeder_word > 1 && len % u.feeder_word != 0)
      st = static_cast<long long>(std::ceil(st * u.unaligned_factor - 1e-9));
    const long long n = cdiv(ext(0, t[0]), s.rows) * cdiv(ext(1, t[1]), s.cols);
    const long long d = u.tile_fill_drain_cycles >= 0 ? u.tile_fill_drain_cycles : base;
    long long busy;
    if (u.accumulator_double_buffered) {
      const long long p = count[2] > 1 ? u.drain_cycles_reload : u.drain_cycles;
      busy = (n - 1) * std::max(st, p) + std::max(st + d, u.min_tile_cycles);
    } else {
      busy = std::max(n * (st + base) - base + d, u.min_tile_cycles);
    }
    Cost w;
    if (i + 1 < seq.size())
      for (const Op& op : ops)
        if (changed(op, t, seq[i + 1]) &&
            (!op.output || u.accumulate_from_dram || seq[i + 1][2] > 0))
          transfer(w, op, seq[i + 1], false);
    if (i > 0 && changed(ops[2], seq[i - 1], t)) transfer(w, ops[2], seq[i - 1], true);
    total += std::max(u.tile_overhead_cycles + busy, price(w));
    moved += w.bytes;
  }
  Cost fill, drain;
  for (const Op& op : ops)
    if (!op.output || u.accumulate_from_dram) transfer(fill, op, seq.front(), false);
  transfer(drain, ops[2], seq.back(), true);
  if (edges) total += price(fill) + price(drain);
  return {total, moved + fill.bytes + drain.bytes};
}

}  // namespace

TEST_CASE("microarchitecture: the per-tile law equals a walk over every tile", "[hw][micro]") {
  std::mt19937_64 rng(23);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  const char* orders[] = {"mnk", "mkn", "nmk", "nkm", "kmn", "knm"};
  for (int c = 0; c < 300; ++c) {
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
    const Accelerator acc(s);
    const GemmShape shape{pick(1, 30), pick(1, 30), pick(1, 30)};
    Tiling tiling =
        mapping::parse_tiling(std::to_string(pick(0, 12)) + "x" + std::to_string(pick(0, 12)) +
                                  "x" + std::to_string(pick(0, 12)) + ":" + orders[pick(0, 5)],
                              "--tile");
    const bool edges = pick(0, 1);
    hw::Options o;
    o.edge_transfers = edges;
    const hw::Result r = hw::evaluate_gemm(acc, hw::make_gemm_problem(shape),
                                           Dataflow::kOutputStationary, tiling, o);
    INFO("case " << c << " shape " << shape.m << "x" << shape.n << "x" << shape.k << " tile "
                 << mapping::to_string(tiling) << " edges " << edges);
    const Brute b = brute_total(s, shape, tiling, edges);
    CHECK(r.cycles.total == b.cycles);
    CHECK(r.dram_bytes == b.bytes);
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
