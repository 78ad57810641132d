// The latency search's closed-form traffic floor (hw::search::TrafficFloor): which operands'
// tiles alone do not fit their buffers (alone_too_large), checked against each operand's
// footprint as the model counts it (FitExtents::footprint, Model::plan_operands), operand by
// operand, on random problems, accelerators and tilings.
#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "hw/search/search_detail.hpp"
#include "random_cases.hpp"
#include "tenet/hw/evaluate.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

// Bit i: operand i's tile (extents `tile`, buffering `single`) alone does not fit its buffer;
// 0 when some operand has no buffer or there are more than 10 (no sets of operands are formed).
unsigned brute_too_large(const Accelerator& acc, const hw::GemmProblem& p,
                         const std::array<long long, 3>& tile, unsigned single) {
  const hw::search::FitExtents fit(acc, p);
  if (p.operands.size() > 10) return 0;
  unsigned out = 0;
  for (size_t i = 0; i < p.operands.size(); ++i) {
    if (fit.holder(i) < 0) return 0;
    if (fit.footprint(i, tile, single) > fit.capacity(fit.holder(i))) out |= 1u << i;
  }
  return out;
}

}  // namespace

TEST_CASE("alone_too_large equals each operand's footprint against its buffer",
          "[hw][tiling][traffic]") {
  std::mt19937 rng(1931);
  int too_large = 0, fit = 0;
  for (int trial = 0; trial < 300; ++trial) {
    AcceleratorSpec spec = hwtest::random_acc(rng).spec();
    spec.micro.tile_fits_one_bank = trial % 5 == 0;  // two banks' worth whatever the tile
    const Accelerator acc(spec);
    const hw::GemmProblem p = hwtest::random_problem(rng);
    hw::validate(p);
    const mapping::Dataflow df = static_cast<mapping::Dataflow>(trial % 3);
    const hw::search::TrafficFloor traffic(acc, p, df, hw::Options{});
    const std::array<long long, 3> size{p.shape.m, p.shape.n, p.shape.k};
    for (int draw = 0; draw < 20; ++draw) {
      std::array<long long, 3> tile{};
      for (int d = 0; d < 3; ++d)
        tile[d] = std::uniform_int_distribution<long long>(1, size[d])(rng);
      const unsigned single = std::uniform_int_distribution<unsigned>(0, 7)(rng);
      mapping::Tiling t{tile[0], tile[1], tile[2]};
      t.single = single;
      const unsigned expected = brute_too_large(acc, p, tile, single);
      INFO("trial " << trial << " tile " << tile[0] << "x" << tile[1] << "x" << tile[2]
                    << " single " << single);
      CHECK(traffic.alone_too_large(t) == expected);
      expected != 0 ? ++too_large : ++fit;
    }
  }
  // both outcomes are exercised
  CHECK(too_large > 100);
  CHECK(fit > 100);
}

TEST_CASE("alone_too_large with tile elements beyond 64 bits", "[hw][tiling][traffic]") {
  // An operand over all three dimensions of a huge problem: its tile's elements beyond what the
  // bytes are counted from in 64 bits (the bounds in doubles decide), a small tile's fit.
  hw::GemmProblem p = hw::make_gemm_problem({400000, 400000, 400000});
  p.operands.push_back({"T", workload::OperandRole::kOther, 16, false, {1, 1, 1}});
  hw::validate(p);
  const Accelerator acc = make_acc(4, 4, 1 << 20);
  const hw::search::TrafficFloor traffic(acc, p, mapping::Dataflow::kOutputStationary,
                                         hw::Options{});
  const unsigned t_bit = 1u << 3;
  CHECK(traffic.alone_too_large(mapping::Tiling{400000, 400000, 400000}) == 15u);
  CHECK((traffic.alone_too_large(mapping::Tiling{300000, 200000, 100000}) & t_bit) != 0);
  CHECK(traffic.alone_too_large(mapping::Tiling{16, 16, 16}) == 0);
  // A: 2 x 64 x 4096 x 2 bytes = 1 MiB: exactly the buffer (double-buffered: two copies)
  CHECK((traffic.alone_too_large(mapping::Tiling{64, 16, 4096}) & ~t_bit) == 0);
  CHECK((traffic.alone_too_large(mapping::Tiling{64, 16, 4097}) & ~t_bit) == 1u);
}
