// Inputs the analysis refuses, with the error code, the field and the offending points.
#include "cases.hpp"
#include "tenet/error.hpp"

namespace {

using cases::Flow;

tenet::InputError error_of(const tenet::workload::Workload& w, const tenet::arch::Architecture& a,
                           const tenet::mapping::Mapping& m,
                           const tenet::analysis::Options& o = {}) {
  try {
    tenet::analysis::analyze(w, a, m, o);
  } catch (const tenet::InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  throw;
}

// The isl set at the end of a message.
isl::set set_in(const std::string& message) {
  return cases::set_of(message.substr(message.find('{')));
}

}  // namespace

TEST_CASE("a space map missing domain points is a partial-mapping error naming them",
          "[analysis][errors]") {
  const auto w = cases::gemm_workload({6, 4, 3});
  const tenet::mapping::Mapping m(
      "partial", cases::map_of("{ S[i,j,k] -> PE[i mod 2, j mod 2] : i < 4 or j > 0 }"),
      cases::map_of("{ S[i,j,k] -> T[floor(i/2), floor(j/2), (i mod 2) + (j mod 2) + k] }"));
  const auto e = error_of(w, cases::grid_arch(2, 2), m);
  CHECK(e.code() == "partial-mapping");
  CHECK(e.where() == "/mapping/space");
  CHECK(set_in(e.message()).is_equal(cases::set_of("{ S[i,0,k] : 4 <= i < 6 and 0 <= k < 3 }")));
}

TEST_CASE("a time map missing domain points is a partial-mapping error naming them",
          "[analysis][errors]") {
  const auto w = cases::gemm_workload({3, 3, 5});
  const tenet::mapping::Mapping m(
      "partial", cases::map_of("{ S[i,j,k] -> PE[i mod 2, j mod 2] }"),
      cases::map_of(
          "{ S[i,j,k] -> T[floor(i/2), floor(j/2), (i mod 2) + (j mod 2) + k] : k < 4 }"));
  const auto e = error_of(w, cases::grid_arch(2, 2), m);
  CHECK(e.code() == "partial-mapping");
  CHECK(e.where() == "/mapping/time");
  CHECK(set_in(e.message()).is_equal(cases::set_of("{ S[i,j,4] : 0 <= i < 3 and 0 <= j < 3 }")));
}

TEST_CASE("instances placed outside the PE domain are a range error naming the PEs",
          "[analysis][errors]") {
  const auto w = cases::gemm_workload({4, 4, 2});
  const auto e = error_of(w, cases::grid_arch(2, 2), cases::gemm_mapping(Flow::os, 3, 2));
  CHECK(e.code() == "range");
  CHECK(e.where() == "/mapping/space");
  CHECK(set_in(e.message()).is_equal(cases::set_of("{ PE[2, y] : 0 <= y < 2 }")));
}

TEST_CASE("maps on the wrong statement or PE tuple are space errors", "[analysis][errors]") {
  const auto w = cases::gemm_workload({2, 2, 2});
  const tenet::mapping::Mapping other_statement("q", cases::map_of("{ Q[i,j,k] -> PE[i, j] }"),
                                                cases::map_of("{ Q[i,j,k] -> T[k] }"));
  auto e = error_of(w, cases::grid_arch(2, 2), other_statement);
  CHECK(e.code() == "space");
  CHECK(e.where() == "/mapping/space");
  const tenet::mapping::Mapping other_pe("p", cases::map_of("{ S[i,j,k] -> P[i, j] }"),
                                         cases::map_of("{ S[i,j,k] -> T[k] }"));
  e = error_of(w, cases::grid_arch(2, 2), other_pe);
  CHECK(e.code() == "space");
  CHECK(e.where() == "/mapping/space");
  const tenet::mapping::Mapping wrong_arity("a", cases::map_of("{ S[i,j,k] -> PE[i] }"),
                                            cases::map_of("{ S[i,j,k] -> T[k] }"));
  CHECK(error_of(w, cases::grid_arch(2, 2), wrong_arity).code() == "space");
}

TEST_CASE("a negative number of hops is a range error", "[analysis][errors]") {
  const auto c = cases::gemm_case({2, 2, 2}, Flow::os, 2, 2);
  tenet::analysis::Options o;
  o.neighbourhood.hops = -1;
  const auto e = error_of(c.workload, c.arch, c.mapping, o);
  CHECK(e.code() == "range");
  CHECK(e.where() == "/neighbourhood/hops");
}

TEST_CASE("missing inputs are missing-field errors", "[analysis][errors]") {
  const auto c = cases::gemm_case({2, 2, 2}, Flow::os, 2, 2);
  CHECK(error_of(tenet::workload::Workload(), c.arch, c.mapping).code() == "missing-field");
  CHECK(error_of(c.workload, tenet::arch::Architecture(), c.mapping).code() == "missing-field");
  CHECK(error_of(c.workload, c.arch, tenet::mapping::Mapping()).code() == "missing-field");
}
