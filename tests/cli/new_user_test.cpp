// What a new user hit (issue 34), end to end through the built binary: reports that say why a
// matmul is slow (array use), errors that name what the user typed, a comparison that survives an
// unsupported scheme, custom schemes by name, calibrate's widths from the preset, warnings for
// implausible accelerator values, bundled models by name.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_run.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_new_user_test {

namespace {

using nlohmann::json;
using tenet::test::run_cli;
using tenet::test::shell_quoted;

std::string source(const std::string& rel) {
  return shell_quoted(std::string(TENET_SOURCE_DIR) + "/" + rel);
}

// stdout and stderr apart.
struct Split {
  int exit_code = -1;
  std::string out, err;
};

// A file of this test in the temporary directory.
std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("tenet-new-user-" + std::to_string(getpid()) + "-" + name))
      .string();
}

Split run_split(const std::string& args) {
  const std::string err_file = temp_path("stderr.txt");
  const std::string command =
      shell_quoted(tenet::test::cli_path()) + " " + args + " 2>" + shell_quoted(err_file);
  const tenet::test::CliRun run = tenet::test::run_shell(command);
  Split r;
  r.out = run.out;
  r.exit_code = run.exit_code;
  std::ifstream in(err_file);
  std::stringstream text;
  text << in.rdbuf();
  r.err = text.str();
  std::remove(err_file.c_str());
  tenet::test::require_no_sanitizer_report(r.out + r.err);
  return r;
}

json run_json(const std::string& args) {
  const Split r = run_split(args + " --format json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

const std::string kGpt2 = "model --model " + source("workloads/models/gpt2.json");
const std::string kLlama3 = "model --model " + source("workloads/models/llama-3-8b.json");

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("decode says why it is compute-bound: one row of the array busy", "[cli][array_use]") {
  SECTION("table: a PEs-busy column and a note naming the rows") {
    const auto r = run_cli(kLlama3 + " --phase decode --context 1024");
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("PEs busy") != std::string::npos);
    CHECK(r.out.find("note: q0f16: compute, 1 of 32 rows busy: M = 1 — the mapping under-uses "
                     "the array; its MAC rate is not the limit (self_attn.qkv_proj, "
                     "self_attn.o_proj, mlp.gate_up_proj, mlp.down_proj, lm_head)") !=
          std::string::npos);
  }
  SECTION("json: array_use per layer and per call") {
    const json doc = run_json(kLlama3 + " --phase decode --context 1024");
    const json& qkv = doc.at("layers").at(0);
    REQUIRE(qkv.at("name") == "self_attn.qkv_proj");
    for (const json* use : {&qkv.at("array_use"), &qkv.at("per_call").at("array_use")}) {
      CHECK(use->at("rows") == 32);
      CHECK(use->at("cols") == 32);
      CHECK(use->at("rows_used") == 1);
      CHECK(use->at("cols_used") == 32);
      CHECK(use->at("row_dim") == "M");
      CHECK(use->at("row_share").get<double>() == Approx(1.0 / 32));
      CHECK(use->at("note") == "compute, 1 of 32 rows busy: M = 1");
    }
    CHECK(doc.at("warnings") == json::array());
  }
  SECTION("csv: the array's columns") {
    const auto r = run_cli(kGpt2 + " --phase decode --context 64 --format csv");
    REQUIRE(r.exit_code == 0);
    const std::string header = r.out.substr(0, r.out.find('\n'));
    const std::string tail =
        ",scheme,precision_fallback,array_rows,array_cols,rows_used,cols_used,array_note";
    REQUIRE(header.size() > tail.size());
    CHECK(header.substr(header.size() - tail.size()) == tail);
    const std::string first = r.out.substr(r.out.find('\n') + 1);
    CHECK(first.rfind("attn.c_attn,decode,", 0) == 0);
    CHECK(first.find(",32,32,1,32,\"compute, 1 of 32 rows busy: M = 1\"\n") != std::string::npos);
  }
  SECTION("prefill uses the array: no note") {
    const json doc = run_json(kGpt2 + " --prompt 512");
    const json& qkv = doc.at("layers").at(0);
    CHECK(qkv.at("array_use").at("rows_used") == 32);
    CHECK(qkv.at("array_use").at("note").is_null());
  }
  SECTION("a comparison says which share of the cycles is under-use, W4A16 at 1.00x") {
    const json doc = run_json(kLlama3 + " --phase decode --context 1024 --quant q0f16,q4f16_1");
    for (const json& s : doc.at("schemes"))
      CHECK(s.at("summary").at("array_underused_share").get<double>() > 0.9);
    const auto r = run_cli(kLlama3 + " --phase decode --context 1024 --quant q0f16,q4f16_1");
    CHECK(r.out.find("% under-used array)") != std::string::npos);
    CHECK(r.out.find("schemes q0f16, q4f16_1)") != std::string::npos);
  }
  SECTION("analyze and compare") {
    const json a = run_json("analyze --gemm 1,4096,4096 --arch scalable-32x32");
    CHECK(a.at("array_use").at("note") == "compute, 1 of 32 rows busy: M = 1");
    const auto table = run_cli("analyze --gemm 1,4096,4096 --arch scalable-32x32");
    CHECK(table.out.find("array use           1 of 32 rows (M), 32 of 32 columns (N) busy, K "
                         "streams") != std::string::npos);
    CHECK(table.out.find("note: compute, 1 of 32 rows busy: M = 1") != std::string::npos);
    const auto csv = run_cli("analyze --gemm 1,4096,4096 --arch scalable-32x32 --format csv");
    CHECK(csv.out.find("hardware,,array_use.rows_used,1,PEs") != std::string::npos);
    const json c = run_json("compare --gemm 1,4096,4096 --quant q0f16,q4f16_1 --dataflow ws");
    CHECK(c.at("schemes").at(1).at("report").at("array_use").at("note") ==
          "compute, 1 streamed cycle per fold against 94 of preload, fill and drain: M = 1");
  }
}

TEST_CASE("a length of the other phase is named as given", "[cli][errors]") {
  auto r = run_cli(kGpt2 + " --phase decode --prompt 64");
  CHECK(r.exit_code == 2);
  CHECK(r.out.rfind("tenet: error: --prompt: prompt is for a prefill pass; a decode step takes "
                    "context",
                    0) == 0);
  r = run_cli(kGpt2 + " --context 64");
  CHECK(r.exit_code == 2);
  CHECK(r.out.rfind("tenet: error: --context: context (tokens in the KV cache) is for a decode "
                    "step",
                    0) == 0);
  r = run_cli(kGpt2 + " --phase decode");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("no context length given: a decode step needs one") != std::string::npos);
}

