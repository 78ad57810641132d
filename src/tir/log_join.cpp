#include "tir/log_join.hpp"

#include <fmt/core.h>

#include <map>
#include <set>

#include "tenet/error.hpp"
#include "tir/expr_util.hpp"

namespace tenet::tir {
namespace {

// Solves the one unknown symbol of a role whose extents are `symbol` and constants.
void solve_role(const MatmulKernel& k, const std::vector<Expr>& extents, std::int64_t logged,
                const char* role, SymbolValues& values) {
  const Expr* unknown = nullptr;
  std::int64_t known = 1;
  for (const Expr& e : extents) {
    if (auto c = detail::constant(e, &values)) {
      known *= *c;
      continue;
    }
    if (e.kind != Expr::Kind::kName || unknown) return;  // left to another role, or unsolvable
    unknown = &e;
  }
  if (!unknown) return;
  if (known <= 0 || logged % known != 0)
    throw InputError(error_code::kRange, "", k.func,
                     fmt::format("logged {} = {} is not a multiple of {} (the kernel's other {} "
                                 "extents)",
                                 role, logged, known, role));
  values[unknown->text] = logged / known;
}

}  // namespace

SymbolValues solve_symbols(const MatmulKernel& k, const llm::MatmulShape& logged) {
  SymbolValues values;
  for (int pass = 0; pass < 2; ++pass) {
    solve_role(k, k.batch_extents, logged.batch, "batch", values);
    solve_role(k, k.m_extents, logged.m, "M", values);
    solve_role(k, k.n_extents, logged.n, "N", values);
    solve_role(k, k.k_extents, logged.k, "K", values);
  }
  for (const std::string& s : k.symbols)
    if (!values.count(s)) {
      auto u = k.undeclared.find(s);
      throw InputError(error_code::kMissingField, "", k.func,
                       "symbolic size '" + s + "' cannot be solved from the logged extents" +
                           (u == k.undeclared.end()
                                ? std::string()
                                : " (not declared in the function; used in " + u->second + ")"));
    }
  const BoundKernel b = tir::bind(k, values);
  if (b.shape.batch != logged.batch || b.shape.m != logged.m || b.shape.n != logged.n ||
      b.shape.k != logged.k)
    throw InputError(error_code::kRange, "", k.func,
                     fmt::format("logged batch, M, N, K = {}, {}, {}, {} but the kernel has {}, "
                                 "{}, {}, {}",
                                 logged.batch, logged.m, logged.n, logged.k, b.shape.batch,
                                 b.shape.m, b.shape.n, b.shape.k));
  return values;
}

LogJoin join_log(const std::vector<llm::MatmulShape>& entries, const Module& module) {
  const Recognition found = find_matmuls(module);
  std::map<std::string, std::vector<const MatmulKernel*>> by_func;
  for (const MatmulKernel& k : found.kernels) by_func[k.func].push_back(&k);
  LogJoin out;
  std::set<std::string> warned;  // kernels already warned about
  auto warn_once = [&](const std::string& kernel, std::string text) {
    if (warned.insert(kernel).second) out.warnings.push_back(std::move(text));
  };
  for (const llm::MatmulShape& entry : entries) {
    auto it = by_func.find(entry.name);
    if (it == by_func.end() || it->second.size() != 1) {
      warn_once(
          entry.name,
          fmt::format("kernel {} {} in {}: its logged calls are costed from the log alone",
                      entry.name,
                      it == by_func.end() ? "has no recognised matmul" : "has several matmuls",
                      module.file));
      out.shapes.push_back(entry);
      continue;
    }
    const MatmulKernel& k = *it->second.front();
    const BoundKernel b = tir::bind(k, solve_symbols(k, entry));
    llm::MatmulShape s = entry;
    s.layout = b.shape.layout;
    s.b_operand = b.shape.b_operand;
    s.weights_quantized = b.shape.weights_quantized;
    s.epilogue_ops = b.shape.epilogue_ops;
    s.dtypes = b.shape.dtypes;
    if (s.quant.empty()) {
      s.quant = matching_preset(*b.quant, k.layout);
      if (s.quant.empty()) {  // the kernel's own scheme
        s.quant = "auto:" + k.func;
        if (!out.schemes.count(s.quant)) {
          auto spec = std::make_shared<quant::QuantSpec>(*b.quant);
          spec->name = s.quant;
          out.schemes.emplace(s.quant, std::move(spec));
        }
        warn_once(k.func, "the dequantize chain of " + k.func +
                              " matches no quantization preset: its calls are costed with the "
                              "kernel's own scheme " +
                              s.quant);
      }
    }
    out.shapes.push_back(std::move(s));
  }
  return out;
}

}  // namespace tenet::tir
