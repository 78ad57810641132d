// Access counts of the closed forms against brute-force enumeration: every tile, fold and
// instance of small GEMMs with odd sizes, tiles that do not divide them, all loop orders, the
// three dataflows, precision packing and group-indexed operands (e.g. group-wise scales).
#include <catch2/catch.hpp>
#include <random>

#include "fixtures.hpp"
#include "hw/isl_counts.hpp"
#include "tenet/hw/evaluate.hpp"

using namespace tenet;
using namespace hwtest;
using workload::OperandRole;

namespace {

struct RandomCase {
  Dataflow df;
  long long R, C, pack;
  GemmShape shape;
  Tiling tiling;
  hw::GemmProblem problem;
};

RandomCase random_case(std::mt19937& rng, bool grouped) {
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  RandomCase c;
  c.df = static_cast<Dataflow>(pick(0, 2));
  c.R = pick(1, 5), c.C = pick(1, 5), c.pack = pick(1, 3);
  c.shape = {pick(1, 13), pick(1, 13), pick(1, 13)};
  c.tiling = {pick(0, c.shape.m), pick(0, c.shape.n), pick(0, c.shape.k)};
  std::array<GemmDim, 3> order{GemmDim::kM, GemmDim::kN, GemmDim::kK};
  std::shuffle(order.begin(), order.end(), rng);
  c.tiling.order = order;
  c.problem = hw::make_gemm_problem(c.shape);
  if (grouped) {
    // A group-wise weight scale sW[j, k/g], a per-token activation scale sA[i], a scalar.
    c.problem.operands.push_back({"sW", OperandRole::kScale, 16, false, {0, 1, pick(2, 5)}});
    c.problem.operands.push_back({"sA", OperandRole::kScale, 8, false, {pick(1, 3), 0, 0}});
    c.problem.operands.push_back({"s", OperandRole::kOther, 32, false, {0, 0, 0}});
    c.problem.operands.push_back(
        {"Cg", OperandRole::kOutput, 32, true, {pick(1, 2), 1, pick(0, 3)}});
  }
  return c;
}

long long row_lanes(const RandomCase& c) {
  return mapping::dataflow_dims(c.df).rows == GemmDim::kK ? c.pack : 1;
}

}  // namespace

TEST_CASE("SRAM and DRAM access counts equal brute-force enumeration", "[hw][access]") {
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 400; ++trial) {
    const RandomCase c = random_case(rng, trial % 2 == 1);
    const Accelerator acc =
        make_acc(c.R, c.C, 1LL << 40, Bandwidth::infinite(), Bandwidth::infinite(), 0, c.pack);
    const hw::Result r = hw::evaluate_gemm(acc, c.problem, c.df, c.tiling);
    const auto tiles = enumerate_tiles(c.df, c.R, c.C, row_lanes(c), c.shape, c.tiling);
    CHECK(r.tiles == static_cast<long long>(tiles.size()));
    long long folds = 0;
    for (const Tile& t : tiles) folds += static_cast<long long>(t.folds.size());
    CHECK(r.folds == folds);
    for (const hw::Operand& op : c.problem.operands) {
      INFO(mapping::to_string(c.df)
           << " " << c.shape.m << "x" << c.shape.n << "x" << c.shape.k << " array " << c.R << "x"
           << c.C << " pack " << c.pack << " tiling " << mapping::to_string(c.tiling) << " operand "
           << op.name);
      const BruteAccess b = brute_access(tiles, op);
      const hw::TensorResult& t = r.tensor(op.name);
      REQUIRE(t.resident);  // the buffer is huge
      if (op.output) {
        CHECK(t.sram_array_writes == b.fold_accesses);
        CHECK(t.sram_array_reads == b.rmw_reads);
        CHECK(t.dram_writes == b.resident_writes);
        CHECK(t.dram_reads == b.resident_reads);
      } else {
        CHECK(t.sram_array_reads == b.fold_accesses);
        CHECK(t.sram_array_writes == 0);
        CHECK(t.dram_reads == b.resident_reads);
        CHECK(t.dram_writes == 0);
      }
      // Every DRAM transfer passes through the SRAM.
      CHECK(t.sram_reads == t.sram_array_reads + t.dram_writes);
      CHECK(t.sram_writes == t.sram_array_writes + t.dram_reads);
      CHECK(t.dram_bytes == ((t.dram_reads + t.dram_writes) * op.bits + 7) / 8);
    }
  }
}

