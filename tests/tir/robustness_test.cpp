// The reader and the recognition on cut and mutated TVMScript: an InputError or a result, never
// another exception or a crash.
#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <sstream>

#include "tenet/error.hpp"
#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"
#include "tir/relation.hpp"

using namespace tenet;

namespace {

std::string read(const std::string& name) {
  std::ifstream in(std::string(TENET_TEST_DATA_DIR) + "/tir/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Everything a command does with a file; returns whether it ended in an InputError.
bool exercise(const std::string& text) {
  try {
    const tir::Module m = tir::parse_module(text, "mutated.py");
    const tir::Recognition r = tir::find_matmuls(m);
    for (const tir::MatmulKernel& k : r.kernels) {
      tir::SymbolValues values;
      for (const std::string& s : k.symbols) values[s] = 3;
      const tir::BoundKernel b = tir::bind(k, values);
      if (b.shape.m * b.shape.n * b.shape.k <= 4096) tir::kernel_workload(m, b);
    }
    return false;
  } catch (const InputError&) {
    return true;
  }
}

}  // namespace

TEST_CASE("tir robustness: cut and mutated fixtures never crash", "[tir]") {
  const char* const files[] = {"gpt2_phase3.py",     "variants.py",      "quant.py",
                               "attention.py",       "dlight_gemv.py",   "tensorized.py",
                               "quant_spellings.py", "moe.py",           "legacy_2021.py",
                               "bitblas.py",         "moe_scheduled.py", "undeclared_sizes.py",
                               "zero_points.py"};
  const std::string noise[] = {"(",  ")",  "[", "]", ":", "\n", "    ",   "T.",
                               "//", "\"", "#", ",", "=", "0",  "T.foo(", "@"};
  std::mt19937 rng(2026);
  int errors = 0, runs = 0;
  for (const char* file : files) {
    const std::string text = read(file);
    REQUIRE_FALSE(text.empty());
    INFO(file);
    for (std::size_t cut = 0; cut < text.size(); cut += 1 + text.size() / 60) {
      errors += exercise(text.substr(0, cut));
      ++runs;
    }
    for (int i = 0; i < 150; ++i) {
      std::string t = text;
      const std::size_t at = rng() % t.size();
      switch (rng() % 3) {
        case 0:
          t.erase(at, 1 + rng() % 8);
          break;
        case 1:
          t.insert(at, noise[rng() % (sizeof noise / sizeof noise[0])]);
          break;
        default:
          t[at] = static_cast<char>(32 + rng() % 95);
          break;
      }
      errors += exercise(t);
      ++runs;
    }
  }
  CHECK(runs > 900);
  CHECK(errors > 0);  // the mutations do reach the error paths
}

TEST_CASE("tir robustness: deep nesting is an error, not a stack overflow", "[tir]") {
  const std::string deep =
      "x = " + std::string(100000, '(') + "1" + std::string(100000, ')') + "\n";
  const tir::Module parens = tir::parse_module("@T.prim_func\ndef f():\n    " + deep, "deep.py");
  REQUIRE(parens.skipped.size() == 1);
  CHECK(parens.skipped[0].line == 3);
  const tir::Module huge = tir::parse_module(
      "@T.prim_func\ndef f():\n    x = 1e999 + 99999999999999999999\n", "huge.py");
  REQUIRE(huge.skipped.size() == 1);
  CHECK(huge.skipped[0].reason == "number 1e999 is out of range");
  // Outside a function (a decorator), the same is an error of the file.
  CHECK_THROWS_AS(tir::parse_module("@" + deep.substr(4), "deep.py"), InputError);
  const tir::Module m =
      tir::parse_module("@T.prim_func\ndef f(A: T.Buffer((4,), \"float16\")):\n    T.evaluate(" +
                            std::string(5000, '-') + "1)\n",
                        "deep.py");
  REQUIRE(m.skipped.size() == 1);
  CHECK(m.skipped[0].reason == "statements or expressions nested deeper than 256 levels");
}
