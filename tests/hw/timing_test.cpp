// Timing: fold pipeline cycles, SRAM-bandwidth stalls and double-buffered DRAM transfers,
// against hand derivations and a brute-force walk over every tile and fold.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "fixtures.hpp"
#include "tenet/hw/evaluate.hpp"

using namespace tenet;
using namespace hwtest;

TEST_CASE("an SRAM slower than a fold's traffic stretches the fold", "[hw][timing]") {
  // os 4x4, GEMM 4x4x8, one fold of K + R + C - 2 = 14 cycles (compute = 13). The fold moves
  // A 4*8 + B 8*4 + C 16 = 80 16-bit elements = 160 bytes; at 8 bytes/cycle that takes 20
  // cycles: 6 stall cycles, total 19.
  const auto problem = hw::make_gemm_problem({4, 4, 8});
  const hw::Result r = hw::evaluate_gemm(make_acc(4, 4, 1LL << 40, Bandwidth::of(8)), problem,
                                         Dataflow::kOutputStationary);
  CHECK(r.cycles.compute == 13 + 1);
  CHECK(r.cycles.stall_sram == 6);
  CHECK(r.cycles.stall_dram == 0);
  CHECK(r.cycles.stall == 6);
  CHECK(r.cycles.last_write_index == 19);
  CHECK(r.busy.sram == 20);
  CHECK(r.bound == hw::Bound::kSram);
  // 160 bytes in 14 cycles needs 160/14 = 11.4 bytes/cycle: 12 does not stall.
  CHECK(hw::evaluate_gemm(make_acc(4, 4, 1LL << 40, Bandwidth::of(12)), problem,
                          Dataflow::kOutputStationary)
            .cycles.stall == 0);
  hw::Options ideal;
  ideal.unlimited_sram_bandwidth = true;
  CHECK(hw::evaluate_gemm(make_acc(4, 4, 1LL << 40, Bandwidth::of(8)), problem,
                          Dataflow::kOutputStationary, {}, ideal)
            .cycles.stall == 0);
}

TEST_CASE("DRAM transfers overlap the previous tile, the excess stalls", "[hw][timing]") {
  // os 4x4, GEMM 4x4x16 in two k tiles of 8 (one fold each, 8 + 6 = 14 cycles). The first
  // tile's inputs arrive before cycle 0. While tile 0 computes, tile 1's A (4x8) and B (8x4)
  // tiles are prefetched: 64 16-bit elements = 128 bytes at 4 bytes/cycle = 32 cycles + 2 of
  // latency = 34 > 14: 20 stall cycles. Tile 1 has nothing to prefetch and the write-back of C
  // comes after the last counted cycle. Total = 34 + 14 - 1 = 47, compute = 27.
  const auto problem = hw::make_gemm_problem({4, 4, 16});
  const Tiling tiling{4, 4, 8, {GemmDim::kM, GemmDim::kN, GemmDim::kK}};
  hw::Options scalesim;  // the edges outside the counted cycles, as SCALE-Sim counts them
  scalesim.edge_transfers = false;
  const hw::Result r =
      hw::evaluate_gemm(make_acc(4, 4, 1LL << 40, Bandwidth::infinite(), Bandwidth::of(4), 2),
                        problem, Dataflow::kOutputStationary, tiling, scalesim);
  CHECK(r.cycles.compute == 27 + 1);
  CHECK(r.cycles.stall_dram == 20);
  CHECK(r.cycles.last_write_index == 47);
  CHECK(r.busy.dram == 34);
  CHECK(r.bound == hw::Bound::kDram);
  hw::Options ideal = scalesim;
  ideal.unlimited_dram_bandwidth = true;
  CHECK(hw::evaluate_gemm(make_acc(4, 4, 1LL << 40, Bandwidth::infinite(), Bandwidth::of(4), 2),
                          problem, Dataflow::kOutputStationary, tiling, ideal)
            .cycles.last_write_index == 27);
  // Without double buffering nothing overlaps: 14 + 34 + 14 - 1 = 61.
  AcceleratorSpec single =
      make_acc(4, 4, 1LL << 40, Bandwidth::infinite(), Bandwidth::of(4), 2).spec();
  single.global_buffer.double_buffered = false;
  const hw::Result serial = hw::evaluate_gemm(Accelerator(single), problem,
                                              Dataflow::kOutputStationary, tiling, scalesim);
  CHECK(serial.cycles.last_write_index == 61);
  CHECK(serial.cycles.stall_dram == 34);
  // Edge transfers: tile 0's A and B (128 bytes: 2 + 32 cycles) before the first fold and C's
  // write-back (4x4 16-bit = 32 bytes: 2 + 8 cycles) after the last: 47 + 34 + 10 = 91.
  // They are the default (hw::Options{}).
  const hw::Result cold =
      hw::evaluate_gemm(make_acc(4, 4, 1LL << 40, Bandwidth::infinite(), Bandwidth::of(4), 2),
                        problem, Dataflow::kOutputStationary, tiling);
  CHECK(cold.cycles.last_write_index == 91);
  CHECK(cold.cycles.stall_dram == 64);
  CHECK(cold.cycles.edge_fill == 34);
  CHECK(cold.busy.dram == 78);
  // No time below the DRAM link: 128 + 128 + 32 bytes at 4 bytes/cycle = 72 cycles <= 92.
  CHECK(cold.cycles.total * 4 >= cold.dram_bytes);
}

