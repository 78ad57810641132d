// Helpers of the error tests: fixture paths, catching InputError, running the built CLI.
#pragma once

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "cli_run.hpp"
#include "input_error_of.hpp"
#include "tenet/error.hpp"

namespace error_test {

inline std::string fixture(const std::string& name) {
  return std::string(TENET_TEST_DATA_DIR) + "/errors/" + name;
}

using tenet::test::error_of;

struct CliResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `tenet <arguments>` (arguments already quoted where needed).
inline CliResult run_cli(const std::string& arguments) {
  const tenet::test::CliRun run = tenet::test::run_cli(arguments);
  return {run.exit_code, run.out};
}

}  // namespace error_test