TEST_CASE("bundled models resolve by name", "[cli][llm]") {
  const json by_name = run_json("model --model gpt2 --phase decode --context 64 --shapes-only");
  const json by_file = run_json(kGpt2 + " --phase decode --context 64 --shapes-only");
  CHECK(by_name.at("layers") == by_file.at("layers"));
  const auto r = run_cli("model --model no-such-model --prompt 8");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("tenet: error: --model: \"no-such-model\" is neither a config.json file nor a "
                   "bundled model (expected a file or one of: ") != std::string::npos);
  CHECK(r.out.find("llama-3-8b") != std::string::npos);
  const auto missing = run_cli("model --model no/such/file.json --prompt 8");
  CHECK(missing.exit_code == 2);
  CHECK(missing.out.find("no/such/file.json") != std::string::npos);  // a path: the file
  const auto hint = run_cli("model --model llama-3-8b.json --prompt 8", "/");
  CHECK(hint.exit_code == 2);
  CHECK(hint.out.find("tenet: error: llama-3-8b.json: cannot open the file; a bundled model of "
                      "that name exists: give its name alone, \"llama-3-8b\"") !=
        std::string::npos);
}

TEST_CASE("a comparison shows an unsupported scheme as a row with its reason", "[cli][quant]") {
  const std::string cmd =
      kGpt2 + " --phase decode --context 64 --arch gemmini --quant smoothquant_w8a8,q0f16,w4a8";
  SECTION("table") {
    const auto r = run_cli(cmd);
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("unsupported (below)") != std::string::npos);
    CHECK(r.out.find("unsupported: q0f16: scheme \"q0f16\" needs fp16 MACs") != std::string::npos);
    CHECK(r.out.find("w4a8 ms (bound)") != std::string::npos);  // the others costed
  }
  SECTION("json") {
    const json doc = run_json(cmd);
    const json& s = doc.at("schemes");
    REQUIRE(s.size() == 3);
    CHECK(s[0].at("unsupported").is_null());
    CHECK(s[1].at("scheme") == "q0f16");
    CHECK(s[1].at("unsupported").get<std::string>().find("needs fp16 MACs") != std::string::npos);
    CHECK(s[1].at("layers").empty());
    CHECK(s[1].at("totals").is_null());
    CHECK(s[2].at("summary").at("speedup").get<double>() > 0);
  }
  SECTION("csv: a last column unsupported") {
    const auto r = run_cli(cmd + " --format csv");
    REQUIRE(r.exit_code == 0);
    const std::string header = r.out.substr(0, r.out.find('\n'));
    CHECK(header.rfind("scheme,name,", 0) == 0);
    CHECK(header.substr(header.size() - 12) == ",unsupported");
    const std::size_t row = r.out.find("\nq0f16,");
    REQUIRE(row != std::string::npos);
    const std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
    CHECK(line.find(",,,,\"scheme \"\"q0f16\"\" needs fp16 MACs") != std::string::npos);
    CHECK(r.out.find("\nw4a8,attn.c_attn,") != std::string::npos);
  }
  SECTION("compare") {
    const json doc = run_json("compare --gemm 1,256,256 --arch gemmini --quant q0f16,w4a8");
    REQUIRE(doc.at("schemes").size() == 2);
    CHECK(doc["schemes"][0].at("scheme") == "q0f16");
    CHECK(doc["schemes"][0].at("unsupported").get<std::string>().find("needs fp16 MACs") !=
          std::string::npos);
    CHECK(doc["schemes"][1].at("unsupported").is_null());
    CHECK(doc["schemes"][1].contains("bounds"));
    const auto table = run_cli("compare --gemm 1,256,256 --arch gemmini --quant q0f16,w4a8");
    CHECK(table.exit_code == 0);
    CHECK(table.out.find("unsupported: scheme \"q0f16\" needs fp16 MACs") != std::string::npos);
  }
  SECTION("nothing costed: the first scheme's error") {
    CHECK(run_cli(kGpt2 + " --prompt 8 --arch gemmini --quant q0f16,q4f16_1").exit_code == 2);
    CHECK(run_cli("compare --gemm 1,256,256 --arch gemmini --quant q0f16").exit_code == 2);
  }
}

