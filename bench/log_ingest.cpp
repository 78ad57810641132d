// Ingest of a 1,000,000-line workload log (10 distinct calls, text and JSON lines alternating):
// time, lines per second, and the process's peak resident memory before and after, to show that
// memory does not grow with the log (the reader keeps one line and one entry per distinct call).
//
//   bench_log_ingest               # writes the logs to /tmp, removes them at the end
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "tenet/input/workload_log.hpp"

namespace {

long max_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

struct Shape {
  const char* kernel;
  int m, n, k;
};

// GPT-2 medium / Llama-like kernels in prefill and decode (10 distinct calls).
const Shape kShapes[] = {
    {"fused_fused_dequantize_fused_NT_matmul5_add6", 37, 3072, 1024},
    {"fused_fused_dequantize1_fused_NT_matmul6_add7_add8", 37, 1024, 1024},
    {"fused_fused_dequantize2_fused_NT_matmul7_add9_gelu", 37, 4096, 1024},
    {"fused_fused_dequantize3_fused_NT_matmul8_add10_add11", 37, 1024, 4096},
    {"fused_fused_dequantize4_fused_NT_matmul9", 1, 50257, 1024},
    {"fused_fused_dequantize_fused_NT_matmul5_add6", 1, 3072, 1024},
    {"fused_fused_dequantize1_fused_NT_matmul6_add7_add8", 1, 1024, 1024},
    {"fused_fused_dequantize2_fused_NT_matmul7_add9_gelu", 1, 4096, 1024},
    {"fused_fused_dequantize3_fused_NT_matmul8_add10_add11", 1, 1024, 4096},
    {"fused_NT_matmul_add", 512, 11008, 4096},
};

std::string write_log(long lines) {
  const std::string path =
      "/tmp/tenet_bench_log_" + std::to_string(getpid()) + "_" + std::to_string(lines) + ".log";
  std::ofstream out(path);
  for (long i = 0; i < lines; ++i) {
    const Shape& s = kShapes[i % 10];
    if (i % 2 == 0) {
      out << s.kernel << ": 1, " << s.m << ", " << s.n << ", " << s.k << "\n";
    } else {
      out << "{\"kernel\":\"" << s.kernel << "\",\"batch\":1,\"M\":" << s.m << ",\"N\":" << s.n
          << ",\"K\":" << s.k << "}\n";
    }
  }
  return path;
}

void BM_ingest(benchmark::State& state) {
  const long lines = state.range(0);
  const std::string path = write_log(lines);
  const long rss_before = max_rss_kib();
  std::size_t distinct = 0;
  for (auto _ : state) {
    const tenet::input::WorkloadLog log = tenet::input::read_workload_log_file(path);
    if (log.records != lines) state.SkipWithError("wrong record count");
    distinct = log.entries.size();
  }
  state.counters["lines"] = static_cast<double>(lines);
  state.counters["distinct"] = static_cast<double>(distinct);
  state.counters["lines_per_s"] =
      benchmark::Counter(static_cast<double>(lines), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["maxrss_before_kib"] = static_cast<double>(rss_before);
  state.counters["maxrss_after_kib"] = static_cast<double>(max_rss_kib());
  unlink(path.c_str());
}
// The small log first: if memory were proportional to the log, the 1M-line run would raise the
// peak RSS far above the 100k-line run's.
BENCHMARK(BM_ingest)
    ->Arg(100000)
    ->Arg(1000000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
