// The latency search's fast paths against their references: TrafficFloor::loose (each operand's
// cheaper way once per set of the loops that bring it back, shared by the loop orders) against
// loose_by_order (multiplied out per order), bit for bit, on both sides of its exactness
// precheck; the grid floors without overflow checks (unchecked_fold_cycles) against
// fold_pipeline_cycles; near_limit against near().
#include <catch2/catch.hpp>
#include <limits>
#include <random>

#include "hw/search/search_detail.hpp"
#include "random_cases.hpp"
#include "tenet/hw/evaluate.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

// A problem of large sizes (up to 2^21 per dimension): some products of an operand's distinct
// elements and tile counts beyond 2^53 (the by-order path), others below.
hw::GemmProblem large_problem(std::mt19937& rng) {
  std::uniform_int_distribution<int> shift(0, 21);
  std::uniform_int_distribution<long long> jitter(0, 999);
  const auto size = [&] { return std::max<long long>(1, (1LL << shift(rng)) - jitter(rng)); };
  const long long m = size(), n = size(), k = size();
  hw::GemmProblem p = hw::make_gemm_problem({m, n, k}, {16, 4, 16});
  p.operands.push_back({"B.scale", OperandRole::kScale, 16, false, {0, 1, 32}});
  if (rng() % 2) p.operands.push_back({"bias", OperandRole::kOther, 16, false, {0, 1, 0}});
  if (rng() % 4 == 0) p.operands.push_back({"s", OperandRole::kScale, 32, false, {0, 0, 0}});
  p.precision = workload::DataType::fp16();
  return p;
}

// Compares loose() with loose_by_order() over every set of cut dimensions (the loop orders
// compared) and a few sets of streamed operands, on random tilings of `p`; counts the cases.
void compare_loose(const Accelerator& acc, const hw::GemmProblem& p, std::mt19937& rng,
                   int& compared) {
  hw::search::TrafficFloor traffic(acc, p, static_cast<mapping::Dataflow>(rng() % 3),
                                   hw::Options{});
  const std::array<long long, 3> size{p.shape.m, p.shape.n, p.shape.k};
  for (int draw = 0; draw < 8; ++draw) {
    std::array<long long, 3> tile{};
    for (int d = 0; d < 3; ++d) {
      // small and whole extents too (one tile; the most tiles)
      const int pick = static_cast<int>(rng() % 4);
      tile[d] = pick == 0   ? size[d]
                : pick == 1 ? 1
                            : std::uniform_int_distribution<long long>(1, size[d])(rng);
    }
    const mapping::Tiling t{tile[0], tile[1], tile[2]};
    traffic.set_counts(traffic.tile_counts(t));
    const unsigned all = (1u << p.operands.size()) - 1;
    for (const unsigned streamed :
         {0u, traffic.alone_too_large(t), static_cast<unsigned>(rng()) & all, all}) {
      for (int mask = 0; mask < 8; ++mask) {
        hw::search::Group g;
        g.m = tile[0], g.n = tile[1], g.k = tile[2], g.mask = mask;
        const double fast = traffic.loose(g, streamed),
                     reference = traffic.loose_by_order(g, streamed);
        INFO("shape " << p.shape.m << "x" << p.shape.n << "x" << p.shape.k << " tile " << tile[0]
                      << "x" << tile[1] << "x" << tile[2] << " mask " << mask << " streamed "
                      << streamed);
        REQUIRE(fast == reference);  // bit for bit: the same doubles
        ++compared;
      }
    }
  }
}

}  // namespace

TEST_CASE("loose traffic floors equal the per-order reference bit for bit",
          "[hw][tiling][traffic][loose]") {
  std::mt19937 rng(4711);
  int compared = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Accelerator acc = hwtest::random_acc(rng);
    const hw::GemmProblem p = trial % 2 == 0 ? hwtest::random_problem(rng) : large_problem(rng);
    hw::validate(p);
    compare_loose(acc, p, rng, compared);
  }
  CHECK(compared > 10000);
}

TEST_CASE("loose traffic floors around 2^53 (the exactness precheck)",
          "[hw][tiling][traffic][loose]") {
  // Every operand over 2^36 elements: times the three tile counts below 2^53 (exact, the
  // shared terms) with extents from 2^13 up, beyond it (the per-order reference) below.
  hw::GemmProblem p = hw::make_gemm_problem({1LL << 18, 1LL << 18, 1LL << 18});
  hw::validate(p);
  const Accelerator acc = make_acc(4, 4, 1 << 20);
  hw::search::TrafficFloor traffic(acc, p, mapping::Dataflow::kOutputStationary, hw::Options{});
  std::mt19937 rng(99);
  int compared = 0;
  for (long long e = 1; e <= (1LL << 18); e *= 2)
    for (const long long extent : {e, e + 1, std::max(1LL, e - 1)}) {
      const mapping::Tiling t{extent, extent, extent};
      traffic.set_counts(traffic.tile_counts(t));
      for (const unsigned streamed : {0u, 4u, traffic.alone_too_large(t)})
        for (int mask = 0; mask < 8; ++mask) {
          hw::search::Group g;
          g.m = g.n = g.k = extent, g.mask = mask;
          INFO("extent " << extent << " mask " << mask << " streamed " << streamed);
          REQUIRE(traffic.loose(g, streamed) == traffic.loose_by_order(g, streamed));
          ++compared;
        }
    }
  CHECK(compared > 1000);
  // and large random problems on both sides of it
  for (int trial = 0; trial < 100; ++trial) compare_loose(acc, large_problem(rng), rng, compared);
}

