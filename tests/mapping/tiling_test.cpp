// Tiled systolic space-time maps: parsing, resolution, and the maps as sets (injective, and
// equal to the untiled generator when there is one tile).
#include "tenet/mapping/tiling.hpp"

#include <catch2/catch.hpp>

#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"
#include "tenet/poly/count.hpp"

using namespace tenet;
using namespace tenet::mapping;

namespace {
long long count_of(const isl::set& s) { return poly::to_int64(poly::count(s)); }
isl::set gemm_domain(const GemmShape& s) {
  return isl::set(poly::thread_context().get(), "{ S[i,j,k] : 0 <= i < " + std::to_string(s.m) +
                                                    " and 0 <= j < " + std::to_string(s.n) +
                                                    " and 0 <= k < " + std::to_string(s.k) + " }");
}
}  // namespace

TEST_CASE("tilings parse, print and resolve", "[mapping][tiling]") {
  const Tiling t = parse_tiling("256x0x1024:nkm");
  CHECK(t.m == 256);
  CHECK(t.n == 0);
  CHECK(t.k == 1024);
  CHECK(t.order == std::array<GemmDim, 3>{GemmDim::kN, GemmDim::kK, GemmDim::kM});
  CHECK(to_string(t) == "256x0x1024:nkm");
  CHECK(parse_tiling("1x2x3").order == Tiling{}.order);
  const Tiling r = resolve_tiling(t, {100, 200, 300});
  CHECK(r.m == 100);  // larger than the dimension: the whole dimension
  CHECK(r.n == 200);  // 0: the whole dimension
  CHECK(r.k == 300);
  // per-tensor single buffering: a, b, c in any order, printed as a, b, c
  const Tiling s = parse_tiling("2048x2048x256:mnk:single=ca");
  CHECK(s.single_buffered(mapping::BufferedTensor::kA));
  CHECK(!s.single_buffered(mapping::BufferedTensor::kB));
  CHECK(s.single_buffered(mapping::BufferedTensor::kC));
  CHECK(to_string(s) == "2048x2048x256:mnk:single=ac");
  CHECK(parse_tiling(to_string(s)) == s);
  CHECK(s != parse_tiling("2048x2048x256:mnk"));
  for (const char* bad : {"", "1x2", "1x2x", "axbxc", "1x2x3:mnn", "1x2x3:mn", "-1x2x3",
                          "1x2x3:mnk:", "1x2x3:mnk:single=", "1x2x3:mnk:single=d",
                          "1x2x3:mnk:single=cc", "1x2x3:mnk:double=c"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_tiling(bad), InputError);
  }
}

TEST_CASE("tiled systolic maps are injective on (PE, time) and cover the domain",
          "[mapping][tiling]") {
  const GemmShape shape{7, 9, 6};
  const isl::set dom = gemm_domain(shape);
  for (Dataflow df :
       {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary})
    for (const char* tiling : {"0x0x0", "4x5x3:mnk", "3x9x4:kmn", "7x2x6:nkm"}) {
      INFO(to_string(df) << " " << tiling);
      const Mapping m = make_tiled_systolic_mapping(df, 3, 2, shape, parse_tiling(tiling));
      const isl::map st = m.space_time_map().intersect_domain(dom);
      CHECK(count_of(st.range()) == 7 * 9 * 6);  // one instance per (PE, time stamp)
      CHECK(count_of(st.domain()) == 7 * 9 * 6);
      // PEs stay inside the 3x2 array.
      const isl::set pes = m.space_map().intersect_domain(dom).range();
      CHECK(pes.is_subset(
          isl::set(poly::thread_context().get(), "{ PE[x,y] : 0 <= x < 3 and 0 <= y < 2 }")));
    }
}

TEST_CASE("one tile gives the generator's space map and as many time stamps", "[mapping][tiling]") {
  const GemmShape shape{7, 9, 6};
  const isl::set dom = gemm_domain(shape);
  for (Dataflow df :
       {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
    INFO(to_string(df));
    const Mapping tiled = make_tiled_systolic_mapping(df, 3, 2, shape, Tiling{});
    const Mapping plain = make_systolic_mapping(df, 3, 2);
    CHECK(
        tiled.space_map().intersect_domain(dom).is_equal(plain.space_map().intersect_domain(dom)));
    CHECK(count_of(tiled.time_map().intersect_domain(dom).range()) ==
          count_of(plain.time_map().intersect_domain(dom).range()));
  }
}

TEST_CASE("fold and tile maps count folds and tiles", "[mapping][tiling]") {
  // ws on 3x2: rows take k (tiles of 4: pieces 3+1), columns take j (tiles of 5: 2+2+1, then 2+2).
  const GemmShape shape{7, 9, 6};
  const isl::set dom = gemm_domain(shape);
  const Tiling t = parse_tiling("4x5x4:mnk");
  const isl::map folds = make_fold_map(Dataflow::kWeightStationary, 3, 2, shape, t);
  // m: 2 tiles; n: tiles [0,5) -> 3 pieces, [5,9) -> 2 pieces; k: [0,4) -> 2, [4,6) -> 1.
  CHECK(count_of(folds.intersect_domain(dom).range()) == 2 * 5 * 3);
  CHECK(count_of(make_tile_map(shape, t).intersect_domain(dom).range()) == 2 * 2 * 2);
  CHECK(count_of(make_tile_map(shape, t, 1).intersect_domain(dom).range()) == 2);
}