TEST_CASE("operands that do not fit stream every fold from DRAM", "[hw][access]") {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 200; ++trial) {
    const RandomCase c = random_case(rng, trial % 2 == 1);
    // 1-byte buffer: nothing fits, everything streams (but an operand of one element of a few
    // bits that is never replaced: its one copy fits in the byte).
    const Accelerator acc =
        make_acc(c.R, c.C, 1, Bandwidth::infinite(), Bandwidth::infinite(), 0, c.pack);
    const hw::Result r = hw::evaluate_gemm(acc, c.problem, c.df, c.tiling);
    const auto tiles = enumerate_tiles(c.df, c.R, c.C, row_lanes(c), c.shape, c.tiling);
    for (const hw::Operand& op : c.problem.operands) {
      INFO(op.name << " tiling " << mapping::to_string(c.tiling));
      const BruteAccess b = brute_access(tiles, op);
      const hw::TensorResult& t = r.tensor(op.name);
      if (t.footprint_bytes <= 1) continue;
      CHECK_FALSE(t.resident);
      if (op.output) {
        CHECK(t.dram_writes == b.fold_accesses);
        CHECK(t.dram_reads == b.rmw_reads);
      } else {
        CHECK(t.dram_reads == b.fold_accesses);
      }
    }
  }
}

TEST_CASE("C = C + A·B: the reads of C equal brute-force enumeration", "[hw][access][accumulate]") {
  // The outputs hold values before the GEMM (GemmProblem::accumulate): every tile of C that is
  // loaded is read from DRAM (the first time too), every fold reads what it updates; resident in a
  // huge buffer, and streamed fold by fold from a 1-byte one. Writes do not change.
  std::mt19937 rng(37);
  for (int trial = 0; trial < 300; ++trial) {
    RandomCase c = random_case(rng, trial % 2 == 1);
    const bool fits = trial % 3 != 0;
    const Accelerator acc = make_acc(c.R, c.C, fits ? 1LL << 40 : 1, Bandwidth::infinite(),
                                     Bandwidth::infinite(), 0, c.pack);
    const hw::Result plain = hw::evaluate_gemm(acc, c.problem, c.df, c.tiling);
    c.problem.accumulate = true;
    const hw::Result r = hw::evaluate_gemm(acc, c.problem, c.df, c.tiling);
    CHECK(r.accumulate);
    const auto tiles = enumerate_tiles(c.df, c.R, c.C, row_lanes(c), c.shape, c.tiling);
    for (const hw::Operand& op : c.problem.operands) {
      INFO(mapping::to_string(c.df) << " " << c.shape.m << "x" << c.shape.n << "x" << c.shape.k
                                    << " tiling " << mapping::to_string(c.tiling) << " operand "
                                    << op.name << (fits ? " resident" : " streamed"));
      const BruteAccess b = brute_access(tiles, op, true);
      const hw::TensorResult& t = r.tensor(op.name);
      const hw::TensorResult& before = plain.tensor(op.name);
      if (!op.output) {  // inputs move as before
        CHECK(t.dram_reads == before.dram_reads);
        CHECK(t.sram_array_reads == before.sram_array_reads);
        continue;
      }
      CHECK(t.sram_array_reads == b.rmw_reads);
      CHECK(t.sram_array_writes == b.fold_accesses);
      CHECK(t.dram_writes == before.dram_writes);
      if (t.footprint_bytes <= 1) continue;
      REQUIRE(t.resident == fits);
      if (fits) {
        CHECK(t.dram_reads == b.resident_reads);
        CHECK(t.dram_writes == b.resident_writes);
        // every element of C read once more than without: its initial value
        CHECK(t.dram_reads - before.dram_reads == b.unique);
      } else {
        CHECK(t.dram_reads == b.rmw_reads);  // every fold's partial sums, the first too
      }
      CHECK(t.dram_bytes == ((t.dram_reads + t.dram_writes) * op.bits + 7) / 8);
    }
  }
}

