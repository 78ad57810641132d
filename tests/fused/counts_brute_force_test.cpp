// The block-by-block counts of fused kernels (fused/counts.hpp) against a brute-force walk of the
// blocked loop nest on many small random chains: every element access enumerated loop by loop,
// a tile's elements fetched once per iteration of the loops it is kept over, every intermediate
// element produced once and accounted for once (on chip or spilled).
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <tuple>

#include "fused/counts.hpp"
#include "fused/relations.hpp"
#include "tenet/error.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace fused_counts_test {

using namespace tenet;
using fused::AttentionKernel;
using fused::Blocking;
using fused::FfnKernel;
using Key = std::tuple<long, long, long>;

struct Brute {
  long q = 0, k = 0, v = 0, o = 0;  // element transfers
  long scores = 0, macs = 0, tiles = 0;
  std::set<Key> produced;  // (hq, i, j) of S
  bool produced_twice = false;
  bool visible_missed = false;
};

// The walk: KV heads, query blocks, key blocks; a key block is computed when one of its keys is
// visible to one of the block's queries.
Brute brute_attention(const AttentionKernel& a, const Blocking& b) {
  Brute r;
  const long g = a.hq / a.hkv;
  auto visible = [&](long i, long j) {
    const long last = a.kv - a.q + i;  // the last key query i sees (causal)
    return !a.causal || (j <= last && (a.window == 0 || j > last - a.window));
  };
  for (long h = 0; h < a.hkv; ++h)
    for (long q0 = 0; q0 < a.q; q0 += b.rows) {
      const long q1 = std::min(a.q, q0 + b.rows);
      const long computed_to = b.padded ? q0 + b.rows : q1;  // a padded block's padding rows
      std::set<Key> q_tile, o_tile;                          // kept over the key blocks
      for (long j0 = 0; j0 < a.kv; j0 += b.cols) {
        const long j1 = std::min(a.kv, j0 + b.cols);
        bool computed = false;
        for (long i = q0; i < q1; ++i)
          for (long j = j0; j < j1; ++j) computed = computed || visible(i, j);
        if (!computed) {
          for (long i = q0; i < q1; ++i)
            for (long j = j0; j < j1; ++j) r.visible_missed = r.visible_missed || visible(i, j);
          continue;
        }
        ++r.tiles;
        // A window: no key before the first one the block's first query sees is read.
        const long from =
            a.causal && a.window > 0 ? std::max(j0, a.kv - a.q + q0 - a.window + 1) : j0;
        for (long i = q0; i < q1; ++i)
          for (long j = j0; j < from; ++j) r.visible_missed = r.visible_missed || visible(i, j);
        std::set<Key> k_tile, v_tile;  // one K and V block per key block
        for (long hq = h * g; hq < (h + 1) * g; ++hq)
          for (long i = q0; i < computed_to; ++i)
            for (long j = from; j < j1; ++j) {
              if (!r.produced.insert({hq, i, j}).second) r.produced_twice = true;
              ++r.scores;
              for (long c = 0; c < a.d; ++c) {
                ++r.macs;  // Q·Kᵀ
                k_tile.insert({h, j, c});
                ++r.macs;  // P·V
                v_tile.insert({h, j, c});
                if (i < a.q) q_tile.insert({hq, i, c}), o_tile.insert({hq, i, c});  // real rows
              }
            }
        r.k += static_cast<long>(k_tile.size());
        r.v += static_cast<long>(v_tile.size());
      }
      r.q += static_cast<long>(q_tile.size());
      r.o += static_cast<long>(o_tile.size());
    }
  return r;
}

