// Every kind of bad input file gives an InputError with its stable code, the file, and the line
// or JSON pointer of the mistake.
#include <catch2/catch.hpp>
#include <functional>

#include "errors/error_test_util.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/input/spec.hpp"
#include "tenet/input/tenet_files.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace errors_input_errors_test {

using namespace tenet;
using namespace error_test;

namespace {

struct Case {
  const char* file;
  const char* code;
  const char* where;
  const char* says;  // a piece of the message (what was expected)
};

void check_case(const Case& c, const std::function<void(const std::string&)>& load) {
  INFO(c.file);
  const std::string path = fixture(c.file);
  auto e = error_of([&] { load(path); });
  CHECK(e.code() == c.code);
  CHECK(e.file() == path);
  CHECK(e.where() == c.where);
  CHECK(e.message().find(c.says) != std::string::npos);
  CHECK(std::string(e.what()).find(path) != std::string::npos);
}

}  // namespace

TEST_CASE("bad TENET statement files", "[errors][tenet]") {
  const Case cases[] = {
      {"bad_isl_domain.s", error_code::kIslSyntax, "line 2", "expected an isl set"},
      {"bad_isl_map.s", error_code::kIslSyntax, "line 4", "expected an isl union map"},
      {"unbounded.s", error_code::kUnbounded, "line 2", "bounded"},
      {"duplicate_tensor.s", error_code::kDuplicate, "line 4", "line 3"},
      {"count_too_high.s", error_code::kParse, "line 6", "announces 3 read and 1 write maps"},
      {"count_too_low.s", error_code::kParse, "line 5", "is the count line right"},
      {"bad_count.s", error_code::kParse, "line 1", "number of read maps"},
      {"wrong_statement.s", error_code::kSpace, "line 3", "statement"},
  };
  for (const auto& c : cases)
    check_case(c, [](const std::string& p) { input::read_tenet_statement(p); });
}

TEST_CASE("bad TENET PE files", "[errors][tenet]") {
  const Case cases[] = {
      {"too_few_numbers.p", error_code::kParse, "line 3", "expected 4 integers"},
      {"no_numbers.p", error_code::kParse, "line 3", "found 0"},
      {"overflow.p", error_code::kOverflow, "line 3", "does not fit 64 bits"},
      {"bad_number.p", error_code::kParse, "line 4", "avg_latency"},
      {"zero_bandwidth.p", error_code::kRange, "line 3", "bandwidth > 0"},
      {"wrong_interconnect.p", error_code::kSpace, "line 2", "interconnect"},
  };
  for (const auto& c : cases) check_case(c, [](const std::string& p) { input::read_tenet_pe(p); });
}

TEST_CASE("bad TENET mapping and experiment files", "[errors][tenet]") {
  check_case({"bad_isl.m", error_code::kIslSyntax, "line 2", "expected an isl map"},
             [](const std::string& p) { input::read_tenet_mapping(p); });
  check_case({"multivalued.m", error_code::kNonInjective, "line 1", "function"},
             [](const std::string& p) { input::read_tenet_mapping(p); });
  check_case({"experiment_two_paths", error_code::kParse, "line 3", "three paths"},
             [](const std::string& p) { input::read_tenet_experiment(p); });
  check_case({"experiment_missing", error_code::kIo, "", "missing.s"},
             [](const std::string& p) { input::read_tenet_experiment(p); });
  auto e = error_of([] { input::read_tenet_statement(fixture("no_such_file.s")); });
  CHECK(e.code() == error_code::kIo);
}

TEST_CASE("bad JSON specs", "[errors][spec]") {
  const Case cases[] = {
      {"malformed.json", error_code::kParse, "line 15, column 3", "expected valid JSON"},
      {"unknown_key.json", error_code::kUnknownField, "/architecture/bandwith_bits_per_cycle",
       "unknown field"},
      {"overflow.json", error_code::kOverflow, "/architecture/bandwidth_bits_per_cycle", "64 bits"},
      {"duplicate_key.json", error_code::kDuplicate, "/architecture/avg_latency_cycles", "twice"},
      {"bad_isl.json", error_code::kIslSyntax, "/mapping/time", "expected an isl map"},
      {"unbounded.json", error_code::kUnbounded, "/workload/domain", "bounded"},
      {"duplicate_tensor.json", error_code::kDuplicate, "/workload/accesses/3/tensor", "twice"},
      {"wrong_type.json", error_code::kType, "/workload/accesses/0/bits", "an integer"},
      {"bits_out_of_range.json", error_code::kRange, "/workload/accesses/1/bits", "[1, 64]"},
      {"unknown_role.json", error_code::kUnknownName, "/workload/accesses/1/role", "weight"},
      {"missing_mapping.json", error_code::kMissingField, "/mapping", "missing required field"},
      {"tensor_mismatch.json", error_code::kSpace, "/workload/accesses/0/relation",
       "does not match"},
      {"zero_latency.json", error_code::kRange, "/architecture/avg_latency_cycles", "latency"},
  };
  for (const auto& c : cases) check_case(c, [](const std::string& p) { input::load_spec(p); });
}

TEST_CASE("a spec with several mistakes reports them all", "[errors][spec]") {
  auto e = error_of([] { input::load_spec(fixture("several_errors.json")); });
  CHECK(e.code() == error_code::kType);
  CHECK(e.where() == "/workload/macs_per_instance");
  CHECK(e.message().find("and 2 more error(s)") != std::string::npos);
  CHECK(e.message().find("/architecture/colour") != std::string::npos);
  CHECK(e.message().find("/architecture/bandwidth_bits_per_cycle") != std::string::npos);
}

TEST_CASE("a mapping missing points is reported by the analysis", "[errors][spec]") {
  input::Problem p = input::load_spec(fixture("partial_mapping.json"));
  auto e = error_of([&] { analysis::analyze(p.workload, p.architecture, p.mapping); });
  CHECK(e.code() == error_code::kPartialMapping);
  CHECK(e.where() == "/mapping/space");
  CHECK(e.message().find("S[") != std::string::npos);  // the missing points, as an isl set
}

}  // namespace errors_input_errors_test
