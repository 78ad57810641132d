#include "tenet/input/spec.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "io/json_reader.hpp"
#include "io_test_util.hpp"
#include "tenet/input/tenet_files.hpp"

using namespace tenet;
using namespace io_test;

namespace {

const char* kMinimal = R"({
  "workload": {
    "domain": "{ S[i,j,k] : 0 <= i < 4 and 0 <= j < 5 and 0 <= k < 6 }",
    "accesses": [
      { "tensor": "A", "kind": "read", "relation": "{ S[i,j,k] -> A[i,k] }" },
      { "tensor": "B", "kind": "read", "relation": "{ S[i,j,k] -> B[k,j] }", "bits": 4, "role": "weight" },
      { "tensor": "C", "kind": "write", "relation": "{ S[i,j,k] -> C[i,j] }", "bits": 32, "role": "output" }
    ]
  },
  "architecture": {
    "pe_domain": "{ PE[x,y] : 0 <= x < 2 and 0 <= y < 2 }",
    "bandwidth_bits_per_cycle": 32,
    "avg_latency_cycles": 2
  },
  "mapping": {
    "space": "{ S[i,j,k] -> PE[i mod 2, j mod 2] }",
    "time": "{ S[i,j,k] -> T[floor(i/2), floor(j/2), k] }"
  }
})";

}  // namespace

TEST_CASE("a minimal spec gets its documented defaults", "[io][spec]") {
  input::Spec spec = input::parse_spec_text(kMinimal, "min.json");
  CHECK(spec.workload.macs_per_instance == 1);
  CHECK(spec.workload.accesses[0].bits == 16);
  CHECK(spec.workload.accesses[0].role == "other");
  CHECK(spec.architecture.interconnect == "{ }");
  CHECK(spec.architecture.interconnect_direction == "source-to-destination");
  CHECK(spec.architecture.l1_size == 0);
  CHECK_FALSE(spec.analysis.neighbourhood.has_value());

  input::Problem p = input::build_problem(spec, "min.json");
  REQUIRE(p.workload.accesses().size() == 3);
  CHECK(p.workload.accesses()[1].bits == 4);
  CHECK(p.workload.accesses()[1].role == workload::OperandRole::kWeight);
  CHECK(p.workload.accesses()[2].kind == workload::AccessKind::kWrite);
  CHECK(p.architecture.interconnect().is_empty());
  CHECK(p.architecture.bandwidth_bits_per_cycle() == 32);
  CHECK(p.architecture.avg_latency_cycles() == 2);
  CHECK(p.mapping.space_map().is_equal(map_of("{ S[i,j,k] -> PE[i mod 2, j mod 2] }")));
  CHECK_FALSE(p.compute_delay.has_value());
  const auto options = input::analysis_options(p);
  CHECK(options.neighbourhood == analysis::Neighbourhood{});
}

TEST_CASE("the analysis section sets neighbourhood and compute-delay convention", "[io][spec]") {
  auto doc = nlohmann::json::parse(kMinimal);
  doc["analysis"] = {{"neighbourhood", {{"hops", 2}, {"prev_time", false}}},
                     {"compute_delay", "avg"}};
  input::Problem p = input::build_problem(input::parse_spec(doc, "a.json"), "a.json");
  REQUIRE(p.neighbourhood.has_value());
  CHECK(p.neighbourhood->hops == 2);
  CHECK(p.neighbourhood->same_time);
  CHECK_FALSE(p.neighbourhood->prev_time);
  CHECK(p.compute_delay == analysis::ComputeDelayConvention::kAvgActivePes);
  CHECK(input::analysis_options(p).neighbourhood.hops == 2);
}

