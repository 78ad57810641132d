// tenet_hook, loaded as shipped (dlopen of the shared library): errors, JSON escaping, and
// many threads in many processes appending at once without torn or lost lines.
//
// Every call of the hook happens in a forked child: the library opens $TENET_LOG once per
// process, so each case needs a fresh process (as a real model run has).
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tenet/hook/tenet_hook.h"
#include "tenet/input/workload_log.hpp"

namespace {

using LogFn = int (*)(const char*, int64_t, int64_t, int64_t, int64_t);
using LogExFn = int (*)(const char*, int64_t, int64_t, int64_t, int64_t, const char*, int64_t);
using HeaderFn = int (*)(const char*, const char*);

struct Hook {
  LogFn log = nullptr;
  LogExFn log_ex = nullptr;
  HeaderFn header = nullptr;
};

const Hook& hook() {
  static const Hook h = [] {
    void* lib = dlopen(TENET_HOOK_PATH, RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) FAIL("dlopen " << TENET_HOOK_PATH << ": " << dlerror());
    Hook loaded;
    loaded.log = reinterpret_cast<LogFn>(dlsym(lib, "tenet_log_matmul"));
    loaded.log_ex = reinterpret_cast<LogExFn>(dlsym(lib, "tenet_log_matmul_ex"));
    loaded.header = reinterpret_cast<HeaderFn>(dlsym(lib, "tenet_log_header"));
    if (loaded.log == nullptr || loaded.log_ex == nullptr || loaded.header == nullptr)
      FAIL("missing symbols in the hook");
    return loaded;
  }();
  return h;
}

// A fresh path in /tmp, removed when the object goes away.
struct TempLog {
  std::string path;
  TempLog() {
    char name[] = "/tmp/tenet_hook_test_XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    unlink(name);
    path = std::string(name) + ".jsonl";
  }
  ~TempLog() { unlink(path.c_str()); }
  std::vector<std::string> lines() const {
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }
};

// Runs `body` in a forked child and returns its exit status (the body's return value).
pid_t spawn(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  return pid;
}

int wait_status(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

int run_in_child(const std::function<int()>& body) { return wait_status(spawn(body)); }

// Each of `threads` threads logs `calls` records: kernel "k<proc>_<thread>", M = call + 1,
// N = 1000 + thread, K = 2000 + proc. Returns the number of failed calls (0 expected).
int log_from_threads(int proc, int threads, int calls) {
  std::vector<std::thread> pool;
  std::vector<int> failures(threads, 0);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([=, &failures] {
      const std::string kernel = "k" + std::to_string(proc) + "_" + std::to_string(t);
      for (int i = 0; i < calls; ++i) {
        if (hook().log(kernel.c_str(), 1, i + 1, 1000 + t, 2000 + proc) != TENET_HOOK_OK)
          ++failures[t];
      }
    });
  }
  for (auto& th : pool) th.join();
  int total = 0;
  for (int f : failures) total += f;
  return total;
}

// Every line is a complete JSON record with exactly the five hook fields, and every
// (proc, thread, call) appears exactly once.
void check_records(const std::vector<std::string>& lines, int procs, int threads, int calls) {
  std::vector<std::vector<char>> seen(static_cast<std::size_t>(procs * threads),
                                      std::vector<char>(static_cast<std::size_t>(calls), 0));
  std::size_t bad = 0, duplicates = 0;
  for (const std::string& line : lines) {
    const auto doc = nlohmann::json::parse(line, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || doc.size() != 5) {
      ++bad;
      continue;
    }
    const int p = doc.at("K").get<int>() - 2000, t = doc.at("N").get<int>() - 1000;
    const int i = doc.at("M").get<int>() - 1;
    const bool in_range = p >= 0 && p < procs && t >= 0 && t < threads && i >= 0 && i < calls;
    if (!in_range || doc.at("batch") != 1 ||
        doc.at("kernel") != "k" + std::to_string(p) + "_" + std::to_string(t)) {
      ++bad;
      continue;
    }
    char& mark = seen[static_cast<std::size_t>(p * threads + t)][static_cast<std::size_t>(i)];
    duplicates += mark;
    mark = 1;
  }
  std::size_t missing = 0;
  for (const auto& row : seen)
    for (char mark : row) missing += !mark;
  CHECK(bad == 0);
  CHECK(duplicates == 0);
  CHECK(missing == 0);
}

}  // namespace

