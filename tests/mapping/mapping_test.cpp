#include "tenet/mapping/mapping.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "input_error_of.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

using namespace tenet;
using mapping::Mapping;

namespace {

isl::map map_of(const char* text) { return isl::map(poly::thread_context().get(), text); }

using tenet::test::error_of;

}  // namespace

TEST_CASE("Mapping combines space and time maps", "[mapping]") {
  Mapping m("os", map_of("{ S[i,j,k] -> PE[i%8, j%8] }"),
            map_of("{ S[i,j,k] -> T[floor(i/8), floor(j/8), i%8 + j%8 + k] }"));
  isl::map st = m.space_time_map();
  isl::map expected =
      map_of("{ S[i,j,k] -> [PE[i%8, j%8] -> T[floor(i/8), floor(j/8), i%8 + j%8 + k]] }");
  CHECK(st.is_equal(expected));
  CHECK(m == Mapping("os", map_of("{ S[i,j,k] -> PE[i mod 8, j - 8*floor(j/8)] }"),
                     map_of("{ S[i,j,k] -> T[floor(i/8), floor(j/8), i%8 + j%8 + k] }")));
  CHECK(m != Mapping("os", map_of("{ S[i,j,k] -> PE[j%8, i%8] }"), m.time_map()));
  std::ostringstream os;
  os << m;
  CHECK(os.str().find("mapping os") != std::string::npos);
}

TEST_CASE("Mapping rejects maps that are not functions or not on one statement",
          "[mapping][errors]") {
  auto e = error_of(
      [] { Mapping("m", map_of("{ S[i] -> PE[x] : 0 <= x <= 1 }"), map_of("{ S[i] -> T[i] }")); });
  CHECK(e.code() == error_code::kNonInjective);
  CHECK(e.where() == "/space");
  e = error_of(
      [] { Mapping("m", map_of("{ S[i] -> PE[i] }"), map_of("{ S[i] -> T[t] : t >= i }")); });
  CHECK(e.code() == error_code::kNonInjective);
  CHECK(e.where() == "/time");
  e = error_of([] { Mapping("m", map_of("{ S[i] -> PE[i] }"), map_of("{ R[i] -> T[i] }")); });
  CHECK(e.code() == error_code::kSpace);
  CHECK(e.where() == "/time");
}
