// Workload log, the seed's text format (docs/logs.md).
#include "log_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tenet::fuzz::run_log(data, size, tenet::input::LogFormat::kText, "run.txt");
  return 0;
}