TEST_CASE("grid floors without overflow checks equal fold_pipeline_cycles",
          "[hw][tiling][bounds]") {
  std::mt19937 rng(2024);
  int unchecked = 0, refused = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Accelerator acc = hwtest::random_acc(rng);
    const hw::GemmProblem problem = hwtest::random_problem(rng);
    hw::validate(problem);
    hw::detail::Plan plan =
        hw::detail::Model(acc, problem, static_cast<mapping::Dataflow>(trial % 3),
                          mapping::Tiling{}, hw::Options{}, {false, false})
            .plan();
    // values from small to near the 64-bit limit (both sides of the precheck)
    std::uniform_int_distribution<int> bits(0, trial % 4 == 0 ? 40 : 20);
    const auto value = [&] {
      return std::uniform_int_distribution<long long>(0, (1LL << bits(rng)))(rng);
    };
    plan.base = value(), plan.once = value();
    plan.units = 1 + static_cast<long long>(rng() % 3);
    std::array<std::vector<hw::search::Search::Memo>, 3> per;
    for (int d = 0; d < 3; ++d)
      for (int e = 0, count = 1 + static_cast<int>(rng() % 5); e < count; ++e)
        per[d].push_back({e, value(), value()});
    std::vector<long long> out{-7};  // appended to
    if (!hw::search::unchecked_fold_cycles(plan, per, out)) {
      CHECK(out.size() == 1);
      ++refused;
      continue;
    }
    REQUIRE(out.size() == 1 + per[0].size() * per[1].size() * per[2].size());
    const int stream = static_cast<int>(plan.dims.stream);
    size_t at = 1;
    for (const auto& x : per[0])
      for (const auto& y : per[1])
        for (const auto& z : per[2]) {
          const long long streamed = stream == 0   ? x.streamed
                                     : stream == 1 ? y.streamed
                                                   : z.streamed;
          CHECK(out[at++] ==
                hw::detail::fold_pipeline_cycles(plan, {x.folds, y.folds, z.folds}, streamed));
        }
    ++unchecked;
  }
  CHECK(unchecked > 100);
  CHECK(refused > 10);
}

TEST_CASE("near_limit is the most cycles near() takes", "[hw][tiling]") {
  std::mt19937_64 rng(7);
  const long long big = std::numeric_limits<long long>::max();
  for (int trial = 0; trial < 20000; ++trial) {
    const int kind = trial % 4;
    const long long fastest = kind == 0   ? static_cast<long long>(rng() % 1000)
                              : kind == 1 ? static_cast<long long>(rng() >> 1)  // up to 2^63 - 1
                              : kind == 2
                                  ? -static_cast<long long>(rng() % 100000)  // (negative: any)
                                  : static_cast<long long>(rng() % (1LL << 40));
    const long long percent = trial % 7 == 0 ? static_cast<long long>(rng() % 300) - 150
                                             : static_cast<long long>(rng() % 11);
    const long long limit = hw::search::near_limit(fastest, percent);
    INFO("fastest " << fastest << " percent " << percent << " limit " << limit);
    CHECK(hw::search::near(limit, fastest, percent));
    if (limit < big) CHECK_FALSE(hw::search::near(limit + 1, fastest, percent));
    const long long c = static_cast<long long>(rng() >> (rng() % 64));
    CHECK((c <= limit) == hw::search::near(c, fastest, percent));
  }
}

TEST_CASE("compute floors from parts updated one extent at a time equal the fresh ones",
          "[hw][tiling][bounds]") {
  // Phase 1's keep_pair keeps Search::floor_parts of the last pair asked and refolds only the
  // extent of b = d + 2 when the pair (d, ta) stays: against fresh floor_parts and, with the whole
  // dimension d, against compute_cycles_of (the plan's own compute cycles).
  std::mt19937 rng(2026);
  long long compared = 0, refolded = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Accelerator acc = hwtest::random_acc(rng);
    const hw::GemmProblem problem = hwtest::random_problem(rng);
    hw::validate(problem);
    const hw::search::Search s(acc, problem, static_cast<mapping::Dataflow>(trial % 3),
                               hw::Options{}, hw::TilingObjective::kLatency);
    const std::array<long long, 3> size{problem.shape.m, problem.shape.n, problem.shape.k};
    for (int d = 0; d < 3; ++d) {
      const int a = (d + 1) % 3, b = (d + 2) % 3;
      for (int run = 0; run < 3; ++run) {
        std::array<long long, 3> tile{};
        tile[d] = size[d];
        tile[a] = std::uniform_int_distribution<long long>(1, size[a])(rng);
        tile[b] = std::uniform_int_distribution<long long>(1, size[b])(rng);
        hw::search::Search::FloorParts parts = s.floor_parts(tile, d);
        for (int step = 0; step < 6; ++step) {
          tile[b] = std::uniform_int_distribution<long long>(1, size[b])(rng);
          s.set_fold(parts, b, tile[b]);
          ++refolded;
          const hw::search::Search::FloorParts fresh = s.floor_parts(tile, d);
          REQUIRE(parts.fold == fresh.fold);
          REQUIRE(parts.streamed == fresh.streamed);
          const long long upto = std::uniform_int_distribution<long long>(1, size[d])(rng);
          REQUIRE(s.floor_upto(parts, d, upto) == s.compute_floor_upto(tile, d, upto));
          const mapping::Tiling whole{tile[0], tile[1], tile[2]};
          REQUIRE(s.floor_upto(parts, d, size[d]) == s.compute_cycles_of(whole));
          ++compared;
        }
      }
    }
  }
  CHECK(compared == 150 * 3 * 3 * 6);
  CHECK(refolded == compared);
}
