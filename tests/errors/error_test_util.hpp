// Helpers of the error tests: fixture paths, catching InputError, running the built CLI.
#pragma once

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "tenet/error.hpp"

namespace error_test {

inline std::string fixture(const std::string& name) {
  return std::string(TENET_TEST_DATA_DIR) + "/errors/" + name;
}

template <typename F>
tenet::InputError error_of(F&& f) {
  try {
    f();
  } catch (const tenet::InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  throw std::logic_error("unreachable");
}

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
  const std::string command = quoted(TENET_CLI_PATH) + " " + arguments + " 2>&1";
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace error_test
