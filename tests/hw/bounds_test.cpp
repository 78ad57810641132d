// The physical limits (hw::compute_bounds) on random problems: no tiling, dataflow or loop order
// the model evaluates moves fewer DRAM bytes or takes fewer cycles than the bounds; the
// compulsory traffic equals a brute-force count of every tensor's distinct elements; and the
// data-movement term is the binding one on many cases (the test is not vacuous).
#include "tenet/hw/bounds.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "fixtures.hpp"
#include "hw/bounds_format.hpp"
#include "random_cases.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

using workload::OperandRole;

// Distinct elements of each tensor by enumeration, in bytes (inputs once, outputs once).
long long brute_compulsory_bytes(const hw::GemmProblem& p) {
  long long total = 0;
  for (const hw::Operand& op : p.operands) {
    std::set<Key> seen;
    for (long long i = 0; i < p.shape.m; ++i)
      for (long long j = 0; j < p.shape.n; ++j)
        for (long long k = 0; k < p.shape.k; ++k) seen.insert(element(op, {i, j, k}));
    const long long bits = static_cast<long long>(seen.size()) * op.bits;
    total += (bits + 7) / 8;
  }
  return total;
}

// TENET_BOUNDS_TRIALS / TENET_BOUNDS_SEED run more problems by hand (docs/model.md).
int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

// A tiling with extents of any value in [1, size] and any loop order.
Tiling random_tiling(std::mt19937& rng, const GemmShape& shape) {
  auto extent = [&](long long size) {
    return std::uniform_int_distribution<long long>(1, size)(rng);
  };
  std::array<GemmDim, 3> order{GemmDim::kM, GemmDim::kN, GemmDim::kK};
  std::shuffle(order.begin(), order.end(), rng);
  return Tiling{extent(shape.m), extent(shape.n), extent(shape.k), order};
}

}  // namespace

TEST_CASE("no evaluated mapping beats the bounds", "[hw][bounds]") {
  std::mt19937 rng(static_cast<unsigned>(env_int("TENET_BOUNDS_SEED", 2026)));
  const int trials = env_int("TENET_BOUNDS_TRIALS", 400);
  long long checked = 0, movement_binding = 0, dram_binding = 0, compute_binding = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const Accelerator acc = random_acc(rng);
    const hw::GemmProblem p = random_problem(rng);
    hw::Options options;
    options.edge_transfers = trial % 3 == 0;
    options.unlimited_buffer = trial % 17 == 0;
    const hw::Bounds b = hw::compute_bounds(acc, p, options);
    REQUIRE(b.compulsory_dram_bytes <= b.dram_bytes);
    REQUIRE(b.cycles == std::max(b.compute_cycles, b.dram_cycles));
    if (b.dram_bytes > b.compulsory_dram_bytes) ++movement_binding;
    if (b.dram_cycles > b.compute_cycles) ++dram_binding;
    if (b.compute_cycles > b.dram_cycles) ++compute_binding;
    for (Dataflow df :
         {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
      // candidates of the searches (some, or all in a long run), the choices of the latency and
      // least-traffic searches, random extents, untiled
      std::vector<Tiling> all = hw::tiling_candidates(acc, p, df);
      std::shuffle(all.begin(), all.end(), rng);
      all.resize(std::min<size_t>(all.size(), trials > 400 ? all.size() : 12));
      for (hw::TilingObjective o : {hw::TilingObjective::kLatency, hw::TilingObjective::kDramBytes})
        all.push_back(hw::choose_tiling(acc, p, df, options, {o}));
      for (int r = 0; r < (trials > 400 ? 40 : 4); ++r) all.push_back(random_tiling(rng, p.shape));
      all.push_back(Tiling{});  // untiled
      for (const Tiling& t : all) {
        const hw::Result r = hw::evaluate_gemm(acc, p, df, t, options);
        INFO(p << " " << mapping::to_string(df) << " " << mapping::to_string(t) << " on " << acc);
        REQUIRE(b.dram_bytes <= r.dram_bytes);
        REQUIRE(b.cycles <= r.cycles.total);
        ++checked;
      }
    }
  }
  CHECK(checked >= 10000);
  // Each part of the bounds is the binding one on many cases.
  CHECK(movement_binding > 40);
  CHECK(dram_binding > 40);
  CHECK(compute_binding > 40);
}

