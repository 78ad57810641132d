#include "tenet/workload/workload.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "input_error_of.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

using namespace tenet;
using workload::Access;
using workload::AccessKind;
using workload::OperandRole;
using workload::Workload;

namespace {

isl::set set_of(const char* text) { return isl::set(poly::thread_context().get(), text); }
isl::map map_of(const char* text) { return isl::map(poly::thread_context().get(), text); }

std::vector<Access> gemm_accesses() {
  return {{"A", AccessKind::kRead, map_of("{ S[i,j,k] -> A[i,k] }"), 8, OperandRole::kActivation},
          {"B", AccessKind::kRead, map_of("{ S[i,j,k] -> B[k,j] }"), 4, OperandRole::kWeight},
          {"C", AccessKind::kWrite, map_of("{ S[i,j,k] -> C[i,j] }"), 32, OperandRole::kOutput}};
}

const char* kDomain = "{ S[i,j,k] : 0 <= i < 4 and 0 <= j < 5 and 0 <= k < 6 }";

using tenet::test::error_of;

}  // namespace

TEST_CASE("Workload keeps its accesses and splits reads from writes", "[workload]") {
  Workload w("gemm", set_of(kDomain), gemm_accesses());
  REQUIRE(w.accesses().size() == 3);
  REQUIRE(w.reads().size() == 2);
  REQUIRE(w.writes().size() == 1);
  CHECK(w.writes()[0]->tensor == "C");
  CHECK(w.reads()[1]->bits == 4);
  CHECK(w.tensors() == std::vector<std::string>{"A", "B", "C"});
  CHECK(w.macs_per_instance() == 1);
}

TEST_CASE("Workload equality compares point sets, not strings", "[workload]") {
  Workload a("gemm", set_of(kDomain), gemm_accesses());
  Workload b("gemm", set_of("{ S[i,j,k] : 0 <= k <= 5 and 0 <= j <= 4 and 0 <= i <= 3 }"),
             gemm_accesses());
  CHECK(a == b);
  auto other = gemm_accesses();
  other[1].bits = 8;
  CHECK(a != Workload("gemm", set_of(kDomain), other));
  CHECK(a != Workload("gemm", set_of("{ S[i,j,k] : 0 <= i < 4 and 0 <= j < 5 and 0 <= k < 7 }"),
                      gemm_accesses()));
  CHECK(Workload() == Workload());
  CHECK(a != Workload());
}

TEST_CASE("Workload prints its domain and accesses", "[workload]") {
  std::ostringstream os;
  os << Workload("gemm", set_of(kDomain), gemm_accesses());
  const std::string text = os.str();
  CHECK(text.find("workload gemm") != std::string::npos);
  CHECK(text.find("read A (8 bits, activation)") != std::string::npos);
  CHECK(text.find("write C (32 bits, output)") != std::string::npos);
}

TEST_CASE("an empty tensor name is taken from the relation's range", "[workload]") {
  auto accesses = gemm_accesses();
  accesses[0].tensor = "";
  Workload w("gemm", set_of(kDomain), accesses);
  CHECK(w.accesses()[0].tensor == "A");
}

TEST_CASE("enum names round-trip", "[workload]") {
  for (auto k : {AccessKind::kRead, AccessKind::kWrite})
    CHECK(workload::parse_access_kind(workload::to_string(k)) == k);
  for (auto r : {OperandRole::kActivation, OperandRole::kWeight, OperandRole::kOutput,
                 OperandRole::kScale, OperandRole::kZero, OperandRole::kOther})
    CHECK(workload::parse_operand_role(workload::to_string(r)) == r);
  CHECK(std::string(workload::to_string(OperandRole::kWeight)) == "weight");
  CHECK(error_of([] { workload::parse_operand_role("weights"); }).code() ==
        error_code::kUnknownName);
  CHECK(error_of([] { workload::parse_access_kind("rw"); }).code() == error_code::kUnknownName);
}

TEST_CASE("Workload rejects bad input with a code and a location", "[workload][errors]") {
  SECTION("unbounded domain") {
    auto e = error_of([] {
      Workload("w", set_of("{ S[i,j,k] : 0 <= i and 0 <= j < 5 and 0 <= k < 6 }"), gemm_accesses());
    });
    CHECK(e.code() == error_code::kUnbounded);
    CHECK(e.where() == "/domain");
  }
  SECTION("unbounded through a free parameter") {
    auto e = error_of([] {
      Workload("w", set_of("[M] -> { S[i,j,k] : 0 <= i < M and 0 <= j < 5 and 0 <= k < 6 }"),
               gemm_accesses());
    });
    CHECK(e.code() == error_code::kUnbounded);
  }
  SECTION("a parameter fixed by the constraints is fine") {
    Workload w("w",
               set_of("[M] -> { S[i,j,k] : M = 4 and 0 <= i < M and 0 <= j < 5 and 0 <= k < 6 }"),
               gemm_accesses());
    CHECK(w.reads().size() == 2);
  }
  SECTION("empty domain") {
    auto e = error_of([] {
      Workload("w", set_of("{ S[i,j,k] : 0 <= i < 0 and 0 <= j < 5 and 0 <= k < 6 }"),
               gemm_accesses());
    });
    CHECK(e.code() == error_code::kRange);
    CHECK(e.where() == "/domain");
  }
  SECTION("tensor read twice") {
    auto accesses = gemm_accesses();
    accesses.push_back(
        {"A", AccessKind::kRead, map_of("{ S[i,j,k] -> A[k,i] }"), 8, OperandRole::kActivation});
    auto e = error_of([&] { Workload("w", set_of(kDomain), accesses); });
    CHECK(e.code() == error_code::kDuplicate);
    CHECK(e.where() == "/accesses/3/tensor");
  }
  SECTION("a tensor both read and written is fine") {
    auto accesses = gemm_accesses();
    accesses.push_back(
        {"C", AccessKind::kRead, map_of("{ S[i,j,k] -> C[i,j] }"), 32, OperandRole::kOutput});
    CHECK(Workload("w", set_of(kDomain), accesses).tensors().size() == 3);
  }
  SECTION("relation on another statement") {
    auto accesses = gemm_accesses();
    accesses[1].relation = map_of("{ R[i,j,k] -> B[k,j] }");
    auto e = error_of([&] { Workload("w", set_of(kDomain), accesses); });
    CHECK(e.code() == error_code::kSpace);
    CHECK(e.where() == "/accesses/1/relation");
  }
  SECTION("relation of another arity") {
    auto accesses = gemm_accesses();
    accesses[1].relation = map_of("{ S[i,j] -> B[i,j] }");
    CHECK(error_of([&] { Workload("w", set_of(kDomain), accesses); }).code() == error_code::kSpace);
  }
  SECTION("tensor name that does not match the range") {
    auto accesses = gemm_accesses();
    accesses[0].tensor = "X";
    auto e = error_of([&] { Workload("w", set_of(kDomain), accesses); });
    CHECK(e.code() == error_code::kSpace);
    CHECK(e.where() == "/accesses/0/relation");
  }
  SECTION("bits out of range") {
    for (int bits : {0, -3, 65}) {
      auto accesses = gemm_accesses();
      accesses[2].bits = bits;
      auto e = error_of([&] { Workload("w", set_of(kDomain), accesses); });
      CHECK(e.code() == error_code::kRange);
      CHECK(e.where() == "/accesses/2/bits");
    }
  }
  SECTION("macs per instance") {
    auto e = error_of([] { Workload("w", set_of(kDomain), gemm_accesses(), 0); });
    CHECK(e.code() == error_code::kRange);
    CHECK(e.where() == "/macs_per_instance");
  }
}
