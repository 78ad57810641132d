// Cost of one logged kernel call: tenet_hook's tenet_log_matmul (one write() of a formatted
// JSON line on an O_APPEND descriptor) vs the seed's system("echo ... >> file") (a shell per call).
//
//   bench_hook                     # both, with 1 and 2 threads for the hook
// The log files go to /tmp and are removed at the end.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "tenet/hook/tenet_hook.h"

namespace {

const char* kKernel = "fused_fused_dequantize1_fused_NT_matmul6_add7_add8";
std::string g_hook_log = "/tmp/tenet_bench_hook_" + std::to_string(getpid()) + ".jsonl";
std::string g_system_log = "/tmp/tenet_bench_system_" + std::to_string(getpid()) + ".txt";

void BM_tenet_log_matmul(benchmark::State& state) {
  if (state.thread_index() == 0) setenv("TENET_LOG", g_hook_log.c_str(), 1);
  std::int64_t m = 1;
  for (auto _ : state) {
    if (tenet_log_matmul(kKernel, 1, m, 1024, 1024) != TENET_HOOK_OK) {
      state.SkipWithError("tenet_log_matmul failed");
      break;
    }
    m = m % 2048 + 1;
  }
  state.SetItemsProcessed(state.iterations());
}
// The first call of the process opens the file; a warm-up keeps it out of the timing.
BENCHMARK(BM_tenet_log_matmul)
    ->Iterations(200000)
    ->Threads(1)
    ->Threads(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

void BM_system_echo(benchmark::State& state) {
  const std::string command =
      std::string("echo \"") + kKernel + ": 1, 37, 1024, 1024\" >> " + g_system_log;
  for (auto _ : state) {
    if (std::system(command.c_str()) != 0) {
      state.SkipWithError("system() failed");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_system_echo)->Iterations(300)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  setenv("TENET_LOG", g_hook_log.c_str(), 1);
  tenet_log_matmul(kKernel, 1, 1, 1024, 1024);  // warm-up: opens the log
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  unlink(g_hook_log.c_str());
  unlink(g_system_log.c_str());
  return 0;
}