TEST_CASE("compulsory traffic equals the distinct elements of every tensor", "[hw][bounds]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    hw::GemmProblem p = random_problem(rng);
    p.shape.m = std::min<long long>(p.shape.m, 24);
    p.shape.n = std::min<long long>(p.shape.n, 24);
    p.shape.k = std::min<long long>(p.shape.k, 24);
    const hw::Bounds b = hw::compute_bounds(make_acc(4, 4, 1 << 20), p);
    INFO(p);
    REQUIRE(b.compulsory_dram_bytes == brute_compulsory_bytes(p));
  }
}

TEST_CASE("the data-movement bound in closed form", "[hw][bounds]") {
  // 256^3 fp16, a shared 8 KiB buffer, double-buffered: S = 8192 bytes (a tile may be single-
  // buffered, so the whole buffer counts); regime T in whole tiles,
  // enumerated here over every number b of row tiles (the bound searches a window): C's tile of
  // rows = ceil(256/b) and the widest cols that fit beside a one-k chunk of B or of A, A read
  // ceil(256/cols) times, B b times, C once.
  const Accelerator acc = make_acc(4, 4, 8192, Bandwidth::infinite(), Bandwidth::of(8));
  const long long n = 256;
  const hw::GemmProblem p = hw::make_gemm_problem({n, n, n});
  const hw::Bounds b = hw::compute_bounds(acc, p);
  CHECK(b.capacity_bytes == 8192);  // the whole buffer: any tile may be single-buffered
  CHECK(b.compulsory_dram_bytes == 3 * n * n * 2);
  const long long operand = n * n * 2, s = 8192;
  long long least = -1;
  for (long long tiles_m = 1; tiles_m <= n; ++tiles_m) {
    const long long rows = (n + tiles_m - 1) / tiles_m;
    const long long cols = std::min(n, std::max(s / (rows * 2 + 2), (s - rows * 2) / (rows * 2)));
    if (cols < 1) continue;
    const long long moved = operand * ((n + cols - 1) / cols) + operand * tiles_m;
    if (least < 0 || moved < least) least = moved;
  }
  // e.g. 3 row tiles of 86 and 6 column tiles of 47 (86·47·2 + 47·2 <= 8192)
  CHECK(least == operand * 9);
  // regime (i), rounded down with a relative margin of 1e-12
  CHECK(b.dram_bytes <= least + operand);
  CHECK(b.dram_bytes >= least + operand - 1);
  // the continuous 2·MNK·sqrt(8/S) + MN·2 lies below it
  CHECK(b.dram_bytes > 2.0 * n * n * n * std::sqrt(8.0 / 8192) + operand);
  CHECK(b.compute_cycles == n * n * n / 16);
  // Edge transfers charged (the default): every byte at 8 bytes/cycle.
  CHECK(b.dram_cycles == static_cast<long long>(std::ceil(b.dram_bytes / 8.0)));
  CHECK(b.cycles == std::max(b.compute_cycles, b.dram_cycles));
  // SCALE-Sim's convention: less the two buffers (a single-buffered tile may fill the whole
  // buffer) the model may move outside the counted cycles.
  hw::Options scalesim;
  scalesim.edge_transfers = false;
  const hw::Bounds off = hw::compute_bounds(acc, p, scalesim);
  CHECK(off.dram_cycles == static_cast<long long>(std::ceil((off.dram_bytes - 16384) / 8.0)));
  // The schedule-independent bound: 2MNK/sqrt(S) - 2S values with S = 8192 bytes / 2 = 4096
  // fp16 values (no PE registers in this accelerator beyond 16 bytes each: 4x4x16 = 256 bytes
  // more), at least compulsory, at most the reachable figure.
  const double values = (8192.0 + 256.0) / 2;
  const double hk = (2.0 * n * n * n / std::sqrt(values) - 2 * values) * 2;
  CHECK(b.on_chip_bytes == 8192 + 256);
  CHECK(std::abs(static_cast<double>(b.schedule_independent_dram_bytes) - hk) <= 2);
  CHECK(b.schedule_independent_dram_bytes <= b.dram_bytes);
  // With everything fitting, only the compulsory traffic remains.
  const hw::Bounds big = hw::compute_bounds(make_acc(4, 4, 1 << 22), p);
  CHECK(big.dram_bytes == big.compulsory_dram_bytes);
  hw::Options unlimited;
  unlimited.unlimited_buffer = true;
  const hw::Bounds ideal = hw::compute_bounds(acc, p, unlimited);
  CHECK(ideal.capacity_bytes == -1);
  CHECK(ideal.dram_bytes == ideal.compulsory_dram_bytes);
}

