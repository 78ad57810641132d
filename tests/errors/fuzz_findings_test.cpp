// Regression cases of inputs found by the fuzz targets (fuzz/, docs/reliability.md): each gave an
// internal error (exit 3) or a crash before its fix; now a clear InputError (exit 2).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "errors/error_test_util.hpp"
#include "poly/parse.hpp"
#include "tenet/poly/count.hpp"

using namespace error_test;

TEST_CASE("fuzz finding: a directory given as a model config is an io error, not exit 3",
          "[errors][cli][fuzz]") {
  // fuzz_cli: `model --model workloads/models/<NUL>…` reached the reader as the directory
  // "workloads/models/"; the stream's read failure escaped as std::ios_base::failure.
  const std::string dir = quoted(std::string(TENET_SOURCE_DIR) + "/workloads/models/");
  for (const std::string args : {"model --model " + dir + " --phase decode --context 8",
                                 "search --model " + dir + " --phase decode --context 8"}) {
    INFO(args);
    const CliResult r = run_cli(args);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("workloads/models/: expected a file, got a directory [io]") !=
          std::string::npos);
  }
}

TEST_CASE("a directory given as a sweep table is an io error, not an empty table",
          "[errors][cli][fuzz]") {
  // Found next to the finding above: `tenet merge DIR.csv` merged "0 rows" from a directory.
  const std::string dir = std::string(TENET_BINARY_DIR) + "/fuzz_findings_dir.csv";
  REQUIRE(std::system(("mkdir -p " + quoted(dir)).c_str()) == 0);
  const CliResult r = run_cli("merge " + quoted(dir) + " --out " +
                              quoted(std::string(TENET_BINARY_DIR) + "/fuzz_findings_merged.csv"));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("fuzz_findings_dir.csv: expected a file, got a directory [io]") !=
        std::string::npos);
}

TEST_CASE("fuzz finding: isl's PolyLib matrix notation is refused before isl allocates",
          "[errors][cli][fuzz]") {
  // fuzz_tenet_p / fuzz_tenet_s (the 1-hour campaign): a line "1024 999999000003289" is a PolyLib
  // matrix header to isl, which allocated 1024 x 999999000003289 entries (ASan: allocation size
  // too big; without ASan isl's allocation failure). Only isl's own notation is read now.
  const std::string data = std::string(TENET_SOURCE_DIR) + "/tests/data/errors/";
  for (const auto& [args, where] :
       {std::pair<std::string, std::string>{
            "analyze --tenet-stmt " + data + "small_gemm.s --tenet-pe " + data +
                "fuzz_polylib_matrix.p --tenet-map " + data + "small_os.m",
            "fuzz_polylib_matrix.p: line 2"},
        {"analyze --tenet-stmt " + data + "fuzz_polylib_matrix.s --tenet-pe " + data +
             "small.p --tenet-map " + data + "small_os.m",
         "fuzz_polylib_matrix.s: line 2"}}) {
    INFO(args);
    const CliResult r = run_cli(args);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find(where) != std::string::npos);
    CHECK(r.output.find("isl's notation") != std::string::npos);
    CHECK(r.output.find("[isl-syntax]") != std::string::npos);
  }
}

TEST_CASE("fuzz finding: a power GMP cannot hold is an overflow error, not an abort",
          "[errors][cli][fuzz]") {
  // fuzz_isl in CI (two of three fresh-clone runs): isl evaluates "B^E" while reading, with GMP,
  // and GMP aborts on 2^9223372036854775807 ("gmp: overflow in mpz type", exit 134). The isl text
  // is checked before isl reads it now (src/poly/text_check.hpp): the fuzz target's three reads.
  const std::string text = "{S[i,j,k]: 0<=i<2^9223372036854775807 and 0<=j<4 and 0<=k<4}";
  const tenet::poly::Origin origin{"isl.txt", "/domain"};
  for (const auto& read :
       {+[](const std::string&t, const tenet::poly::Origin&o) { tenet::poly::parse_set(t, o); },
        +[](const std::string&t, const tenet::poly::Origin&o) { tenet::poly::parse_map(t, o); },
        +[](const std::string&t, const tenet::poly::Origin&o) {
          tenet::poly::parse_union_map(t, o);
        }}) {
    const tenet::InputError e = error_of([&] { read(text, origin); });
    CHECK(e.code() == tenet::error_code::kOverflow);
    CHECK(e.where() == "/domain");
    CHECK(e.message().find("got 2^9223372036854775807") != std::string::npos);
  }
  // The CLI on the same text in a TENET statement file (the reproducer).
  const std::string data = std::string(TENET_SOURCE_DIR) + "/tests/data/errors/";
  const CliResult r =
      run_cli("analyze --tenet-stmt " + quoted(data + "power_domain.s") + " --tenet-pe " +
              quoted(data + "small.p") + " --tenet-map " + quoted(data + "small_os.m"));
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("power_domain.s: line 2: expected powers up to 2^63 - 1") !=
        std::string::npos);
}

TEST_CASE("fuzz finding: a map whose slices cannot be interpolated stops at the slice budget",
          "[errors][fuzz]") {
  // fuzz_isl, the 1-hour run after the isl text limits: the exact counter enumerated 660,958
  // slices of this map one by one (1 s in Release, over the 10 s limit under the sanitizers).
  // Past CountOptions::max_slices the piece goes to isl's enumeration, whose budget it exceeds.
  const std::string text =
      "{SratS[i,j,k]->T[floor(i/2)-floor(j/5),i%1+j%2+k][i,j,k:j,l]:1<=i<24 and 0<=j<<=k<l*2590and "
      "1<=i<l<256}";
  const tenet::InputError e = error_of([&] {
    tenet::poly::count(tenet::poly::parse_map(text, {"isl.txt", "/domain"}));
  });
  CHECK(e.code() == tenet::error_code::kRange);
  CHECK(e.message().find("CountOptions::max_slices") != std::string::npos);
}
