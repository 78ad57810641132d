// `tenet bound` (the ski slope): JSON, CSV and table carry the same curve, a model curve sums its
// matmuls, the bound never exceeds the mapping's traffic, and bad options exit 2 naming them.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_run.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_bound_test {

using nlohmann::json;

namespace {

json run_json(const std::string& args) {
  const tenet::test::CliRun r = tenet::test::run_cli(args + " --format json");
  INFO(args << "\n" << r.out);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

}  // namespace

TEST_CASE("tenet bound: the curve in every format", "[cli][bounds]") {
  const json j = run_json("bound --gemm 333,1024,500 --quant q4f16_1 --buffers 16KiB..4MiB:6");
  REQUIRE(j["points"].size() == 6);
  CHECK(j["inputs"]["quant"] == "q4f16_1");
  long long previous = -1;
  for (const json& p : j["points"]) {
    CHECK(p["compulsory_dram_bytes"].get<long long>() <= p["bound_dram_bytes"].get<long long>());
    CHECK(p["bound_dram_bytes"].get<long long>() <= p["dram_bytes"].get<long long>());
    CHECK(p["ratio"].get<double>() >= 1.0);
    CHECK(p["buffer_bytes"].get<long long>() > previous);
    previous = p["buffer_bytes"].get<long long>();
  }
  const tenet::test::CliRun csv = tenet::test::run_cli(
      "bound --gemm 333,1024,500 --quant q4f16_1 --buffers 16KiB..4MiB:6 --format csv");
  REQUIRE(csv.exit_code == 0);
  std::istringstream lines(csv.out);
  std::string line;
  std::getline(lines, line);
  CHECK(line ==
        "buffer_bytes,bound_dram_bytes,compulsory_dram_bytes,schedule_independent_dram_bytes,"
        "dram_bytes,ratio,dataflow,tiling");
  int rows = 0;
  while (std::getline(lines, line)) {
    CHECK(line.rfind(std::to_string(j["points"][rows]["buffer_bytes"].get<long long>()) + "," +
                         std::to_string(j["points"][rows]["bound_dram_bytes"].get<long long>()),
                     0) == 0);
    ++rows;
  }
  CHECK(rows == 6);
  const tenet::test::CliRun table =
      tenet::test::run_cli("bound --gemm 333,1024,500 --quant q4f16_1 --buffers 16KiB..4MiB:6");
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.find("least DRAM traffic") != std::string::npos);
  CHECK(table.out.find(j["points"][0]["bound_dram_bytes"].dump()) != std::string::npos);
}

TEST_CASE("tenet bound --model sums the pass, --bound-only skips the mapping", "[cli][bounds]") {
  const std::string model = std::string(TENET_SOURCE_DIR) + "/workloads/models/gpt2.json";
  const json full = run_json("bound --model " + model +
                             " --phase decode --context 64 --buffers "
                             "64KiB,1MiB");
  const json only = run_json("bound --model " + model +
                             " --phase decode --context 64 --buffers "
                             "64KiB,1MiB --bound-only");
  REQUIRE(full["points"].size() == 2);
  for (int i = 0; i < 2; ++i) {
    CHECK(full["points"][i]["bound_dram_bytes"] == only["points"][i]["bound_dram_bytes"]);
    CHECK(only["points"][i]["dram_bytes"].is_null());
    CHECK(full["points"][i]["bound_dram_bytes"].get<long long>() <=
          full["points"][i]["dram_bytes"].get<long long>());
  }
  CHECK(full["inputs"]["matmuls"].get<int>() > 1);
}

TEST_CASE("tenet bound: bad options exit 2 naming them", "[cli][bounds][errors]") {
  for (const auto& [args, option] :
       {std::pair<std::string, std::string>{"bound --gemm 8,8,8 --buffers 1MiB..64KiB",
                                            "--buffers"},
        {"bound --gemm 8,8,8 --buffers 12XB", "--buffers"},
        {"bound --gemm 8,8,0 --buffers 1MiB", ""},
        {"bound --gemm 8,8,8 --buffers 1MiB --dataflows os,xs", "--dataflows"},
        {"bound --gemm 8,8,8 --buffers 1MiB --quant nope", "--quant"},
        {"bound --buffers 1MiB", "--gemm"}}) {
    const tenet::test::CliRun r = tenet::test::run_cli(args);
    INFO(args << "\n" << r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find(option) != std::string::npos);
  }
}

}  // namespace cli_bound_test