// Which operands stay resident: per buffer, the subset that fits (tile footprint x2 when
// double-buffered) with the least DRAM traffic.
TEST_CASE("a buffer too small for a tile raises DRAM traffic as documented", "[hw][access]") {
  // ws on a 4x4 array, GEMM 64x64x64 in 16x16x16 tiles, loop order m, n, k (k innermost).
  // Tile footprints (16-bit, double-buffered): A 16*16*2*2 = 1024 B, B 1024 B, C 1024 B.
  const GemmShape shape{64, 64, 64};
  const Tiling tiling{16, 16, 16, {GemmDim::kM, GemmDim::kN, GemmDim::kK}};
  const auto problem = hw::make_gemm_problem(shape);
  auto eval = [&](long long bytes) {
    return hw::evaluate_gemm(make_acc(4, 4, bytes), problem, Dataflow::kWeightStationary, tiling);
  };
  const hw::Result big = eval(3072);
  for (const char* x : {"A", "B", "C"}) CHECK(big.tensor(x).resident);
  CHECK(big.tensor("A").footprint_bytes == 1024);
  // Resident: A[i,k] changes with every tile (k innermost): M*K*(N/16) = 64*64*4.
  CHECK(big.tensor("A").dram_reads == 64 * 64 * 4);
  CHECK(big.tensor("B").dram_reads == 64 * 64 * 4);
  // C[i,j] stays while k runs: written once, never read back.
  CHECK(big.tensor("C").dram_writes == 64 * 64);
  CHECK(big.tensor("C").dram_reads == 0);
  // 2048 bytes: two tiles fit. Traffic if streamed instead (fold level, ws: rows take k in
  // pieces of 4, columns n in pieces of 4, m streams): A 64*64*(64/4) = 65536 reads; B 64*64*4 =
  // 16384 reads (the same as resident: a weight is read once per m tile either way); C 65536
  // writes (one per K-fold) + 61440 read-backs. Keeping A and C is the cheapest pair.
  const hw::Result two = eval(2048);
  CHECK(two.tensor("A").resident);
  CHECK(two.tensor("C").resident);
  CHECK_FALSE(two.tensor("B").resident);
  CHECK(two.tensor("B").dram_reads == 64 * 64 * 4);
  CHECK(two.dram_bytes == big.dram_bytes);
  // 1024 bytes: one tile fits; keeping C (the partial sums) is cheapest, A then streams.
  const hw::Result one = eval(1024);
  CHECK(one.tensor("C").resident);
  CHECK_FALSE(one.tensor("A").resident);
  CHECK(one.tensor("A").dram_reads == 65536);
  CHECK(one.dram_bytes == (65536 + 16384 + 4096) * 2);
  CHECK(one.dram_bytes > big.dram_bytes);
  // 1023 bytes: nothing fits; all traffic is fold traffic.
  const hw::Result none = eval(1023);
  for (const char* x : {"A", "B", "C"}) CHECK_FALSE(none.tensor(x).resident);
  CHECK(none.tensor("A").dram_reads == none.tensor("A").sram_array_reads);
  CHECK(none.tensor("C").dram_writes == 65536);
  CHECK(none.tensor("C").dram_reads == 61440);
  CHECK(none.dram_bytes > one.dram_bytes);
  // The untiled GEMM needs 64*64*2 = 8 KiB per operand: a tile that never changes is loaded once
  // and needs no second copy, double-buffered or not.
  const hw::Result whole =
      hw::evaluate_gemm(make_acc(4, 4, 3 * 8192), problem, Dataflow::kWeightStationary);
  CHECK(whole.tensor("A").footprint_bytes == 8192);
  for (const char* x : {"A", "B", "C"}) CHECK(whole.tensor(x).resident);
  CHECK(whole.tensor("A").dram_reads == 64 * 64);
  CHECK(whole.dram_bytes == 3 * 64 * 64 * 2);
}

