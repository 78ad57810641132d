// The epilogue after a matmul block (recognize.hpp; docs/tir.md#recognition).
#include "tir/expr_util.hpp"
#include "tir/recognize.hpp"

namespace tenet::tir::detail {
namespace {

bool contains_call(const Expr& e, const char* callee) {
  if (e.is_call(callee)) return true;
  for (const Expr& a : e.args)
    if (contains_call(a, callee)) return true;
  return false;
}

bool has_load(const Expr& e) {
  std::vector<const Expr*> loads;
  detail::loads_in(e, loads);
  return !loads.empty();
}

// One op per binary operator with a load operand, per T.max / T.min and per unary function.
void arithmetic_ops(const Expr& e, std::vector<std::string>& ops) {
  if (e.kind == Expr::Kind::kLoad) return;
  static const char* const kBinary[][2] = {
      {"+", "add"}, {"-", "subtract"}, {"*", "multiply"}, {"/", "divide"}};
  if (e.kind == Expr::Kind::kBinary)
    for (const auto& n : kBinary)
      if (e.text == n[0] && (has_load(e.args[0]) || has_load(e.args[1]))) ops.push_back(n[1]);
  if (e.is_call("T.max")) ops.push_back("maximum");
  if (e.is_call("T.min")) ops.push_back("minimum");
  for (const char* f : {"exp", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "log"})
    if (e.kind == Expr::Kind::kCall && e.text == std::string("T.") + f) ops.push_back(f);
  for (const Expr& a : e.args) arithmetic_ops(a, ops);
}

std::vector<std::string> epilogue_ops(const Expr& value) {
  if (contains_call(value, "T.erf") ||
      (contains_call(value, "T.tanh") && strip_cast(value).text == "*"))
    return {"gelu"};
  if (contains_call(value, "T.sigmoid"))
    return {strip_cast(value).kind == Expr::Kind::kBinary && strip_cast(value).text == "*"
                ? "silu"
                : "sigmoid"};
  std::vector<std::string> ops;
  arithmetic_ops(value, ops);
  if (ops.empty() && value.kind == Expr::Kind::kCall && value.text == "T.Cast")
    ops.push_back("cast");
  return ops;
}

// `X[..] = X[..] + current[..]`: a stage combining partial sums (rfactor, cross-thread).
bool combines(const Store& st, const std::string& current) {
  const Expr& v = strip_cast(st.value);
  if (v.kind != Expr::Kind::kBinary || v.text != "+") return false;
  for (int side = 0; side < 2; ++side) {
    const Expr& acc = strip_cast(v.args[side]);
    const Expr& part = strip_cast(v.args[1 - side]);
    if (acc.kind == Expr::Kind::kLoad && acc.text == st.buffer && part.kind == Expr::Kind::kLoad &&
        part.text == current)
      return true;
  }
  return false;
}

}  // namespace

// Follows the accumulator to the function's output: stages that combine partial sums (rfactor
// and cross-thread reductions, `T.tvm_thread_allreduce` blocks known by their T.reads/T.writes),
// copies out of local/shared staging, and the element-wise epilogue.
void trace_epilogue(const PrimFunc& f, std::size_t matmul_index, MatmulKernel& k) {
  std::string current = k.c_buffer;
  for (std::size_t i = matmul_index + 1; i < f.blocks.size(); ++i) {
    const Block& b = f.blocks[i];
    if (b.stores.empty() && b.writes.size() == 1 && b.writes[0].buffer != current) {
      bool reads = false;
      for (const BufferAccess& a : b.reads) reads = reads || a.buffer == current;
      if (reads) current = b.writes[0].buffer;  // an intrinsic copy or a cross-thread reduction
      continue;
    }
    if (b.stores.size() != 1 || !reads_buffer(b.stores[0].value, current)) continue;
    bool reduces = false;
    for (const IterVar& v : b.iters) reduces = reduces || v.kind != 'S';
    if (reduces) {
      if (!combines(b.stores[0], current)) break;
      current = b.stores[0].buffer;
      continue;
    }
    for (std::string& op : epilogue_ops(b.stores[0].value)) k.epilogue.push_back(std::move(op));
    current = b.stores[0].buffer;
  }
  k.output_buffer = current;
  k.output_dtype = buffer_of(f, current, k.line).dtype;
}

}  // namespace tenet::tir::detail
