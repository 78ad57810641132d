#include "tenet/eval/request.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>

#include "tenet/error.hpp"

namespace tenet::eval {
namespace {

// The memo key of a request: every field an Evaluation of a matmul request depends on, as
// integers (accelerator and scheme by their ids).
class Key {
 public:
  template <typename T>
  void add(T v) {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>, "add integers, enums or doubles");
    push(static_cast<std::uint64_t>(v));
  }
  void add(double v) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    push(bits);
  }
  template <typename T>
  void add(const std::optional<T>& v) {
    add(v.has_value());
    if (v) add(*v);
  }

  std::size_t hash() const {
    std::size_t h = 0;
    for (std::size_t i = 0; i < size_; ++i)
      h ^= std::hash<std::uint64_t>{}(values_[i]) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
  friend bool operator==(const Key& a, const Key& b) {
    return a.size_ == b.size_ &&
           std::equal(a.values_.begin(), a.values_.begin() + a.size_, b.values_.begin());
  }

 private:
  void push(std::uint64_t v) {
    if (size_ == values_.size()) throw InternalError("eval::hash: the request key is too long");
    values_[size_++] = v;
  }
  std::array<std::uint64_t, 48> values_{};
  std::size_t size_ = 0;
};

// ---- THE field table -------------------------------------------------------------------------
// One function per struct of a Request. Each unpacks its struct with a structured binding, which
// must name every data member: a member added to Request, llm::MatmulShape, mapping::GemmBits,
// mapping::Tiling, quant::DequantRate, hw::Options or analysis::Options (or its Neighbourhood /
// EnergyConstants) without a line here does not compile ("N names provided for structured
// binding of type with N+1 members"). Every member is then either added to the key or named in
// `(void)` with the reason it is left out. hash() and same_evaluation() are both this key, so
// they cannot disagree. docs/architecture.md#the-memo-key.

void add(Key& key, const mapping::Tiling& t) {
  const auto& [m, n, k, order, single] = t;
  key.add(m), key.add(n), key.add(k);
  for (mapping::GemmDim d : order) key.add(d);
  key.add(single);
}

void add(Key& key, const llm::MatmulShape& s) {
  const auto& [name, batch, m, n, k, count, phase, layout, b_operand, weights_quantized,
               epilogue_ops, quant, dtypes, accumulate, fused_attention, fused_ffn] = s;
  // name: the layer's label (errors name it; the cost does not depend on it). count: an
  // Evaluation is the cost of one call. phase, quant, dtypes: what a log or a model pass says
  // about the call; the request's scheme (scheme_id) and bits decide the cost, not these.
  (void)name, (void)count, (void)phase, (void)quant, (void)dtypes;
  key.add(batch), key.add(m), key.add(n), key.add(k);
  key.add(layout), key.add(b_operand), key.add(weights_quantized), key.add(epilogue_ops);
  key.add(accumulate);
  key.add(fused_attention.has_value());  // a fused attention row: its heads and mask
  if (fused_attention)
    key.add(fused_attention->heads), key.add(fused_attention->kv_heads),
        key.add(fused_attention->causal);
  key.add(fused_ffn.has_value());  // a fused MLP row: gated, bias
  if (fused_ffn) key.add(fused_ffn->gated), key.add(fused_ffn->bias);
}

void add(Key& key, const analysis::Options& o) {
  const auto& [neighbourhood, energy, compute_delay, count] = o;
  const auto& [hops, same_time, prev_time] = neighbourhood;
  const auto& [l1_per_access, l2_per_access] = energy;
  key.add(hops), key.add(same_time), key.add(prev_time);
  key.add(l1_per_access), key.add(l2_per_access);
  key.add(compute_delay);
  (void)count;  // how the exact counter works (speed), not what it counts
}

Key key_of(const Request& r) {
  const auto& [matmul, problem, bits, accelerator, architecture, dataflow, tiling, tiling_objective,
               timing, scheme, dequant_rate, hw, relation_centric, analysis, accelerator_id,
               scheme_id] = r;
  if (problem)
    throw InternalError("eval::hash: a problem source has no memo key (matmul requests only)");
  if (architecture)
    throw InternalError(
        "eval::hash: a request with its own relation-centric architecture has no memo key");
  // Accelerator and scheme by id: equal ids mean equal contents, so an id is required.
  if (accelerator && !accelerator_id)
    throw InternalError("eval::hash: a request with an accelerator needs its accelerator_id");
  if (scheme && !scheme_id)
    throw InternalError("eval::hash: a request with a scheme needs its scheme_id");
  Key key;
  add(key, matmul);
  const auto& [bits_a, bits_b, bits_c] = bits;
  key.add(bits_a), key.add(bits_b), key.add(bits_c);
  key.add(accelerator != nullptr), key.add(accelerator_id);
  key.add(dataflow);
  key.add(tiling.has_value());
  if (tiling) add(key, *tiling);
  key.add(tiling_objective), key.add(timing);
  key.add(scheme != nullptr), key.add(scheme_id);
  const auto& [elements_per_cycle, ops_per_cycle] = dequant_rate;
  key.add(elements_per_cycle), key.add(ops_per_cycle);
  const auto& [unlimited_sram_bandwidth, unlimited_dram_bandwidth, unlimited_buffer, edge_transfers,
               kernel_launch] = hw;
  key.add(unlimited_sram_bandwidth), key.add(unlimited_dram_bandwidth);
  key.add(unlimited_buffer), key.add(edge_transfers), key.add(kernel_launch);
  key.add(relation_centric);
  // The analysis settings change only the relation-centric metrics (relation_centric, or TENET
  // timing).
  if (relation_centric || timing == Timing::kTenet) add(key, analysis);
  return key;
}

}  // namespace

const char* to_string(Timing t) { return t == Timing::kTenet ? "tenet" : "systolic"; }

std::size_t hash(const Request& r) { return key_of(r).hash(); }

bool same_evaluation(const Request& a, const Request& b) { return key_of(a) == key_of(b); }

}  // namespace tenet::eval
