#include "llm/kernel_name.hpp"

#include <ostream>
#include <string_view>
#include <vector>

#include "llm/op_counts.hpp"

namespace tenet::llm {
namespace {

// The '_'-separated words of a kernel name.
std::vector<std::string_view> split_words(std::string_view name) {
  std::vector<std::string_view> words;
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t end = name.find('_', start);
    if (end == std::string_view::npos) end = name.size();
    words.push_back(name.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

// "add7" -> "add": TVM numbers repeated function names.
std::string_view strip_number(std::string_view word) {
  std::size_t end = word.size();
  while (end > 0 && word[end - 1] >= '0' && word[end - 1] <= '9') --end;
  return word.substr(0, end);
}

bool is_elementwise(std::string_view w) {
  static constexpr std::string_view kOps[] = {
      "add",   "subtract", "multiply", "divide", "maximum", "minimum", "power",
      "gelu",  "silu",     "relu",     "tanh",   "sigmoid", "exp",     "sqrt",
      "rsqrt", "erf",      "cast",     "clip",   "negative"};
  for (std::string_view op : kOps) {
    if (w == op) return true;
  }
  return false;
}

// Index of the last "matmul" word, or words.size() if none.
std::size_t last_matmul(const std::vector<std::string_view>& words) {
  std::size_t found = words.size();
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (strip_number(words[i]) == "matmul") found = i;
  }
  return found;
}

}  // namespace

KernelTraits interpret_kernel_name(const std::string& kernel) {
  KernelTraits t;
  const std::vector<std::string_view> words = split_words(kernel);
  for (std::string_view w : words) {
    if (strip_number(w) == "dequantize") t.weights_quantized = true;
  }
  const std::size_t mm = last_matmul(words);
  if (mm == words.size()) return t;
  t.layout = mm > 0 && words[mm - 1] == "NT" ? Layout::kNT : Layout::kNN;
  for (std::size_t i = mm + 1; i < words.size(); ++i) {
    const std::string_view op = strip_number(words[i]);
    if (!is_elementwise(op)) continue;
    ++t.epilogue_ops;
    if (op == "add") ++t.epilogue_adds;
  }
  return t;
}

std::ostream& operator<<(std::ostream& os, const KernelTraits& t) {
  os << "{weights " << (t.weights_quantized ? "quantized" : "not quantized") << ", layout "
     << (t.layout ? to_string(*t.layout) : "unknown") << ", epilogue ";
  if (!t.has_epilogue()) return os << "none}";
  return os << "1 chain of " << t.epilogue_ops << " ops (" << t.epilogue_adds << " adds)}";
}

}  // namespace tenet::llm

namespace tenet::llm {
namespace {

// Elementary operations per element of the operators: llm/op_counts.hpp.
using ::tenet::llm::detail::kGeluOps;
using ::tenet::llm::detail::kLayerNormOps;
using ::tenet::llm::detail::kRmsNormOps;
using ::tenet::llm::detail::kRotaryOps;
using ::tenet::llm::detail::kSiluOps;
using ::tenet::llm::detail::kSoftmaxOps;

bool is_binary(std::string_view w) {
  return w == "add" || w == "subtract" || w == "multiply" || w == "divide" || w == "maximum" ||
         w == "minimum" || w == "power";
}

}  // namespace

std::optional<VectorKernelTraits> interpret_vector_kernel(const std::string& kernel) {
  const std::vector<std::string_view> raw = split_words(kernel);
  if (last_matmul(raw) != raw.size()) return std::nullopt;
  std::vector<std::string_view> words;
  bool top_k = false;  // "top4_softmax", "top2_softmax" (the k digits kept in the raw word)
  for (std::string_view w : raw) {
    const std::string_view bare = strip_number(w);
    if (bare == "top" && bare.size() < w.size()) top_k = true;
    if (bare == "fused" || bare == "fuse" || bare == "tir" || bare == "T" || bare == "kernel" ||
        bare.empty())
      continue;
    words.push_back(bare);
  }
  auto has = [&](std::string_view w) {
    for (std::string_view x : words)
      if (x == w) return true;
    return false;
  };
  VectorKernelTraits t;
  // Attention kernels (paged or ragged KV attention) are matmuls in all but name: not here.
  if (has("attention") || has("paged") || has("ragged")) return std::nullopt;
  if (has("kv") && has("append")) {  // tir_kv_cache_transpose_append
    t.kind = "kv_append", t.op = "kv_append", t.kv_output = true;
    return t;
  }
  if (has("rope") || has("rotary")) {  // fused_rope: reads QKV, writes rotated Q, K and V
    t.kind = "rotary", t.op = "rotary", t.ops_per_element = kRotaryOps;
    return t;
  }
  if (has("take")) {  // (fused_dequantize_)take: rows of the embedding table
    t.kind = "embedding", t.op = "embedding", t.inputs = 0, t.table_input = true;
    return t;
  }
  if (top_k || has("topk") || (has("gating") && has("softmax"))) {
    t.kind = "routing", t.op = "top_k", t.ops_per_element = kSoftmaxOps + 1;
    return t;
  }
  if (has("moe")) {  // moe_sum, moe_cumsum: the combine and the dispatch bookkeeping
    t.kind = "routing", t.op = "moe";
    return t;
  }
  if (has("argsort")) {  // argsort_probs: the sampler's sort over the vocabulary
    t.kind = "logits", t.op = "sort", t.sort = true, t.ops_per_element = 0;
    return t;
  }
  if (has("sample") || has("sampling") || has("lse") || has("chunked") || has("temperature") ||
      has("renorm") || has("cutoff") || has("penalty") || has("bitmask") || has("probs") ||
      has("logit") || has("logits")) {
    t.kind = "logits", t.op = "sampling", t.ops_per_element = kSoftmaxOps;
    return t;
  }
  if (has("norm")) {
    t.kind = "norm", t.norm_weights = true;
    if (has("layer")) {
      t.op = "layer_norm", t.ops_per_element = kLayerNormOps;
    } else if (has("add")) {  // fuse_add_norm_prefill/decode: residual add + RMSNorm
      t.op = "add_rms_norm", t.ops_per_element = kRmsNormOps + 1, t.inputs = 2, t.outputs = 2;
    } else {
      t.op = "rms_norm", t.ops_per_element = kRmsNormOps;
    }
    return t;
  }
  if (has("softmax")) {
    t.kind = "softmax", t.op = "softmax", t.ops_per_element = kSoftmaxOps;
    return t;
  }
  const bool silu = has("silu"), gelu = has("gelu");
  if (silu || gelu || has("relu") || has("sigmoid")) {
    t.kind = "activation";
    t.ops_per_element = silu ? kSiluOps : gelu ? kGeluOps : 1;
    t.op = silu ? "silu" : gelu ? "gelu" : "activation";
    if (has("multiply")) {  // split + act × gate: two inputs per output
      t.op = std::string("gated_") + t.op;
      t.ops_per_element += 1;
      t.inputs = 2;
    }
    return t;
  }
  int ops = 0, binary = 0;
  for (std::string_view w : words) {
    if (!is_elementwise(w)) return std::nullopt;  // an unknown piece: not guessed
    ++ops;
    if (is_binary(w)) ++binary;
  }
  if (ops == 0) return std::nullopt;
  t.kind = "residual", t.op = "elementwise", t.ops_per_element = ops, t.inputs = 1 + binary;
  return t;
}

}  // namespace tenet::llm