TEST_CASE("precision-scalable PEs pack the reduction dimension", "[hw][timing]") {
  // 2 MACs per PE per cycle. os: K = 16 streams in 8 cycles: 8 + 6 = 14 rows -> 13.
  const auto problem = hw::make_gemm_problem({4, 4, 16});
  const hw::Result os = hw::evaluate_gemm(
      make_acc(4, 4, 1LL << 40, Bandwidth::infinite(), Bandwidth::infinite(), 0, 2), problem,
      Dataflow::kOutputStationary);
  CHECK(os.cycles.last_write_index == 13);
  CHECK(os.macs_per_cycle == 2);
  // ws: the 4 rows hold 8 k values each pass: ceil(16/8) = 2 folds of 2*4 + 4 + 4 - 2 = 14.
  const hw::Result ws = hw::evaluate_gemm(
      make_acc(4, 4, 1LL << 40, Bandwidth::infinite(), Bandwidth::infinite(), 0, 2), problem,
      Dataflow::kWeightStationary);
  CHECK(ws.folds == 2);
  CHECK(ws.cycles.last_write_index == 27);
  CHECK(ws.mapping_efficiency == Approx(1.0));
  // One MAC every 3 cycles: os streams K = 16 over 48 cycles: 48 + 6 - 1.
  const hw::Result slow = hw::evaluate_gemm(
      make_acc(4, 4, 1LL << 40, Bandwidth::infinite(), Bandwidth::infinite(), 0, 1, 3), problem,
      Dataflow::kOutputStationary);
  CHECK(slow.cycles.last_write_index == 53);
  CHECK(slow.utilization == Approx(256.0 * 3 / (54 * 16)));
}

