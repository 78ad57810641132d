// Matmul recognition, the dequantize chain and the epilogue (docs/tir.md#recognition).
#include "tenet/tir/matmul.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "tenet/error.hpp"
#include "tenet/quant/quant_json.hpp"
#include "tir/expr_util.hpp"
#include "tir/trace.hpp"

namespace tenet::tir {
namespace {

using detail::constant;
using detail::NonAffine;
using detail::strip_cast;
using detail::Unsupported;

bool same_load(const Expr& a, const Expr& b) {
  return a.kind == Expr::Kind::kLoad && b.kind == Expr::Kind::kLoad && to_string(a) == to_string(b);
}

struct Update {
  const Expr* x = nullptr;
  const Expr* y = nullptr;
};

// C[..] = C[..] + X * Y (casts allowed), either order of the sum.
std::optional<Update> match_update(const Store& st) {
  const Expr& v = strip_cast(st.value);
  if (v.kind != Expr::Kind::kBinary || v.text != "+") return std::nullopt;
  Expr target;
  target.kind = Expr::Kind::kLoad;
  target.text = st.buffer;
  target.args = st.indices;
  for (int side = 0; side < 2; ++side) {
    const Expr& acc = strip_cast(v.args[side]);
    const Expr& prod = strip_cast(v.args[1 - side]);
    if (!same_load(acc, target)) continue;
    if (prod.kind != Expr::Kind::kBinary || prod.text != "*") return std::nullopt;
    const Expr& x = strip_cast(prod.args[0]);
    const Expr& y = strip_cast(prod.args[1]);
    if (x.kind != Expr::Kind::kLoad || y.kind != Expr::Kind::kLoad) return std::nullopt;
    if (same_load(x, y)) return std::nullopt;  // a sum of squares (RMS norm), not a product
    return Update{&x, &y};
  }
  return std::nullopt;
}

std::set<std::string> vars_of(const std::vector<Expr>& indices) {
  std::set<std::string> s;
  for (const Expr& e : indices) detail::names_in(e, s);
  return s;
}

// Position of the first index that uses one of `vars`; SIZE_MAX when none does.
std::size_t first_position(const std::vector<Expr>& indices, const std::vector<std::string>& vars) {
  for (std::size_t i = 0; i < indices.size(); ++i) {
    std::set<std::string> used;
    detail::names_in(indices[i], used);
    for (const std::string& v : vars)
      if (used.count(v)) return i;
  }
  return std::numeric_limits<std::size_t>::max();
}

std::vector<std::string> exclusive_vars(const Block& b, const std::set<std::string>& in_c,
                                        const std::set<std::string>& mine,
                                        const std::set<std::string>& other) {
  std::vector<std::string> out;
  for (const IterVar& v : b.iters)
    if (v.kind == 'S' && in_c.count(v.name) && mine.count(v.name) && !other.count(v.name))
      out.push_back(v.name);
  return out;
}

const Buffer& buffer_of(const PrimFunc& f, const std::string& name, int line) {
  const Buffer* b = f.find_buffer(name);
  if (!b) throw Unsupported{line, "buffer '" + name + "' is not declared"};
  return *b;
}

bool has_symbol(const PrimFunc& f, const std::vector<Expr>& shape) {
  for (const Expr& e : shape) {
    std::set<std::string> names;
    detail::names_in(e, names);
    for (const std::string& n : names)
      if (f.find_symbol(n)) return true;
  }
  return false;
}

// --- the dequantize chain --------------------------------------------------------------------

// `e` is `v // c` (casts allowed) for a role variable: its role and c.
std::optional<std::pair<std::string, std::int64_t>> divided_var(
    const Expr& e, const std::map<std::string, std::string>& role) {
  const Expr& x = strip_cast(e);
  if (x.kind == Expr::Kind::kName) {
    auto it = role.find(x.text);
    if (it != role.end()) return std::make_pair(it->second, std::int64_t{1});
    return std::nullopt;
  }
  const bool div = (x.kind == Expr::Kind::kBinary && x.text == "//") || x.is_call("T.floordiv");
  if (!div || x.args.size() != 2) return std::nullopt;
  const Expr& v = strip_cast(x.args[0]);
  auto c = constant(x.args[1]);
  if (v.kind != Expr::Kind::kName || !c) return std::nullopt;
  auto it = role.find(v.text);
  if (it == role.end()) return std::nullopt;
  return std::make_pair(it->second, *c);
}

bool is_and(const Expr& e) {
  return e.is_call("T.bitwise_and") || (e.kind == Expr::Kind::kBinary && e.text == "&");
}
bool is_shift(const Expr& e) {
  return e.is_call("T.shift_right") || (e.kind == Expr::Kind::kBinary && e.text == ">>");
}

// The mask applied to a (shifted) load of `buffer`: `T.bitwise_and(T.shift_right(w[..], s), 15)`.
std::optional<std::int64_t> mask_of(const Expr& e, const std::string& buffer) {
  if (is_and(e) && e.args.size() == 2) {
    for (int side = 0; side < 2; ++side) {
      auto m = constant(e.args[side]);
      const Expr& other = strip_cast(e.args[1 - side]);
      const Expr& inner = is_shift(other) ? strip_cast(other.args[0]) : other;
      if (m && inner.kind == Expr::Kind::kLoad && inner.text == buffer) return m;
    }
  }
  for (const Expr& a : e.args)
    if (auto m = mask_of(a, buffer)) return m;
  return std::nullopt;
}

// Whether a load of `buffer` sits in the subtrahend of a subtraction (through casts, unpacking
// and additions such as GPTQ's `zeros + 1`, not through the scale's multiplication).
bool subtracted(const Expr& e, const std::string& buffer, bool rhs = false) {
  if (e.kind == Expr::Kind::kLoad) return rhs && e.text == buffer;
  if (e.kind == Expr::Kind::kBinary && e.text == "-")
    return subtracted(e.args[0], buffer, rhs) || subtracted(e.args[1], buffer, true);
  const bool scaling = e.kind == Expr::Kind::kBinary && (e.text == "*" || e.text == "/");
  for (const Expr& a : e.args)
    if (subtracted(a, buffer, rhs && !scaling)) return true;
  return false;
}

// A constant subtracted from the unpacked value: `q - T.float16(7)`.
std::optional<double> offset_of(const Expr& e) {
  if (e.kind == Expr::Kind::kBinary && e.text == "-") {
    const Expr& r = strip_cast(e.args[1]);
    if (r.kind == Expr::Kind::kInt) return static_cast<double>(r.value);
    if (r.kind == Expr::Kind::kFloat) return r.number;
    if (r.kind == Expr::Kind::kCall && r.args.size() == 1 && r.text.rfind("T.", 0) == 0) {
      const Expr& lit = r.args[0];
      if (lit.kind == Expr::Kind::kInt) return static_cast<double>(lit.value);
      if (lit.kind == Expr::Kind::kFloat) return lit.number;
    }
  }
  for (const Expr& a : e.args)
    if (auto o = offset_of(a)) return o;
  return std::nullopt;
}

std::optional<WeightStorage> read_storage(const PrimFunc& f, const Expr& weight,
                                          const std::map<std::string, std::string>& role,
                                          const std::vector<Expr>& k_extents) {
  std::vector<const Expr*> loads;
  detail::loads_in(weight, loads);
  const Expr* stored = nullptr;
  for (const Expr* l : loads) {
    const Buffer& b = buffer_of(f, l->text, l->line);
    if (detail::is_integer_dtype(b.dtype) && !stored) stored = l;
  }
  if (!stored) return std::nullopt;
  const Buffer& sb = buffer_of(f, stored->text, stored->line);
  WeightStorage w;
  w.buffer = sb.name;
  w.storage_dtype = sb.dtype;
  w.storage_shape = sb.shape;
  const int storage_bits = detail::dtype_bits(sb.dtype);
  if (auto mask = mask_of(weight, sb.name)) {
    const std::int64_t m = *mask + 1;
    if (m <= 1 || (m & (m - 1)) != 0)
      throw Unsupported{stored->line,
                        fmt::format("mask {} of '{}' is not 2^b - 1", *mask, sb.name)};
    w.bits = 0;
    for (std::int64_t v = m; v > 1; v >>= 1) ++w.bits;
  } else {
    w.bits = storage_bits;
  }
  for (const Expr& index : stored->args) {
    auto d = divided_var(index, role);
    if (d && d->second > 1) {
      w.elems_per_word = static_cast<int>(d->second);
      w.pack_axis = d->first;
    }
  }
  if (w.elems_per_word * w.bits > storage_bits)
    throw Unsupported{stored->line, fmt::format("{} values of {} bits do not fit a {} word",
                                                w.elems_per_word, w.bits, sb.dtype)};
  w.offset = offset_of(weight);
  for (const Expr* l : loads) {
    if (l == stored || l->text == sb.name) continue;
    const Buffer& b = buffer_of(f, l->text, l->line);
    if (subtracted(weight, b.name)) {
      w.zero_buffer = b.name;
      w.zero_dtype = b.dtype;
      continue;
    }
    if (!w.scale_buffer.empty()) continue;
    w.scale_buffer = b.name;
    w.scale_dtype = b.dtype;
    w.scale_shape = b.shape;
    for (std::size_t i = 0; i < l->args.size(); ++i) {
      std::vector<const Expr*> inner;
      detail::loads_in(l->args[i], inner);
      if (!inner.empty()) {  // scale[g_idx[k], n]
        w.group_index_buffer = inner[0]->text;
        w.group_axis = "k";
        std::optional<std::int64_t> rows;
        if (i < b.shape.size()) rows = constant(b.shape[i]);
        std::optional<std::int64_t> k =
            k_extents.size() == 1 ? constant(k_extents[0]) : std::nullopt;
        if (rows && k && *rows > 0 && *k % *rows == 0) w.group_size = *k / *rows;
        continue;
      }
      auto d = divided_var(l->args[i], role);
      if (d && d->second > 1) {
        w.group_size = d->second;
        w.group_axis = d->first;
      }
    }
  }
  w.group_aligned =
      w.group_size > 0 && w.elems_per_word > 1 && w.group_size % w.elems_per_word == 0;
  return w;
}

// --- the epilogue ----------------------------------------------------------------------------

bool reads_buffer(const Expr& e, const std::string& buffer) {
  std::vector<const Expr*> loads;
  detail::loads_in(e, loads);
  for (const Expr* l : loads)
    if (l->text == buffer) return true;
  return false;
}

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

void trace_epilogue(const PrimFunc& f, std::size_t matmul_index, MatmulKernel& k) {
  std::string current = k.c_buffer;
  for (std::size_t i = matmul_index + 1; i < f.blocks.size(); ++i) {
    const Block& b = f.blocks[i];
    if (b.stores.size() != 1 || !reads_buffer(b.stores[0].value, current)) continue;
    bool reduces = false;
    for (const IterVar& v : b.iters) reduces = reduces || v.kind != 'S';
    if (reduces) break;
    for (std::string& op : epilogue_ops(b.stores[0].value)) k.epilogue.push_back(std::move(op));
    current = b.stores[0].buffer;
  }
  k.output_buffer = current;
  k.output_dtype = buffer_of(f, current, k.line).dtype;
}

// --- one block -------------------------------------------------------------------------------

void check_extent_names(const PrimFunc& f, const Block& b, std::set<std::string>& symbols) {
  for (const IterVar& v : b.iters) {
    std::set<std::string> names;
    detail::names_in(v.extent, names);
    for (const std::string& n : names) {
      if (!f.find_symbol(n))
        throw Unsupported{v.line, "extent of '" + v.name + "' uses '" + n +
                                      "', which is not a symbolic size of the function"};
      symbols.insert(n);
    }
  }
}

// The terms of a sum (`a * 2 + b - c` → a * 2, b, c).
void sum_terms(const Expr& e, std::vector<const Expr*>& out) {
  if (e.kind == Expr::Kind::kBinary && (e.text == "+" || e.text == "-") && e.args.size() == 2) {
    sum_terms(e.args[0], out);
    sum_terms(e.args[1], out);
    return;
  }
  out.push_back(&e);
}

// A convolution: one index of an operand is a sum sliding an output variable that only this
// operand reads (M of the input, N of the weight) over a reduction variable (`yy * 2 + ry`): one
// term holds the output variable, another the reduction variable. Not a matmul. An rfactor's
// split reduction (`vk0 * 128 + vrf * 8`) is told apart because its spatial part indexes both
// operands; a product of variables (`vk * vi`) is an approximation, not a convolution.
void check_not_convolution(const Block& b, const Expr& operand, const std::vector<std::string>& own,
                           const std::vector<std::string>& reduce) {
  for (const Expr& index : operand.args) {
    std::vector<const Expr*> terms;
    sum_terms(index, terms);
    if (terms.size() < 2) continue;
    std::string out, red;
    for (const Expr* t : terms) {
      const std::set<std::string> vars = vars_of({*t});
      std::string o, r;
      for (const std::string& v : own)
        if (vars.count(v)) o = v;
      for (const std::string& v : reduce)
        if (vars.count(v)) r = v;
      if (!o.empty() && r.empty()) out = o;
      if (!r.empty() && o.empty()) red = r;
    }
    if (out.empty() || red.empty()) continue;
    throw Unsupported{b.line, "convolution: " + operand.text + "'s index " + to_string(index) +
                                  " slides output variable '" + out +
                                  "' over reduction variable '" + red +
                                  "' (an implicit GEMM is not reported as a matmul)"};
  }
}

MatmulKernel recognize(const PrimFunc& f, std::size_t index, const Update& u) {
  const Block& b = f.blocks[index];
  const Store& st = b.stores[0];
  MatmulKernel k;
  k.func = f.name;
  k.block = b.name;
  k.line = b.line;
  const std::set<std::string> in_c = vars_of(st.indices);
  const Expr* x = u.x;
  const Expr* y = u.y;
  std::set<std::string> in_x = vars_of(x->args), in_y = vars_of(y->args);
  // B: the dequantized operand, else the one whose own variable comes later in C.
  const bool x_dequant = detail::has_producer(f, x->text, index);
  const bool y_dequant = detail::has_producer(f, y->text, index);
  bool swap = false;
  if (x_dequant != y_dequant) {
    swap = x_dequant;
  } else {
    const auto px = first_position(st.indices, exclusive_vars(b, in_c, in_x, in_y));
    const auto py = first_position(st.indices, exclusive_vars(b, in_c, in_y, in_x));
    swap = px > py;
  }
  if (swap) {
    std::swap(x, y);
    std::swap(in_x, in_y);
  }
  k.a_buffer = x->text;
  k.b_buffer = y->text;
  k.c_buffer = st.buffer;
  for (const IterVar& v : b.iters) {
    const bool c = in_c.count(v.name), a = in_x.count(v.name), w = in_y.count(v.name);
    if (v.kind == 'R') {
      if (!a || !w || c)
        throw Unsupported{
            v.line, "reduction variable '" + v.name + "' is not indexed by both operands only"};
      k.k_vars.push_back(v.name);
      k.k_extents.push_back(v.extent);
    } else if (v.kind != 'S') {
      throw Unsupported{v.line, "block variable '" + v.name + "' is neither spatial nor reduce"};
    } else if (c && a && w) {
      k.batch_vars.push_back(v.name);
      k.batch_extents.push_back(v.extent);
    } else if (c && a) {
      k.m_vars.push_back(v.name);
      k.m_extents.push_back(v.extent);
    } else if (c && w) {
      k.n_vars.push_back(v.name);
      k.n_extents.push_back(v.extent);
    } else {
      throw Unsupported{v.line, "spatial variable '" + v.name + "' is not indexed by the output " +
                                    "and an operand (broadcast)"};
    }
  }
  check_not_convolution(b, *x, k.m_vars, k.k_vars);
  check_not_convolution(b, *y, k.n_vars, k.k_vars);
  const auto pn = first_position(y->args, k.n_vars), pk = first_position(y->args, k.k_vars);
  k.layout = pn <= pk ? llm::Layout::kNT : llm::Layout::kNN;
  const Buffer& a = buffer_of(f, k.a_buffer, x->line);
  const Buffer& w = buffer_of(f, k.b_buffer, y->line);
  const Buffer& c = buffer_of(f, k.c_buffer, st.line);
  k.a_dtype = a.dtype;
  k.b_dtype = w.dtype;
  k.accumulate_dtype = c.dtype;

  std::map<std::string, std::string> role;
  for (const auto& v : k.batch_vars) role[v] = "batch";
  for (const auto& v : k.m_vars) role[v] = "m";
  for (const auto& v : k.n_vars) role[v] = "n";
  for (const auto& v : k.k_vars) role[v] = "k";
  const Expr weight = detail::inline_producers(f, *y, index);
  if (weight.kind != Expr::Kind::kLoad) k.storage = read_storage(f, weight, role, k.k_extents);
  const std::string origin = k.storage ? k.storage->buffer : k.b_buffer;
  const Buffer& ob = buffer_of(f, origin, y->line);
  const bool weight_like =
      ob.kind != BufferKind::kAlloc && k.batch_vars.empty() && !has_symbol(f, ob.shape);
  k.b_operand = weight_like ? workload::OperandRole::kWeight : workload::OperandRole::kActivation;

  std::set<std::string> symbols;
  check_extent_names(f, b, symbols);
  k.symbols.assign(symbols.begin(), symbols.end());
  trace_epilogue(f, index, k);
  k.approximations = detail::check_accesses(f, b, weight, *x, st);
  if (b.predicated)
    k.approximations.push_back(fmt::format(
        "line {}: block {} is predicated (T.where or if): its domain is over-approximated by the "
        "block variables' extents",
        b.line, b.name));
  return k;
}

void analyse(const PrimFunc& f, Recognition& out) {
  std::size_t found = 0;
  std::string why_not;
  int why_line = f.line;
  std::vector<MatmulKernel> kernels;
  try {
    for (std::size_t i = 0; i < f.blocks.size(); ++i) {
      const Block& b = f.blocks[i];
      bool reduces = false;
      for (const IterVar& v : b.iters) reduces = reduces || v.kind == 'R';
      if (!reduces) continue;
      std::optional<Update> u;
      if (b.stores.size() == 1) u = match_update(b.stores[0]);
      if (!u) {
        if (why_not.empty()) {
          why_not = fmt::format("block '{}' reduces but its update is not C = C + A * B", b.name);
          why_line = b.line;
        }
        continue;
      }
      kernels.push_back(recognize(f, i, *u));
      ++found;
    }
  } catch (const Unsupported& e) {
    out.skipped.push_back({f.name, e.reason, e.line});
    return;
  }
  if (found == 0) {
    if (why_not.empty()) {
      std::string names;
      for (const Block& b : f.blocks) names += (names.empty() ? "" : ", ") + b.name;
      why_not = f.blocks.empty() ? "no block" : "no matmul block (blocks: " + names + ")";
    }
    out.skipped.push_back({f.name, why_not, why_line});
    return;
  }
  for (MatmulKernel& k : kernels) out.kernels.push_back(std::move(k));
}

// --- binding ---------------------------------------------------------------------------------

std::int64_t product(const std::vector<Expr>& extents, const SymbolValues& values,
                     const MatmulKernel& k, const char* what) {
  __int128 p = 1;
  for (const Expr& e : extents) {
    auto v = constant(e, &values);
    if (!v)
      throw InputError(error_code::kMissingField, "", k.func,
                       fmt::format("extent {} of {} is not bound", to_string(e), what));
    if (*v < 1)
      throw InputError(error_code::kRange, "", k.func,
                       fmt::format("{} extent {} = {} (expected >= 1)", what, to_string(e), *v));
    p *= *v;
    if (p > INT64_MAX)
      throw InputError(error_code::kOverflow, "", k.func,
                       fmt::format("{} does not fit 64 bits", what));
  }
  return static_cast<std::int64_t>(p);
}

quant::DataType data_type(const std::string& tvm, const std::string& func) {
  return quant::parse_data_type(tvm, "", func);
}

}  // namespace

Recognition find_matmuls(const Module& module, const std::string& func) {
  Recognition r;
  bool seen = func.empty();
  for (const Skipped& s : module.skipped)
    if (func.empty() || s.func == func) {
      r.skipped.push_back(s);
      seen = true;
    }
  for (const PrimFunc& f : module.functions) {
    if (!func.empty() && f.name != func) continue;
    seen = true;
    analyse(f, r);
  }
  if (!seen)
    throw InputError(error_code::kUnknownName, module.file, "func",
                     "no PrimFunc named '" + func + "'");
  return r;
}

SymbolValues parse_bindings(const std::string& text, const std::string& option) {
  SymbolValues values;
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const std::size_t eq = item.find('=');
    std::int64_t v = 0;
    bool ok = eq != std::string::npos && eq > 0;
    if (ok) {
      try {
        std::size_t used = 0;
        v = std::stoll(item.substr(eq + 1), &used);
        ok = used == item.size() - eq - 1 && used > 0;
      } catch (const std::exception&) {
        ok = false;
      }
    }
    if (!ok)
      throw InputError(error_code::kParse, "", option,
                       "expected NAME=INTEGER items separated by commas, got \"" + item + "\"");
    const std::string name = item.substr(0, eq);
    if (!values.emplace(name, v).second)
      throw InputError(error_code::kDuplicate, "", option, "'" + name + "' is bound twice");
    start = end + 1;
  }
  return values;
}

