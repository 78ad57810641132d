// Issue 35 item 3: every subcommand is one function in src/command that the CLI and Python call.
// The CLI's standard output is the function's result byte for byte (so the CLI only reads options
// and prints), and the functions' errors name the fields the CLI maps to its options.
#include <catch2/catch.hpp>
#include <functional>
#include <string>

#include "cli_run.hpp"
#include "command/analyze.hpp"
#include "command/calibrate.hpp"
#include "command/fields.hpp"
#include "command/llm_commands.hpp"
#include "input_error_of.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/model_config.hpp"

using namespace tenet;

namespace cli_command_functions_test {

// The CLI's standard output alone (its warnings go to stderr).
std::string cli_stdout(const std::string& args) {
  const test::CliRun r =
      test::run_shell(test::shell_quoted(test::cli_path()) + " " + args + " 2>/dev/null");
  REQUIRE(r.exit_code == 0);
  return r.out;
}

using test::error_of;

// A command as the CLI runs it and as a function call with the same arguments.
struct Door {
  const char* cli;
  std::function<std::string()> call;
};

TEST_CASE("the CLI prints what the command functions return", "[cli][command]") {
  const char* gpt2 = "workloads/models/gpt2-medium.json";
  const Door doors[] = {
      {"model --model workloads/models/gpt2-medium.json --phase decode --context 64 --quant "
       "q4f16_1 --format json",
       [&] {
         command::ModelArgs m;
         m.model = gpt2;
         m.pass.phase = "decode";
         m.pass.context = 64;
         m.listing.cost.quant = "q4f16_1";
         m.listing.format = io::ReportFormat::kJson;
         const std::string from_file = command::model(m);
         m.config = llm::load_model_config(gpt2);  // read already, under the same label
         CHECK(command::model(m) == from_file);
         return from_file;
       }},
      {"log --input workloads/logs/gpt2-medium-q4f16_1.jsonl --tokens 17 --merge-shapes",
       [] {
         command::LogArgs l;
         l.input = "workloads/logs/gpt2-medium-q4f16_1.jsonl";
         l.tokens = 17;
         l.listing.merge_shapes = true;
         return command::log(l).text;
       }},
      {"analyze --gemm 100,37,59 --array 16x16 --timing systolic --tile 32x16x16 --loop-order "
       "knm --format json",
       [] {
         command::AnalyzeArgs x;
         x.gemm = {{100, 37, 59}};
         x.settings.array = "16x16", x.settings.timing = "systolic", x.settings.tile = "32x16x16";
         x.loop_order = "knm";
         x.format = io::ReportFormat::kJson;
         return command::analyze(x);
       }},
      {"generate --model workloads/models/gpt2-medium.json --prompt 32 --tokens 4 --format csv",
       [&] {
         command::GenerateArgs g;
         g.request.model = gpt2;
         g.request.options.prompt = 32, g.request.options.tokens = 4;
         g.format = io::ReportFormat::kCsv;
         return command::generate(g);
       }},
      {"tir --input tests/data/tir/gpt2_phase3.py --bind seq_len=37", [] {
         command::TirArgs t;
         t.run.input = "tests/data/tir/gpt2_phase3.py";
         t.run.bind = "seq_len=37";
         return command::tir(t).text;
       }}};
  for (const Door& door : doors) {
    INFO(door.cli);
    CHECK(door.call() == cli_stdout(door.cli));
  }
}

TEST_CASE("the command functions' errors name fields the CLI has options for", "[cli][command]") {
  command::AnalyzeArgs a;
  a.gemm = {{64, 64, 64}};
  a.settings.array = "4x4";
  a.bits.a = 0;  // a value error of the generated spec (/accesses/0/bits) -> bits_a
  CHECK(error_of([&] { command::analyze(a); }).where() == "bits_a");
  a.bits.a = 16;
  a.settings.array.clear();
  a.settings.arch = "scalable-32x32";
  a.loop_order = "knm";  // no explicit tile
  CHECK(error_of([&] { command::analyze(a); }).where() == "loop_order");
  a.loop_order.clear();
  a.analysis.compute_delay = "bogus";
  CHECK(error_of([&] { command::analyze(a); }).where() == "compute_delay");
  a.spec = "workloads/specs/llama2-7b-down-proj-ws16-w4.json";  // two problems
  CHECK(error_of([&] { command::analyze(a); }).code() == error_code::kUsage);

  command::ModelArgs m;  // the defaults: prefill, and no prompt given
  m.model = "workloads/models/gpt2-medium.json";
  CHECK(m.pass.phase == "prefill");
  CHECK(error_of([&] { command::model(m); }).where() == "prompt");

  command::CalibrateArgs c;
  c.measurements = "workloads/calibration/sauria/calibration.csv";
  c.arch = "sauria-int8-8x16";
  c.bits[1] = 65;
  CHECK(error_of([&] { command::calibrate(c); }).where() == "bits_b");

  for (const char* field : {"arch", "tiling_objective", "bits_a", "loop_order", "compute_delay",
                            "hops", "prompt", "link_gbps"})
    CHECK(command::is_field(field));
  for (const char* other : {"", "/rows", "line 2", "gemm.q_proj"})
    CHECK_FALSE(command::is_field(other));
}

}  // namespace cli_command_functions_test