namespace {

// Brute-force timing of the documented rules, tile by tile and fold by fold, for operands
// indexed plainly (group 0 or 1). Shared buffer of bandwidth `sram`; DRAM `dram`, `latency`.
struct BruteTiming {
  long long total = 0, compute = 0, stall_sram = 0, stall_dram = 0;
  long long edges = 0;  // Options::edge_transfers: first tile's fill + last tile's write-back
};

BruteTiming brute_timing(const std::vector<Tile>& tiles, const hw::GemmProblem& p,
                         const hw::Result& r, long long base, long long pack, bool k_streams,
                         double sram, double dram, long long latency) {
  const auto dims = mapping::dataflow_dims(r.dataflow);
  const int s = static_cast<int>(dims.stream);
  std::vector<bool> revisited_output(p.operands.size(), false);
  for (size_t x = 0; x < p.operands.size(); ++x)
    if (p.operands[x].output)
      revisited_output[x] = brute_access(tiles, p.operands[x]).rmw_reads > 0;
  std::vector<std::vector<ElementSet>> tile_sets(tiles.size());
  for (size_t t = 0; t < tiles.size(); ++t)
    for (const hw::Operand& op : p.operands) tile_sets[t].push_back(touched(op, tiles[t].box));
  BruteTiming out;
  std::vector<ElementSet> written(p.operands.size());  // outputs written before a tile
  for (size_t t = 0; t < tiles.size(); ++t) {
    long long with_sram = 0, pipeline = 0;
    double stream_bytes = 0;
    std::vector<ElementSet> written_now = written;
    for (const Fold& f : tiles[t].folds) {
      const long long len = f.box[s].hi - f.box[s].lo;
      const long long L = base + (k_streams ? (len + pack - 1) / pack : len);
      double bytes = 0;
      for (size_t x = 0; x < p.operands.size(); ++x) {
        const hw::Operand& op = p.operands[x];
        const ElementSet e = touched(op, f.box);
        bytes += e.size() * op.bits / 8.0 * (revisited_output[x] ? 2 : 1);
        if (r.tensor(op.name).resident) continue;
        if (!op.output) {
          stream_bytes += e.size() * op.bits / 8.0;
        } else {
          for (const Key& k : e) stream_bytes += (1 + written_now[x].count(k)) * op.bits / 8.0;
          written_now[x].insert(e.begin(), e.end());
        }
      }
      const long long port = sram > 0 ? static_cast<long long>(std::ceil(bytes / sram - 1e-9)) : 0;
      pipeline += L;
      with_sram += std::max(L, port);
    }
    double bytes = stream_bytes;
    for (size_t x = 0; x < p.operands.size(); ++x) {
      const hw::Operand& op = p.operands[x];
      if (!r.tensor(op.name).resident) continue;
      auto corner = [&](size_t i) { return tile_corner(op, tiles[i].box); };
      if (t + 1 < tiles.size() && corner(t + 1) != corner(t)) {
        bool revisit = false;
        for (const Key& k : tile_sets[t + 1][x]) revisit = revisit || written_now[x].count(k);
        if (!op.output || revisit) bytes += tile_sets[t + 1][x].size() * op.bits / 8.0;
      }
      if (op.output && t > 0 && corner(t - 1) != corner(t))
        bytes += tile_sets[t - 1][x].size() * op.bits / 8.0;
    }
    for (size_t x = 0; x < p.operands.size(); ++x)
      if (p.operands[x].output) {
        written[x] = written_now[x];
        written[x].insert(tile_sets[t][x].begin(), tile_sets[t][x].end());
      }
    const long long window = dram > 0 && bytes > 0
                                 ? latency + static_cast<long long>(std::ceil(bytes / dram - 1e-9))
                                 : 0;
    const long long step = std::max(with_sram, window);
    out.compute += pipeline;
    out.total += step;
    out.stall_sram += with_sram - pipeline;
    out.stall_dram += step - with_sram;
  }
  out.total -= 1;
  out.compute -= 1;
  double fill = 0, drain = 0;
  for (size_t x = 0; x < p.operands.size(); ++x) {
    const hw::Operand& op = p.operands[x];
    if (!r.tensor(op.name).resident) continue;
    (op.output ? drain : fill) +=
        tile_sets[op.output ? tiles.size() - 1 : 0][x].size() * op.bits / 8.0;
  }
  for (double bytes : {fill, drain})
    if (dram > 0 && bytes > 0)
      out.edges += latency + static_cast<long long>(std::ceil(bytes / dram - 1e-9));
  return out;
}

}  // namespace