quant::QuantSpec auto_quant(const MatmulKernel& k) {
  quant::QuantSpec s;
  s.name = "auto";
  s.source = "TensorIR " + k.func + " (block " + k.block + ")";
  s.activations.dtype = data_type(k.a_dtype, k.func);
  s.output.dtype = data_type(k.output_dtype, k.func);
  s.accumulator = data_type(k.accumulate_dtype, k.func);
  if (!k.storage) {
    s.weights.dtype = data_type(k.b_dtype, k.func);
    s.dequant.placement = quant::DequantPlacement::kNone;
    return s;
  }
  const WeightStorage& w = *k.storage;
  const bool packed = w.bits < detail::dtype_bits(w.storage_dtype);
  const bool asymmetric = !w.zero_buffer.empty();
  if (!packed) {
    s.weights.dtype = data_type(w.storage_dtype, k.func);
  } else if (asymmetric) {
    s.weights.dtype = quant::DataType::unsigned_int(w.bits);
  } else {
    s.weights.dtype = quant::DataType::signed_int(w.bits);  // stored with an implicit offset
  }
  if (!w.scale_buffer.empty()) {
    quant::ScaleLevel level;
    level.dtype = data_type(w.scale_dtype, k.func);
    if (w.group_size > 0 && w.group_axis == "k") {
      level.granularity = quant::Granularity::kGroup;
      level.group_size = w.group_size;
    } else if (w.group_size > 0) {
      throw InputError(
          error_code::kUnknownName, "", k.func,
          "scale groups along " + w.group_axis + " (only groups along K are modelled)");
    } else if (!w.scale_shape.empty()) {
      level.granularity = quant::Granularity::kPerChannel;
    }
    if (asymmetric)
      level.zero = detail::is_integer_dtype(w.zero_dtype) ? quant::DataType::unsigned_int(w.bits)
                                                          : data_type(w.zero_dtype, k.func);
    s.weights.scales.push_back(level);
  }
  if (w.elems_per_word > 1) {
    quant::Packing p;
    p.storage_bits = detail::dtype_bits(w.storage_dtype);
    p.values_per_word = w.elems_per_word;
    p.axis = w.pack_axis == "n" ? quant::PackAxis::kN : quant::PackAxis::kK;
    p.group_aligned = w.group_aligned;
    s.weights.packing = p;
  }
  s.dequant.placement = quant::DequantPlacement::kSramToArray;
  quant::validate(s);
  return s;
}

