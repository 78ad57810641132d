// Quantized logs and precision honesty end to end (issue 21 items 3 and 4): the header record
// gives a log its scheme, a dequantize kernel is never costed as unquantized, `--tir` costs each
// kernel with its own scheme (rows and totals per scheme), and a matmul on MACs other than its
// own precision says so; a scheme the accelerator cannot run is exit 2 naming file, scheme and
// precision.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_quantized_log_test {

namespace {

using json = nlohmann::json;
using tenet::test::CliRun;
using tenet::test::run_cli;
using tenet::test::shell_quoted;

std::string source(const std::string& rel) {
  return shell_quoted(std::string(TENET_SOURCE_DIR) + "/" + rel);
}

// A log file in a fresh directory, removed at the end.
struct TempLog {
  std::string dir, path;
  explicit TempLog(const std::string& text) {
    char name[] = "/tmp/tenet_qlog_XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    dir = name;
    path = dir + "/run.jsonl";
    std::ofstream(path) << text;
  }
  ~TempLog() {
    std::remove(path.c_str());
    std::remove((dir + "/w4.json").c_str());
    rmdir(dir.c_str());
  }
};

// The output without the "tenet: warning: ..." lines (stderr is merged into it).
std::string without_warnings(const std::string& out) {
  std::string kept;
  std::size_t start = 0;
  while (start < out.size()) {
    std::size_t end = out.find('\n', start);
    end = end == std::string::npos ? out.size() : end + 1;
    if (out.compare(start, 15, "tenet: warning:") != 0) kept += out.substr(start, end - start);
    start = end;
  }
  return kept;
}

json run_json(const std::string& args) {
  const CliRun r = run_cli(args + " --format json");
  INFO(args << "\n" << r.out);
  REQUIRE(r.exit_code == 0);
  return json::parse(without_warnings(r.out));
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

const char* kReadmeLog = "workloads/logs/gpt2-medium-q4f16_1.jsonl";

}  // namespace

TEST_CASE("tenet log: the README's q4f16_1 log is costed as q4f16_1 from its header",
          "[cli][log][quant]") {
  const std::string args = "log --input " + source(kReadmeLog) + " --arch systolic-32x32";
  const json header = run_json(args);
  const json forced = run_json(args + " --quant q4f16_1");
  const json fp16 = run_json(args + " --quant q0f16");
  CHECK(header.at("inputs").at("quantization") == "q4f16_1");
  CHECK(header.at("inputs").at("model") == "gpt2-medium");
  CHECK(header.at("inputs").at("header_records") == 1);
  // The same costs as forcing the scheme; far less DRAM traffic than fp16 weights.
  for (const char* key : {"cycles", "dram_bytes", "sram_bytes", "macs", "calls"})
    CHECK(header.at("totals").at(key) == forced.at("totals").at(key));
  CHECK(header.at("totals").at("dram_bytes").get<double>() <
        0.5 * fp16.at("totals").at("dram_bytes").get<double>());
  for (const json& layer : header.at("layers")) {
    CHECK(layer.at("scheme") == "q4f16_1");
    CHECK(layer.at("quant") == "q4f16_1");
    CHECK(layer.at("precision_fallback").is_null());  // fp16 MACs on systolic-32x32
  }
  REQUIRE(header.at("totals").at("by_scheme").size() == 1);
  CHECK(header.at("totals").at("by_scheme")[0].at("scheme") == "q4f16_1");
  CHECK(header.at("totals").at("by_scheme")[0].at("cycles") == header.at("totals").at("cycles"));
  // The text log carries the same header.
  const json text = run_json("log --input " + source("workloads/logs/gpt2-medium-q4f16_1.txt") +
                             " --arch systolic-32x32");
  CHECK(text.at("totals").at("dram_bytes") == header.at("totals").at("dram_bytes"));
}

TEST_CASE("tenet log: a dequantize kernel without a scheme is exit 2 naming the three ways",
          "[cli][log][quant]") {
  const TempLog log(
      R"({"kernel":"fused_NT_matmul","batch":1,"M":4,"N":64,"K":64})"
      "\n"
      R"({"kernel":"fused_fused_dequantize3_fused_NT_matmul8_add10","batch":1,"M":4,"N":64,"K":64})"
      "\n");
  const CliRun r = run_cli("log --input " + shell_quoted(log.path));
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.out, Catch::Contains(log.path));
  CHECK_THAT(r.out, Catch::Contains("fused_fused_dequantize3_fused_NT_matmul8_add10"));
  CHECK_THAT(r.out, Catch::Contains("header record") && Catch::Contains("--tir") &&
                        Catch::Contains("--quant"));
  CHECK_THAT(r.out, Catch::Contains("missing-field"));
  // Each of the three ways makes it run; shapes alone need no scheme.
  CHECK(run_cli("log --input " + shell_quoted(log.path) + " --quant q4f16_1").exit_code == 0);
  CHECK(run_cli("log --input " + shell_quoted(log.path) + " --shapes-only").exit_code == 0);
  const TempLog with_header(
      R"({"record":"header","quantization":"q4f16_1"})"
      "\n" +
      std::string(
          R"({"kernel":"fused_fused_dequantize3_fused_NT_matmul8_add10","batch":1,"M":4,"N":64,"K":64})"
          "\n"));
  CHECK(run_cli("log --input " + shell_quoted(with_header.path)).exit_code == 0);
  // A header-less log of unquantized kernels reads as before (q0f16).
  const TempLog plain(R"({"kernel":"fused_NT_matmul","batch":1,"M":4,"N":64,"K":64})"
                      "\n");
  const json doc = run_json("log --input " + shell_quoted(plain.path));
  CHECK(doc.at("layers")[0].at("scheme") == "q0f16");
  CHECK(doc.at("inputs").at("quantization").is_null());
}

