// isl text is checked before isl reads it (src/poly/text_check.hpp): powers, constants and products
// of constants beyond 2^63 - 1, deep nesting, too many variables, overlong text, bytes that are not
// printable ASCII and constraints that split into too many pieces are InputErrors naming the file,
// the line or JSON pointer and what was expected. Before, `0<=i<2^9223372036854775807` in a TENET
// statement aborted the CLI (exit 134, GMP's "overflow in mpz type"), and the isl fuzz target found
// the class now and then in CI.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "errors/error_test_util.hpp"
#include "poly/parse.hpp"
#include "poly/text_check.hpp"
#include "tenet/input/spec.hpp"
#include "tenet/input/tenet_files.hpp"
#include "tenet/poly/count.hpp"

using namespace tenet;
using namespace error_test;

// A namespace of its own: the unity build compiles this file with its neighbours.
namespace isl_limits_test {

const poly::Origin kOrigin{"x.s", "line 2"};

// The error of parsing `text` as a set (or as a map when it holds "->").
InputError parse_error(const std::string& text) {
  return error_of([&] {
    if (text.find("->") == std::string::npos)
      poly::parse_set(text, kOrigin);
    else
      poly::parse_map(text, kOrigin);
  });
}

void check_refused(const std::string& text, const char* code, const std::string& mention) {
  INFO(excerpt(text, 200));
  const InputError e = parse_error(text);
  CHECK(e.code() == code);
  CHECK(e.file() == "x.s");
  CHECK(e.where() == "line 2");
  INFO(e.message());
  CHECK(e.message().find(mention) != std::string::npos);
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

std::string tuple_of(int n) {
  std::string t;
  for (int i = 0; i < n; ++i) t += (i ? ",i" : "i") + std::to_string(i);
  return t;
}

// The powers the check must refuse wherever they stand.
const std::vector<std::string> kPowers = {"2^9223372036854775807", "10^19",  "2^64", "2^63", "3^40",
                                          "9223372036854775807^2", "2 ^ 100"};

// `line` with `+POWER` before its last ']' (inside an isl tuple, whatever the line is).
std::string with_power(const std::string& line, const std::string& power) {
  const std::size_t at = line.rfind(']');
  REQUIRE(at != std::string::npos);
  return line.substr(0, at) + "+" + power + line.substr(at);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t nl = text.find('\n', from);
    lines.push_back(text.substr(from, nl == std::string::npos ? std::string::npos : nl - from));
    if (nl == std::string::npos) break;
    from = nl + 1;
  }
  return lines;
}

// Each isl line of `text` in turn with a power in it.
template <typename Read>
void check_every_isl_line(const std::string& text, Read read) {
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t n = 0; n < lines.size(); ++n) {
    if (lines[n].find('{') == std::string::npos) continue;
    for (const std::string& power : kPowers) {
      std::vector<std::string> changed = lines;
      changed[n] = with_power(lines[n], power);
      std::string joined;
      for (const std::string& l : changed) joined += l + "\n";
      INFO(joined);
      const InputError e = error_of([&] { read(joined); });
      CHECK(e.code() == error_code::kOverflow);
      CHECK(e.file() == "f.txt");
      CHECK(e.where() == "line " + std::to_string(n + 1));
      CHECK(e.message().find("powers up to 2^63 - 1") != std::string::npos);
    }
  }
}

}  // namespace isl_limits_test

using namespace isl_limits_test;

TEST_CASE("isl text: the GMP-aborting power of the CI finding is an overflow error",
          "[errors][isl-limits]") {
  check_refused("{S[i,j,k]: 0<=i<2^9223372036854775807 and 0<=j<4 and 0<=k<4}",
                error_code::kOverflow,
                "expected powers up to 2^63 - 1 = 9223372036854775807 in an isl set, got "
                "2^9223372036854775807 at character 17");
  for (const std::string& p : kPowers)
    check_refused("{ S[i] : 0 <= i < " + p + " }", error_code::kOverflow, "powers up to");
  // Spaces, a comment or a backslash-newline between base and exponent do not hide it (isl's
  // lexer skips them).
  check_refused("{ S[i] : 0 <= i < 2 # c\n ^ 64 }", error_code::kOverflow, "got 2^64");
  check_refused("{ S[i] : 0 <= i < 1\\\n0^19 }", error_code::kOverflow, "got 10^19");
}