TEST_CASE("tile-class timing equals a walk over every tile and fold", "[hw][timing]") {
  std::mt19937 rng(11);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  int edges_seen = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Dataflow df = static_cast<Dataflow>(pick(0, 2));
    const long long R = pick(1, 4), C = pick(1, 4), pack = pick(1, 2);
    const GemmShape shape{pick(1, 14), pick(1, 14), pick(1, 14)};
    Tiling tiling{pick(1, shape.m), pick(1, shape.n), pick(1, shape.k)};
    std::array<GemmDim, 3> order{GemmDim::kM, GemmDim::kN, GemmDim::kK};
    std::shuffle(order.begin(), order.end(), rng);
    tiling.order = order;
    hw::GemmProblem p = hw::make_gemm_problem(shape, {static_cast<int>(pick(4, 16)), 8, 32});
    if (trial % 3 == 0)  // a per-channel scale
      p.operands.push_back({"s", workload::OperandRole::kScale, 16, false, {0, 1, 0}});
    const double sram = pick(0, 1) ? static_cast<double>(pick(2, 40)) : 0;
    const double dram = pick(0, 3) ? static_cast<double>(pick(1, 12)) : 0;
    const long long latency = pick(0, 5);
    const long long buffer = pick(0, 1) ? (1LL << 40) : pick(16, 600);
    AcceleratorSpec spec =
        make_acc(R, C, buffer, sram > 0 ? Bandwidth::of(sram) : Bandwidth::infinite(),
                 dram > 0 ? Bandwidth::of(dram) : Bandwidth::infinite(), latency, pack)
            .spec();
    // Double-buffered stationary registers (ws, is): a fold pays no preload, the GEMM one.
    spec.stationary_double_buffered = trial % 4 == 1;
    const Accelerator acc(spec);
    const bool preload_hidden =
        spec.stationary_double_buffered && df != Dataflow::kOutputStationary;
    const long long once = preload_hidden ? R : 0;
    hw::Options scalesim;
    scalesim.edge_transfers = false;
    const hw::Result r = hw::evaluate_gemm(acc, p, df, tiling, scalesim);
    const auto dims = mapping::dataflow_dims(df);
    const long long lanes = dims.rows == GemmDim::kK ? pack : 1;
    const auto tiles = enumerate_tiles(df, R, C, lanes, shape, tiling);
    const long long base =
        df == Dataflow::kOutputStationary || preload_hidden ? R + C - 2 : 2 * R + C - 2;
    const BruteTiming b =
        brute_timing(tiles, p, r, base, pack, dims.stream == GemmDim::kK, sram, dram, latency);
    INFO(mapping::to_string(df) << " " << shape.m << "x" << shape.n << "x" << shape.k << " array "
                                << R << "x" << C << " pack " << pack << " tiling "
                                << mapping::to_string(tiling) << " sram " << sram << " dram "
                                << dram << " latency " << latency << " buffer " << buffer);
    CHECK(r.cycles.compute == b.compute + 1 + once);
    CHECK(r.cycles.last_write_index == b.total + once);
    CHECK(r.cycles.stall_sram == b.stall_sram);
    CHECK(r.cycles.stall_dram == b.stall_dram);
    CHECK(r.cycles.total == r.cycles.compute + r.cycles.stall);
    hw::Options edges;
    edges.edge_transfers = true;
    const hw::Result e = hw::evaluate_gemm(acc, p, df, tiling, edges);
    CHECK(e.cycles.last_write_index == b.total + b.edges + once);
    CHECK(e.cycles.stall_dram == b.stall_dram + b.edges);
    CHECK(e.cycles.compute == b.compute + 1 + once);
    CHECK(e.dram_bytes == r.dram_bytes);
    edges_seen += b.edges > 0 ? 1 : 0;
    CHECK(r.utilization >= 0);
    CHECK(r.utilization <= 1);
    CHECK(r.mapping_efficiency > 0);
    CHECK(r.mapping_efficiency <= 1);
  }
  CHECK(edges_seen > 100);
}