TEST_CASE("tenet log: the header's scheme file is read from the log's directory",
          "[cli][log][quant]") {
  TempLog log(R"({"record":"header","quantization":"w4.json"})"
              "\n"
              R"({"kernel":"fused_dequantize_NT_matmul","batch":1,"M":4,"N":64,"K":64})"
              "\n");
  {
    std::ifstream in(std::string(TENET_SOURCE_DIR) + "/configs/quant/q4f16_1.json");
    json scheme = json::parse(in);
    scheme["name"] = "my_w4";
    std::ofstream(log.dir + "/w4.json") << scheme.dump();
  }
  const json doc = run_json("log --input " + shell_quoted(log.path));
  CHECK(doc.at("layers")[0].at("scheme") == "my_w4");
  std::remove((log.dir + "/w4.json").c_str());
  const CliRun missing = run_cli("log --input " + shell_quoted(log.path));
  INFO(missing.out);
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.out, Catch::Contains("line 1, /quantization"));
}

TEST_CASE("tenet log --tir: a mixed log shows each row's scheme and totals per scheme",
          "[cli][log][quant][tir]") {
  // q4f16_0 (two sizes), GPTQ, a group-40 chain no preset expresses, and a dequantize kernel
  // that is not in the dump (the header's q4f16_1), called at two sizes.
  const std::string calls =
      R"({"kernel":"fused_dequantize_matmul_q4f16_0","M":7,"N":4096,"K":1024})"
      "\n"
      R"({"kernel":"fused_dequantize_matmul_q4f16_0","M":1,"N":4096,"K":1024,"count":3})"
      "\n"
      R"({"kernel":"fused_dequantize_matmul_gptq","M":1,"N":128,"K":512})"
      "\n"
      R"({"kernel":"fused_dequantize_NT_matmul_g40","M":1,"N":256,"K":1280,"count":2})"
      "\n"
      R"({"kernel":"fused_dequantize_NT_matmul_elsewhere","M":5,"N":64,"K":64})"
      "\n"
      R"({"kernel":"fused_dequantize_NT_matmul_elsewhere","M":1,"N":64,"K":64})"
      "\n";
  const std::string tir = " --tir " + source("tests/data/tir/quant.py");
  const TempLog headerless(calls);
  const CliRun refused = run_cli("log --input " + shell_quoted(headerless.path) + tir);
  INFO(refused.out);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.out, Catch::Contains("fused_dequantize_NT_matmul_elsewhere"));

  const TempLog log(R"({"record":"header","quantization":"q4f16_1"})"
                    "\n" +
                    calls);
  const json doc = run_json("log --input " + shell_quoted(log.path) + tir);
  const std::vector<std::string> expected = {
      "q4f16_0", "q4f16_0", "gptq_w4a16_g128", "auto:fused_dequantize_NT_matmul_g40",
      "q4f16_1", "q4f16_1"};
  REQUIRE(doc.at("layers").size() == expected.size());
  std::map<std::string, std::map<std::string, double>> sums;  // scheme -> key -> Σ rows
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const json& l = doc["layers"][i];
    CHECK(l.at("scheme") == expected[i]);
    for (const char* key : {"cycles", "dram_bytes", "sram_bytes", "energy_pj", "macs"})
      sums[expected[i]][key] += l.at(key).get<double>();
    sums[expected[i]]["calls"] += l.at("count").get<double>();
  }
  const json& by_scheme = doc.at("totals").at("by_scheme");
  REQUIRE(by_scheme.size() == 4);
  CHECK(by_scheme[0].at("scheme") == "q4f16_0");  // order of first appearance
  CHECK(by_scheme[3].at("scheme") == "q4f16_1");
  double cycles = 0;
  for (const json& s : by_scheme) {
    const std::string name = s.at("scheme");
    INFO(name);
    for (const char* key : {"cycles", "dram_bytes", "sram_bytes", "macs", "calls"})
      CHECK(s.at(key).get<double>() == sums.at(name).at(key));
    CHECK(s.at("energy_pj").get<double>() == Approx(sums.at(name).at("energy_pj")));
    cycles += s.at("cycles").get<double>();
  }
  CHECK(cycles == doc.at("totals").at("cycles").get<double>());
  // The table: a scheme column and one total row per scheme; each warning once.
  const CliRun table = run_cli("log --input " + shell_quoted(log.path) + tir);
  INFO(table.out);
  REQUIRE(table.exit_code == 0);
  for (const std::string& s : {"q4f16_0", "gptq_w4a16_g128", "q4f16_1"})
    CHECK(occurrences(table.out, "total " + s) == 1);
  CHECK(occurrences(table.out, "fused_dequantize_NT_matmul_elsewhere has no recognised matmul") ==
        1);
  CHECK(occurrences(table.out, "the dequantize chain of fused_dequantize_NT_matmul_g40") == 1);
  // CSV: a total row per scheme with its scheme column.
  const CliRun csv = run_cli("log --input " + shell_quoted(log.path) + tir + " --format csv");
  REQUIRE(csv.exit_code == 0);
  const std::string rows = without_warnings(csv.out);
  CHECK(occurrences(rows, "\ntotal,") == 5);
  // scheme, an empty precision_fallback, then the array's columns: two rows and its total
  CHECK(occurrences(rows, ",q4f16_0,,") == 3);
}