TEST_CASE("fused attention counts equal the brute-force walk on random small chains",
          "[fused][brute]") {
  std::mt19937 rng(20261128);
  auto pick = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  for (int trial = 0; trial < 500; ++trial) {
    AttentionKernel a;
    a.hkv = pick(1, 3);
    a.hq = a.hkv * pick(1, 3);  // MHA, GQA and MQA groups
    a.causal = pick(0, 1) == 1;
    a.q = pick(1, 9);
    a.kv = a.causal ? a.q + pick(0, 6) : pick(1, 11);  // prefill, extend, decode
    a.d = pick(1, 4);
    if (a.causal && pick(0, 1) == 1) a.window = pick(1, 8);  // sliding window
    Blocking b{pick(1, 5), pick(1, 6)};
    const bool spill = pick(0, 1) == 1;
    b.padded = trial % 3 == 2;  // the chip's fixed query block: the last block computed whole
    INFO("HQ " << a.hq << " HKV " << a.hkv << " Q " << a.q << " KV " << a.kv << " D " << a.d
               << (a.causal ? " causal" : "") << " window " << a.window << " blocks " << b.rows
               << "x" << b.cols << (b.padded ? " padded" : "") << (spill ? " spilled" : ""));
    const Brute r = brute_attention(a, b);
    const fused::ChainCounts c = fused::count_chain(a, b, spill);
    REQUIRE_FALSE(r.produced_twice);
    REQUIRE_FALSE(r.visible_missed);  // every visible (query, key) pair is computed
    CHECK(c.tensor("Q").elements() == r.q);
    CHECK(c.tensor("K").elements() == r.k);
    CHECK(c.tensor("V").elements() == r.v);
    CHECK(c.tensor("O").elements() == r.o);
    CHECK(c.tensor("Q").elements() == a.hq * a.q * a.d);  // read once
    CHECK(c.tensor("O").elements() == a.hq * a.q * a.d);  // written once
    CHECK(c.macs() == r.macs);
    // Tile shapes: two query-block heights by two key-block widths (whole, the short last one);
    // a window's first key block of each query block has its own width, at most b.cols of them.
    CHECK(c.stages[0].tiles.size() <=
          (a.window > 0 ? 2 * (static_cast<std::size_t>(b.cols) + 1) : 4));
    for (const fused::IntermediateCount& i : c.intermediates) {
      CHECK(i.produced == static_cast<long>(r.produced.size()));
      CHECK(i.on_chip + i.spilled == i.produced);
      CHECK((spill ? i.spilled : i.on_chip) == i.produced);
    }
    if (spill) {  // written once, read once
      CHECK(c.tensor("S").elements() == 2 * r.scores);
      CHECK(c.tensor("P").elements() == 2 * r.scores);
    } else {
      CHECK_THROWS(c.tensor("S"));
    }
    CHECK(c.vector.elements == r.scores);
    std::int64_t tiles = 0;
    for (const auto& [shape, n] : c.stages[0].tiles) tiles += n;
    CHECK(tiles == r.tiles);
    // rows of Q·Kᵀ computed: g × the block's rows (padded: all of them) per KV head and block
    const long blocks = (a.q + b.rows - 1) / b.rows;
    CHECK(c.rows == a.hq * (b.padded ? blocks * b.rows : a.q));
    CHECK(c.blocks == a.hkv * blocks);
  }
}

// A sliding window with one query per block: the first key block of each query block has its own
// width, so the walk meets more tile shapes than the counts' short list holds (8) and sums the
// rest in a map: the same counts as the brute-force walk either way.
TEST_CASE("fused attention counts with many tile shapes equal the brute-force walk",
          "[fused][brute]") {
  AttentionKernel a;
  a.hq = 4, a.hkv = 2, a.q = 40, a.kv = 45, a.d = 3, a.causal = true, a.window = 13;
  for (const bool padded : {false, true}) {
    Blocking b{1, 16};
    b.padded = padded;
    const Brute r = brute_attention(a, b);
    const fused::ChainCounts c = fused::count_chain(a, b, true);
    REQUIRE(c.stages[0].tiles.size() > 8);
    CHECK(c.stages[1].tiles.size() == c.stages[0].tiles.size());
    CHECK(c.tensor("Q").elements() == r.q);
    CHECK(c.tensor("K").elements() == r.k);
    CHECK(c.tensor("V").elements() == r.v);
    CHECK(c.tensor("O").elements() == r.o);
    CHECK(c.tensor("S").elements() == 2 * r.scores);
    CHECK(c.tensor("P").elements() == 2 * r.scores);
    CHECK(c.macs() == r.macs);
    CHECK(c.vector.elements == r.scores);
    std::int64_t tiles = 0;
    for (const auto& [shape, n] : c.stages[0].tiles) tiles += n;
    CHECK(tiles == r.tiles);
  }
}

