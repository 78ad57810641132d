// Regression cases of the hostile-input classes of issue 15: deep nesting, numbers out of range,
// duplicate keys, invalid UTF-8, trailing text after isl strings, sizes that overflow 64 bits,
// a huge quantization spec and empty or zero option values. Each bad input gives an InputError
// (exit 2 from the CLI) naming the file and the field or line, never an internal error.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "errors/error_test_util.hpp"
#include "sweep/sweep_spec.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/input/spec.hpp"
#include "tenet/input/tenet_files.hpp"
#include "tenet/input/workload_log.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/poly/count.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using namespace error_test;

namespace {

struct Case {
  const char* file;
  const char* code;
  const char* where;  // exact location, or its beginning when `prefix`
  bool prefix;
  std::function<void(const std::string&)> load;
};

void check(const Case& c) {
  INFO(c.file);
  const std::string path = fixture(c.file);
  const InputError e = error_of([&] { c.load(path); });
  CHECK(e.code() == c.code);
  CHECK(e.file() == path);
  if (c.prefix)
    CHECK(e.where().rfind(c.where, 0) == 0);
  else
    CHECK(e.where() == c.where);
}

void load_log(const std::string& p) { input::read_workload_log_file(p); }
void load_arch(const std::string& p) { arch::load_accelerator(p); }
void load_quant(const std::string& p) { quant::load_quant(p); }
void load_sweep(const std::string& p) { sweep::load_sweep_spec(p); }
void load_model(const std::string& p) { llm::load_model_config(p); }
void load_spec(const std::string& p) { input::load_spec(p); }
void load_statement(const std::string& p) { input::read_tenet_statement(p); }
void load_pe(const std::string& p) { input::read_tenet_pe(p); }
void load_mapping(const std::string& p) { input::read_tenet_mapping(p); }

}  // namespace

TEST_CASE("JSON nested deeper than the limit is a range error at its pointer",
          "[errors][hostile]") {
  const Case cases[] = {
      {"arch_deep.json", error_code::kRange, "/pe/precisions/fp16/0/0", true, load_arch},
      {"deep.jsonl", error_code::kRange, "line 1, /K/0/0", true, load_log},
      {"sweep_deep.json", error_code::kRange, "/name/0/0", true, load_sweep},
      {"quant_deep.json", error_code::kRange, "/comment/0/0", true, load_quant},
  };
  for (const Case& c : cases) check(c);
}

TEST_CASE("numbers beyond 64 bits or a double are overflow errors at their field",
          "[errors][hostile]") {
  const Case cases[] = {
      {"number_1e400.jsonl", error_code::kOverflow, "line 1, /K", false, load_log},
      {"arch_1e400.json", error_code::kOverflow, "/clock_mhz", false, load_arch},
      {"spec_4000_digits.json", error_code::kOverflow, "/architecture/bandwidth_bits_per_cycle",
       false, load_spec},
      {"model_1e400.json", error_code::kOverflow, "/x_big", false, load_model},
  };
  for (const Case& c : cases) check(c);
}

TEST_CASE("duplicate keys are rejected in every JSON format", "[errors][hostile]") {
  const Case cases[] = {
      {"arch_duplicate.json", error_code::kDuplicate, "/name", false, load_arch},
      {"duplicate_key.jsonl", error_code::kDuplicate, "line 2, /K", false, load_log},
      {"sweep_duplicate.json", error_code::kDuplicate, "/relation_centric", false, load_sweep},
      {"quant_duplicate.json", error_code::kDuplicate, "/name", false, load_quant},
      {"model_duplicate.json", error_code::kDuplicate, "/n_embd", false, load_model},
      {"duplicate_key.json", error_code::kDuplicate, "/architecture/avg_latency_cycles", false,
       load_spec},
  };
  for (const Case& c : cases) check(c);
}

TEST_CASE("invalid UTF-8 in text inputs is a parse error at its line", "[errors][hostile]") {
  const Case cases[] = {
      {"invalid_utf8.log", error_code::kParse, "line 2", false, load_log},
      {"invalid_utf8.s", error_code::kParse, "line 3", false, load_statement},
      {"invalid_utf8.p", error_code::kParse, "line 3", false, load_pe},
  };
  for (const Case& c : cases) check(c);
}

