// hw::ArrayUse against a walk over every tile and fold (rows and columns in use, the shares of
// the lanes), and the note that says why a compute-bound matmul runs at a low utilization
// (issue 34: "compute, 1 of 32 rows busy: M = 1").
#include <catch2/catch.hpp>
#include <random>

#include "fixtures.hpp"
#include "tenet/hw/evaluate.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

hw::Result run(const Accelerator& acc, const GemmShape& shape, Dataflow df,
               const Tiling& tiling = {}) {
  return hw::evaluate_gemm(acc, hw::make_gemm_problem(shape), df, tiling);
}

}  // namespace

TEST_CASE("array use equals a walk over every fold", "[hw][array_use]") {
  std::mt19937 rng(34);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 400; ++trial) {
    const Dataflow df = static_cast<Dataflow>(pick(0, 2));
    const long long R = pick(1, 6), C = pick(1, 6), pack = pick(1, 3);
    const GemmShape shape{pick(1, 20), pick(1, 20), pick(1, 20)};
    Tiling tiling{pick(1, shape.m), pick(1, shape.n), pick(1, shape.k)};
    std::array<GemmDim, 3> order{GemmDim::kM, GemmDim::kN, GemmDim::kK};
    std::shuffle(order.begin(), order.end(), rng);
    tiling.order = order;
    const Accelerator acc =
        make_acc(R, C, 1LL << 40, Bandwidth::infinite(), Bandwidth::infinite(), 0, pack);
    const hw::Result r = run(acc, shape, df, tiling);
    const hw::ArrayUse& u = r.array_use;
    const auto dims = mapping::dataflow_dims(df);
    const long long lanes = dims.rows == GemmDim::kK ? pack : 1;
    const int rd = static_cast<int>(dims.rows), cd = static_cast<int>(dims.cols);
    long long rows_used = 0, cols_used = 0, folds = 0;
    double row_lanes_busy = 0, col_lanes_busy = 0;
    for (const Tile& t : enumerate_tiles(df, R, C, lanes, shape, tiling))
      for (const Fold& f : t.folds) {
        const long long along_r = f.box[rd].hi - f.box[rd].lo;
        const long long along_c = f.box[cd].hi - f.box[cd].lo;
        rows_used = std::max(rows_used, ceil_div(along_r, lanes));
        cols_used = std::max(cols_used, along_c);
        row_lanes_busy += static_cast<double>(along_r) / static_cast<double>(R * lanes);
        col_lanes_busy += static_cast<double>(along_c) / static_cast<double>(C);
        ++folds;
      }
    INFO(mapping::to_string(df) << " " << shape.m << "x" << shape.n << "x" << shape.k << " on " << R
                                << "x" << C << " pack " << pack << " tiling "
                                << mapping::to_string(tiling));
    CHECK(u.row_dim == dims.rows);
    CHECK(u.col_dim == dims.cols);
    CHECK(u.stream_dim == dims.stream);
    CHECK(u.row_lanes == lanes);
    CHECK(u.rows_used == rows_used);
    CHECK(u.cols_used == cols_used);
    CHECK(u.row_share == Approx(row_lanes_busy / static_cast<double>(folds)));
    CHECK(u.col_share == Approx(col_lanes_busy / static_cast<double>(folds)));
    // No padding: the shares multiply to the mapping efficiency.
    CHECK(u.row_share * u.col_share == Approx(r.mapping_efficiency));
    const double peak_lanes = static_cast<double>(R * C * pack);
    CHECK(u.compute_share ==
          Approx(std::min(1.0, static_cast<double>(r.macs) /
                                   (static_cast<double>(r.busy.compute) * peak_lanes))));
    CHECK(u.compute_share >= r.utilization - 1e-12);  // stalls only lower the utilization
    CHECK(u.pipeline_share > 0);
    CHECK(u.pipeline_share <= 1);
    const long long stream_tile = tiling.extent(dims.stream);
    CHECK(u.stream_cycles ==
          (dims.stream == GemmDim::kK ? ceil_div(stream_tile, pack) : stream_tile));
    CHECK(u.fold_overhead_cycles == hw::fold_overhead(acc, df).per_fold);
  }
}