TEST_CASE("hook: 8 threads x 10,000 calls in each of 3 processes give 240,000 whole lines",
          "[hook]") {
  constexpr int kProcs = 3, kThreads = 8, kCalls = 10000;
  hook();
  TempLog log;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcs; ++p) {
    children.push_back(spawn([&, p] {
      setenv("TENET_LOG", log.path.c_str(), 1);
      return log_from_threads(p, kThreads, kCalls) == 0 ? 0 : 1;
    }));
  }
  for (pid_t c : children) CHECK(wait_status(c) == 0);
  const auto lines = log.lines();
  CHECK(lines.size() == static_cast<std::size_t>(kProcs * kThreads * kCalls));
  check_records(lines, kProcs, kThreads, kCalls);
}

TEST_CASE("hook: children forked after the first call share the open log", "[hook]") {
  constexpr int kThreads = 4, kCalls = 2000;
  hook();
  TempLog log;
  const int status = run_in_child([&] {
    setenv("TENET_LOG", log.path.c_str(), 1);
    if (hook().log("k2_0", 1, 1, 1000, 2002) != TENET_HOOK_OK) return 1;  // opens the file
    const pid_t a = spawn([] { return log_from_threads(0, kThreads, kCalls); });
    const pid_t b = spawn([] { return log_from_threads(1, kThreads, kCalls); });
    int failed = 0;
    for (int i = 1; i < kCalls; ++i) failed += hook().log("k2_0", 1, i + 1, 1000, 2002) != 0;
    return (failed == 0 && wait_status(a) == 0 && wait_status(b) == 0) ? 0 : 1;
  });
  CHECK(status == 0);
  const auto lines = log.lines();
  CHECK(lines.size() == static_cast<std::size_t>(2 * kThreads * kCalls + kCalls));
  // process 2 wrote only thread 0; count it with the same checker on a 3-process grid.
  std::vector<std::string> two_procs, third;
  for (const auto& line : lines)
    (line.find("\"K\":2002") != std::string::npos ? third : two_procs).push_back(line);
  check_records(two_procs, 2, kThreads, kCalls);
  CHECK(third.size() == static_cast<std::size_t>(kCalls));
}

TEST_CASE("hook: errors are return codes, never crashes", "[hook]") {
  hook();
  TempLog log;
  const int status = run_in_child([&] {
    int failures = 0;
    unsetenv("TENET_LOG");
    failures += hook().log("NT_matmul", 1, 1, 1, 1) != TENET_HOOK_ERR_UNSET;
    setenv("TENET_LOG", "", 1);
    failures += hook().log("NT_matmul", 1, 1, 1, 1) != TENET_HOOK_ERR_UNSET;
    setenv("TENET_LOG", "/nonexistent-dir/x/run.jsonl", 1);
    failures += hook().log("NT_matmul", 1, 1, 1, 1) != TENET_HOOK_ERR_OPEN;
    setenv("TENET_LOG", log.path.c_str(), 1);
    failures += hook().log(nullptr, 1, 1, 1, 1) != TENET_HOOK_ERR_ARG;
    failures += hook().log("", 1, 1, 1, 1) != TENET_HOOK_ERR_ARG;
    failures += hook().log("NT_matmul", 1, 0, 1, 1) != TENET_HOOK_ERR_ARG;
    failures += hook().log("NT_matmul", -1, 1, 1, 1) != TENET_HOOK_ERR_ARG;
    failures += hook().log_ex("NT_matmul", 1, 1, 1, 1, "train", 1) != TENET_HOOK_ERR_ARG;
    failures += hook().log_ex("NT_matmul", 1, 1, 1, 1, nullptr, 0) != TENET_HOOK_ERR_ARG;
    const std::string long_name(TENET_HOOK_MAX_LINE, 'a');
    failures += hook().log(long_name.c_str(), 1, 1, 1, 1) != TENET_HOOK_ERR_TOO_LONG;
    failures += hook().log("NT_matmul", 1, 2, 3, 4) != TENET_HOOK_OK;  // the only line written
    return failures;
  });
  CHECK(status == 0);
  CHECK(log.lines() ==
        std::vector<std::string>{R"({"kernel":"NT_matmul","batch":1,"M":2,"N":3,"K":4})"});
}

