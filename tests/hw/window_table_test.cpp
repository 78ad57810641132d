// Model::timing's DRAM windows from its per-call table (WindowTable: each operand's tile volumes
// and fold traffic by dimension and tile slot) against the same run with every window from
// dram_window (Model::reference_timing): equal on random problems with grouped operands, outputs
// that are streamed or revisited, single-buffered tiles, split input reads, C = C + A·B, and
// dimensions of 1 to 9 tiles (the slots of tiles 0, 1, 2 and n - 3, n - 2, n - 1 overlap below
// 6 tiles).
#include <catch2/catch.hpp>
#include <random>

#include "fixtures.hpp"
#include "hw/model.hpp"
#include "tenet/error.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

void require_same(const hw::detail::Timing& a, const hw::detail::Timing& b) {
  REQUIRE(a.pipeline == b.pipeline);
  REQUIRE(a.total == b.total);
  REQUIRE(a.sram_stall == b.sram_stall);
  REQUIRE(a.dram_stall == b.dram_stall);
  REQUIRE(a.sram_busy == b.sram_busy);
  REQUIRE(a.dram_busy == b.dram_busy);
  REQUIRE(a.edge_fill == b.edge_fill);
}

}  // namespace

TEST_CASE("timing's window table gives dram_window's windows", "[hw][timing][window_table]") {
  std::mt19937 rng(23);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  int streamed = 0, exposed = 0, split = 0, many_tiles = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    AcceleratorSpec spec =
        make_acc(pick(1, 4), pick(1, 4), pick(0, 2) ? pick(8, 900) : (1LL << 40),
                 Bandwidth::of(static_cast<double>(pick(2, 40))),
                 Bandwidth::of(static_cast<double>(pick(1, 12))), pick(0, 9), pick(1, 2))
            .spec();
    spec.global_buffer.double_buffered = pick(0, 4) > 0;
    if (pick(0, 2) == 0) spec.dram.read_overlap_fraction = 0.25 * static_cast<double>(pick(0, 3));
    if (pick(0, 3) == 0) spec.dram.oversized_read_overlap_fraction = 0.5;
    if (pick(0, 4) == 0) spec.dram.window_read_overlap_fraction = 0.75;
    const Accelerator acc(spec);
    const GemmShape shape{pick(1, 40), pick(1, 40), pick(1, 40)};
    hw::GemmProblem p =
        hw::make_gemm_problem(shape, {static_cast<int>(pick(4, 16)), 8, pick(0, 1) ? 32 : 16});
    p.accumulate = pick(0, 5) == 0;
    for (int extra = static_cast<int>(pick(0, 2)); extra > 0; --extra) {  // grouped operands
      hw::Operand s{"s" + std::to_string(extra), workload::OperandRole::kScale, 16, false, {}};
      for (long long& g : s.group) g = pick(0, 2) ? pick(0, 6) : 0;
      p.operands.push_back(s);
    }
    mapping::Tiling tiling{pick(1, shape.m), pick(1, shape.n), pick(1, shape.k)};
    std::array<GemmDim, 3> order{GemmDim::kM, GemmDim::kN, GemmDim::kK};
    std::shuffle(order.begin(), order.end(), rng);
    tiling.order = order;
    tiling.single = static_cast<unsigned>(pick(0, 7));
    hw::Options options;
    options.edge_transfers = pick(0, 1) == 1;
    const hw::detail::Model m(acc, p, static_cast<Dataflow>(pick(0, 2)), tiling, options);
    INFO("trial " << trial << " shape " << shape.m << "x" << shape.n << "x" << shape.k << " tiling "
                  << mapping::to_string(tiling));
    require_same(m.timing(), m.reference_timing());
    for (const hw::detail::OperandPlan& x : m.operands()) {
      streamed += x.resident ? 0 : 1;
      exposed += x.resident && !x.double_buffered && spec.global_buffer.double_buffered ? 1 : 0;
    }
    split += spec.dram.read_overlap_fraction < 1 ? 1 : 0;
    many_tiles += m.plan().dim[0].tiles() > 6 || m.plan().dim[1].tiles() > 6 ? 1 : 0;
  }
  // the cases the table must get right were all met
  CHECK(streamed > 200);
  CHECK(exposed > 200);
  CHECK(split > 200);
  CHECK(many_tiles > 200);
}