TEST_CASE("isl text: constants, powers and products up to 2^63 - 1 are read",
          "[errors][isl-limits]") {
  for (const std::string text :
       {"{ S[i] : 0 <= i < 2^62 }", "{ S[i] : 0 <= i < 10^18 }",
        "{ S[i] : 0 <= i < 9223372036854775807 }", "{ S[i] : 0 <= i < 3037000499*3037000499 }",
        "{ S[i] : 0 <= i < 1^9223372036854775807 and i >= 0^9223372036854775807 }",
        "{ S[i] : 0 <= 3037000500*i + 3037000500*i <= 9 }",
        "{ S[i] : 0 <= i < 000000000000000000000009223372036854775807 }"}) {
    INFO(text);
    CHECK_NOTHROW(poly::parse_set(text, kOrigin));
  }
  CHECK(poly::count(poly::parse_set("{ S[i] : 0 <= i < 2^10 }", kOrigin)) == 1024);
  CHECK(poly::count(poly::parse_set("{ S[i] : 0 <= i < 2*3*4 }", kOrigin)) == 24);
}

TEST_CASE("isl text: constants and products of constants beyond 2^63 - 1 are overflow errors",
          "[errors][isl-limits]") {
  check_refused("{ S[i] : 0 <= i < 9223372036854775808 }", error_code::kOverflow,
                "integer constants up to 2^63 - 1");
  check_refused("{ S[i] : 0 <= i < " + repeat("9", 4000) + " }", error_code::kOverflow,
                "integer constants up to 2^63 - 1");
  check_refused("{ S[i] : 0 <= i < 3037000500*3037000500 }", error_code::kOverflow,
                "products of constants up to 2^63 - 1");
  check_refused("{ S[i] : 0 <= i*-3037000500*3037000500 }", error_code::kOverflow,
                "got 3037000500 x 3037000500");
  check_refused("{ S[i] : 0 <= 3037000500 i*3037000500 }", error_code::kOverflow,
                "products of constants");
  check_refused("{ S[i] : 0 <= i < " + repeat("2*", 64) + "i }", error_code::kOverflow,
                "products of constants");
}

TEST_CASE("isl text: nesting, variables and length have limits", "[errors][isl-limits]") {
  const int depth = poly::kMaxIslNesting;
  // The outer { counts: kMaxIslNesting - 1 parentheses inside it are the deepest text read.
  CHECK_NOTHROW(poly::parse_set(
      "{ S[i] : i = " + repeat("(", depth - 1) + "1" + repeat(")", depth - 1) + " }", kOrigin));
  check_refused("{ S[i] : i = " + repeat("(", depth) + "1" + repeat(")", depth) + " }",
                error_code::kRange, "nested at most 256 deep");
  // 100,000 parentheses overflowed isl's stack (a crash) before the limit.
  check_refused("{ S[i] : i = " + repeat("(", 100000) + "1" + repeat(")", 100000) + " }",
                error_code::kRange, "characters");

  const int vars = poly::kMaxIslVariables;
  CHECK_NOTHROW(poly::parse_set("{ S[" + tuple_of(vars) + "] }", kOrigin));
  check_refused("{ S[" + tuple_of(vars + 1) + "] }", error_code::kRange, "at most 64 variables");
  check_refused("{ A[" + tuple_of(vars / 2) + "] -> B[" + tuple_of(vars / 2 + 1) + "] }",
                error_code::kRange, "variable number 65");
  // A parameter, the set's variable and 63 exists variables.
  check_refused("[n] -> { S[i] : exists (" + tuple_of(vars - 1) + " : i = n) }", error_code::kRange,
                "at most 64 variables");

  const std::string head = "{ S[i] : 0 <= i < 4 ";
  const std::string pad(poly::kMaxIslTextChars - head.size() - 1, ' ');
  CHECK_NOTHROW(poly::parse_set(head + pad + "}", kOrigin));
  check_refused(head + pad + " }", error_code::kRange,
                "of at most 16384 characters, got 16385 characters");
  // A long run of "1*" is a product of 1s: read (isl recurses once per factor, well within the
  // stack at this length).
  CHECK_NOTHROW(poly::parse_set("{ S[i] : 0 <= i < " + repeat("1*", 8000) + "4 }", kOrigin));
}

