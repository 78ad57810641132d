#include "tenet/mapping/systolic.hpp"

#include <catch2/catch.hpp>

#include "input_error_of.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace mapping_systolic_test {

using namespace tenet;
using namespace tenet::mapping;

namespace {

isl::map map_of(const char* text) { return isl::map(poly::thread_context().get(), text); }

using tenet::test::error_of;

// Evaluates a single-valued map at an integer point of S[i,j,k].
std::vector<long> image(const isl::map& map, long i, long j, long k) {
  isl::set point =
      isl::set(poly::thread_context().get(), "{ S[" + std::to_string(i) + "," + std::to_string(j) +
                                                 "," + std::to_string(k) + "] }");
  isl::set img = point.apply(map);
  isl::point p = img.sample_point();
  std::vector<long> out;
  for (unsigned d = 0; d < unsigned(isl_set_dim(img.get(), isl_dim_set)); ++d)
    out.push_back(
        isl::manage(isl_point_get_coordinate_val(p.get(), isl_dim_set, int(d))).get_num_si());
  return out;
}

long mod(long a, long b) { return ((a % b) + b) % b; }

}  // namespace

TEST_CASE("the 8x8 systolic maps equal TENET's shipped ones", "[mapping][systolic]") {
  CHECK(make_systolic_mapping(Dataflow::kOutputStationary, 8, 8)
            .space_map()
            .is_equal(map_of("{S[i,j,k]->PE[i%8,j%8]}")));
  CHECK(make_systolic_mapping(Dataflow::kOutputStationary, 8, 8)
            .time_map()
            .is_equal(map_of("{S[i,j,k]->T[floor(i/8),floor(j/8),i%8+j%8+k]}")));
  CHECK(make_systolic_mapping(Dataflow::kWeightStationary, 8, 8)
            .space_map()
            .is_equal(map_of("{S[i,j,k]->PE[k%8,j%8]}")));
  CHECK(make_systolic_mapping(Dataflow::kWeightStationary, 8, 8)
            .time_map()
            .is_equal(map_of("{S[i,j,k]->T[floor(j/8),floor(k/8),i+j%8+k%8]}")));
}

TEST_CASE("R x C systolic maps follow the documented formulas pointwise", "[mapping][systolic]") {
  const long R = 3, C = 5;
  for (Dataflow d :
       {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
    Mapping m = make_systolic_mapping(d, R, C);
    for (long i : {0L, 4L, 7L})
      for (long j : {1L, 5L, 11L})
        for (long k : {0L, 2L, 9L}) {
          std::vector<long> pe, t;
          if (d == Dataflow::kOutputStationary) {
            pe = {mod(i, R), mod(j, C)};
            t = {i / R, j / C, mod(i, R) + mod(j, C) + k};
          } else if (d == Dataflow::kWeightStationary) {
            pe = {mod(k, R), mod(j, C)};
            t = {j / C, k / R, i + mod(j, C) + mod(k, R)};
          } else {
            pe = {mod(k, R), mod(i, C)};
            t = {i / C, k / R, j + mod(i, C) + mod(k, R)};
          }
          CHECK(image(m.space_map(), i, j, k) == pe);
          CHECK(image(m.time_map(), i, j, k) == t);
        }
  }
}

TEST_CASE("make_gemm_workload builds A, B, C with their roles and bits", "[mapping][systolic]") {
  auto w = make_gemm_workload({3, 4, 5}, {8, 4, 32});
  REQUIRE(w.accesses().size() == 3);
  CHECK(w.domain().is_equal(
      isl::set(poly::thread_context().get(), "{ S[i,j,k] : 0<=i<3 and 0<=j<4 and 0<=k<5 }")));
  CHECK(w.accesses()[0].tensor == "A");
  CHECK(w.accesses()[0].role == workload::OperandRole::kActivation);
  CHECK(w.accesses()[0].bits == 8);
  CHECK(w.accesses()[0].relation.is_equal(map_of("{ S[i,j,k] -> A[i,k] }")));
  CHECK(w.accesses()[1].role == workload::OperandRole::kWeight);
  CHECK(w.accesses()[1].relation.is_equal(map_of("{ S[i,j,k] -> B[k,j] }")));
  CHECK(w.accesses()[2].kind == workload::AccessKind::kWrite);
  CHECK(w.accesses()[2].role == workload::OperandRole::kOutput);
  CHECK(w.accesses()[2].bits == 32);
  // LLM sizes do not overflow anything when building the values.
  auto big = make_gemm_workload({8192, 128256, 4096});
  CHECK(big.name() == "gemm 8192x128256x4096");
}

TEST_CASE("make_systolic_array links neighbours towards increasing indices",
          "[mapping][systolic]") {
  auto a = make_systolic_array(4, 2, 128, 3);
  CHECK(a.pe_domain().is_equal(
      isl::set(poly::thread_context().get(), "{ PE[x,y] : 0<=x<4 and 0<=y<2 }")));
  CHECK(a.interconnect().is_equal(map_of(
      "{ PE[x,y] -> PE[x+1,y] : 0<=x<3 and 0<=y<2; PE[x,y] -> PE[x,y+1] : 0<=x<4 and y=0 }")));
  CHECK(a.bandwidth_bits_per_cycle() == 128);
  CHECK(a.avg_latency_cycles() == 3);
}

TEST_CASE("generator errors name the field", "[mapping][systolic][errors]") {
  auto e = error_of([] { make_gemm_workload({4, 0, 4}); });
  CHECK(e.code() == error_code::kRange);
  CHECK(e.where() == "/n");
  e = error_of([] { make_gemm_workload({-1, 4, 4}); });
  CHECK(e.where() == "/m");
  e = error_of([] { make_gemm_workload({4, 4, 0}); });
  CHECK(e.where() == "/k");
  e = error_of([] { make_systolic_mapping(Dataflow::kWeightStationary, 0, 4); });
  CHECK(e.where() == "/rows");
  e = error_of([] { make_systolic_array(4, -2); });
  CHECK(e.where() == "/cols");
  e = error_of([] { make_systolic_array(4, 4, 0); });
  CHECK(e.where() == "/bandwidth_bits_per_cycle");
  e = error_of([] { make_gemm_workload({4, 4, 4}, {16, 16, 0}); });
  CHECK(e.where() == "/accesses/2/bits");
}

TEST_CASE("parse_dataflow", "[mapping][systolic]") {
  CHECK(parse_dataflow("os") == Dataflow::kOutputStationary);
  CHECK(parse_dataflow("ws") == Dataflow::kWeightStationary);
  CHECK(parse_dataflow("is") == Dataflow::kInputStationary);
  auto e = error_of([] { parse_dataflow("rs"); });
  CHECK(e.code() == error_code::kUnknownName);
  CHECK(e.message().find("os, ws, is") != std::string::npos);
}

}  // namespace mapping_systolic_test