TEST_CASE("text after an isl string in a TENET file is rejected", "[errors][hostile]") {
  const Case cases[] = {
      {"trailing_garbage.p", error_code::kIslSyntax, "line 1", false, load_pe},
      {"trailing_garbage.s", error_code::kIslSyntax, "line 3", false, load_statement},
      {"trailing_garbage.m", error_code::kIslSyntax, "line 2", false, load_mapping},
      {"count_overflow.s", error_code::kOverflow, "line 1", false, load_statement},
  };
  for (const Case& c : cases) check(c);
}

TEST_CASE("every problem of a file is reported at once, each with its pointer",
          "[errors][hostile]") {
  InputError e = error_of([] { load_quant(fixture("quant_several_errors.json")); });
  CHECK(e.message().find("and 3 more error(s)") != std::string::npos);
  for (const char* where :
       {"/weights/scales/0/bogus", "/weights/scales/0/group_size", "/output/dtype", "/accumulator"})
    CHECK(std::string(e.what()).find(where) != std::string::npos);

  e = error_of([] { load_log(fixture("several_errors.jsonl")); });
  CHECK(e.where() == "line 1, /M");
  CHECK(e.message().find("and 2 more error(s)") != std::string::npos);
  CHECK(e.message().find("line 1, /N") != std::string::npos);
  CHECK(e.message().find("line 1, /bogus") != std::string::npos);
}

TEST_CASE("a quantization spec with 10,000 scale levels is refused at once", "[errors][hostile]") {
  nlohmann::json doc = quant::to_json(quant::load_preset("q4f16_1"));
  nlohmann::json level = doc["weights"]["scales"][0];
  doc["weights"]["scales"] = nlohmann::json::array();
  for (int i = 0; i < 10000; ++i) doc["weights"]["scales"].push_back(level);
  const InputError e = error_of([&] { quant::parse_quant_spec(doc, "big.json"); });
  CHECK(e.code() == error_code::kRange);
  CHECK(e.where() == "/weights/scales");
  CHECK(e.file() == "big.json");
}

TEST_CASE("CLI: hostile inputs exit 2 naming the file and field, never 3",
          "[errors][hostile][cli]") {
  struct CliCase {
    std::string args;
    std::vector<std::string> mentions;
  };
  const std::string e = TENET_TEST_DATA_DIR "/errors/";
  const CliCase cases[] = {
      {"log --input " + quoted(e + "number_1e400.jsonl"), {"line 1, /K:", "[overflow]"}},
      {"log --input " + quoted(e + "deep.jsonl"), {"line 1, /K/0", "[range]"}},
      {"log --input " + quoted(e + "invalid_utf8.log"), {"invalid_utf8.log: line 2:", "[parse]"}},
      {"analyze --gemm 4,4,4 --dataflow os --arch " + quoted(e + "arch_duplicate.json"),
       {"/name:", "[duplicate]"}},
      {"analyze --tenet-stmt " + quoted(e + "small_gemm.s") + " --tenet-pe " +
           quoted(e + "trailing_garbage.p") + " --tenet-map " + quoted(e + "small_os.m"),
       {"trailing_garbage.p: line 1:", "[isl-syntax]"}},
      // Sizes whose hardware counts exceed 64 bits: an overflow input error.
      {"analyze --gemm 4294967296,4294967296,3037000500 --arch systolic-8x8 --dataflow os",
       {"M = 4294967296, N = 4294967296, K = 3037000500 is too large", "[overflow]"}},
      {"compare --gemm 256,1000000000,9223372036854775807 --arch systolic-8x8 --quant q4f16_1 "
       "--dequant-rate 4",
       {"K = 9223372036854775807 is too large", "[overflow]"}},
      {"compare --gemm 2097152,1000000,1000000 --arch systolic-8x8 --quant q4f16_1 "
       "--dequant-rate 4",
       {"bytes = ", "does not fit in 64 bits", "[overflow]"}},
      {"compare --gemm 1000000,2097152,2097152 --arch systolic-8x8 --quant q4f16_1 "
       "--dequant-rate 4",
       {"does not fit in 64 bits", "[overflow]"}},
      // One rule set for option values.
      {"sweep --spec workloads/sweeps/example.json --shard '' --out never.csv",
       {"--shard:", "empty", "[range]"}},
      {"model --model workloads/models/gpt2.json --prompt '' --shapes-only",
       {"--prompt:", "empty", "[range]"}},
      {"compare --gemm 64,64,64 --arch systolic-8x8 --quant q4f16_1 --dequant-rate ''",
       {"--dequant-rate:", "empty", "[range]"}},
      {"search --model workloads/models/gpt2.json --phase prefill --prompt 4 --batch 0",
       {"--batch:", "positive", "[range]"}},
      // Issue 22: sizes near 2^63 in the relation-centric analysis. The exact counter cannot
      // hold coefficients beyond 2^62; isl's enumeration of such a set gets 10,000 steps of big
      // integers (it scanned 2^21 for 75 s, and millions for a TENET .s file), then this error.
      {"analyze --gemm 9223372036854775807,1,2097152 --array 8x8 --dataflow os",
       {"coefficients exceed 2^62", "budget of 10000", "[overflow]"}},
      {"analyze --tenet-stmt " + quoted(e + "conv2d_huge_bound.s") + " --tenet-pe " +
           quoted(std::string(TENET_TEST_DATA_DIR) + "/io/tenet/pe_array/systolic.p") +
           " --tenet-map " +
           quoted(std::string(TENET_TEST_DATA_DIR) + "/io/tenet/mapping/conv2d_os.m"),
       {"coefficients exceed 2^62", "budget of 10000", "[overflow]"}},
      {"analyze --tenet-stmt " + quoted(e + "mttkrp_huge_bound.s") + " --tenet-pe " +
           quoted(std::string(TENET_TEST_DATA_DIR) + "/io/tenet/pe_array/systolic.p") +
           " --tenet-map " + quoted(e + "mttkrp_os.m"),
       {"coefficients exceed 2^62", "budget of 10000", "[overflow]"}},
  };
  for (const CliCase& c : cases) {
    INFO(c.args);
    const tenet::test::CliRun r = tenet::test::run_cli(c.args, TENET_SOURCE_DIR);
    INFO(r.out);
    CHECK(r.exit_code == 2);
    for (const std::string& m : c.mentions) CHECK(r.out.find(m) != std::string::npos);
  }
}

