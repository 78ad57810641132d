// Bad input through the built CLI: non-zero exit, and a message naming the file (or option),
// the line or field, and the error code.
#include <catch2/catch.hpp>

#include "errors/error_test_util.hpp"

using namespace error_test;

namespace {

std::string spec(const char* name) { return "analyze --spec " + quoted(fixture(name)); }

void check_fails(const std::string& args, int exit_code,
                 std::initializer_list<const char*> mentions) {
  INFO(args);
  const CliResult r = run_cli(args);
  INFO(r.output);
  CHECK(r.exit_code == exit_code);
  for (const char* m : mentions) CHECK(r.output.find(m) != std::string::npos);
}

}  // namespace

TEST_CASE("analyze: bad spec files exit 2 naming file and field", "[errors][cli]") {
  check_fails(spec("bad_isl.json"), 2, {"bad_isl.json: /mapping/time:", "[isl-syntax]"});
  check_fails(spec("unbounded.json"), 2, {"unbounded.json: /workload/domain:", "[unbounded]"});
  check_fails(spec("duplicate_tensor.json"), 2,
              {"duplicate_tensor.json: /workload/accesses/3/tensor:", "[duplicate]"});
  check_fails(spec("malformed.json"), 2, {"malformed.json: line 15, column 3:", "[parse]"});
  check_fails(spec("unknown_key.json"), 2,
              {"/architecture/bandwith_bits_per_cycle:", "[unknown-field]"});
  check_fails(spec("overflow.json"), 2, {"/architecture/bandwidth_bits_per_cycle:", "[overflow]"});
  check_fails(spec("partial_mapping.json"), 2,
              {"partial_mapping.json: /mapping/space:", "[partial-mapping]"});
  check_fails(spec("no_such.json"), 2, {"no_such.json", "[io]"});
}

TEST_CASE("analyze: bad TENET files exit 2 naming file and line", "[errors][cli]") {
  const std::string s = quoted(fixture("small_gemm.s")), p = quoted(fixture("small.p")),
                    m = quoted(fixture("small_os.m"));
  auto tenet = [](const std::string& stmt, const std::string& pe, const std::string& map) {
    return "analyze --tenet-stmt " + stmt + " --tenet-pe " + pe + " --tenet-map " + map;
  };
  check_fails(tenet(s, quoted(fixture("too_few_numbers.p")), m), 2,
              {"too_few_numbers.p: line 3:", "expected 4 integers", "[parse]"});
  check_fails(tenet(quoted(fixture("unbounded.s")), p, m), 2,
              {"unbounded.s: line 2:", "[unbounded]"});
  check_fails(tenet(quoted(fixture("duplicate_tensor.s")), p, m), 2,
              {"duplicate_tensor.s: line 4:", "[duplicate]"});
  check_fails(tenet(quoted(fixture("bad_isl_map.s")), p, m), 2,
              {"bad_isl_map.s: line 4:", "[isl-syntax]"});
  check_fails(tenet(s, p, quoted(fixture("partial.m"))), 2,
              {"partial.m: line 1:", "[partial-mapping]"});
  check_fails("analyze --tenet-experiment " + quoted(fixture("experiment_missing")), 2,
              {"experiment_missing", "missing.s", "[io]"});
}

TEST_CASE("analyze: bad generator values exit 2 naming the option", "[errors][cli]") {
  check_fails("analyze --gemm 0,4,4 --array 2x2 --dataflow os", 2,
              {"--gemm:", "m (rows of A and C) > 0", "[range]"});
  check_fails("analyze --gemm 4,-1,4 --array 2x2 --dataflow os", 2, {"--gemm:", "n (", "[range]"});
  check_fails("analyze --gemm 4,4 --array 2x2 --dataflow os", 2, {"--gemm:", "M,N,K", "[parse]"});
  check_fails("analyze --gemm 4,4,99999999999999999999 --array 2x2 --dataflow os", 2,
              {"--gemm:", "[overflow]"});
  check_fails("analyze --gemm 4,4,4 --array 0x2 --dataflow os", 2, {"--array:", "[range]"});
  check_fails("analyze --gemm 4,4,4 --array 2x2 --dataflow xs", 2,
              {"--dataflow:", "os, ws, is", "[unknown-name]"});
  check_fails("analyze --gemm 4,4,4 --array 2x2 --dataflow os --bits-b 65", 2,
              {"--bits-b:", "[range]"});
  check_fails("analyze --gemm 4,4,4 --array 2x2 --dataflow os --format yaml", 2,
              {"--format:", "[unknown-name]"});
  check_fails("analyze --gemm 4,4,4 --array 2x2 --dataflow os --compute-delay max", 2,
              {"--compute-delay:", "[unknown-name]"});
}

TEST_CASE("analyze: contradictory or missing inputs exit 1", "[errors][cli]") {
  check_fails("analyze", 1, {"--spec"});
  check_fails(
      "analyze --spec " + quoted(fixture("good.json")) + " --gemm 4,4,4 --array 2x2 --dataflow os",
      1, {"excludes"});
  check_fails("analyze --gemm 4,4,4 --dataflow os", 1, {"--array"});
  check_fails("analyze --tenet-stmt " + quoted(fixture("small_gemm.s")), 1, {"--tenet-pe"});
  check_fails("analyze --gemm 4,4,4 --array 2x2 --dataflow os --hops -1", 1, {"--hops"});
  check_fails("analyze --bits-a 8 --spec " + quoted(fixture("good.json")), 1, {"--gemm"});
}
