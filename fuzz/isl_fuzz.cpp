// isl strings as users write them in specs and TENET files: parse as a set, a map and a union
// map (poly::parse_*), count what parses (poly::count: exact, or InputError(unbounded)).
#include "fuzz_common.hpp"
#include "poly/parse.hpp"
#include "tenet/poly/count.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tenet;
  const std::string text = fuzz::as_text(data, size);
  const poly::Origin origin{"isl.txt", "/domain"};
  fuzz::expect_contract([&] {
    const poly::Integer n = poly::count(poly::parse_set(text, origin));
    fuzz::check(n >= 0, "isl: negative set count");
  });
  fuzz::expect_contract([&] {
    const poly::Integer n = poly::count(poly::parse_map(text, origin));
    fuzz::check(n >= 0, "isl: negative map count");
  });
  fuzz::expect_contract([&] { poly::parse_union_map(text, origin); });
  return 0;
}
