// Benchmarks of exact counting (tenet::poly::count) on TENET GEMM dataflow sets.
//
//  (a) speed-up over isl_set_count_val at 128^3 (os on 16x16): per set, the isl time per call
//      and, as counters, our time and the ratio;
//  (b) our counting time for the same sets at 4096x11008x4096 and 8192x128000x14336.
// The isl set algebra that builds the sets runs once, outside the timed loops. The memo is
// off (every iteration counts from scratch) except in the *_memo variant.
//
//   bench_count --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "tenet/poly/count.hpp"

#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "../tests/poly/dataflow_sets.hpp"
#include "tenet/poly/context.hpp"

namespace {

struct Shape {
  long m, n, k;
  std::string name() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  }
};

const char* kBenchSets[] = {"D",
                            "Theta(D)",
                            "T_D",
                            "P_D",
                            "access { S[i,j,k] -> A[i,k] }",
                            "access { S[i,j,k] -> B[k,j] }",
                            "access { S[i,j,k] -> C[i,j] }",
                            "A^st { S[i,j,k] -> A[i,k] }",
                            "A^st { S[i,j,k] -> B[k,j] }",
                            "A^st { S[i,j,k] -> C[i,j] }",
                            "unique A",
                            "unique B",
                            "unique C"};

std::string short_name(const std::string& name) {
  if (name.rfind("access", 0) == 0) return "access_" + name.substr(name.find("->") + 3, 1);
  if (name.rfind("A^st", 0) == 0) return "Ast_" + name.substr(name.find("->") + 3, 1);
  std::string s = name;
  for (char& c : s)
    if (c == ' ' || c == '(' || c == ')') c = '_';
  return s;
}

// The benchmark sets of one shape (os on 16x16), built once.
const std::vector<tenet_test::NamedSet>& sets_for(const Shape& shape) {
  static std::map<std::string, std::vector<tenet_test::NamedSet>> cache;
  auto it = cache.find(shape.name());
  if (it != cache.end()) return it->second;
  std::vector<tenet_test::NamedSet> chosen;
  for (const auto& s : tenet_test::gemm_dataflow_sets(tenet::poly::thread_context().get(), "os",
                                                      shape.m, shape.n, shape.k, 16, 16))
    for (const char* want : kBenchSets)
      if (s.name == want) chosen.push_back(s);
  return cache.emplace(shape.name(), std::move(chosen)).first->second;
}

tenet::poly::CountOptions no_memo() {
  tenet::poly::CountOptions o;
  o.memoize = false;
  return o;
}

// CPU time of the calling thread, in seconds (robust against other load on the machine).
double thread_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Median CPU time of our count (memo off).
double seconds_of_count(const isl::set& set, int reps) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const double a = thread_seconds();
    benchmark::DoNotOptimize(tenet::poly::count(set, no_memo()));
    t.push_back(thread_seconds() - a);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// (a) isl's enumeration per call; counters: our median CPU time and the CPU-time speed-up.
void bench_isl_vs_ours(benchmark::State& state, Shape shape, std::size_t index) {
  const isl::set& set = sets_for(shape)[index].set;
  double isl_total = 0;
  long calls = 0;
  for (auto _ : state) {
    const double a = thread_seconds();
    benchmark::DoNotOptimize(tenet::poly::count_by_enumeration(set));
    isl_total += thread_seconds() - a;
    ++calls;
  }
  const double ours = seconds_of_count(set, 21);
  state.counters["ours_us"] = ours * 1e6;
  state.counters["speedup"] = isl_total / calls / ours;
  if (tenet::poly::count(set) != tenet::poly::count_by_enumeration(set))
    state.SkipWithError("count mismatch");
}

// (b) our count of one set.
void bench_ours(benchmark::State& state, Shape shape, std::size_t index) {
  const isl::set& set = sets_for(shape)[index].set;
  for (auto _ : state) benchmark::DoNotOptimize(tenet::poly::count(set, no_memo()));
}

// All benchmark sets of a shape in one go (optionally with the memo warm).
void bench_all(benchmark::State& state, Shape shape, bool memo) {
  const auto& sets = sets_for(shape);
  const tenet::poly::CountOptions options = memo ? tenet::poly::CountOptions{} : no_memo();
  tenet::poly::CountReport report;
  for (const auto& s : sets) tenet::poly::count(s.set, options, &report);
  for (auto _ : state)
    for (const auto& s : sets) benchmark::DoNotOptimize(tenet::poly::count(s.set, options));
  state.counters["sets"] = static_cast<double>(sets.size());
  state.counters["pieces"] = static_cast<double>(report.basic_sets);
  state.counters["slices"] = static_cast<double>(report.slices);
}

void register_all() {
  const Shape small{128, 128, 128};
  for (std::size_t i = 0; i < sets_for(small).size(); ++i)
    benchmark::RegisterBenchmark(
        ("isl_vs_ours/128^3/" + short_name(sets_for(small)[i].name)).c_str(), bench_isl_vs_ours,
        small, i)
        ->Unit(benchmark::kMillisecond);
  for (const Shape& big : {Shape{4096, 11008, 4096}, Shape{8192, 128000, 14336}}) {
    for (std::size_t i = 0; i < sets_for(big).size(); ++i)
      benchmark::RegisterBenchmark(
          ("ours/" + big.name() + "/" + short_name(sets_for(big)[i].name)).c_str(), bench_ours, big,
          i)
          ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("ours_all_sets/" + big.name()).c_str(), bench_all, big, false)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("ours_all_sets_memo/" + big.name()).c_str(), bench_all, big, true)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("ours_all_sets/128^3", bench_all, small, false)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
