// The TVMScript reader: syntax variants, and malformed text → a named error or a skip reason
// with its line, never a crash.
#include <catch2/catch.hpp>

#include "input_error_of.hpp"
#include "tenet/error.hpp"
#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"
#include "tir/tir_data.hpp"

using namespace tenet;
using tenet::test::error_of;

namespace {

using tenet_test::tir_data;

// A small matmul PrimFunc whose A index is `a_index` (for error cases).
std::string gemm(const std::string& a_index, const std::string& decorator = "@T.prim_func") {
  return decorator + R"(
def mm(A: T.Buffer((8, 8), "float16"), B: T.Buffer((8, 8), "float16"), C: T.Buffer((8, 8), "float16")):
    for i, j, k in T.grid(8, 8, 8):
        with T.block("mm"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            C[vi, vj] = C[vi, vj] + A[)" +
         a_index + R"(] * B[vj, vk]
)";
}

}  // namespace

TEST_CASE("tir reader: syntax variants", "[tir]") {
  const tir::Module m = tir::read_module(tir_data("variants.py"));
  REQUIRE(m.functions.size() == 6);
  CHECK(m.skipped.empty());

  SECTION("black-formatted signature, handles, symbols declared after their buffers") {
    const tir::PrimFunc& f = *m.find_function("matmul_black");
    CHECK(f.params == std::vector<std::string>{"p_a", "B", "p_c"});
    REQUIRE(f.symbols.size() == 2);
    CHECK(f.symbols[0].name == "n");
    CHECK(f.symbols[1].name == "m");
    const tir::Buffer& a = *f.find_buffer("A");
    CHECK(a.kind == tir::BufferKind::kMatched);
    CHECK(a.dtype == "float32");  // not printed
    CHECK(a.shape.size() == 2);
    const tir::Block& b = f.blocks.at(0);
    CHECK_FALSE(b.reads_given);
    CHECK(b.loops.size() == 3);
    CHECK(b.loops[1].kind == "serial");
    REQUIRE(b.iters.size() == 3);
    CHECK(b.iters[2].kind == 'R');
    CHECK(b.init.has_value());
  }
  SECTION("T.axis.S / T.axis.R over more loops than block variables") {
    const tir::Block& b = m.find_function("matmul_int8_split")->blocks.at(0);
    CHECK(b.loops.size() == 5);
    REQUIRE(b.iters.size() == 3);
    CHECK(tir::to_string(b.iters[1].binding) == "((j0 * T.int32(32)) + j1)");
    CHECK(b.iters[2].kind == 'R');
    CHECK(m.find_function("matmul_int8_split")->symbols.at(0).dtype == "int32");
  }
  SECTION("T.sblock, T.sblock_alloc_buffer and a 0-d buffer") {
    const tir::PrimFunc& f = *m.find_function("gemv_sblock");
    REQUIRE(f.blocks.size() == 2);
    CHECK(f.blocks[0].name == "gemv");
    CHECK(f.find_buffer("C")->dtype == "float32");
    CHECK(f.find_buffer("s")->shape.empty());
    CHECK(tir::to_string(f.blocks[1].stores.at(0).value) == "(C[v_i, v_j] * s[()])");
  }
  SECTION("list-form T.reads and dtype= keywords; T.Buffer[...] parameters") {
    const tir::PrimFunc& f = *m.find_function("matmul_legacy");
    CHECK(f.find_buffer("C")->dtype == "float32");
    CHECK(f.blocks.at(0).reads.size() == 3);
    const tir::PrimFunc& g = *m.find_function("matmul_buffer_subscript");
    CHECK(g.find_buffer("B")->dtype == "float16");
    CHECK(g.find_buffer("B")->kind == tir::BufferKind::kParam);
  }
}

TEST_CASE("tir reader: a single PrimFunc, comments, range(a, b), if and T.where", "[tir]") {
  const std::string text = R"(# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16, 4), "float16"),   # trailing comment
         B: T.Buffer((4, 12), "float16"), C: T.Buffer((16, 12), "float16")):
	# a tab-indented body
	for i in range(0, 16):
		for j, k in T.grid(12, 4):
			with T.block("C"):
				vi, vj, vk = T.axis.remap("SSR", [i, j, k])
				T.where(vi < 16)
				C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)";
  const tir::Module m = tir::parse_module(text, "one.py");
  REQUIRE(m.functions.size() == 1);
  const tir::Block& b = m.functions[0].blocks.at(0);
  CHECK(b.predicated);
  CHECK(tir::to_string(b.loops[0].extent) == "(16 - 0)");
  const tir::Recognition r = tir::find_matmuls(m);
  REQUIRE(r.kernels.size() == 1);
  const tir::BoundKernel k = tir::bind(r.kernels[0], {});
  REQUIRE(r.kernels[0].approximations.size() == 1);
  CHECK_THAT(r.kernels[0].approximations[0], Catch::Contains("line 9: block C is predicated"));
  CHECK(k.shape.m == 16);
  CHECK(k.shape.n == 12);
  CHECK(k.shape.k == 4);
}