TEST_CASE("isl text: bytes that are not printable ASCII are refused", "[errors][isl-limits]") {
  // A NUL ended the text isl saw: "{ S[i] : 0 <= i < 4 }<NUL>garbage" was read as the set.
  std::string with_nul = "{ S[i] : 0 <= i < 4 }";
  with_nul += '\0';
  with_nul += "garbage";
  check_refused(with_nul, error_code::kIslSyntax, "printable ASCII, got byte 0x00 at character 22");
  check_refused("{ S[i] : 0 <= i < 4 \xff}", error_code::kIslSyntax, "got byte 0xFF");
  CHECK_NOTHROW(poly::parse_set("{ S[i] :\t0 <= i < 4\r\n}", kOrigin));
}

TEST_CASE("isl text: constraints that split into too many pieces are range errors",
          "[errors][isl-limits]") {
  // k conditions "x != 1" on 0 <= x < 3 are 2^k pieces. 256 are read, 512 refused after reading;
  // 20 conditions took isl minutes (and GBs) before the operation limit stops it in well under
  // a second; 12 (4,096 pieces) took the exact counter seconds.
  const auto not_one = [](int k) {
    std::string text = "{ S[" + tuple_of(k) + "] : ";
    for (int i = 0; i < k; ++i)
      text += (i ? " and 0 <= i" : "0 <= i") + std::to_string(i) + " < 3 and i" +
              std::to_string(i) + " != 1";
    return text + " }";
  };
  CHECK(poly::count(poly::parse_set(not_one(8), kOrigin)) == 256);
  check_refused(not_one(9), error_code::kRange, "at most 256 pieces (disjuncts), got 512");
  check_refused(not_one(20), error_code::kRange, "that isl reads in at most 100000 operations");
  // The limit is lifted after each read: the next text reads as usual.
  CHECK(poly::count(
            poly::parse_set("{ S[i,j] : 0 <= i < 3 and 0 <= j < 3 and i != j }", kOrigin)) == 6);
}

TEST_CASE("isl text: a power in any isl line of a statement, PE array or mapping file",
          "[errors][isl-limits]") {
  check_every_isl_line(
      "2 1\n{S[i,j,k]: 0<=i<4 and 0<=j<4 and 0<=k<4}\n{S[i,j,k]->A[i,k]}\n{S[i,j,k]->B[k,j]}\n"
      "{S[i,j,k]->C[i,j]}",
      [](const std::string& t) { input::parse_tenet_statement(t, "f.txt", "f"); });
  check_every_isl_line(
      "{PE[i,j]:0<=i<2 and 0<=j<2}\n{PE[i,j]->PE[i-1,j] ; PE[i,j]->PE[i,j-1]}\n"
      "256 1024 64 16",
      [](const std::string& t) { input::parse_tenet_pe(t, "f.txt", "f"); });
  check_every_isl_line("{S[i,j,k]->PE[i%2,j%2]}\n{S[i,j,k]->T[floor(i/2),floor(j/2),i%2+j%2+k]}",
                       [](const std::string& t) { input::parse_tenet_mapping(t, "f.txt", "f"); });
}