TEST_CASE("loop order decides which operand is refetched", "[hw][access]") {
  // os 4x4, GEMM 32x48x64, tiles 8x16x16 (4 x 3 x 4 tiles), all resident.
  const GemmShape shape{32, 48, 64};
  const auto problem = hw::make_gemm_problem(shape);
  auto eval = [&](std::array<GemmDim, 3> order) {
    return hw::evaluate_gemm(make_acc(4, 4), problem, Dataflow::kOutputStationary,
                             Tiling{8, 16, 16, order});
  };
  // k innermost: A refetched for every n tile (x3), B for every m tile (x4), C written once.
  const hw::Result mnk = eval({GemmDim::kM, GemmDim::kN, GemmDim::kK});
  CHECK(mnk.tensor("A").dram_reads == 32 * 64 * 3);
  CHECK(mnk.tensor("B").dram_reads == 64 * 48 * 4);
  CHECK(mnk.tensor("C").dram_writes == 32 * 48);
  // k outermost: C is written once per k tile (x4) and read back 3 times; A[i,k] stays while
  // the innermost n loop runs: read once; B[k,j] changes with every tile: once per m tile (x4).
  const hw::Result kmn = eval({GemmDim::kK, GemmDim::kM, GemmDim::kN});
  CHECK(kmn.tensor("A").dram_reads == 32 * 64);
  CHECK(kmn.tensor("B").dram_reads == 64 * 48 * 4);
  CHECK(kmn.tensor("C").dram_writes == 32 * 48 * 4);
  CHECK(kmn.tensor("C").dram_reads == 32 * 48 * 3);
}

TEST_CASE("isl relation counts equal the closed forms", "[hw][access][isl]") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    RandomCase c = random_case(rng, trial % 2 == 1);
    c.pack = 1;
    const hw::Result r = hw::evaluate_gemm(make_acc(c.R, c.C), c.problem, c.df, c.tiling);
    for (const hw::Operand& op : c.problem.operands) {
      INFO(op.name << " " << mapping::to_string(c.df) << " tiling "
                   << mapping::to_string(c.tiling));
      const hw::IslAccessCounts isl = hw::count_accesses_isl(c.df, c.R, c.C, c.shape, c.tiling, op);
      const hw::TensorResult& t = r.tensor(op.name);
      CHECK(poly::to_int64(isl.sram) == (op.output ? t.sram_array_writes : t.sram_array_reads));
      CHECK(poly::to_int64(isl.dram_resident) == (op.output ? t.dram_writes : t.dram_reads));
      if (op.output) CHECK(poly::to_int64(isl.dram_resident - isl.unique) == t.dram_reads);
    }
  }
}

TEST_CASE("register-file accesses", "[hw][access]") {
  // ws: B is stationary (loaded once per fold: its fold reads), A streams (one write per MAC),
  // every MAC reads A, B and the partial sum and writes the partial sum.
  const hw::Result r = hw::evaluate_gemm(make_acc(4, 4), hw::make_gemm_problem({5, 6, 7}),
                                         Dataflow::kWeightStationary);
  CHECK(r.macs == 210);
  CHECK(r.tensor("A").register_reads == 210);
  CHECK(r.tensor("A").register_writes == 210);
  CHECK_FALSE(r.tensor("A").stationary);
  CHECK(r.tensor("B").stationary);
  CHECK(r.tensor("B").register_writes == 42);
  CHECK(r.tensor("C").register_reads == 210);
  CHECK(r.tensor("C").register_writes == 210);
}
