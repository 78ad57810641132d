// Faults around outputs and big inputs (issue 15, docs/reliability.md): two sweeps writing the
// same --out, an output location that cannot be written or runs full, and a large garbage log.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "cli_run.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_output_faults_test {

namespace fs = std::filesystem;
using tenet::test::run_cli;
using tenet::test::shell_quoted;

namespace {

// A fresh directory under the build tree, removed when the test ends.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) {
    path = fs::path(TENET_BINARY_DIR) / "output_faults" / name;
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// 240 GEMM points on a small array: a second or less, a few tens of kB of rows.
std::string write_spec(const TempDir& dir) {
  const std::string path = dir / "sweep.json";
  std::ofstream(path) << R"({"architectures": {"presets": ["systolic-8x8"]},
    "dataflows": ["os", "ws", "is"], "tilings": ["auto"],
    "workloads": [{"gemm": {"m": {"from": 1, "to": 80, "step": 1}, "n": 24, "k": 40},
                   "name": "g"}]})";
  return path;
}

std::string sweep(const std::string& spec, const std::string& out, const std::string& extra = "") {
  return "sweep --spec " + shell_quoted(spec) + " --out " + shell_quoted(out) +
         " --progress none " + extra;
}

}  // namespace

TEST_CASE("output faults: a sweep refuses an --out another process is writing", "[cli][faults]") {
  TempDir dir("lock");
  const std::string spec = write_spec(dir), out = dir / "results.csv";
  std::ofstream(out) << "rows of another run\n";
  // Hold the lock as a running sweep does.
  const int fd = ::open(out.c_str(), O_RDWR);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  for (const std::string extra : {"", "--resume"}) {
    const auto r = run_cli(sweep(spec, out, extra));
    INFO(r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find(out) != std::string::npos);
    CHECK(r.out.find("another process") != std::string::npos);
    CHECK(r.out.find("[io]") != std::string::npos);
    CHECK(read_file(out) == "rows of another run\n");  // neither truncated nor appended to
  }
  ::close(fd);
  // Released: the sweep runs.
  const auto r = run_cli(sweep(spec, out));
  INFO(r.out);
  CHECK(r.exit_code == 0);
}

TEST_CASE("output faults: two sweeps started together on one --out never interleave",
          "[cli][faults]") {
  TempDir dir("race");
  const std::string spec = write_spec(dir), out = dir / "results.csv", ref = dir / "ref.csv";
  REQUIRE(run_cli(sweep(spec, ref)).exit_code == 0);
  const std::string cli = shell_quoted(tenet::test::cli_path());
  const std::string one = cli + " " + sweep(spec, out);
  // Both start at once; whichever takes the lock second fails with exit 2 (or runs after the
  // first finished). Either way the file is exactly one run's output.
  const auto r = run_cli("--version && ( " + one + " & " + one + " ; wait )");
  INFO(r.out);
  CHECK(read_file(out) == read_file(ref));
  if (r.out.find("another process") != std::string::npos)
    CHECK(r.out.find("[io]") != std::string::npos);
}

TEST_CASE("output faults: an output that cannot be created is a clear error", "[cli][faults]") {
  TempDir dir("unwritable");
  const std::string spec = write_spec(dir);
  const std::string out = dir / "no-such-dir/results.csv";
  const auto r = run_cli(sweep(spec, out));
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(r.out.find(out) != std::string::npos);
  CHECK(r.out.find("cannot open the output for writing (No such file or directory)") !=
        std::string::npos);
  // A directory given as the output.
  fs::create_directories(dir / "dir.csv");
  const auto e = run_cli(sweep(spec, dir / "dir.csv"));
  INFO(e.out);
  CHECK(e.exit_code == 2);
  CHECK(e.out.find("[io]") != std::string::npos);
}

