// `tenet tir` and `tenet log --tir` end to end: the JSON contract of issue 11, the seed's kernel
// costed equal to `tenet log` on the seed's log line under q4f16_1, and bad input → exit 2.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "tir/tir_data.hpp"

using tenet::test::run_cli;
using json = nlohmann::json;

namespace {

const std::string kSeedKernel = "fused_fused_dequantize1_fused_NT_matmul6_add7_add8";

using tenet_test::tir_data;

json run_json(const std::string& args) {
  const auto r = run_cli(args + " --format json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

std::string seed_log() {
  const std::string path = std::string(TENET_BINARY_DIR) + "/tir_seed_log.txt";
  std::ofstream(path) << kSeedKernel << ": 1, 37, 1024, 1024\n";
  return path;
}

void check_same_cost(const json& a, const json& b) {
  for (const char* key :
       {"cycles", "bound", "utilization", "dram_bytes", "sram_bytes", "energy_pj"}) {
    INFO(key);
    CHECK(a.at(key) == b.at(key));
  }
}

}  // namespace

TEST_CASE("tenet tir: the seed's kernel costs what tenet log costs for its log line",
          "[tir][cli]") {
  const json tir = run_json("tir --input " + tir_data("gpt2_phase3.py") + " --func " + kSeedKernel +
                            " --bind seq_len=37");
  REQUIRE(tir.at("kernels").size() == 1);
  const json& k = tir["kernels"][0];
  CHECK(k["func"] == kSeedKernel);
  CHECK(k["block"] == "NT_matmul");
  CHECK(k["batch"] == 1);
  CHECK(k["M"] == 37);
  CHECK(k["N"] == 1024);
  CHECK(k["K"] == 1024);
  CHECK(k["layout"] == "NT");
  CHECK(k["dtypes"] ==
        json{{"A", "float16"}, {"B", "float16"}, {"accumulate", "float16"}, {"output", "float16"}});
  const json& q = k["quant"];
  CHECK(q["storage_dtype"] == "uint32");
  CHECK(q["bits"] == 4);
  CHECK(q["elems_per_word"] == 8);
  CHECK(q["group_size"] == 32);
  CHECK(q["group_axis"] == "k");
  CHECK(q["zero_point"] == false);
  CHECK(q["offset"] == 7.0);
  CHECK(q["scale_dtype"] == "float16");
  CHECK(q["scale_shape"] == json{1024, 32});
  CHECK(k["epilogue"] == json{"add", "add"});
  CHECK(k["symbols"] == json{{"seq_len", 37}});
  CHECK(k["matching_preset"] == "q4f16_1");
  CHECK(tir.at("skipped").empty());

  const std::string log = seed_log();
  const json by_log = run_json("log --input " + log + " --quant q4f16_1");
  check_same_cost(k, by_log.at("layers").at(0));
  // Joined with the dump, the log line needs no --quant: the kernel's chain is q4f16_1.
  const json joined = run_json("log --input " + log + " --tir " + tir_data("gpt2_phase3.py"));
  check_same_cost(k, joined.at("layers").at(0));
  CHECK(joined["layers"][0]["epilogue_ops"] == 2);
  CHECK(joined["inputs"]["tir"] == tir_data("gpt2_phase3.py"));
  // A preset forced on the kernel gives the same cost, since the chain is that preset.
  const json forced = run_json("tir --input " + tir_data("gpt2_phase3.py") + " --func " +
                               kSeedKernel + " --bind seq_len=37 --quant q4f16_1");
  check_same_cost(k, forced["kernels"][0]);
}

TEST_CASE("tenet tir: skipped functions, quant null, shapes only, csv", "[tir][cli]") {
  const json all =
      run_json("tir --input " + tir_data("gpt2_phase3.py") + " --bind seq_len=37 --shapes-only");
  REQUIRE(all["kernels"].size() == 2);
  REQUIRE(all["skipped"].size() == 1);
  CHECK(all["skipped"][0] ==
        json{{"func", "rms_norm"},
             {"reason", "block 'Ared_temp' reduces but its update is not C = C + A * B"},
             {"line", 64}});
  CHECK(all["inputs"]["relax_functions"] == 1);
  const json plain = run_json("tir --input " + tir_data("attention.py") +
                              " --bind seq_len=9,kv_len=20 --arch systolic-32x32");
  REQUIRE(plain["kernels"].size() == 4);
  CHECK(plain["kernels"][0]["quant"].is_null());
  CHECK(plain["kernels"][0]["b_operand"] == "activation");
  CHECK(plain["kernels"][0]["batch"] == 32);
  CHECK(plain["kernels"][0]["symbols"] == json{{"kv_len", 20}, {"seq_len", 9}});
  // fp32 kernels on an accelerator without fp32 MACs: skipped with the reason, the rest costed.
  const json mixed = run_json("tir --input " + tir_data("variants.py") + " --bind n=100,m=48");
  CHECK(mixed["kernels"].size() == 3);
  REQUIRE(mixed["skipped"].size() == 3);
  CHECK(mixed["skipped"][1]["func"] == "matmul_black");
  CHECK(mixed["skipped"][1]["line"] == 28);
  CHECK(mixed["skipped"][1]["reason"].get<std::string>().find(
            "cannot be costed on scalable-32x32") == 0);
  const auto csv =
      run_cli("tir --input " + tir_data("quant.py") + " --bind seq_len=3,n=2 --format csv");
  CHECK(csv.exit_code == 0);
  CHECK(csv.out.find("fused_dequantize_NT_matmul_int3") != std::string::npos);
}

TEST_CASE("tenet tir: bad input exits 2 with the name or line", "[tir][cli]") {
  struct Case {
    std::string args;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"--input " + tir_data("gpt2_phase3.py"), "symbolic size 'seq_len'"},
      {"--input " + tir_data("gpt2_phase3.py") + " --bind seq_len=4,seqlen=3",
       "'seqlen' is not a symbolic size"},
      {"--input " + tir_data("gpt2_phase3.py") + " --bind seq_len=0", "seq_len = 0"},
      {"--input " + tir_data("gpt2_phase3.py") + " --bind seq_len", "NAME=INTEGER"},
      {"--input " + tir_data("gpt2_phase3.py") + " --func nope", "no PrimFunc named 'nope'"},
      {"--input " + tir_data("gpt2_phase3.py") + " --bind seq_len=4 --quant q9", "--quant"},
      {"--input /nonexistent.py", "cannot open"},
  };
  for (const Case& c : cases) {
    const auto r = run_cli("tir " + c.args);
    INFO(c.args << "\n" << r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find(c.says) != std::string::npos);
  }
  const std::string bad = std::string(TENET_BINARY_DIR) + "/tir_unbalanced.py";
  std::ofstream(bad) << "@T.prim_func\ndef f(A: T.Buffer((4, 4), \"float16\")):\n    x = (1\n";
  const auto r = run_cli("tir --input " + bad);
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("line 3") != std::string::npos);
}