TEST_CASE("a custom scheme shows its name, not its path", "[cli][quant]") {
  std::ifstream in(std::string(TENET_SOURCE_DIR) + "/configs/quant/q4f16_1.json");
  json scheme = json::parse(in);
  scheme["name"] = "my-w4";
  const std::string path = write_file("scheme.json", scheme.dump());
  const auto table = run_cli(kGpt2 + " --phase decode --context 64 --quant q0f16," + path);
  INFO(table.out);
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.find("schemes: q0f16, my-w4 ") != std::string::npos);
  CHECK(table.out.find("my-w4 ms (bound)") != std::string::npos);
  CHECK(table.out.find(path) == std::string::npos);
  const json doc = run_json(kGpt2 + " --phase decode --context 64 --quant q0f16," + path);
  CHECK(doc.at("schemes").at(1).at("scheme") == "my-w4");
  // Two schemes of one name: what was given tells them apart.
  scheme["name"] = "q4f16_1";
  const std::string same = write_file("same.json", scheme.dump());
  const json twice = run_json(kGpt2 + " --phase decode --context 64 --quant q4f16_1," + same);
  CHECK(twice.at("schemes").at(0).at("scheme") == "q4f16_1");
  CHECK(twice.at("schemes").at(1).at("scheme") == "q4f16_1 (" + same + ")");
}

TEST_CASE("the cost model line says which scheme was used", "[cli][llm]") {
  const auto r = run_cli(kGpt2 + " --phase decode --context 64");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find(", os, q0f16 (the default), systolic timing") != std::string::npos);
  CHECK(r.out.find("log's quant") == std::string::npos);
  const auto log = run_cli("log --input " + source("workloads/logs/gpt2-medium-q4f16_1.jsonl"));
  REQUIRE(log.exit_code == 0);
  CHECK(log.out.find(", os, q4f16_1 (as the rows name them), systolic timing") !=
        std::string::npos);
}

