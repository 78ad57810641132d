// Runs the built `tenet` binary (TENET_CLI_PATH, or $TENET_CLI when set: CI's sanitized run points
// it at the ASan + UBSan build of the CLI, scripts/ci-reliability.sh) with arguments and captures
// its combined stdout/stderr and exit code; shared by the end-to-end CLI tests. A sanitizer report
// in the output fails the test.
#pragma once

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

namespace tenet::test {

struct CliRun {
  int exit_code = -1;
  std::string out;  // stdout and stderr
};

// The binary the CLI tests run.
inline std::string cli_path() {
  const char* env = std::getenv("TENET_CLI");
  return env && *env ? std::string(env) : std::string(TENET_CLI_PATH);
}

// Whether the CLI under test runs under AddressSanitizer: this test build is sanitized, or
// $TENET_CLI_SANITIZED is 1 (CI's reliability run, whose sanitized CLI the Release tests run).
// ASan's quarantine keeps freed memory (up to 256 MiB), so peak-RSS checks do not hold there.
inline bool cli_sanitized() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#endif
#endif
  const char* env = std::getenv("TENET_CLI_SANITIZED");
  return env && std::string(env) == "1";
}

// Fails the test on a sanitizer report (the sanitized CLI of CI's reliability run).
inline void require_no_sanitizer_report(const std::string& out) {
  for (const char* report :
       {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "SUMMARY: UndefinedBehaviorSanitizer"}) {
    INFO(out);
    REQUIRE(out.find(report) == std::string::npos);
  }
}

inline std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A shell command's standard output and exit code (-1: it did not exit normally).
inline CliRun run_shell(const std::string& command) {
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

// `workdir` empty: the test's working directory.
inline CliRun run_cli(const std::string& args, const std::string& workdir = "") {
  std::string command = shell_quoted(cli_path()) + " " + args + " 2>&1";
  if (!workdir.empty()) command = "cd " + shell_quoted(workdir) + " && " + command;
  CliRun r = run_shell(command);
  require_no_sanitizer_report(r.out);
  return r;
}

// `tenet ARGS --format json`, which must exit 0: its JSON.
inline nlohmann::json run_json(const std::string& args) {
  const CliRun r = run_cli(args + " --format json");
  INFO(args << "\n" << r.out);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace tenet::test