TEST_CASE("CLI: a log row with K = 3037000500 is evaluated", "[errors][hostile][cli]") {
  const std::string path = std::string(TENET_BINARY_DIR) + "/hostile_k_3037000500.jsonl";
  std::ofstream(path) << R"({"kernel":"NT_matmul","M":1,"N":64,"K":3037000500})"
                      << "\n";
  const tenet::test::CliRun r = tenet::test::run_cli("log --input " + quoted(path));
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("no instance") == std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("CLI: a JSON Lines log with a plain-text line is refused at that line",
          "[errors][hostile][cli]") {
  const std::string path = std::string(TENET_BINARY_DIR) + "/hostile_mixed.jsonl";
  std::ofstream(path) << R"({"kernel":"NT_matmul","M":1,"N":64,"K":64})"
                      << "\nfused_NT_matmul: 1, 37, 1024, 1024\n"
                      << R"({"kernel":"NT_matmul","M":2,"N":64,"K":64})"
                      << "\n";
  const tenet::test::CliRun strict =
      tenet::test::run_cli("log --shapes-only --log-format jsonl --input " + quoted(path));
  INFO(strict.out);
  CHECK(strict.exit_code == 2);
  CHECK(strict.out.find("hostile_mixed.jsonl: line 2") != std::string::npos);
  CHECK(strict.out.find("[parse]") != std::string::npos);
  // The same file read per line (auto) is a valid mixed log: three calls.
  const tenet::test::CliRun mixed =
      tenet::test::run_cli("log --shapes-only --format json --input " + quoted(path));
  CHECK(mixed.exit_code == 0);
  std::remove(path.c_str());
}

TEST_CASE("CLI: TENET-timing quantization counts beyond 64 bits are exact decimal strings",
          "[errors][hostile][cli]") {
  // Issue 22: this was an internal error ("count ... does not fit 64 bits", exit 3).
  const tenet::test::CliRun r = tenet::test::run_cli(
      "analyze --gemm 4294967296,4294967296,3037000500 --arch systolic-8x8 --dataflow is "
      "--quant q4f16_1 --dequant-rate 16 --timing tenet --format json");
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  // Each weight (K x N) is dequantized once: N * K elements, beyond 2^63.
  const tenet::poly::Integer n("4294967296"), k("3037000500");
  const tenet::poly::Integer elements = n * k;
  REQUIRE(j["dequant"]["elements"].is_string());
  CHECK(j["dequant"]["elements"].get<std::string>() == elements.get_str());
  CHECK(j["tensors"]["B"]["elements"].get<std::string>() == elements.get_str());
}