TEST_CASE("tir reader: malformed text gives a named error with its line", "[tir]") {
  struct Case {
    const char* what;
    std::string text;
    const char* where;
    const char* says;
  };
  const std::string seed_start =
      "@T.prim_func\ndef f(A: T.Buffer((4, 4), \"float16\")):\n    for i in T.grid(4):\n";
  const std::vector<Case> cases = {
      {"unclosed bracket",
       seed_start + "        with T.block(\"b\"):\n            x = T.Cast(\"float16\", (A[i]\n",
       "line 5", "'(' opened at line 5 is never closed"},
      {"mismatched bracket", "@T.prim_func\ndef f(A: T.Buffer((4, 4], \"float16\")):\n    pass\n",
       "line 2", "']' does not match '(' opened at line 2"},
      {"closing nothing", "x = 1)\n", "line 1", "')' closes nothing"},
      {"unterminated string", "@T.prim_func\ndef f(A: T.Buffer((4,), \"float16)):\n    pass\n",
       "line 2", "string is not closed"},
      {"bad dedent", "class M:\n        x = 1\n    y = 2\n", "line 3",
       "matches no enclosing block"},
      {"bad character", "x = 1 $ 2\n", "line 1", "unexpected character '$'"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const InputError e = error_of([&] { tir::parse_module(c.text, "bad.py"); });
    CHECK(e.code() == error_code::kParse);
    CHECK(e.file() == "bad.py");
    CHECK(e.where() == c.where);
    CHECK_THAT(e.message(), Catch::Contains(c.says));
  }
}

TEST_CASE("tir reader: a file cut short", "[tir]") {
  const std::string full = gemm("vi, vk");
  // Cut inside the last expression: brackets left open.
  const InputError e =
      error_of([&] { tir::parse_module(full.substr(0, full.size() - 8), "cut.py"); });
  CHECK(e.where() == "line 6");
  CHECK_THAT(e.message(), Catch::Contains("never closed"));
  // Cut after a block header: the function is skipped with the line of the missing body.
  const std::string header_only = full.substr(0, full.find("vi, vj, vk"));
  const tir::Module m = tir::parse_module(header_only, "cut.py");
  CHECK(m.functions.empty());
  REQUIRE(m.skipped.size() == 1);
  CHECK(m.skipped[0].func == "mm");
  CHECK(m.skipped[0].line == 5);
  CHECK_THAT(m.skipped[0].reason, Catch::Contains("expected an indented block"));
}

TEST_CASE("tir reader: unsupported constructs skip their function with a line", "[tir]") {
  SECTION("an unknown T. call in an index") {
    const tir::Module m = tir::parse_module(gemm("vi, T.frobnicate(vk)"), "x.py");
    const tir::Recognition r = tir::find_matmuls(m);
    CHECK(r.kernels.empty());
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0] == tir::Skipped{"mm", "unknown call T.frobnicate in an index", 6});
  }
  SECTION("an unknown name in an index") {
    const tir::Recognition r = tir::find_matmuls(tir::parse_module(gemm("vi, vk + q"), "x.py"));
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].reason == "unknown name 'q' in an index or extent");
  }
  SECTION("a store outside a block; the next function is still read") {
    const std::string text =
        "@T.prim_func\ndef w(A: T.Buffer((4,), \"float16\")):\n    A[0] = T.float16(1)\n" +
        gemm("vi, vk");
    const tir::Module m = tir::parse_module(text, "x.py");
    REQUIRE(m.skipped.size() == 1);
    CHECK(m.skipped[0] == tir::Skipped{"w", "a store to 'A' outside a block is not supported", 3});
    REQUIRE(m.functions.size() == 1);
    CHECK(tir::find_matmuls(m).kernels.size() == 1);
  }
  SECTION("a while loop is read: its blocks keep their own extents") {
    const std::string text =
        "@T.prim_func\ndef w(A: T.Buffer((4,), \"float16\")):\n    while True:\n        pass\n" +
        gemm("vi, vk");
    const tir::Module m = tir::parse_module(text, "x.py");
    CHECK(m.skipped.empty());
    REQUIRE(m.functions.size() == 2);
    const tir::Recognition r = tir::find_matmuls(m);
    CHECK(r.kernels.size() == 1);
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0] == tir::Skipped{"w", "no block", 2});
  }
  SECTION("a non-affine index is an approximation, not a skip") {
    const tir::Recognition r =
        tir::find_matmuls(tir::parse_module(gemm("vi, vk * vi % 8"), "x.py"));
    REQUIRE(r.kernels.size() == 1);
    REQUIRE(r.kernels[0].approximations.size() == 1);
    CHECK_THAT(r.kernels[0].approximations[0], Catch::Contains("product of variables"));
  }
  SECTION("T.axis.remap of a name that is no loop") {
    const std::string text = R"(@T.prim_func
def f(A: T.Buffer((4,), "float16")):
    for i in range(4):
        with T.block("b"):
            vi = T.axis.remap("S", [j])
)";
    const tir::Module m = tir::parse_module(text, "x.py");
    REQUIRE(m.skipped.size() == 1);
    CHECK(m.skipped[0] == tir::Skipped{"f", "'j' is not an enclosing loop variable", 5});
  }
}

TEST_CASE("tir reader: keyword shape and dtype of a T.Buffer parameter", "[tir]") {
  const tir::Module m = tir::parse_module(
      "@T.prim_func\ndef f(A: T.Buffer(shape=(3, 5), dtype=\"int8\"), B: T.Buffer(())):\n    "
      "pass\n",
      "kw.py");
  REQUIRE(m.functions.size() == 1);
  const tir::Buffer& a = *m.functions[0].find_buffer("A");
  CHECK(a.shape.size() == 2);
  CHECK(a.dtype == "int8");
  CHECK(m.functions[0].find_buffer("B")->shape.empty());
  CHECK(m.functions[0].find_buffer("B")->dtype == "float32");
  const tir::Module bad =
      tir::parse_module("@T.prim_func\ndef f(A: T.Buffer()):\n    pass\n", "kw.py");
  REQUIRE(bad.skipped.size() == 1);
  CHECK(bad.skipped[0] == tir::Skipped{"f", "T.Buffer of 'A' has no shape", 2});
}

TEST_CASE("tir reader: unreadable file", "[tir]") {
  const InputError e = error_of([] { tir::read_module("/nonexistent/dump.py"); });
  CHECK(e.code() == error_code::kIo);
}
