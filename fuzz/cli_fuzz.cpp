// The command line: the input is an argument vector, one argument per line. The CLI's own main()
// (src/cli/main.cpp, compiled here as tenet_cli_main) runs in process; its exit codes are the
// contract: 0 success, 1 bad command line, 2 InputError. Exit 3 (an internal error) is a finding.
// Arguments that would write files (--out, --output) are not tried; the working directory is
// the source tree, so seeds name bundled files by relative path.
#include <fcntl.h>
#include <unistd.h>

#include <vector>

#include "fuzz_common.hpp"

int tenet_cli_main(int argc, char** argv);

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (chdir(TENET_SOURCE_DIR) != 0) tenet::fuzz::finding("cannot enter the source directory");
  const int null = open("/dev/null", O_WRONLY);  // reports and help text are not looked at
  if (null >= 0) dup2(null, STDOUT_FILENO);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"tenet"};
  std::string arg;
  for (std::size_t i = 0; i <= size; ++i) {
    if (i == size || data[i] == '\n') {
      if (arg.rfind("--out", 0) == 0 || arg.rfind("-o", 0) == 0) return 0;
      args.push_back(arg);
      arg.clear();
    } else {
      arg += static_cast<char>(data[i]);
    }
  }
  if (args.size() > 64) return 0;
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int code = tenet_cli_main(static_cast<int>(args.size()), argv.data());
  tenet::fuzz::check(code == 0 || code == 1 || code == 2,
                     "the CLI exited " + std::to_string(code) + " (internal error)");
  return 0;
}
