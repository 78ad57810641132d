#include "tenet/arch/architecture.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "input_error_of.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

using namespace tenet;
using arch::Architecture;

namespace {

isl::set set_of(const char* text) { return isl::set(poly::thread_context().get(), text); }
isl::map map_of(const char* text) { return isl::map(poly::thread_context().get(), text); }

const char* kPes = "{ PE[x,y] : 0 <= x < 3 and 0 <= y < 2 }";
const char* kLinks = "{ PE[x,y] -> PE[x+1,y]; PE[x,y] -> PE[x,y+1] }";

using tenet::test::error_of;

}  // namespace

TEST_CASE("Architecture restricts the interconnect to the PE domain", "[arch]") {
  Architecture a("mesh", set_of(kPes), map_of(kLinks), 64, 2, 256, 1024);
  // 3x2 array: 2*2 vertical + 3*1 horizontal links.
  isl_size n = 0;
  isl_set* wrapped = isl_map_wrap(a.interconnect().copy());
  isl_val* v = isl_set_count_val(wrapped);
  n = static_cast<isl_size>(isl_val_get_num_si(v));
  isl_val_free(v);
  isl_set_free(wrapped);
  CHECK(n == 7);
  CHECK(a.bandwidth_bits_per_cycle() == 64);
  CHECK(a.avg_latency_cycles() == 2);
  CHECK(a.l1_size() == 256);
  CHECK(a.l2_size() == 1024);
  CHECK(a == Architecture("mesh", set_of(kPes), map_of(kLinks), 64, 2, 256, 1024));
  CHECK(a !=
        Architecture("mesh", set_of(kPes), map_of("{ PE[x,y] -> PE[x+1,y] }"), 64, 2, 256, 1024));
  CHECK(a != Architecture("mesh", set_of(kPes), map_of(kLinks), 32, 2, 256, 1024));
  std::ostringstream os;
  os << a;
  CHECK(os.str().find("source -> destination") != std::string::npos);
}

TEST_CASE("an empty interconnect means no links", "[arch]") {
  Architecture a("isolated", set_of(kPes), map_of("{ PE[x,y] -> PE[x,y] : x < 0 and x > 0 }"), 64,
                 1);
  CHECK(a.interconnect().is_empty());
  CHECK(a != Architecture("isolated", set_of(kPes), map_of(kLinks), 64, 1));
}

TEST_CASE("Architecture rejects bad input", "[arch][errors]") {
  auto check = [](auto&& f, const char* code, const char* where) {
    auto e = error_of(f);
    CHECK(e.code() == code);
    CHECK(e.where() == where);
  };
  check([] { Architecture("a", set_of("{ PE[x] : x >= 0 }"), map_of(kLinks), 64, 1); },
        error_code::kUnbounded, "/pe_domain");
  check([] { Architecture("a", set_of("{ PE[x] : 0 <= x < 0 }"), map_of(kLinks), 64, 1); },
        error_code::kRange, "/pe_domain");
  check([] { Architecture("a", set_of(kPes), map_of("{ PE[x] -> PE[x+1] }"), 64, 1); },
        error_code::kSpace, "/interconnect");
  check([] { Architecture("a", set_of(kPes), map_of("{ Q[x,y] -> Q[x+1,y] }"), 64, 1); },
        error_code::kSpace, "/interconnect");
  check([] { Architecture("a", set_of(kPes), map_of(kLinks), 0, 1); }, error_code::kRange,
        "/bandwidth_bits_per_cycle");
  check([] { Architecture("a", set_of(kPes), map_of(kLinks), 64, 0); }, error_code::kRange,
        "/avg_latency_cycles");
  check([] { Architecture("a", set_of(kPes), map_of(kLinks), 64, 1, -1); }, error_code::kRange,
        "/l1_size");
}
