// The global buffer's residency choice (detail::cheapest_subset: every subset's DRAM bytes and
// footprint built over prefixes of the members) against the reference that sums every subset on
// its own (cheapest_subset_reference), on random partitions on both sides of its prefix path
// (up to 8 members; more: the reference itself), with ties and capacity limits; and the in-place
// vector the Model keeps its plans in.
#include <array>
#include <catch2/catch.hpp>
#include <climits>
#include <optional>
#include <random>
#include <vector>

#include "hw/inline_vector.hpp"
#include "hw/model.hpp"
#include "tenet/error.hpp"

namespace hw_residency_subset_test {
namespace {

using tenet::hw::detail::cheapest_subset;
using tenet::hw::detail::cheapest_subset_reference;
using tenet::hw::detail::InlineVector;
using tenet::hw::detail::SubsetInput;

struct Case {
  std::array<double, 16> kept{}, streamed{};
  std::array<long long, 16> footprint{};
  SubsetInput in;
};

Case random_case(std::mt19937_64& rng, int n) {
  Case c;
  std::uniform_int_distribution<int> kind(0, 2);
  const int k = kind(rng);
  for (int b = 0; b < n; ++b) {
    if (k == 0) {  // few distinct values: ties of cost
      c.kept[static_cast<size_t>(b)] = static_cast<double>(rng() % 4);
      c.streamed[static_cast<size_t>(b)] = static_cast<double>(rng() % 4);
    } else {  // values whose sums round: the order of the terms shows
      std::uniform_real_distribution<double> v(0, k == 1 ? 1 : 1e17);
      c.kept[static_cast<size_t>(b)] = v(rng);
      c.streamed[static_cast<size_t>(b)] = v(rng) * (rng() % 3 == 0 ? 1e-9 : 1);
    }
    c.footprint[static_cast<size_t>(b)] = static_cast<long long>(rng() % 100);
  }
  c.in.n = n;
  c.in.kept = c.kept.data();
  c.in.streamed = c.streamed.data();
  c.in.footprint = c.footprint.data();
  c.in.required = rng() % 4 == 0 ? static_cast<unsigned>(rng()) & ((1u << n) - 1) : 0u;
  c.in.capacity = static_cast<long long>(rng() % (60 * static_cast<unsigned>(n + 1)));
  c.in.unlimited = rng() % 8 == 0;
  return c;
}

}  // namespace

TEST_CASE("cheapest_subset: the residency choice over prefix sums equals every subset summed",
          "[hw][residency][capacity]") {
  std::mt19937_64 rng(20240619);
  int chosen = 0, none = 0, over_prefix = 0;
  for (int i = 0; i < 20000; ++i) {
    const int n = static_cast<int>(rng() % 11);  // 0..10: both sides of the 8-member prefix path
    const Case c = random_case(rng, n);
    const std::optional<unsigned> fast = cheapest_subset(c.in);
    const std::optional<unsigned> ref = cheapest_subset_reference(c.in);
    REQUIRE(fast.has_value() == ref.has_value());
    if (fast) {
      REQUIRE(*fast == *ref);
      ++chosen;
    } else {
      ++none;
    }
    if (n > 8) ++over_prefix;
  }
  CHECK(chosen > 1000);  // both outcomes and both paths were exercised
  CHECK(none > 100);
  CHECK(over_prefix > 1000);
}

TEST_CASE("cheapest_subset: least bytes, then most members, then the lowest mask",
          "[hw][residency][capacity]") {
  // three members: keeping 0 saves bytes, keeping 1 or 2 costs as much as streaming them
  const std::array<double, 3> kept{1, 5, 5}, streamed{4, 5, 5};
  std::array<long long, 3> footprint{10, 10, 10};
  SubsetInput in{3, kept.data(), streamed.data(), footprint.data(), 0u, 20, false};
  // 20 bytes hold two members: {0, 1} (mask 3) before {0, 2} (mask 5), both cost 11
  CHECK(cheapest_subset(in) == std::optional<unsigned>(3u));
  CHECK(cheapest_subset_reference(in) == std::optional<unsigned>(3u));
  in.capacity = 30;  // all three fit: the most members at the same cost
  CHECK(cheapest_subset(in) == std::optional<unsigned>(7u));
  in.capacity = 5, in.required = 2u;  // member 1 must stay but does not fit
  CHECK_FALSE(cheapest_subset(in).has_value());
  in.unlimited = true;
  CHECK(cheapest_subset(in) == std::optional<unsigned>(7u));
}

TEST_CASE("cheapest_subset: footprints whose sum overflows throw as the reference does",
          "[hw][residency][capacity]") {
  const std::array<double, 3> kept{1, 1, 1}, streamed{2, 2, 2};
  std::array<long long, 3> footprint{LLONG_MAX / 2, LLONG_MAX / 2, 4};
  const SubsetInput in{3, kept.data(), streamed.data(), footprint.data(), 0u, 100, false};
  CHECK_THROWS_AS(cheapest_subset(in), tenet::InputError);
  CHECK_THROWS_AS(cheapest_subset_reference(in), tenet::InputError);
  footprint[2] = 0;  // the sum fits: the same choice (nothing fits 100 bytes but member 2)
  CHECK(cheapest_subset(in) == cheapest_subset_reference(in));
  CHECK(cheapest_subset(in) == std::optional<unsigned>(4u));
}

TEST_CASE("InlineVector keeps its elements in order in place and beyond", "[hw][residency]") {
  for (int count : {0, 1, 3, 4, 5, 9, 40}) {
    InlineVector<int, 4> v;
    std::vector<int> expected;
    if (count % 2) v.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
      v.push_back(i * 7 + 1);
      expected.push_back(i * 7 + 1);
    }
    const InlineVector<int, 4> copy = v;
    REQUIRE(v.size() == expected.size());
    REQUIRE(std::vector<int>(copy.begin(), copy.end()) == expected);
    REQUIRE(std::vector<int>(v.begin(), v.end()) == expected);
    if (count > 0) CHECK(v.back() == expected.back());
    CHECK(v.empty() == (count == 0));
  }
}

}  // namespace hw_residency_subset_test
