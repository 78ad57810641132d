// Mixture-of-experts routing: how the T·k token-to-expert assignments of one MoE layer spread
// over its E experts. Uniform routing, the expected number of distinct experts a decode step
// touches, and measured histograms (--routing FILE). Formulas in docs/llm.md#mixture-of-experts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tenet::llm {

// `experts` experts that each receive `tokens` tokens (one grouped-GEMM shape).
struct ExpertGroup {
  std::int64_t tokens = 0;
  std::int64_t experts = 0;
  friend bool operator==(const ExpertGroup& a, const ExpertGroup& b) {
    return a.tokens == b.tokens && a.experts == b.experts;
  }
};

// T·k assignments spread as evenly as possible over E experts: (T·k mod E) experts get
// ⌈T·k/E⌉ tokens, the others ⌊T·k/E⌋; experts with no token are left out. Largest group first.
std::vector<ExpertGroup> uniform_routing(std::int64_t tokens, std::int64_t top_k,
                                         std::int64_t experts);

// Expected number of distinct experts B tokens with top-k routing touch, each picking k of E
// uniformly at random: E·(1 − (1 − k/E)^B).
double expected_active_experts(std::int64_t batch, std::int64_t top_k, std::int64_t experts);

// Decode: the B·k assignments spread evenly over A experts, A = the expectation above rounded
// to the nearest integer and kept within [k, min(E, B·k)].
std::vector<ExpertGroup> decode_routing(std::int64_t batch, std::int64_t top_k,
                                        std::int64_t experts);

// A measured histogram (tokens per expert) grouped by equal counts, zeros left out.
std::vector<ExpertGroup> histogram_routing(const std::vector<std::int64_t>& tokens_per_expert);

// Reads a routing file: {"tokens_per_expert": [n_0, ..., n_{E-1}]} (non-negative integers).
// InputError (io, parse, missing-field, type, range) naming the file and the JSON pointer.
std::vector<std::int64_t> load_expert_routing(const std::string& path);

}  // namespace tenet::llm