TEST_CASE("bounds reject what validate rejects", "[hw][bounds]") {
  hw::GemmProblem p = hw::make_gemm_problem({4, 4, 4});
  p.shape.m = 0;
  CHECK_THROWS_AS(hw::compute_bounds(make_acc(2, 2), p), tenet::InputError);
  // An operand name given twice: the later one is named (the names are compared pairwise).
  hw::GemmProblem twice = hw::make_gemm_problem({4, 4, 4});
  twice.operands.push_back(twice.operands[0]);
  twice.operands.back().bits = 99;  // the name is checked before the width
  try {
    hw::compute_bounds(make_acc(2, 2), twice);
    FAIL("no error");
  } catch (const tenet::InputError& e) {
    CHECK(e.code() == std::string(tenet::error_code::kDuplicate));
    CHECK(e.where() == "operands/A");
  }
  twice.operands.back().name = "A2";
  CHECK_THROWS_WITH(hw::compute_bounds(make_acc(2, 2), twice),
                    Catch::Contains("expected 1..64 bits per element, got 99"));
}

TEST_CASE("bounds name the figure that overflows 64 bits", "[hw][bounds]") {
  // The MACs of a 3e6-cube GEMM do not fit 64 bits (the figure is named only when it overflows).
  const hw::GemmProblem p = hw::make_gemm_problem({3000000, 3000000, 3000000});
  hw::Options unlimited;
  unlimited.unlimited_buffer = true;
  try {
    hw::compute_bounds(make_acc(2, 2), p, unlimited);
    FAIL("no error");
  } catch (const tenet::InputError& e) {
    CHECK(e.code() == std::string(tenet::error_code::kOverflow));
    CHECK(e.message() == "MACs = 9000000000000·3000000 does not fit in 64 bits");
  }
  // The elements of an operand: "elements of A" (built only then).
  const hw::GemmProblem wide = hw::make_gemm_problem({4000000000LL, 1, 4000000000LL});
  CHECK_THROWS_WITH(hw::compute_bounds(make_acc(2, 2), wide, unlimited),
                    Catch::Contains("elements of A = 4000000000·4000000000"));
}

TEST_CASE("docs/output.md lists exactly the bounds fields emitted, with their units",
          "[hw][bounds][docs]") {
  std::ifstream in(std::string(TENET_SOURCE_DIR) + "/docs/output.md");
  REQUIRE(in);
  // The table between `<!-- fields: bounds -->` and `<!-- end fields -->`: | `key` | type | unit |
  std::vector<std::pair<std::string, std::string>> documented;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "<!-- fields: bounds -->")
      inside = true;
    else if (line == "<!-- end fields -->")
      inside = false;
    else if (inside && line.rfind("| `", 0) == 0) {
      const std::size_t open = line.find('`'), close = line.find('`', open + 1);
      std::vector<std::string> cells;
      std::stringstream row(line);
      std::string cell;
      while (std::getline(row, cell, '|')) cells.push_back(cell);
      REQUIRE(cells.size() >= 5);  // "", key, type, unit, meaning
      std::string unit = cells[3];
      unit.erase(0, unit.find_first_not_of(' '));
      unit.erase(unit.find_last_not_of(' ') + 1);
      documented.emplace_back(line.substr(open + 1, close - open - 1), unit);
    }
  }
  std::vector<std::pair<std::string, std::string>> declared;
  for (const hw::BoundsField& f : hw::bounds_fields()) declared.emplace_back(f.name, f.unit);
  CHECK(documented == declared);
  // And the renderer emits exactly the declared fields, in order.
  hw::BoundsSum sum = hw::BoundsSum::of(
      hw::compute_bounds(make_acc(4, 4, 4096, Bandwidth::of(8), Bandwidth::of(4), 10, 1, 1),
                         hw::make_gemm_problem(GemmShape{7, 9, 11})));
  std::vector<std::string> emitted;
  const nlohmann::ordered_json rendered = hw::bounds_json(sum, 1000, 1000);
  for (const auto& [key, value] : rendered.items()) emitted.push_back(key);
  std::vector<std::string> names;
  for (const auto& [name, unit] : declared) names.push_back(name);
  CHECK(emitted == names);
  CHECK(hw::bounds_csv_values(sum, 1000, 1000).size() == names.size());
}
