// Runs the built `tenet` binary (TENET_CLI_PATH) with arguments and captures its combined
// stdout/stderr and exit code; shared by the end-to-end CLI tests.
#pragma once

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

namespace tenet::test {

struct CliRun {
  int exit_code = -1;
  std::string out;  // stdout and stderr
};

inline std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// `workdir` empty: the test's working directory.
inline CliRun run_cli(const std::string& args, const std::string& workdir = "") {
  std::string command = shell_quoted(TENET_CLI_PATH) + " " + args + " 2>&1";
  if (!workdir.empty()) command = "cd " + shell_quoted(workdir) + " && " + command;
  CliRun r;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace tenet::test