TEST_CASE("isl text: a power in any isl field of a JSON spec", "[errors][isl-limits]") {
  const nlohmann::json good = nlohmann::json::parse(R"({
    "workload": {
      "domain": "{ S[i,j,k] : 0 <= i < 4 and 0 <= j < 4 and 0 <= k < 4 }",
      "accesses": [
        { "tensor": "A", "kind": "read", "relation": "{ S[i,j,k] -> A[i,k] }" },
        { "tensor": "B", "kind": "read", "relation": "{ S[i,j,k] -> B[k,j] }" },
        { "tensor": "C", "kind": "write", "relation": "{ S[i,j,k] -> C[i,j] }" }]},
    "architecture": {
      "pe_domain": "{ PE[x,y] : 0 <= x < 2 and 0 <= y < 2 }",
      "interconnect": "{ PE[x,y] -> PE[x+1,y]; PE[x,y] -> PE[x,y+1] }",
      "bandwidth_bits_per_cycle": 64, "avg_latency_cycles": 1},
    "mapping": {
      "space": "{ S[i,j,k] -> PE[i mod 2, j mod 2] }",
      "time": "{ S[i,j,k] -> T[floor(i/2), floor(j/2), (i mod 2) + (j mod 2) + k] }"}})");
  CHECK_NOTHROW(input::build_problem(input::parse_spec(good, "s.json"), "s.json"));
  for (const char* pointer : {"/workload/domain", "/workload/accesses/0/relation",
                              "/workload/accesses/2/relation", "/architecture/pe_domain",
                              "/architecture/interconnect", "/mapping/space", "/mapping/time"}) {
    for (const std::string& power : kPowers) {
      nlohmann::json spec = good;
      const nlohmann::json::json_pointer ptr(pointer);
      spec[ptr] = with_power(spec[ptr].get<std::string>(), power);
      INFO(pointer << ": " << spec[ptr].get<std::string>());
      const InputError e =
          error_of([&] { input::build_problem(input::parse_spec(spec, "s.json"), "s.json"); });
      CHECK(e.code() == error_code::kOverflow);
      CHECK(e.file() == "s.json");
      CHECK(e.where() == pointer);
      CHECK(e.message().find("powers up to 2^63 - 1") != std::string::npos);
    }
  }
}

TEST_CASE("CLI: powers in a PE array, mapping, spec or accelerator exit 2",
          "[errors][isl-limits][cli]") {
  // The statement file of the issue's reproducer: fuzz_findings_test.cpp.
  const std::string e = std::string(TENET_TEST_DATA_DIR) + "/errors/";
  const std::string stmt = quoted(e + "small_gemm.s"), pe = quoted(e + "small.p"),
                    map = quoted(e + "small_os.m");
  const std::pair<std::string, std::vector<std::string>> cases[] = {
      {"analyze --tenet-stmt " + stmt + " --tenet-pe " + quoted(e + "power_link.p") +
           " --tenet-map " + map,
       {"power_link.p: line 2:", "got 2^9223372036854775807", "[overflow]"}},
      {"analyze --tenet-stmt " + stmt + " --tenet-pe " + pe + " --tenet-map " +
           quoted(e + "power_time.m"),
       {"power_time.m: line 2:", "got 10^19", "[overflow]"}},
      {"analyze --spec " + quoted(e + "power_space.json"),
       {"power_space.json: /mapping/space:", "got 2^64", "[overflow]"}},
      {"analyze --gemm 4,4,4 --dataflow os --arch " +
           quoted(std::string(TENET_TEST_DATA_DIR) + "/arch/bad_custom_map_power.json"),
       {"/interconnect/map:", "got 2^9223372036854775807", "[overflow]"}},
  };
  for (const auto& [args, mentions] : cases) {
    INFO(args);
    const CliResult r = run_cli(args);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    for (const std::string& m : mentions) CHECK(r.output.find(m) != std::string::npos);
  }
}
