// SCALE-Sim v2 conventions: hand-derived cases and a comparison with the demand matrices
// SCALE-Sim builds (re-stated in scalesim_reference.hpp).
#include <catch2/catch.hpp>
#include <random>

#include "fixtures.hpp"
#include "scalesim_reference.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/evaluate.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

// SCALE-Sim's convention, switched on explicitly: the first fill and the last write-back lie
// outside the counted cycles (with ideal memories they cost nothing either way).
hw::Options scalesim_options() {
  hw::Options o;
  o.edge_transfers = false;
  return o;
}

hw::Result run(Dataflow df, long long R, long long C, long long M, long long N, long long K) {
  return hw::evaluate_gemm(make_acc(R, C), hw::make_gemm_problem({M, N, K}), df, {},
                           scalesim_options());
}

}  // namespace

// 4x4 array, GEMM M=5, N=6, K=7 (A 5x7, B 7x6, C 5x6).
//
// os: rows take M (ceil(5/4) = 2 row folds), columns take N (ceil(6/4) = 2 column folds): 4
//   folds. A fold streams K = 7 values, skewed over R - 1 = 3 rows and C - 1 = 3 columns: its
//   demand rows are K + R + C - 2 = 13. Last write at 4 * 13 - 1 = 51.
//   A reads: each of the 2 column folds reads all of A: 2 * 5 * 7 = 70.
//   B reads: each of the 2 row folds reads all of B: 2 * 7 * 6 = 84.
//   C writes: every output once: 30.
// ws: rows take K (2 folds), columns take N (2 folds): 4 folds of 2R + C + M - 2 =
//   8 + 4 + 5 - 2 = 15 rows (R cycles of weight preload before the skewed stream):
//   4 * 15 - 1 = 59. A reads: once per column fold: 2 * 35 = 70. B reads: each weight once: 42.
//   C writes: M x (columns of the fold) per fold = 5 * 6 per K-fold, 2 K-folds: 60.
// is: rows take K (2 folds), columns take M (2 folds): 4 folds of 2R + C + N - 2 =
//   8 + 4 + 6 - 2 = 16 rows: 4 * 16 - 1 = 63. A reads: each input once: 35. B reads: once per
//   column (M) fold: 2 * 42 = 84. C writes: 60 as for ws.
TEST_CASE("SCALE-Sim conventions on a 4x4 array, GEMM 5x6x7, derived by hand", "[hw][scalesim]") {
  struct Case {
    Dataflow df;
    long long cycles, a_reads, b_reads, c_writes, folds;
  } cases[] = {{Dataflow::kOutputStationary, 51, 70, 84, 30, 4},
               {Dataflow::kWeightStationary, 59, 70, 42, 60, 4},
               {Dataflow::kInputStationary, 63, 35, 84, 60, 4}};
  for (const Case& c : cases) {
    INFO(mapping::to_string(c.df));
    const hw::Result r = run(c.df, 4, 4, 5, 6, 7);
    CHECK(r.cycles.last_write_index == c.cycles);
    CHECK(r.cycles.compute == c.cycles + 1);
    CHECK(r.cycles.stall == 0);
    CHECK(r.folds == c.folds);
    CHECK(r.tensor("A").sram_array_reads == c.a_reads);
    CHECK(r.tensor("B").sram_array_reads == c.b_reads);
    CHECK(r.tensor("C").sram_array_writes == c.c_writes);
    // utilisation = M N K / (cycles R C); mapping efficiency = used / offered PEs over folds.
    CHECK(r.utilization == Approx(210.0 / ((c.cycles + 1) * 16.0)));
  }
  // mapping efficiency: os uses 5x6 of 2x2 folds of 16 PEs = 30/64; ws 7x6 -> 42/64; is 7x5.
  CHECK(run(Dataflow::kOutputStationary, 4, 4, 5, 6, 7).mapping_efficiency == Approx(30.0 / 64));
  CHECK(run(Dataflow::kWeightStationary, 4, 4, 5, 6, 7).mapping_efficiency == Approx(42.0 / 64));
  CHECK(run(Dataflow::kInputStationary, 4, 4, 5, 6, 7).mapping_efficiency == Approx(35.0 / 64));
}

// SCALE-Sim issue #125 (scalesim-project/SCALE-Sim): a 4x4x4 GEMM on a 4x4 os array reports
// 9 cycles: one fold of K + R + C - 2 = 10 demand rows, the last at index 9.
// Likewise SCALE-Sim issue #60: MNK 2,2,2 on a 2x2 os array: 2 + 2 + 2 - 2 = 4 rows -> 3 cycles,
// an ifmap demand matrix of 4 rows x 2 columns.
TEST_CASE("a single full fold reports the index of its last row", "[hw][scalesim]") {
  CHECK(run(Dataflow::kOutputStationary, 4, 4, 4, 4, 4).cycles.last_write_index == 9);
  CHECK(run(Dataflow::kOutputStationary, 2, 2, 2, 2, 2).cycles.last_write_index == 3);
  CHECK(scalesim_ref::os(2, 2, 2, 2, 2).ifmap.size() == 4);
  // ws / is add R preload rows: 2R + C + T - 2 = 8 + 4 + 4 - 2 = 14 rows -> 13.
  CHECK(run(Dataflow::kWeightStationary, 4, 4, 4, 4, 4).cycles.last_write_index == 13);
  CHECK(run(Dataflow::kInputStationary, 4, 4, 4, 4, 4).cycles.last_write_index == 13);
}