TEST_CASE("fused MLP counts equal the brute-force walk on random small chains", "[fused][brute]") {
  std::mt19937 rng(7);
  auto pick = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  for (int trial = 0; trial < 200; ++trial) {
    FfnKernel f;
    f.s = pick(1, 13), f.h = pick(1, 5), f.i = pick(1, 7);
    f.activation = pick(0, 1) ? fused::Activation::kSiluGated : fused::Activation::kGelu;
    f.bias = pick(0, 1) == 1;
    Blocking b{pick(1, 6), 0};
    b.resident = pick(0, 1) == 1;  // the weights and biases kept on chip over the token blocks
    const bool spill = pick(0, 1) == 1;
    INFO("S " << f.s << " H " << f.h << " I " << f.i << " " << fused::to_string(f.activation)
              << (f.bias ? " bias" : "") << " block " << b.rows << (spill ? " spilled" : "")
              << (b.resident ? " resident" : ""));
    const long w1 = f.w1_cols();
    long x = 0, w1r = 0, w2r = 0, y = 0, b1 = 0, b2 = 0, macs = 0;
    std::set<std::pair<long, long>> h1_all, a_all;
    std::set<std::pair<long, long>> w1s, w2s, b1s, b2s;  // on chip: one block's, or all (resident)
    bool twice = false;
    for (long t0 = 0; t0 < f.s; t0 += b.rows) {
      const long t1 = std::min(f.s, t0 + b.rows);
      std::set<std::pair<long, long>> xs, ys;
      const std::size_t had_w1 = w1s.size(), had_w2 = w2s.size(), had_b1 = b1s.size(),
                        had_b2 = b2s.size();
      if (!b.resident) w1s.clear(), w2s.clear(), b1s.clear(), b2s.clear();
      for (long t = t0; t < t1; ++t) {
        for (long n = 0; n < w1; ++n) {
          for (long k = 0; k < f.h; ++k) xs.insert({t, k}), w1s.insert({k, n}), ++macs;
          if (!h1_all.insert({t, n}).second) twice = true;
          if (f.bias) b1s.insert({0, n});
        }
        for (long n = 0; n < f.i; ++n)
          if (!a_all.insert({t, n}).second) twice = true;
        for (long n = 0; n < f.h; ++n) {
          for (long k = 0; k < f.i; ++k) w2s.insert({k, n}), ++macs;
          ys.insert({t, n});
          if (f.bias) b2s.insert({0, n});
        }
      }
      // A block reads the weight and bias elements it uses that are not on chip yet.
      const auto fresh = [&](const std::set<std::pair<long, long>>& s, std::size_t had) {
        return static_cast<long>(b.resident ? s.size() - had : s.size());
      };
      x += xs.size(), y += ys.size();
      w1r += fresh(w1s, had_w1), w2r += fresh(w2s, had_w2);
      b1 += fresh(b1s, had_b1), b2 += fresh(b2s, had_b2);
    }
    const fused::ChainCounts c = fused::count_chain(f, b, spill);
    REQUIRE_FALSE(twice);
    CHECK(c.tensor("X").elements() == x);
    CHECK(c.tensor("W1").elements() == w1r);
    CHECK(c.tensor("W2").elements() == w2r);
    CHECK(c.tensor("Y").elements() == y);
    CHECK(c.macs() == macs);
    if (f.bias) {
      CHECK(c.tensor("b1").elements() == b1);
      CHECK(c.tensor("b2").elements() == b2);
    }
    REQUIRE(c.intermediates.size() == 2);
    CHECK(c.intermediates[0].produced == static_cast<long>(h1_all.size()));
    CHECK(c.intermediates[1].produced == static_cast<long>(a_all.size()));
    for (const fused::IntermediateCount& i : c.intermediates) {
      CHECK(i.on_chip + i.spilled == i.produced);
      CHECK((spill ? i.spilled : i.on_chip) == i.produced);
    }
    if (spill) {
      CHECK(c.tensor("H1").elements() == 2 * static_cast<long>(h1_all.size()));
      CHECK(c.tensor("A").elements() == 2 * static_cast<long>(a_all.size()));
    }
  }
}