TEST_CASE("interconnect_direction tenet reverses the links", "[io][spec]") {
  auto doc = nlohmann::json::parse(kMinimal);
  doc["architecture"]["interconnect"] = "{ PE[x,y] -> PE[x-1,y] }";
  doc["architecture"]["interconnect_direction"] = "tenet";
  input::Problem tenet_form = input::build_problem(input::parse_spec(doc, "t.json"), "t.json");
  doc["architecture"]["interconnect"] = "{ PE[x,y] -> PE[x+1,y] }";
  doc["architecture"]["interconnect_direction"] = "source-to-destination";
  input::Problem ours = input::build_problem(input::parse_spec(doc, "o.json"), "o.json");
  CHECK(tenet_form.architecture == ours.architecture);
  CHECK(ours.architecture.interconnect().is_equal(map_of("{ PE[0,y] -> PE[1,y] : 0 <= y < 2 }")));
}

TEST_CASE("every example spec in workloads/specs loads", "[io][spec]") {
  namespace fs = std::filesystem;
  int loaded = 0;
  for (const auto& entry :
       fs::directory_iterator(std::string(TENET_SOURCE_DIR) + "/workloads/specs")) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().string());
    input::Problem p = input::load_spec(entry.path().string());
    CHECK_FALSE(p.workload.accesses().empty());
    CHECK_FALSE(p.architecture.pe_domain().is_empty());
    ++loaded;
  }
  CHECK(loaded >= 2);
}

TEST_CASE("the TENET-direction example spec equals the TENET files", "[io][spec]") {
  input::Problem spec = input::load_spec(std::string(TENET_SOURCE_DIR) +
                                         "/workloads/specs/tenet-matmul-os8-tenet-direction.json");
  input::Problem files =
      input::load_tenet_files(data("tenet/statement/matmul.s"), data("tenet/pe_array/systolic.p"),
                              data("tenet/mapping/matmul_systolic_os.m"));
  CHECK(spec.workload.domain().is_equal(files.workload.domain()));
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(spec.workload.accesses()[i].relation.is_equal(files.workload.accesses()[i].relation));
  CHECK(spec.architecture.interconnect().is_equal(files.architecture.interconnect()));
  CHECK(spec.architecture.bandwidth_bits_per_cycle() ==
        files.architecture.bandwidth_bits_per_cycle());
  CHECK(spec.architecture.avg_latency_cycles() == files.architecture.avg_latency_cycles());
  CHECK(spec.mapping == files.mapping);
}

TEST_CASE("a relation may hold several pieces into one tensor", "[io][spec]") {
  auto doc = nlohmann::json::parse(kMinimal);
  doc["workload"]["accesses"][0]["relation"] = "{ S[i,j,k] -> A[i,k]; S[i,j,k] -> A[i,k+1] }";
  input::Problem p = input::build_problem(input::parse_spec(doc, "u.json"), "u.json");
  CHECK(
      p.workload.accesses()[0].relation.is_equal(map_of("{ S[i,j,k] -> A[i,x] : k <= x <= k+1 }")));
}

TEST_CASE("strict JSON: positions, duplicate keys and 64-bit overflow", "[io][spec]") {
  auto e = error_of([] { io::parse_json("{\n  \"a\": 1,\n  \"b\": ]\n}", "x.json"); });
  CHECK(e.code() == error_code::kParse);
  CHECK(e.file() == "x.json");
  CHECK(e.where() == "line 3, column 8");
  e = error_of([] { io::parse_json(R"({"a": {"b": [1, {"c": 1, "c": 2}]}})", "d.json"); });
  CHECK(e.code() == error_code::kDuplicate);
  CHECK(e.where() == "/a/b/1/c");
  e = error_of([] { io::parse_json(R"({"x/y": [0, 123456789012345678901234]})", "o.json"); });
  CHECK(e.code() == error_code::kOverflow);
  CHECK(e.where() == "/x~1y/1");
  e = error_of([] { io::parse_json(R"({"n": -99999999999999999999})", "o.json"); });
  CHECK(e.code() == error_code::kOverflow);
  auto ok = io::parse_json(R"({"big": 18446744073709551615, "f": 1.5e3})", "ok.json");
  CHECK(ok["big"].get<unsigned long long>() == 18446744073709551615ULL);
  CHECK(ok["f"].get<double>() == 1500.0);
}
