// quant::OpEnergyTable: a tabulated format is found by its format (no name built), the rest by
// the fallback rule over the names; the entries are shared between copies until one is set. Every
// lookup is checked against the documented rule applied to entries() by name. And
// TensorStorage::bytes, which every evaluation asks of its weight tensors, against GMP.
#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tenet/error.hpp"
#include "tenet/quant/op_energy.hpp"
#include "tenet/quant/quant_costs.hpp"

using namespace tenet;
using namespace tenet::quant;

namespace {

// The rule of op_energy.hpp on the table's names: the entry of the format's canonical name
// (uint<b> as int<b>), else the narrowest tabulated format of the family at least as wide, the
// first by name among as wide ones; nullopt when there is none.
std::optional<OpEnergy> by_names(const OpEnergyTable& t, const DataType& type) {
  const DataType key =
      type.format() == NumberFormat::kUint ? DataType::signed_int(type.bits()) : type;
  if (auto it = t.entries().find(to_string(key)); it != t.entries().end()) return it->second;
  std::optional<OpEnergy> best;
  int best_bits = 0;
  for (const auto& [name, energy] : t.entries()) {
    const DataType x = parse_data_type(name);
    if (x.is_integer() != type.is_integer() || x.bits() < type.bits()) continue;
    if (!best || x.bits() < best_bits) best = energy, best_bits = x.bits();
  }
  return best;
}

std::vector<DataType> every_format() {
  std::vector<DataType> all{DataType::nf4()};
  for (int b = 1; b <= 32; ++b)
    all.push_back(DataType::signed_int(b)), all.push_back(DataType::unsigned_int(b));
  for (int e = 1; e <= 8; ++e)
    for (int m = 0; 1 + e + m <= 32; ++m) all.push_back(DataType::floating(e, m));
  return all;
}

void check_against_names(const OpEnergyTable& t) {
  for (const DataType& type : every_format()) {
    INFO(to_string(type));
    const std::optional<OpEnergy> expected = by_names(t, type);
    if (expected)
      CHECK(t.lookup(type) == *expected);
    else
      CHECK_THROWS_AS(t.lookup(type), InputError);
  }
}

}  // namespace

TEST_CASE("op energy: every lookup follows the rule over the table's names", "[quant][energy]") {
  const OpEnergyTable defaults = OpEnergyTable::defaults_45nm();
  check_against_names(defaults);
  OpEnergyTable t = defaults;
  t.set(DataType::unsigned_int(4), {0.01, 0.05});  // serves int4 and uint4
  t.set(DataType::bf16(), {0.3, 0.8});             // as wide as fp16, first by name
  t.set(DataType::fp8_e4m3(), {0.2, 0.5});
  t.set(DataType::fp8_e4m3(), {0.25, 0.55});  // set again: replaced
  check_against_names(t);
  CHECK(t.lookup(DataType::signed_int(4)) == OpEnergy{0.01, 0.05});
  CHECK(t.lookup(DataType::fp8_e4m3()) == OpEnergy{0.25, 0.55});
  CHECK(t.lookup(DataType::fp8_e5m2()) == OpEnergy{0.25, 0.55});    // the 8-bit float tabulated
  CHECK(t.lookup(DataType::floating(5, 6)) == OpEnergy{0.3, 0.8});  // bf16 before fp16 by name
  CHECK(t.entries().size() == defaults.entries().size() + 3);
  OpEnergyTable empty;
  CHECK(empty.entries().empty());
  check_against_names(empty);
}

TEST_CASE("op energy: copies share nothing a set can change", "[quant][energy]") {
  const OpEnergyTable defaults = OpEnergyTable::defaults_45nm();
  OpEnergyTable copy = defaults;
  CHECK(copy == defaults);
  copy.set(DataType::fp16(), {9, 9});
  CHECK(copy.lookup(DataType::fp16()) == OpEnergy{9, 9});
  CHECK(defaults.lookup(DataType::fp16()) == OpEnergy{0.4, 1.1});
  CHECK(OpEnergyTable::defaults_45nm().lookup(DataType::fp16()) == OpEnergy{0.4, 1.1});
  CHECK_FALSE(copy == defaults);
  OpEnergyTable assigned;
  assigned = copy;
  copy.set(DataType::fp16(), {0.4, 1.1});
  CHECK(copy == defaults);
  CHECK(assigned.lookup(DataType::fp16()) == OpEnergy{9, 9});
}

TEST_CASE("tensor storage bytes: the 128-bit path equals GMP's", "[quant][costs]") {
  // ceil(words * word_bits / 8): 64-bit words in 128 bits, beyond them (or bytes beyond 64 bits)
  // in GMP; both sides of the precheck, checked against the exact formula.
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> bits(1, 64), shift(0, 70);
  int fast = 0, slow = 0;
  for (int i = 0; i < 5000; ++i) {
    TensorStorage s;
    s.word_bits = bits(rng);
    s.words = Integer(static_cast<unsigned long>(rng() >> 1)) >> shift(rng);  // 0 .. 2^63
    if (i % 5 == 0) s.words *= Integer("1000000000000");                      // beyond 64 bits
    const Integer expected = (s.words * s.word_bits + 7) / 8;
    CHECK(s.bytes() == expected);
    (s.words.fits_slong_p() && expected.fits_slong_p() ? fast : slow) += 1;
  }
  CHECK(fast > 1000);
  CHECK(slow > 500);
  TensorStorage zero;
  zero.words = 0;
  CHECK(zero.bytes() == 0);
}