TEST_CASE("hook: kernel names are escaped into valid JSON, the reader takes the lines", "[hook]") {
  hook();
  TempLog log;
  const std::vector<std::string> names = {
      "fused_fused_dequantize1_fused_NT_matmul6_add7_add8",
      "quote\"NT_matmul",
      "back\\slash_matmul",
      "new\nline\ttab\x01_matmul",
      "caf\xC3\xA9_matmul",  // valid UTF-8 passes through
      "bad\xFF\xC3_matmul",  // invalid bytes become U+FFFD
  };
  const int status = run_in_child([&] {
    setenv("TENET_LOG", log.path.c_str(), 1);
    int failures = 0;
    for (const auto& n : names) failures += hook().log(n.c_str(), 1, 37, 1024, 1024) != 0;
    failures += hook().log_ex("fused_NT_matmul", 2, 1, 4096, 4096, "decode", 3) != 0;
    return failures;
  });
  REQUIRE(status == 0);
  const auto lines = log.lines();
  REQUIRE(lines.size() == names.size() + 1);
  CHECK(
      lines[0] ==
      R"({"kernel":"fused_fused_dequantize1_fused_NT_matmul6_add7_add8","batch":1,"M":37,"N":1024,"K":1024})");
  CHECK(lines[1] == R"({"kernel":"quote\"NT_matmul","batch":1,"M":37,"N":1024,"K":1024})");
  CHECK(lines[3].find(R"("new\nline\ttab\u0001_matmul")") != std::string::npos);
  const std::vector<std::string> decoded = {
      names[0], names[1], names[2], names[3], names[4], "bad\xEF\xBF\xBD\xEF\xBF\xBD_matmul"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    INFO(lines[i]);
    CHECK(nlohmann::json::parse(lines[i]).at("kernel") == decoded[i]);
    const auto shape =
        tenet::input::parse_log_line(lines[i], tenet::input::LogFormat::kJsonl, "hook", 1);
    CHECK(shape.name == decoded[i]);
  }
  CHECK(
      lines.back() ==
      R"({"kernel":"fused_NT_matmul","batch":2,"M":1,"N":4096,"K":4096,"phase":"decode","count":3})");
  const auto ex =
      tenet::input::parse_log_line(lines.back(), tenet::input::LogFormat::kAuto, "hook", 7);
  CHECK(ex.phase == tenet::llm::Phase::kDecode);
  CHECK(ex.count == 3);
  CHECK(ex.batch == 2);
}

TEST_CASE("hook: the header record, by call or from $TENET_LOG_QUANTIZATION at the open",
          "[hook]") {
  hook();
  TempLog called, from_env;
  const int status = run_in_child([&] {
    int failures = 0;
    setenv("TENET_LOG", called.path.c_str(), 1);
    unsetenv("TENET_LOG_QUANTIZATION");
    failures += hook().header(nullptr, "m") != TENET_HOOK_ERR_ARG;
    failures += hook().header("", nullptr) != TENET_HOOK_ERR_ARG;
    const std::string long_name(TENET_HOOK_MAX_LINE, 'q');
    failures += hook().header(long_name.c_str(), nullptr) != TENET_HOOK_ERR_TOO_LONG;
    failures += hook().header("q4f16_1", "gpt2-medium") != TENET_HOOK_OK;
    failures += hook().header("schemes/my \"w4\".json", nullptr) != TENET_HOOK_OK;
    failures += hook().log("fused_dequantize_NT_matmul", 1, 2, 3, 4) != TENET_HOOK_OK;
    return failures;
  });
  CHECK(status == 0);
  CHECK(called.lines() ==
        std::vector<std::string>{
            R"({"record":"header","quantization":"q4f16_1","model":"gpt2-medium"})",
            R"({"record":"header","quantization":"schemes/my \"w4\".json"})",
            R"({"kernel":"fused_dequantize_NT_matmul","batch":1,"M":2,"N":3,"K":4})"});
  // Two processes each open the log with the variables set: each writes the header first.
  for (int proc = 0; proc < 2; ++proc) {
    CHECK(run_in_child([&] {
            setenv("TENET_LOG", from_env.path.c_str(), 1);
            setenv("TENET_LOG_QUANTIZATION", "q4f16_1", 1);
            setenv("TENET_LOG_MODEL", "gpt2-medium", 1);
            int failures = hook().log("fused_dequantize_NT_matmul", 1, 2, 3, 4) != 0;
            failures += hook().log("fused_dequantize_NT_matmul", 1, 2, 3, 4) != 0;
            return failures;
          }) == 0);
  }
  const std::vector<std::string> lines = from_env.lines();
  const std::string header =
      R"({"record":"header","quantization":"q4f16_1","model":"gpt2-medium"})";
  const std::string call = R"({"kernel":"fused_dequantize_NT_matmul","batch":1,"M":2,"N":3,"K":4})";
  CHECK(lines == std::vector<std::string>{header, call, call, header, call, call});
  // The reader takes the repeated (agreeing) headers as one scheme for the whole log.
  const tenet::input::WorkloadLog read = tenet::input::read_workload_log_file(from_env.path);
  CHECK(read.header_records == 2);
  CHECK(read.quantization == "q4f16_1");
  CHECK(read.model == "gpt2-medium");
  CHECK(read.records == 4);
  CHECK(read.entries.size() == 1);
}