TEST_CASE("an M = 1 matmul on an output-stationary array: one row busy", "[hw][array_use]") {
  const Accelerator acc = make_acc(32, 32);
  const hw::Result r = run(acc, {1, 4096, 4096}, Dataflow::kOutputStationary);
  CHECK(r.bound == hw::Bound::kCompute);
  CHECK(r.array_use.rows_used == 1);
  CHECK(r.array_use.cols_used == 32);
  CHECK(r.array_use.row_share == Approx(1.0 / 32));
  CHECK(hw::array_use_note(r.array_use, 32, 32, r.bound) == "compute, 1 of 32 rows busy: M = 1");
  // Not the array's bound: no note.
  CHECK(hw::array_use_note(r.array_use, 32, 32, hw::Bound::kDram).empty());
  CHECK(hw::array_use_note(r.array_use, 32, 32, hw::Bound::kDequant).empty());
}

TEST_CASE("an M = 1 matmul on a weight-stationary array: a one-cycle stream per fold",
          "[hw][array_use]") {
  const Accelerator acc = make_acc(32, 32);
  const hw::Result r = run(acc, {1, 4096, 4096}, Dataflow::kWeightStationary);
  CHECK(r.array_use.rows_used == 32);  // K on the rows, N on the columns: every PE holds weights
  CHECK(r.array_use.cols_used == 32);
  CHECK(r.array_use.stream_cycles == 1);
  CHECK(r.array_use.fold_overhead_cycles == 2 * 32 + 32 - 2);
  CHECK(hw::array_use_note(r.array_use, 32, 32, r.bound) ==
        "compute, 1 streamed cycle per fold against 94 of preload, fill and drain: M = 1");
}

TEST_CASE("array use notes: columns, a small tile, a full array", "[hw][array_use]") {
  const Accelerator acc = make_acc(32, 32);
  SECTION("N = 8 fills 8 of 32 columns") {
    const hw::Result r = run(acc, {4096, 8, 4096}, Dataflow::kOutputStationary);
    CHECK(hw::array_use_note(r.array_use, 32, 32, r.bound) ==
          "compute, 8 of 32 columns busy: N = 8");
  }
  SECTION("an M tile of 8 on 32 rows") {
    const hw::Result r = run(acc, {4096, 4096, 4096}, Dataflow::kOutputStationary, Tiling{8, 0, 0});
    CHECK(r.array_use.rows_used == 8);
    CHECK(hw::array_use_note(r.array_use, 32, 32, r.bound) ==
          "compute, 8 of 32 rows busy: M tile = 8");
  }
  SECTION("M = 1 and N = 4: rows and columns") {
    const hw::Result r = run(acc, {1, 4, 4096}, Dataflow::kOutputStationary);
    CHECK(hw::array_use_note(r.array_use, 32, 32, r.bound) ==
          "compute, 1 of 32 rows busy: M = 1; 4 of 32 columns busy: N = 4");
  }
  SECTION("a prefill-sized matmul uses the array: no note") {
    const hw::Result r = run(acc, {512, 4096, 4096}, Dataflow::kOutputStationary);
    CHECK(r.array_use.rows_used == 32);
    CHECK(r.array_use.compute_share > 0.9);
    CHECK(hw::array_use_note(r.array_use, 32, 32, r.bound).empty());
  }
  SECTION("M = 24 of 32 rows: three quarters busy is not under-use") {
    const hw::Result r = run(acc, {24, 4096, 4096}, Dataflow::kOutputStationary);
    CHECK(r.array_use.rows_used == 24);
    CHECK(hw::array_use_note(r.array_use, 32, 32, r.bound).empty());
  }
}