TEST_CASE("output faults: a full output location fails clearly and --resume loses nothing",
          "[cli][faults]") {
  TempDir dir("full");
  const std::string spec = write_spec(dir), out = dir / "results.csv", ref = dir / "ref.csv";
  REQUIRE(run_cli(sweep(spec, ref)).exit_code == 0);
  const auto full_size = fs::file_size(ref);
  REQUIRE(full_size > 20000);
  // A file size limit of 16 blocks (8 kB under dash, 16 kB under bash): writes past it fail
  // with EFBIG as on a full disk (SIGXFSZ ignored, so the write returns the error).
  const auto r = run_cli("--version && ( ulimit -f 16; trap '' XFSZ; " +
                         shell_quoted(tenet::test::cli_path()) + " " + sweep(spec, out) + " )");
  INFO(r.out);
  CHECK(r.out.find("cannot write the output (File too large)") != std::string::npos);
  CHECK(r.out.find(out) != std::string::npos);
  CHECK(r.out.find("run the sweep again resuming") != std::string::npos);
  const auto partial = fs::file_size(out);
  CHECK(partial > 0);
  CHECK(partial < full_size);
  // Space again: resuming completes the file exactly as an uninterrupted run.
  const auto resumed = run_cli(sweep(spec, out, "--resume"));
  INFO(resumed.out);
  CHECK(resumed.exit_code == 0);
  CHECK(resumed.out.find("already present") != std::string::npos);
  CHECK(read_file(out) == read_file(ref));
}

TEST_CASE("output faults: a large garbage log is read in bounded memory", "[cli][faults][log]") {
  // The log reader holds one line of at most max_line_bytes (1 MiB) and a 64 KiB buffer
  // (io::LogReadOptions), whatever the file's size; 128 MiB shows it as well as 1 GiB would,
  // in a fraction of the time. Three good records, then garbage: short binary lines, long
  // lines, and lines of several MiB without a line break among them.
  TempDir dir("garbage");
  const std::string log = dir / "garbage.jsonl";
  std::int64_t garbage_lines = 0;
  {
    std::ofstream f(log, std::ios::binary);
    f << R"({"record":"header","quantization":"q4f16_1"})"
      << "\n"
      << R"({"kernel":"fused_fused_dequantize_fused_NT_matmul5_add6","batch":1,"M":37,"N":3072,"K":1024})"
      << "\n"
      << R"({"kernel":"fused_NT_matmul","batch":1,"M":37,"N":1024,"K":1024})"
      << "\n"
      << R"({"kernel":"fused_NT_matmul","batch":1,"M":37,"N":1024,"K":1024})"
      << "\n";
    std::mt19937_64 rng(15);
    std::string chunk(1 << 16, '\0');
    const std::int64_t target = std::int64_t{128} << 20;
    std::int64_t written = 0;
    while (written < target) {
      for (char& c : chunk) {
        c = static_cast<char>(rng() & 0xff);
        if (c == '\n') c = '{';
      }
      // 4 KiB lines, except the first 4 MiB of every 16 MiB: one line without a line break.
      const bool long_line = (written >> 16) % 256 < 64;
      std::size_t at = 0;
      while (!long_line && at + 4096 <= chunk.size()) {
        at += 4096;
        chunk[at - 1] = '\n';
        ++garbage_lines;
      }
      f.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
      written += static_cast<std::int64_t>(chunk.size());
    }
    f << "\n";  // ends the last line; the empty line after it is not a record
  }
  const std::string input = "log --input " + shell_quoted(log) + " --arch systolic-16x16";

  // Strict: the first bad line (5, after the header and three calls) is reported, at once.
  const auto strict = run_cli(input);
  INFO(strict.out.substr(0, 2000));
  CHECK(strict.exit_code == 2);
  CHECK(strict.out.find("garbage.jsonl") != std::string::npos);
  CHECK(strict.out.find("line 5") != std::string::npos);

  // Lenient: every garbage line is skipped and counted; memory stays far below the file size.
  const auto lenient = run_cli(input + " --lenient --format json");
  rusage usage{};
  REQUIRE(getrusage(RUSAGE_CHILDREN, &usage) == 0);
  INFO(lenient.out.substr(0, 2000));
  CHECK(lenient.exit_code == 0);
  CHECK(lenient.out.find("skipped " + std::to_string(garbage_lines) + " malformed line(s)") !=
        std::string::npos);
  const long max_rss_mib = usage.ru_maxrss / 1024;  // kilobytes on Linux
  INFO("peak RSS of the tenet process: " << max_rss_mib << " MiB for a 128 MiB log");
  if (!tenet::test::cli_sanitized()) CHECK(max_rss_mib < 64);
}

}  // namespace cli_output_faults_test
