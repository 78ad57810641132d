// Causal and sliding-window attention tiles and MoE routing against brute-force enumeration on
// many small, odd-sized random cases.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <utility>

#include "llm/expert_routing.hpp"
#include "tenet/llm/model_matmuls.hpp"

using namespace tenet::llm;

namespace {

ModelConfig tiny(std::int64_t window) {
  nlohmann::json doc = {{"model_type", "mistral"},  {"hidden_size", 8},
                        {"num_hidden_layers", 1},   {"num_attention_heads", 1},
                        {"num_key_value_heads", 1}, {"intermediate_size", 8},
                        {"vocab_size", 8},          {"max_position_embeddings", 1000}};
  // No window: null (as Mistral v0.2+ write it; absent would be MistralConfig's 4096).
  doc["sliding_window"] = window > 0 ? nlohmann::json(window) : nlohmann::json(nullptr);
  return parse_model_config(doc, "tiny.json");
}

using TileCounts = std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t>;

// Every (query block, key block) pair holding at least one pair q ≥ k with q − k < window.
TileCounts brute_force(std::int64_t s, std::int64_t b, std::int64_t window) {
  TileCounts out;
  for (std::int64_t q0 = 0; q0 < s; q0 += b) {
    for (std::int64_t k0 = 0; k0 < s; k0 += b) {
      bool any = false;
      for (std::int64_t q = q0; q < std::min(s, q0 + b) && !any; ++q)
        for (std::int64_t k = k0; k < std::min(s, k0 + b) && !any; ++k)
          any = k <= q && (window == 0 || q - k < window);
      if (any) ++out[{std::min(s, q0 + b) - q0, std::min(s, k0 + b) - k0}];
    }
  }
  return out;
}

}  // namespace

TEST_CASE("causal and windowed prefill tiles equal the enumerated unmasked tiles",
          "[llm][matmuls][attention]") {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 300; ++trial) {
    const std::int64_t s = 1 + rng() % 97, b = 1 + rng() % 13;
    const std::int64_t window = trial % 3 == 0 ? 0 : 1 + rng() % 40;
    GenerationOptions o;
    o.fused_attention = false;  // the blocked qk / pv tiles
    o.prompt = s;
    o.attention_tile = b;
    TileCounts generated, pv;
    for (const MatmulShape& m : generate_matmuls(tiny(window), o)) {
      if (m.name == "self_attn.qk") generated[{m.m, m.n}] += m.count;
      if (m.name == "self_attn.pv") pv[{m.m, m.k}] += m.count;
    }
    INFO("S " << s << ", tile " << b << ", window " << window);
    CHECK(generated == brute_force(s, b, window));
    CHECK(pv == generated);
  }
}

TEST_CASE("uniform routing: T·k assignments, expert loads differ by at most one", "[llm][moe]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const std::int64_t e = 1 + rng() % 70, k = 1 + rng() % e, t = 1 + rng() % 200;
    std::int64_t assigned = 0, experts = 0, low = t * k, high = 0;
    for (const ExpertGroup& g : uniform_routing(t, k, e)) {
      assigned += g.tokens * g.experts;
      experts += g.experts;
      low = std::min(low, g.tokens), high = std::max(high, g.tokens);
    }
    INFO("T " << t << ", k " << k << ", E " << e);
    CHECK(assigned == t * k);
    CHECK(experts == std::min(e, t * k));
    CHECK(high - low <= 1);
    // decode: B·k assignments over between k and min(E, B·k) experts
    std::int64_t d_assigned = 0, d_experts = 0;
    for (const ExpertGroup& g : decode_routing(t, k, e)) {
      d_assigned += g.tokens * g.experts;
      d_experts += g.experts;
    }
    CHECK(d_assigned == t * k);
    CHECK(d_experts >= k);
    CHECK(d_experts <= std::min(e, t * k));
  }
}

TEST_CASE("the expected distinct experts match a brute-force average over all routings",
          "[llm][moe]") {
  // E = 4, k = 2, B = 3: each token picks one of the 6 pairs; average the distinct count.
  const int e = 4;
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < e; ++a)
    for (int b = a + 1; b < e; ++b) pairs.push_back({a, b});
  double sum = 0;
  int n = 0;
  for (auto p1 : pairs)
    for (auto p2 : pairs)
      for (auto p3 : pairs) {
        int mask = 0;
        for (auto p : {p1, p2, p3}) mask |= (1 << p.first) | (1 << p.second);
        sum += __builtin_popcount(mask);
        ++n;
      }
  CHECK(expected_active_experts(3, 2, 4) == Approx(sum / n));
}

TEST_CASE("a fused sliding-window row: the window below the prompt, MACs of the visible pairs",
          "[llm][matmuls][attention][fused]") {
  std::mt19937 rng(36);
  for (int trial = 0; trial < 200; ++trial) {
    const std::int64_t s = 1 + rng() % 97, window = 1 + rng() % 120;
    GenerationOptions o;  // fused attention (the default)
    o.prompt = s;
    std::int64_t rows = 0;
    for (const MatmulShape& m : generate_matmuls(tiny(window), o)) {
      if (m.name != "self_attn.attention") continue;
      ++rows;
      INFO("S " << s << ", window " << window);
      REQUIRE(m.fused_attention);
      CHECK(m.m == s);
      CHECK(m.n == s);
      CHECK(m.fused_attention->window == (window < s ? window : 0));
      std::int64_t pairs = 0;  // query i sees keys i - window < j <= i
      for (std::int64_t i = 0; i < s; ++i)
        for (std::int64_t j = 0; j <= i; ++j) pairs += i - j < window;
      CHECK(m.macs_per_call() == 2 * pairs * 8);  // 2 · heads · pairs · d (d = 8)
    }
    CHECK(rows == 1);
  }
  // An extend-shaped row (M queries, the last of N positions): query i sees min(N − M + i + 1, W).
  MatmulShape r;
  r.m = 5, r.n = 12, r.k = 3, r.batch = 2;
  r.fused_attention = FusedAttention{4, 2, true, 7};
  std::int64_t pairs = 0;
  for (std::int64_t i = 0; i < 5; ++i) pairs += std::min<std::int64_t>(12 - 5 + i + 1, 7);
  CHECK(r.macs_per_call() == 2 * 2 * 4 * pairs * 3);
}