namespace {

// `group_aligned` changes nothing when every group is a whole number of words: cleared then, so
// that specs differing only in how they state it compare equal.
quant::OperandSpec normalized(quant::OperandSpec o) {
  if (!o.packing) return o;
  bool whole_words = true;
  for (const quant::ScaleLevel& l : o.scales)
    if (l.granularity == quant::Granularity::kGroup &&
        l.group_size % o.packing->values_per_word != 0)
      whole_words = false;
  if (whole_words) o.packing->group_aligned = false;
  return o;
}

}  // namespace

std::string matching_preset(const quant::QuantSpec& spec, std::optional<llm::Layout> layout) {
  static const std::vector<quant::QuantSpec> presets = [] {
    std::vector<quant::QuantSpec> all;
    for (const std::string& name : quant::preset_names()) all.push_back(quant::load_preset(name));
    return all;
  }();
  std::vector<std::string> matches;
  for (const quant::QuantSpec& p : presets)
    if (p.activations == spec.activations && normalized(p.weights) == normalized(spec.weights) &&
        p.output == spec.output && p.accumulator == spec.accumulator &&
        p.kv_cache == spec.kv_cache && p.dequant == spec.dequant)
      matches.push_back(p.name);
  if (matches.empty()) return "";
  // MLC-LLM names the weight layout in the suffix: _0 stores K×N, _1 stores N×K.
  if (layout && matches.size() > 1) {
    const std::string suffix = *layout == llm::Layout::kNT ? "_1" : "_0";
    for (const std::string& m : matches)
      if (m.size() > 2 && m.compare(m.size() - 2, 2, suffix) == 0) return m;
  }
  return matches.front();
}

