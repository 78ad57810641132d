// `tenet analyze` end to end through the built binary: every input route and output format.
// (The metric values themselves are checked against brute force in tests/analysis.)
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_run.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_analyze_test {

namespace {

using Run = tenet::test::CliRun;

std::string quoted(const std::string& s) { return tenet::test::shell_quoted(s); }

Run run(const std::string& args) { return tenet::test::run_cli(args); }

nlohmann::json run_json(const std::string& args) {
  Run r = run(args + " --format json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

std::string data(const std::string& rel) {
  return quoted(std::string(TENET_TEST_DATA_DIR) + "/" + rel);
}

const char* kGemm = "analyze --gemm 6,5,7 --array 2x3 --dataflow ws";

}  // namespace

TEST_CASE("analyze --gemm prints the contract JSON keys", "[cli][analyze]") {
  auto j = run_json(kGemm);
  for (const char* key :
       {"macs", "time_stamps", "active_pes", "avg_active_pes", "delay", "energy", "tensors"})
    CHECK(j.contains(key));
  for (const char* key : {"compute", "ingress", "egress", "total"})
    CHECK(j["delay"][key].is_number_integer());
  CHECK(j["macs"] == 6 * 5 * 7);
  CHECK(j["tensors"]["A"]["role"] == "activation");
  CHECK(j["tensors"]["B"]["role"] == "weight");
  CHECK(j["tensors"]["C"]["role"] == "output");
  CHECK(j["tensors"]["A"]["total_volume"] == 6 * 5 * 7);
  CHECK(j["workload"]["name"] == "gemm 6x5x7");
  CHECK(j["mapping"]["name"] == "ws");
  CHECK(j["architecture"]["pe_domain"].get<std::string>().find("PE") != std::string::npos);
}

TEST_CASE("analyze: bits, bandwidth and latency flags reach the problem", "[cli][analyze]") {
  auto j = run_json(std::string(kGemm) +
                    " --bits-a 8 --bits-b 4 --bits-c 32 --bandwidth 128 --latency 3");
  CHECK(j["tensors"]["A"]["bits"] == 8);
  CHECK(j["tensors"]["B"]["bits"] == 4);
  CHECK(j["tensors"]["C"]["bits"] == 32);
  CHECK(j["architecture"]["bandwidth_bits_per_cycle"] == 128);
  CHECK(j["architecture"]["avg_latency_cycles"] == 3);
}

TEST_CASE("analyze: neighbourhood flags override the defaults", "[cli][analyze]") {
  auto base = run_json(kGemm);
  CHECK(base["options"]["neighbourhood"]["hops"] == 1);
  auto isolated = run_json(std::string(kGemm) + " --hops 0 --no-same-time --compute-delay avg");
  CHECK(isolated["options"]["neighbourhood"]["hops"] == 0);
  CHECK(isolated["options"]["neighbourhood"]["same_time"] == false);
  CHECK(isolated["options"]["neighbourhood"]["prev_time"] == true);
  CHECK(isolated["options"]["compute_delay"] == "avg");
  // Without interconnect hops nothing is reused spatially.
  for (const char* t : {"A", "B", "C"}) CHECK(isolated["tensors"][t]["spatial_reuse_volume"] == 0);
}

TEST_CASE("analyze: spec, TENET files and experiment routes", "[cli][analyze]") {
  auto spec = run_json("analyze --spec " + data("errors/good.json"));
  CHECK(spec["macs"] == 64);
  auto files = run_json("analyze --tenet-stmt " + data("errors/small_gemm.s") + " --tenet-pe " +
                        data("errors/small.p") + " --tenet-map " + data("errors/small_os.m"));
  // good.json and the small TENET files describe the same problem.
  CHECK(files["macs"] == spec["macs"]);
  CHECK(files["time_stamps"] == spec["time_stamps"]);
  CHECK(files["tensors"]["A"]["unique_volume"] == spec["tensors"]["A"]["unique_volume"]);
  CHECK(files["tensors"]["C"]["unique_volume"] == spec["tensors"]["C"]["unique_volume"]);
  auto exp = run_json("analyze --tenet-experiment " + data("io/tenet/experiment_matmul_os"));
  CHECK(exp["macs"] == 256 * 256 * 256);
  auto exp2 = run_json("analyze --tenet-experiment " + data("io/tenet/experiment_matmul_os") +
                       " --tenet-data-dir " + data("io/tenet"));
  CHECK(exp2["macs"] == exp["macs"]);
}

TEST_CASE("analyze: csv and table formats, --output", "[cli][analyze]") {
  Run csv = run(std::string(kGemm) + " --format csv");
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.rfind("section,name,metric,value,unit\n", 0) == 0);
  CHECK(csv.out.find("overall,,macs,210,MACs") != std::string::npos);
  Run table = run(kGemm);
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.find("MACs") != std::string::npos);
  CHECK(table.out.find("cycles") != std::string::npos);
  CHECK(table.out.find("Tensors") != std::string::npos);

  const auto path = std::filesystem::temp_directory_path() / "tenet_analyze_test_output.json";
  std::filesystem::remove(path);
  Run to_file = run(std::string(kGemm) + " --format json --output " + quoted(path.string()));
  REQUIRE(to_file.exit_code == 0);
  CHECK(to_file.out.empty());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(nlohmann::json::parse(text.str())["macs"] == 210);
  std::filesystem::remove(path);
}

}  // namespace cli_analyze_test
