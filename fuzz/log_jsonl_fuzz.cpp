// Workload log, JSON Lines (docs/logs.md).
#include "log_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  tenet::fuzz::run_log(data, size, tenet::input::LogFormat::kJsonl, "run.jsonl");
  return 0;
}
