// The one strict JSON reader, the UTF-8 check of text inputs and the checked size arithmetic.
#include "io/json_reader.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "detail/checked_int.hpp"
#include "input_error_of.hpp"
#include "io/text_file.hpp"

using namespace tenet;
using tenet::test::error_of;

namespace {

std::string nested(std::size_t depth, const std::string& inner = "1") {
  return std::string(depth, '[') + inner + std::string(depth, ']');
}

// A reference UTF-8 check written from RFC 3629's definition: decode each sequence to its code
// point, then reject overlong forms, surrogates and code points above U+10FFFF.
bool well_formed_reference(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned c = static_cast<unsigned char>(s[i]);
    int length = c < 0x80           ? 1
                 : (c >> 5) == 0x6  ? 2
                 : (c >> 4) == 0xE  ? 3
                 : (c >> 3) == 0x1E ? 4
                                    : 0;
    if (length == 0 || i + length > s.size()) return false;
    std::uint32_t cp = length == 1 ? c : c & (0x7F >> length);
    for (int k = 1; k < length; ++k) {
      const unsigned d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    const std::uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

}  // namespace

TEST_CASE("json reader: nesting up to the limit is read, deeper is a range error", "[io][json]") {
  CHECK(io::parse_json(nested(io::kMaxJsonDepth), "ok.json").is_array());
  const InputError e = error_of([] { io::parse_json(nested(io::kMaxJsonDepth + 1), "deep.json"); });
  CHECK(e.code() == error_code::kRange);
  CHECK(e.file() == "deep.json");
  CHECK(e.where() == "/0" + [] {
    std::string p;
    for (std::size_t i = 1; i < io::kMaxJsonDepth; ++i) p += "/0";
    return p;
  }());
  // 20,000 levels: no recursion anywhere (the case that overflowed the stack).
  CHECK(error_of([] { io::parse_json(nested(20000), "x.json"); }).code() == error_code::kRange);
  CHECK(error_of([] { io::parse_ordered_json("{\"a\":" + nested(20000) + "}", "x.json"); })
            .where()
            .rfind("/a/0/0", 0) == 0);
}

TEST_CASE("json reader: every duplicate key is listed with its pointer", "[io][json]") {
  const InputError e = error_of(
      [] { io::parse_json(R"({"a": 1, "b": {"c": [0, {"d": 1, "d": 2}]}, "a": 3})", "d.json"); });
  CHECK(e.code() == error_code::kDuplicate);
  CHECK(e.where() == "/b/c/1/d");
  CHECK(e.message().find("and 1 more error(s): /a:") != std::string::npos);
}

TEST_CASE("json reader: numbers out of range are overflow errors at their pointer", "[io][json]") {
  struct Case {
    std::string text, where;
  };
  const Case cases[] = {
      {R"({"x": 1e400})", "/x"},
      {R"({"x": [1, -1e400]})", "/x/1"},
      {"{\"x\": " + std::string(4000, '9') + "}", "/x"},
      {R"({"x": -99999999999999999999})", "/x"},
      {R"([123456789012345678901234])", "/0"},
  };
  for (const Case& c : cases) {
    INFO(c.text.substr(0, 40));
    const InputError e = error_of([&] { io::parse_json(c.text, "n.json"); });
    CHECK(e.code() == error_code::kOverflow);
    CHECK(e.where() == c.where);
  }
  // Unsigned 64-bit integers and doubles in range are read (their field says if they fit).
  const auto ok = io::parse_json(R"({"u": 18446744073709551615, "d": 1e308, "s": 1e-400})", "");
  CHECK(ok["u"].get<std::uint64_t>() == 18446744073709551615ULL);
  CHECK(ok["d"].get<double>() == 1e308);
}

TEST_CASE("json reader: syntax errors and invalid UTF-8 give a position", "[io][json]") {
  InputError e = error_of([] { io::parse_json("{\n  \"a\": 1,\n  \"b\": ]\n}", "x.json"); });
  CHECK(e.code() == error_code::kParse);
  CHECK(e.where() == "line 3, column 8");
  e = error_of([] { io::parse_json("{\"a\": \"\xff\"}", "u.json"); });
  CHECK(e.code() == error_code::kParse);
  CHECK(e.where().rfind("line 1, column", 0) == 0);
  e = error_of([] { io::parse_json("{\"a\": 1} x", "t.json", "line 7"); });
  CHECK(e.where().rfind("line 7, column", 0) == 0);
  e = error_of([] { io::parse_json("{\"a\": 1, \"a\": 2}", "t.json", "line 7"); });
  CHECK(e.where() == "line 7, /a");
}

TEST_CASE("config json: NaN, Infinity and -Infinity as Python's json writes them", "[io][json]") {
  const auto doc = io::parse_config_json(
      "{\"limit\": [0.0, Infinity], \"low\": -Infinity, \"x\": NaN, \"s\": \"NaN Infinity\", "
      "\"e\": \"a\\\"Infinity\"}",
      "c.json");
  CHECK(std::isinf(doc.at("limit")[1].get<double>()));
  CHECK(doc.at("limit")[1].get<double>() > 0);
  CHECK(doc.at("limit")[0].get<double>() == 0.0);
  CHECK(std::isinf(doc.at("low").get<double>()));
  CHECK(doc.at("low").get<double>() < 0);
  CHECK(std::isnan(doc.at("x").get<double>()));
  CHECK(doc.at("s") == "NaN Infinity");  // inside strings the words stay words
  CHECK(doc.at("e") == "a\"Infinity");   // after an escaped quote too
  // every other format stays strict JSON
  InputError e = error_of([] { io::parse_json("{\"a\": Infinity}", "s.json"); });
  CHECK(e.code() == error_code::kParse);
  // a token where a key belongs, a misspelling, and a later error keeps its column
  e = error_of([] { io::parse_config_json("{NaN: 1}", "c.json"); });
  CHECK(e.code() == error_code::kParse);
  e = error_of([] { io::parse_config_json("{\"a\": Infinit}", "c.json"); });
  CHECK(e.code() == error_code::kParse);
  e = error_of([] { io::parse_config_json("{\"a\": -Infinity,\n \"b\": ]}", "c.json"); });
  const InputError same_length =
      error_of([] { io::parse_json("{\"a\": -12345678,\n \"b\": ]}", "c.json"); });
  CHECK(e.where() == same_length.where());
  CHECK(e.where() == "line 2, column 7");
  // duplicate keys are still reported with their pointer
  e = error_of([] { io::parse_config_json("{\"a\": NaN, \"a\": 1}", "c.json"); });
  CHECK(e.where() == "/a");
}

TEST_CASE("json fields: every problem of an object is recorded", "[io][json]") {
  const nlohmann::json doc =
      io::parse_json(R"({"n": "x", "k": 0, "o": 3, "extra": true, "b": 1})", "f.json");
  io::JsonProblems problems("f.json");
  const io::JsonFields f(doc, "", problems);
  f.allow_only({"n", "k", "o", "b", "missing"});
  CHECK_FALSE(f.integer("n", true, "a size"));
  CHECK_FALSE(f.integer("k", true, "a size", {1, 10}));
  CHECK_FALSE(f.object("o", true));
  CHECK_FALSE(f.boolean("b", true));
  CHECK_FALSE(f.string("missing", true));
  REQUIRE(problems.size() == 6);
  const char* codes[] = {error_code::kUnknownField, error_code::kType, error_code::kRange,
                         error_code::kType,         error_code::kType, error_code::kMissingField};
  const char* wheres[] = {"/extra", "/n", "/k", "/o", "/b", "/missing"};
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK(problems.list()[i].code() == codes[i]);
    CHECK(problems.list()[i].where() == wheres[i]);
    CHECK(problems.list()[i].file() == "f.json");
  }
  const InputError e = error_of([&] { problems.throw_if_any(); });
  CHECK(e.where() == "/extra");
  CHECK(e.message().find("and 5 more error(s)") != std::string::npos);
}

namespace pick_test {  // named: the io tests share a unity batch in CI
enum class Color { kRed, kGreen };
const char* to_string(Color c) { return c == Color::kRed ? "red" : "green"; }
int parse_even(const std::string& text) {
  const int v = std::stoi(text);
  if (v % 2 != 0) throw InputError(error_code::kRange, "", "", "expected an even number");
  return v;
}
}  // namespace pick_test

TEST_CASE("json fields: names from a list, parsed strings, throwing helpers and both bounds",
          "[io][json]") {
  using pick_test::Color;
  using pick_test::parse_even;
  const nlohmann::json doc = io::parse_json(
      R"({"c": "green", "bad": "blue", "e": "4", "odd": "3", "r": 70, "num": 5})", "f.json");
  io::JsonProblems problems("f.json", "line 2");
  const io::JsonFields f(doc, "/x", problems);
  CHECK(f.enumerator("c", true, "color", {Color::kRed, Color::kGreen}) == Color::kGreen);
  CHECK(f.pick("c", true, "color", {"red", "green"}) == std::optional<std::size_t>(1));
  CHECK_FALSE(f.enumerator("bad", true, "color", {Color::kRed, Color::kGreen}));
  CHECK_FALSE(f.enumerator("absent", false, "color", {Color::kRed, Color::kGreen}));
  CHECK(f.parse("e", true, "", parse_even) == 4);
  CHECK_FALSE(f.parse("odd", true, "", parse_even));
  CHECK_FALSE(f.pick("num", true, "color", {"red"}));
  CHECK_FALSE(f.integer("r", true, "", {0, 64}));
  CHECK(f.integer("r", true, "", {0, 70}) == 70);
  CHECK(f.attempt("c", [] {}));
  CHECK_FALSE(f.attempt("c", [] { throw InputError(error_code::kUsage, "", "", "no"); }));
  CHECK_FALSE(f.attempt("c", [] { throw InputError(error_code::kUsage, "f.json", "/y", "own"); }));
  struct Expected {
    const char *code, *where, *message;
  };
  const Expected expected[] = {
      {error_code::kUnknownName, "line 2, /x/bad",
       "unknown color \"blue\", expected one of red, green"},
      {error_code::kRange, "line 2, /x/odd", "expected an even number"},
      {error_code::kType, "line 2, /x/num", "expected color (a string), got an integer 5"},
      {error_code::kRange, "line 2, /x/r", "expected an integer in [0, 64], got 70"},
      {error_code::kUsage, "line 2, /x/c", "no"},
      {error_code::kUsage, "/y", "own"},  // a helper's own location in this file is kept
  };
  REQUIRE(problems.size() == std::size(expected));
  for (std::size_t i = 0; i < std::size(expected); ++i) {
    INFO(i);
    CHECK(problems.list()[i].code() == expected[i].code);
    CHECK(problems.list()[i].where() == expected[i].where);
    CHECK(problems.list()[i].message() == expected[i].message);
  }
}

TEST_CASE("utf-8 check agrees with a reference decoder on every 1-3 byte string", "[io][utf8]") {
  std::string s;
  long disagreements = 0;
  for (int n = 1; n <= 3; ++n) {
    const long total = 1L << (8 * n);
    s.assign(n, '\0');
    for (long v = 0; v < total; ++v) {
      for (int k = 0; k < n; ++k) s[k] = static_cast<char>((v >> (8 * k)) & 0xFF);
      disagreements += io::detail::first_invalid_utf8(s).has_value() == well_formed_reference(s);
    }
  }
  CHECK(disagreements == 0);
  std::mt19937 rng(15);
  for (int i = 0; i < 200000; ++i) {  // 4-byte strings, biased toward lead bytes F0..F4
    s.assign(4, '\0');
    s[0] = static_cast<char>(0xF0 + rng() % 16);
    for (int k = 1; k < 4; ++k) s[k] = static_cast<char>(0x80 + rng() % 64 + (rng() % 8 ? 0 : 64));
    disagreements += io::detail::first_invalid_utf8(s).has_value() == well_formed_reference(s);
  }
  CHECK(disagreements == 0);
}

TEST_CASE("utf-8 check names the line of the first bad byte", "[io][utf8]") {
  const InputError e = error_of([] { io::detail::check_utf8("ok\nfine\nbad \xc0\xaf\n", "f.s"); });
  CHECK(e.code() == error_code::kParse);
  CHECK(e.where() == "line 3");
  CHECK(e.message().find("0xC0 at column 5") != std::string::npos);
  CHECK_NOTHROW(io::detail::check_utf8("caf\xc3\xa9 \xf0\x9f\x98\x80\n", "f.s"));
}

TEST_CASE("checked size arithmetic agrees with 128-bit arithmetic", "[io][checked]") {
  std::mt19937_64 rng(3037000500ULL);
  for (int i = 0; i < 100000; ++i) {
    const int shift_a = static_cast<int>(rng() % 64), shift_b = static_cast<int>(rng() % 64);
    const auto a = static_cast<std::int64_t>(rng() >> shift_a) * (rng() % 2 ? 1 : -1);
    const auto b = static_cast<std::int64_t>(rng() >> shift_b) * (rng() % 2 ? 1 : -1);
    const __int128 product = static_cast<__int128>(a) * b, sum = static_cast<__int128>(a) + b;
    const bool product_fits = product >= INT64_MIN && product <= INT64_MAX;
    const bool sum_fits = sum >= INT64_MIN && sum <= INT64_MAX;
    if (product_fits)
      CHECK(tenet::detail::checked_mul(a, b, {"a·b"}) == static_cast<std::int64_t>(product));
    else
      CHECK(error_of([&] {
              tenet::detail::checked_mul(a, b, {"a·b", "f", "/x"});
            }).where() == "/x");
    if (sum_fits)
      CHECK(tenet::detail::checked_add(a, b, {"a+b"}) == static_cast<std::int64_t>(sum));
    else
      CHECK(error_of([&] { tenet::detail::checked_add(a, b, {"a+b"}); }).code() ==
            error_code::kOverflow);
  }
  const InputError e =
      error_of([] { tenet::detail::narrow_count(mpz_class("17592186044416000000"), {"bytes"}); });
  CHECK(e.message() == "bytes = 17592186044416000000 does not fit in 64 bits");
}

TEST_CASE("excerpts of input are valid UTF-8, cut between characters", "[io][errors]") {
  // "ĀĀࠀ": 2 + 2 + 3 bytes; a cut inside the 3-byte character backs off to its start.
  const std::string text = "ab\xC4\x80\xC4\x80\xE0\xA0\x80zzzzzzzz";
  CHECK(tenet::excerpt(text, 9) == "ab\xC4\x80\xC4\x80...");
  CHECK(tenet::excerpt(text, 100) == text);
  CHECK(tenet::utf8_prefix(text, 8) == "ab\xC4\x80\xC4\x80");
  CHECK(tenet::utf8_prefix("a\xFF\xC4", 10) == "a??");   // invalid and truncated bytes
  CHECK(tenet::excerpt("\xED\xA0\x80x", 10) == "???x");  // a surrogate is not UTF-8
}
