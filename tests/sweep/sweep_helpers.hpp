// Shared helpers of the sweep tests: a scratch directory, small sweep specs, running the CLI.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_run.hpp"
#include "sweep/sweep_plan.hpp"
#include "sweep/sweep_spec.hpp"

namespace sweep_test {

inline std::string source(const std::string& relative) {
  return std::string(TENET_SOURCE_DIR) + "/" + relative;
}

// A fresh directory under the system temp dir, removed at the end of the test.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name) {
    path_ = std::filesystem::temp_directory_path() /
            ("tenet-sweep-test-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// 5 workloads (4 GEMMs, GPT-2 decode) x 2 schemes x 4 architectures x 3 dataflows = 120 points.
inline nlohmann::json small_spec_json() {
  nlohmann::json j = nlohmann::json::parse(R"({
    "name": "small",
    "architectures": {"presets": ["systolic-8x8"], "array": ["4x4", "8x8"],
                      "global_buffer_bytes": [4096, 65536]},
    "dataflows": ["os", "ws", "is"],
    "quant": ["q0f16", "q4f16_1"],
    "workloads": [
      {"gemm": {"m": [1, 37], "n": 64, "k": [48, 100]}, "name": "g"},
      {"model": "MODEL", "phase": "decode", "context": 16}
    ]
  })");
  j["workloads"][1]["model"] = source("workloads/models/gpt2.json");
  return j;
}

inline tenet::sweep::SweepPlan plan_of(const nlohmann::json& spec) {
  return tenet::sweep::make_sweep_plan(tenet::sweep::parse_sweep_spec(spec, "spec.json"));
}

struct Run {
  int status = -1;
  std::string output;
};

inline Run run_cli(const std::string& args) {
  const tenet::test::CliRun r = tenet::test::run_cli(args);
  return {r.exit_code, r.out};
}

}  // namespace sweep_test