TEST_CASE("calibrate takes the operand widths from the preset or refuses", "[cli][calibrate]") {
  const std::string csv = source("workloads/calibration/sauria/calibration.csv");
  auto r = run_cli("calibrate --measurements " + csv +
                   " --config fp16_8x16 --arch sauria-fp16-8x16 --predict-only");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("bits per element: A 16, B 16, C 16 (accelerator \"sauria-fp16-8x16\": its "
                    "MAC precision fp16",
                    0) == 0);
  CHECK(r.out.find("rows within 5 %: 100.0 %") != std::string::npos);  // 17/17 (docs/validation.md)
  r = run_cli("calibrate --measurements " + csv +
              " --config int8_8x16 --arch sauria-int8-8x16 --predict-only --format json");
  REQUIRE(r.exit_code == 0);
  const json doc = json::parse(r.out);
  CHECK(doc.at("bits").at("a") == 8);
  CHECK(doc.at("bits").at("b") == 8);
  CHECK(doc.at("bits").at("c") == 32);
  r = run_cli("calibrate --measurements " + csv +
              " --config fp16_8x16 --arch sauria-fp16-8x16 --predict-only --bits-a 8 --bits-b 8 "
              "--bits-c 32");
  CHECK(r.out.rfind("bits per element: A 8, B 8, C 32 (given)", 0) == 0);
  r = run_cli("calibrate --measurements " + csv +
              " --config fp16_8x16 --arch scalable-32x32 --predict-only");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("tenet: error: --arch: accelerator \"scalable-32x32\" declares 3 MAC "
                   "precisions (fp16, int4, int8)") != std::string::npos);
  r = run_cli("calibrate --measurements " + csv +
              " --config fp16_8x16 --arch sauria-fp16-8x16 --predict-only --bits-c 0");
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("--bits-c") != std::string::npos);
  r = run_cli("calibrate --help");
  CHECK(r.out.find("w_til, k_til and c_til are the M, N and K tiles") != std::string::npos);
}

TEST_CASE("implausible accelerator values warn on stderr and in the JSON", "[cli][arch]") {
  std::ifstream in(std::string(TENET_SOURCE_DIR) + "/configs/arch/scalable-32x32.json");
  json arch = json::parse(in);
  arch["name"] = "slips";
  arch["clock_mhz"] = 1.0;
  arch["dram"]["capacity_bytes"] = 16;
  arch["dram"].erase("bandwidth_bytes_per_cycle");
  arch["dram"]["bandwidth_gb_per_s"] = 0.128;
  const std::string path = write_file("slips.json", arch.dump());
  const Split r = run_split(kGpt2 + " --phase decode --context 64 --arch " + path);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("tenet: warning: " + path +
                   ": /clock_mhz: 1 MHz is outside the plausible clock of 10 to 10000 MHz") !=
        std::string::npos);
  CHECK(r.err.find(path + ": /dram: a bandwidth of 0.128 GB/s") != std::string::npos);
  CHECK(r.err.find(path + ": /dram/capacity_bytes: 16 bytes is outside") != std::string::npos);
  CHECK(r.out.find("tenet: warning") == std::string::npos);  // stderr, not the report
  for (const std::string& cmd :
       {kGpt2 + " --phase decode --context 64 --arch " + path,
        "analyze --gemm 4,4,4 --arch " + path, "compare --gemm 4,4,4 --quant q0f16 --arch " + path,
        "generate --model " + source("workloads/models/gpt2.json") +
            " --prompt 8 --tokens 2 --arch " + path}) {
    const json doc = run_json(cmd);
    INFO(cmd);
    REQUIRE(doc.at("warnings").size() == 3);
    CHECK(doc["warnings"][0].get<std::string>().find("/clock_mhz") != std::string::npos);
  }
  const Split preset = run_split(kGpt2 + " --phase decode --context 64 --arch tpu-v1");
  CHECK(preset.err.empty());
}

}  // namespace cli_new_user_test
