// `tenet compare --quant ...` end to end (the CLI built next to the tests).
#include <sys/wait.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

namespace {

struct Run {
  int status;
  std::string out;
};

Run run_cli(const std::string& args) {
  const tenet::test::CliRun r = tenet::test::run_cli("compare " + args);
  return {r.exit_code, r.out};
}

const std::string kArch = std::string(TENET_TEST_DATA_DIR) + "/quant/systolic_16x16.json";

}  // namespace

TEST_CASE("cli compare: one row per scheme, speed-up against the first", "[quant][cli]") {
  const Run r = run_cli("--quant q0f16,q4f16_1,smoothquant_w8a8 --gemm 1,1024,1024 --arch " +
                        kArch + " --dataflow ws --dequant-rate 4 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["schemes"].size() == 3);
  CHECK(j["schemes"][0]["scheme"] == "q0f16");
  CHECK(j["schemes"][0]["speedup"] == Approx(1.0));
  CHECK(j["schemes"][1]["bound"] == "dequant");
  CHECK(j["schemes"][1]["cycles"] == 1024 * 1024 / 4);
  CHECK(j["schemes"][1]["report"]["tensors"]["B"]["dram_bytes"] == 524288);
  CHECK(j["schemes"][1]["report"]["tensors"]["B.scale"]["dram_bytes"] == 65536);
  CHECK(j["schemes"][2]["report"]["precision"] == "int8");
  const Run table =
      run_cli("--quant q0f16,q4f16_1 --gemm 1,1024,1024 --arch " + kArch + " --dequant-rate 4");
  REQUIRE(table.status == 0);
  CHECK_THAT(table.out, Catch::Contains("q4f16_1"));
  CHECK_THAT(table.out, Catch::Contains("dequant"));
}

TEST_CASE("cli compare: bad input exits 2 naming the option", "[quant][cli][errors]") {
  const std::string arch = " --arch " + kArch;
  struct Case {
    std::string args, expect;
  };
  for (const Case& c : std::vector<Case>{
           {"--quant q9 --gemm 1,64,64" + arch, "--quant"},
           {"--quant q0f16,,q4f16_1 --gemm 1,64,64" + arch, "--quant"},
           {"--quant q0f16 --gemm 1,64" + arch, "--gemm"},
           {"--quant q0f16 --gemm 0,64,64" + arch, "--gemm"},
           {"--quant q0f16 --gemm 1,64,64 --arch no-such-arch", "--arch"},
           {"--quant q0f16 --gemm 1,64,64 --dataflow xs" + arch, "--dataflow"},
           {"--quant q0f16 --gemm 1,64,64 --format xml" + arch, "--format"},
           {"--quant q4f16_1 --gemm 1,64,64 --dequant-rate -3" + arch, "--dequant-rate"},
           {"--quant q0f16 --gemm 1,64,64 --kv --kv-token-axis z" + arch, "--kv-token-axis"},
       }) {
    INFO(c.args);
    const Run r = run_cli(c.args);
    CHECK(r.status == 2);
    CHECK_THAT(r.out, Catch::Contains(c.expect));
  }
  CHECK(run_cli("--gemm 1,64,64" + arch).status == 1);  // --quant is required
  // No dequant throughput anywhere: the default unit, as every command (issue 10).
  CHECK(run_cli("--quant q4f16_1 --gemm 1,64,64" + arch).status == 0);
}
