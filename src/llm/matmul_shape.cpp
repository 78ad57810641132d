#include "tenet/llm/matmul_shape.hpp"

#include <algorithm>
#include <ostream>

#include "tenet/error.hpp"

namespace tenet::llm {
namespace {

[[noreturn]] void throw_unknown(const std::string& what, const std::string& name,
                                const std::string& expected) {
  throw InputError(error_code::kUnknownName, "", "",
                   "unknown " + what + " '" + name + "' (expected " + expected + ")");
}

Integer to_big(std::int64_t v) { return Integer(static_cast<long>(v)); }

}  // namespace

const char* to_string(Phase p) {
  switch (p) {
    case Phase::kUnspecified:
      return "unspecified";
    case Phase::kPrefill:
      return "prefill";
    case Phase::kDecode:
      return "decode";
  }
  throw InternalError("bad Phase");
}

Phase parse_phase(const std::string& name) {
  if (name == "prefill") return Phase::kPrefill;
  if (name == "decode") return Phase::kDecode;
  throw_unknown("phase", name, "prefill or decode");
}

OperandRole parse_b_operand(const std::string& name) {
  if (name == "weight") return OperandRole::kWeight;
  if (name == "kv_cache") return OperandRole::kKvCache;
  if (name == "activation") return OperandRole::kActivation;
  throw_unknown("B operand", name, "weight, kv_cache or activation");
}

Integer MatmulShape::macs_per_call() const {
  if (fused_attention) {
    Integer pairs = to_big(m) * to_big(n);
    if (fused_attention->causal) pairs -= to_big(m) * to_big(m - 1) / 2;
    if (const std::int64_t w = fused_attention->window; fused_attention->causal && w > 0) {
      // Query i sees min(a + i, W) keys, a = N − M + 1: the first t queries a + i, the rest W.
      const std::int64_t a = n - m + 1, t = std::clamp<std::int64_t>(w - a + 1, 0, m);
      pairs = to_big(t) * to_big(a) + to_big(t) * to_big(t - 1) / 2 + to_big(m - t) * to_big(w);
    }
    return Integer(2) * to_big(batch) * to_big(fused_attention->heads) * pairs * to_big(k);
  }
  if (fused_ffn)
    return Integer(fused_ffn->gated ? 3 : 2) * to_big(batch) * to_big(m) * to_big(n) * to_big(k);
  return to_big(batch) * to_big(m) * to_big(n) * to_big(k);
}

Integer MatmulShape::macs() const { return macs_per_call() * to_big(count); }

bool same_call(const MatmulShape& a, const MatmulShape& b) {
  return a.batch == b.batch && a.m == b.m && a.n == b.n && a.k == b.k && a.phase == b.phase &&
         a.layout == b.layout && a.b_operand == b.b_operand &&
         a.weights_quantized == b.weights_quantized && a.epilogue_ops == b.epilogue_ops &&
         a.quant == b.quant && a.dtypes == b.dtypes && a.accumulate == b.accumulate &&
         a.fused_attention == b.fused_attention && a.fused_ffn == b.fused_ffn;
}

bool operator==(const MatmulShape& a, const MatmulShape& b) {
  return a.name == b.name && a.count == b.count && same_call(a, b);
}

std::ostream& operator<<(std::ostream& os, const MatmulShape& s) {
  os << s.name << " [" << to_string(s.phase) << "] batch " << s.batch << ", M " << s.m << ", N "
     << s.n << ", K " << s.k << " x" << s.count << " (" << to_string(s.layout) << ", B "
     << to_string(s.b_operand);
  if (s.weights_quantized) os << (*s.weights_quantized ? ", quantized" : ", not quantized");
  if (s.epilogue_ops > 0) os << ", epilogue " << s.epilogue_ops;
  if (!s.quant.empty()) os << ", quant " << s.quant;
  if (s.accumulate) os << ", C += A·B";
  if (s.fused_attention)
    os << ", fused attention " << s.fused_attention->heads << "/" << s.fused_attention->kv_heads
       << " heads" << (s.fused_attention->causal ? ", causal" : "");
  if (s.fused_attention && s.fused_attention->window > 0)
    os << ", window " << s.fused_attention->window;
  if (s.fused_ffn)
    os << ", fused " << (s.fused_ffn->gated ? "gated" : "plain") << " MLP"
       << (s.fused_ffn->bias ? " with bias" : "");
  return os << ")";
}

}  // namespace tenet::llm