// Edge folds are padded: a 5x4 output on a 4x4 os array costs two full folds.
TEST_CASE("padded edge folds cost a full fold", "[hw][scalesim]") {
  const long long one = run(Dataflow::kOutputStationary, 4, 4, 4, 4, 9).cycles.last_write_index + 1;
  const long long two = run(Dataflow::kOutputStationary, 4, 4, 5, 4, 9).cycles.last_write_index + 1;
  CHECK(two == 2 * one);
}

TEST_CASE("cycles and SRAM reads equal SCALE-Sim's demand matrices on random GEMMs",
          "[hw][scalesim]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<long long> dim(1, 19), arr(1, 7);
  for (int trial = 0; trial < 150; ++trial) {
    const long long M = dim(rng), N = dim(rng), K = dim(rng), R = arr(rng), C = arr(rng);
    for (Dataflow df :
         {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
      INFO(mapping::to_string(df) << " M=" << M << " N=" << N << " K=" << K << " R=" << R
                                  << " C=" << C);
      const scalesim_ref::Demands d =
          df == Dataflow::kOutputStationary   ? scalesim_ref::os(M, N, K, R, C)
          : df == Dataflow::kWeightStationary ? scalesim_ref::ws(M, N, K, R, C)
                                              : scalesim_ref::is(M, N, K, R, C);
      REQUIRE(d.ifmap.size() == d.ofmap.size());
      REQUIRE(d.filter.size() == d.ofmap.size());
      const hw::Result r = run(df, R, C, M, N, K);
      CHECK(r.cycles.last_write_index == static_cast<long long>(d.ofmap.size()) - 1);
      CHECK(r.tensor("A").sram_array_reads == scalesim_ref::valid(d.ifmap));
      CHECK(r.tensor("B").sram_array_reads == scalesim_ref::valid(d.filter));
      CHECK(r.tensor("C").sram_array_writes == scalesim_ref::valid(d.ofmap));
    }
  }
}

TEST_CASE("LLM-sized GEMMs follow the fold formulas", "[hw][scalesim]") {
  // ws on 128x128, M=512, N=4096, K=11008: ceil(11008/128) = 86 row folds, 32 column folds;
  // each 2*128 + 128 + 512 - 2 = 894 rows: 86 * 32 * 894 - 1.
  const hw::Result ws = run(Dataflow::kWeightStationary, 128, 128, 512, 4096, 11008);
  CHECK(ws.cycles.last_write_index == 86LL * 32 * 894 - 1);
  CHECK(ws.tensor("A").sram_array_reads == 32LL * 512 * 11008);
  CHECK(ws.tensor("B").sram_array_reads == 11008LL * 4096);
  // os on 8x8, M=1, N=11008, K=4096: 1 row fold, 1376 column folds of 4096 + 14 rows.
  const hw::Result os = run(Dataflow::kOutputStationary, 8, 8, 1, 11008, 4096);
  CHECK(os.cycles.last_write_index == 1376LL * (4096 + 14) - 1);
  CHECK(os.tensor("A").sram_array_reads == 1376LL * 4096);
  CHECK(os.tensor("B").sram_array_reads == 11008LL * 4096);
  // is on 32x32, 100x37x59: rows take K = 59 (2 folds), columns M = 100 (4 folds), N = 37.
  const hw::Result is = run(Dataflow::kInputStationary, 32, 32, 100, 37, 59);
  CHECK(is.cycles.last_write_index == 8 * (64 + 32 + 37 - 2) - 1);
}

TEST_CASE("the ideal systolic accelerator never stalls", "[hw][scalesim]") {
  const arch::Accelerator acc = arch::make_ideal_systolic(16, 8);
  CHECK(acc.rows() == 16);
  CHECK(acc.cols() == 8);
  for (Dataflow df :
       {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
    const hw::Result r =
        hw::evaluate_gemm(acc, hw::make_gemm_problem({100, 37, 59}), df, {}, scalesim_options());
    const hw::Result plain = run(df, 16, 8, 100, 37, 59);
    CHECK(r.cycles == plain.cycles);
    CHECK(r.cycles.stall == 0);
    CHECK(r.tensor("A").sram_array_reads == plain.tensor("A").sram_array_reads);
  }
  CHECK(hw::evaluate_gemm(acc, hw::make_gemm_problem({8, 8, 8}, {8, 8, 32}),
                          Dataflow::kOutputStationary)
            .precision == workload::DataType::signed_int(8));
  CHECK_THROWS_AS(arch::make_ideal_systolic(0, 4), InputError);
}