TEST_CASE("precision honesty: fp16 on tpu-v1's int16 MACs is reported as a fallback",
          "[cli][quant][precision]") {
  const std::string model = "model --model " + source("workloads/models/gpt2-medium.json") +
                            " --phase decode --context 64 --arch tpu-v1";
  const json doc = run_json(model);
  for (const json& l : doc.at("layers")) {
    INFO(l.at("name"));
    REQUIRE(l.at("precision_fallback").is_object());
    CHECK(l.at("precision_fallback").at("requested") == "fp16");
    CHECK(l.at("precision_fallback").at("used") == "int16");
    CHECK(l.at("per_call").at("precision_fallback") == l.at("precision_fallback"));
  }
  const CliRun table = run_cli(model);
  INFO(table.out);
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("note: precision fallback in") &&
                            Catch::Contains("q0f16: fp16 operands on int16 MACs"));
  // W8A8 runs natively on tpu-v1's int8 MACs: no fallback, no note.
  const CliRun w8 = run_cli(model + " --quant smoothquant_w8a8");
  CHECK(w8.exit_code == 0);
  CHECK(w8.out.find("precision fallback") == std::string::npos);
  // analyze and compare say it too.
  const json one = run_json("analyze --gemm 1,256,256 --arch tpu-v1 --quant q4f16_1");
  CHECK(one.at("precision_fallback") == json({{"requested", "fp16"}, {"used", "int16"}}));
  const json fp16_native = run_json("analyze --gemm 1,256,256 --arch systolic-32x32 --quant q0f16");
  CHECK(fp16_native.at("precision_fallback").is_null());
  const json cmp =
      run_json("compare --gemm 1,256,256 --arch tpu-v1 --quant q0f16,smoothquant_w8a8");
  CHECK(cmp.at("schemes")[0].at("precision_fallback").at("used") == "int16");
  CHECK(cmp.at("schemes")[1].at("precision_fallback").is_null());
}

TEST_CASE("precision honesty: a scheme the accelerator cannot run names file, scheme, precision",
          "[cli][quant][precision]") {
  const CliRun r = run_cli("log --input " + source(kReadmeLog) + " --arch gemmini");
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.out, Catch::Contains("gemmini.json") && Catch::Contains("/pe/precisions") &&
                        Catch::Contains("q4f16_1") && Catch::Contains("fp16") &&
                        Catch::Contains("float_on_integer"));
  // fp32 on tpu-v1: float_on_integer allows int16, too narrow for 32-bit floats.
  const CliRun wide = run_cli("analyze --gemm 8,8,8 --arch tpu-v1 --quant q0f32");
  INFO(wide.out);
  CHECK(wide.exit_code == 2);
  CHECK_THAT(wide.out,
             Catch::Contains("tpu-v1.json") && Catch::Contains("q0f32") && Catch::Contains("fp32"));
}

}  // namespace cli_quantized_log_test