BoundKernel bind(const MatmulKernel& k, const SymbolValues& symbols) {
  BoundKernel b;
  b.kernel = k;
  for (const std::string& s : k.symbols) {
    auto it = symbols.find(s);
    if (it == symbols.end())
      throw InputError(
          error_code::kMissingField, "", "bind",
          fmt::format("symbolic size '{}' of {} is not bound (bind {}=VALUE)", s, k.func, s));
    b.symbols[s] = it->second;
  }
  llm::MatmulShape& s = b.shape;
  s.name = k.func;
  s.batch = product(k.batch_extents, b.symbols, k, "batch");
  s.m = product(k.m_extents, b.symbols, k, "M");
  s.n = product(k.n_extents, b.symbols, k, "N");
  s.k = product(k.k_extents, b.symbols, k, "K");
  s.layout = k.layout;
  s.b_operand = k.b_operand;
  s.weights_quantized = k.storage.has_value();
  s.epilogue_ops = static_cast<int>(k.epilogue.size());
  s.dtypes.in = k.a_dtype;
  s.dtypes.w = k.storage ? k.storage->storage_dtype : k.b_dtype;
  s.dtypes.out = k.output_dtype;
  s.dtypes.accum = k.accumulate_dtype;
  b.quant = auto_quant(k);
  if (k.storage)
    for (const Expr& e : k.storage->scale_shape) {
      auto v = constant(e, &b.symbols);
      if (!v)
        throw InputError(error_code::kMissingField, "", k.func,
                         "scale extent " + to_string(e) + " is not bound");
      b.scale_shape.push_back(*v);
    }
  return b;
}

}  // namespace tenet::tir
