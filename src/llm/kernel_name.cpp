#include "tenet/llm/kernel_name.hpp"

#include <ostream>
#include <string_view>
#include <vector>

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