TEST_CASE("the isl relations of fused kernels count what the closed forms count",
          "[fused][relations]") {
  std::mt19937 rng(99);
  auto pick = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  for (int trial = 0; trial < 90; ++trial) {
    AttentionKernel a;
    a.hkv = pick(1, 3);
    a.hq = a.hkv * pick(1, 3);
    a.causal = pick(0, 1) == 1;
    a.q = pick(1, 12);
    a.kv = a.causal ? a.q + pick(0, 9) : pick(1, 17);
    a.d = pick(1, 5);
    if (a.causal && pick(0, 1) == 1) a.window = pick(1, 10);
    const Blocking b{pick(1, 6), pick(1, 7)};
    INFO("HQ " << a.hq << " HKV " << a.hkv << " Q " << a.q << " KV " << a.kv << " D " << a.d
               << (a.causal ? " causal" : "") << " window " << a.window << " blocks " << b.rows
               << "x" << b.cols);
    const fused::ChainCounts c = fused::count_chain(a, b, false);
    const fused::RelationCounts r = fused::count_relations(a, b);
    for (const char* t : {"Q", "K", "V", "O"}) CHECK(r.transfers.at(t) == c.tensor(t).elements());
    CHECK(r.macs == c.macs());
    for (const char* t : {"S", "P"}) {
      CHECK(r.produced.at(t) == r.elements.at(t));  // each element made in one block iteration
      CHECK(r.elements.at(t) == c.intermediates[0].produced);
    }
  }
  for (int trial = 0; trial < 40; ++trial) {
    FfnKernel f;
    f.s = pick(1, 20), f.h = pick(1, 6), f.i = pick(1, 9);
    f.activation = pick(0, 1) ? fused::Activation::kSiluGated : fused::Activation::kGelu;
    f.bias = pick(0, 1) == 1;
    Blocking b{pick(1, 8), 0};
    b.resident = pick(0, 1) == 1;
    INFO("S " << f.s << " block " << b.rows << (b.resident ? " resident" : ""));
    const fused::ChainCounts c = fused::count_chain(f, b, false);
    const fused::RelationCounts r = fused::count_relations(f, b);
    for (const auto& [name, n] : r.transfers) CHECK(n == c.tensor(name).elements());
    CHECK(r.macs == c.macs());
    CHECK(r.elements.at("H1") == c.intermediates[0].produced);
    CHECK(r.elements.at("A") == c.intermediates[1].produced);
    CHECK(r.produced.at("H1") == r.elements.at("H1"));
    CHECK(r.produced.at("A") == r.elements.at("A"));
  }
}

TEST_CASE("fused kernels reject bad shapes naming the kernel", "[fused]") {
  using fused::validate;
  CHECK_THROWS_WITH(validate(fused::Kernel{AttentionKernel{6, 4, 8, 8, 4, false}}),
                    Catch::Contains("not a multiple of HKV"));
  CHECK_THROWS_WITH(validate(fused::Kernel{AttentionKernel{4, 4, 9, 8, 4, true}}),
                    Catch::Contains("causal"));
  CHECK_THROWS_WITH(validate(fused::Kernel{FfnKernel{0, 4, 4}}), Catch::Contains("S >= 1"));
  CHECK_THROWS_WITH(validate(fused::Kernel{
                        AttentionKernel{4, 4, 8, 8, 4, false, fused::ScoresPlace::kOnChip, 3}}),
                    Catch::Contains("causal"));
  CHECK_THROWS_WITH(validate(fused::Kernel{
                        AttentionKernel{4, 4, 8, 8, 4, true, fused::ScoresPlace::kOnChip, -1}}),
                    Catch::Contains("window"));
  try {
    validate(fused::Kernel{AttentionKernel{4, 2, 0, 8, 4}});
    FAIL("no error");
  } catch (const tenet::InputError& e) {
    CHECK(e.where() == "attention");
  }
}

}  // namespace fused_counts_test
