// Matmul recognition, the dequantize chain and the epilogue (docs/tir.md#recognition).
#include "tenet/tir/matmul.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

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

bool reads_buffer(const Expr& e, const std::string& buffer) {
  std::vector<const Expr*> loads;
  detail::loads_in(e, loads);
  for (const Expr* l : loads)
    if (l->text == buffer) return true;
  return false;
}

bool same_load(const Expr& a, const Expr& b) {
  return a.kind == Expr::Kind::kLoad && b.kind == Expr::Kind::kLoad && to_string(a) == to_string(b);
}

// `T.if_then_else(cond, x, 0)` (padding of a scheduled kernel) → x; casts stripped.
const Expr& strip_guard(const Expr& e) {
  const Expr& x = strip_cast(e);
  if (x.is_call("T.if_then_else") && x.args.size() == 3) {
    auto zero = constant(strip_cast(x.args[2]));
    const Expr& z = strip_cast(x.args[2]);
    const bool float_zero = (z.kind == Expr::Kind::kFloat && z.number == 0) ||
                            (z.kind == Expr::Kind::kCall && z.args.size() == 1 &&
                             ((z.args[0].kind == Expr::Kind::kFloat && z.args[0].number == 0) ||
                              (z.args[0].kind == Expr::Kind::kInt && z.args[0].value == 0)));
    if ((zero && *zero == 0) || float_zero) return strip_guard(x.args[1]);
  }
  return x;
}

struct Update {
  const Expr* x = nullptr;      // A's load
  const Expr* y = nullptr;      // B: a load, or the dequantize expression it is multiplied by
  std::shared_ptr<Expr> owned;  // y when it had to be rebuilt from the factors
  bool guarded = false;         // an operand is read through T.if_then_else (padding)
};

bool has_floordiv(const Expr& e) {
  if ((e.kind == Expr::Kind::kBinary && e.text == "//") || e.is_call("T.floordiv")) return true;
  for (const Expr& a : e.args)
    if (has_floordiv(a)) return true;
  return false;
}

// Whether the expression reads an integer buffer (directly or through producer blocks).
bool reads_integer(const PrimFunc& f, const Expr& e, std::size_t index) {
  std::vector<const Expr*> loads;
  detail::loads_in(e, loads);
  for (const Expr* l : loads) {
    const Buffer* b = f.find_buffer(l->text);
    if (b && detail::is_integer_dtype(b->dtype)) return true;
    if (detail::has_producer(f, l->text, index)) return true;
  }
  return false;
}

// C[..] = C[..] + X * Y (casts and zero-padding guards allowed), either order of the sum. Y may
// be an inline dequantize expression (`A[k] * ((q(w[n, k // 8]) - 7) * s[n, k // 32])`).
std::optional<Update> match_update(const PrimFunc& f, const Store& st, std::size_t index) {
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
    const Expr& x = strip_guard(prod.args[0]);
    const Expr& y = strip_guard(prod.args[1]);
    Update u;
    u.guarded = &x != &strip_cast(prod.args[0]) || &y != &strip_cast(prod.args[1]);
    if (x.kind == Expr::Kind::kLoad && y.kind == Expr::Kind::kLoad) {
      if (same_load(x, y)) return std::nullopt;  // a sum of squares (RMS norm), not a product
      u.x = &x;
      u.y = &y;
      return u;
    }
    // An inline dequantize: the side reading an integer buffer is B, the other side A.
    const bool ix = reads_integer(f, x, index), iy = reads_integer(f, y, index);
    if (ix == iy) return std::nullopt;
    const Expr* a = ix ? &y : &x;
    const Expr* w = ix ? &x : &y;
    if (a->kind != Expr::Kind::kLoad) return std::nullopt;
    // ((A * q) * s) printed without parentheses: s is the scale (indexed k // g), A is inside.
    const Expr& ws = strip_cast(*w);
    if (has_floordiv(*a) && ws.kind == Expr::Kind::kBinary && ws.text == "*") {
      for (int i = 0; i < 2; ++i) {
        const Expr& inner = strip_guard(ws.args[i]);
        if (inner.kind != Expr::Kind::kLoad || has_floordiv(inner) ||
            reads_integer(f, inner, index))
          continue;
        Expr rebuilt;
        rebuilt.kind = Expr::Kind::kBinary;
        rebuilt.text = "*";
        rebuilt.line = ws.line;
        rebuilt.args = {ws.args[1 - i], *a};
        u.owned = std::make_shared<Expr>(std::move(rebuilt));
        u.x = &inner;
        u.y = u.owned.get();
        return u;
      }
    }
    u.x = a;
    u.y = w;
    return u;
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

// The one role of the role variables an index uses ("" for none or several).
std::string role_of_index(const Expr& e, const std::map<std::string, std::string>& role) {
  std::set<std::string> names;
  detail::names_in(e, names);
  std::string r;
  for (const std::string& n : names) {
    auto it = role.find(n);
    if (it == role.end()) continue;
    if (!r.empty() && r != it->second) return "";
    r = it->second;
  }
  return r;
}

// `e` is `x // c` (casts allowed) with x a role variable or an expression in variables of one
// role (a split loop: `(k0 * 128 + k1 * 8 + k2) // 32`): that role and c.
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
  auto c = constant(x.args[1]);
  if (!c) return std::nullopt;
  const std::string r = role_of_index(x.args[0], role);
  if (r.empty()) return std::nullopt;
  return std::make_pair(r, *c);
}

// The logical extent of a role over the shape's dimension: how many values one element of a
// buffer dimension indexed by that role covers (packed words, scale groups) when the index is
// not printed as a division (`w[n, k0 * 16 + k2 // 8 + krf]` of a scheduled kernel).
std::optional<std::int64_t> ratio(const std::optional<std::int64_t>& logical, const Expr& dim) {
  auto d = constant(dim);
  if (!logical || !d || *d < 1 || *logical % *d != 0 || *logical / *d < 2) return std::nullopt;
  return *logical / *d;
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

// Whether a load of `buffer` is subtracted: some subtraction reads it in its subtrahend but not
// in its minuend — `(q - z) * s`, GPTQ's `q - (zeros + 1)`, `q * s - z * s`, `q * s - z`.
bool subtracted(const Expr& e, const std::string& buffer) {
  if (e.kind == Expr::Kind::kBinary && e.text == "-" && e.args.size() == 2 &&
      reads_buffer(e.args[1], buffer) && !reads_buffer(e.args[0], buffer))
    return true;
  for (const Expr& a : e.args)
    if (subtracted(a, buffer)) return true;
  return false;
}

// "rescale" when the zero point is subtracted from the scaled value (`q * s - z`), else
// "original" (`(q - z) * s`, `q * s - z * s`).
std::string zero_mode(const Expr& e, const std::string& zero, const std::string& scale) {
  if (e.kind == Expr::Kind::kBinary && e.text == "-" && e.args.size() == 2 &&
      reads_buffer(e.args[1], zero) && !reads_buffer(e.args[0], zero))
    return !scale.empty() && reads_buffer(e.args[0], scale) && !reads_buffer(e.args[1], scale)
               ? "rescale"
               : "original";
  for (const Expr& a : e.args) {
    std::string m = zero_mode(a, zero, scale);
    if (!m.empty()) return m;
  }
  return "";
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

// Logical extents of the roles ("k", "n") when constant.
using RoleExtents = std::map<std::string, std::optional<std::int64_t>>;

std::optional<WeightStorage> read_storage(const PrimFunc& f, const Expr& weight,
                                          const std::map<std::string, std::string>& role,
                                          const RoleExtents& extents) {
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
  auto extent_of = [&](const std::string& r) -> std::optional<std::int64_t> {
    auto it = extents.find(r);
    return it == extents.end() ? std::nullopt : it->second;
  };
  for (std::size_t i = 0; i < stored->args.size(); ++i) {
    const Expr& index = stored->args[i];
    auto d = divided_var(index, role);
    if (d && d->second > 1) {
      w.elems_per_word = static_cast<int>(d->second);
      w.pack_axis = d->first;
      continue;
    }
    const std::string r = role_of_index(index, role);
    if ((r == "k" || r == "n") && i < sb.shape.size() && w.bits < storage_bits)
      if (auto per = ratio(extent_of(r), sb.shape[i])) {
        w.elems_per_word = static_cast<int>(*per);
        w.pack_axis = r;
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
      if (!inner.empty()) {                                    // scale[g_idx[k], n]
        if (role_of_index(l->args[i], role) != "k") continue;  // a gathered expert: scale[e[0], ..]
        w.group_index_buffer = inner[0]->text;
        w.group_axis = "k";
        std::optional<std::int64_t> rows;
        if (i < b.shape.size()) rows = constant(b.shape[i]);
        std::optional<std::int64_t> k = extent_of("k");
        if (rows && k && *rows > 0 && *k % *rows == 0) w.group_size = *k / *rows;
        continue;
      }
      std::optional<std::pair<std::string, std::int64_t>> d = divided_var(l->args[i], role);
      if (!d || d->second < 2) {
        const std::string r = role_of_index(l->args[i], role);
        if ((r == "k" || r == "n") && i < b.shape.size())
          if (auto g = ratio(extent_of(r), b.shape[i])) d = std::make_pair(r, *g);
      }
      if (!d || d->second < 2) continue;
      if (d->first == "k") {
        if (w.group_axis == "n") w.group_size_n = w.group_size;
        w.group_size = d->second;
        w.group_axis = "k";
      } else if (d->first == "n") {
        if (w.group_axis == "k") {
          w.group_size_n = d->second;
        } else {
          w.group_size = d->second;
          w.group_axis = "n";
        }
      }
    }
  }
  if (!w.zero_buffer.empty()) w.zero_mode = zero_mode(weight, w.zero_buffer, w.scale_buffer);
  w.group_aligned = w.group_size > 0 && w.group_axis == "k" && w.pack_axis == "k" &&
                    w.elems_per_word > 1 && w.group_size % w.elems_per_word == 0;
  return w;
}

// --- the epilogue ----------------------------------------------------------------------------

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

// The type an inline dequantize produces: its outermost `T.Cast("float16", ..)`, else A's type.
std::string dequantized_dtype(const Expr& e, const std::string& fallback) {
  if (e.is_call("T.Cast") && e.args.size() == 2 && e.args[0].kind == Expr::Kind::kString)
    return e.args[0].text;
  for (const Expr& a : e.args) {
    std::string d = dequantized_dtype(a, "");
    if (!d.empty()) return d;
  }
  return fallback;
}

// Whether spatial variable `v` shares an index with a reduction variable in one of the loads:
// the spatial part of an rfactor's split reduction (`A[k0 * 128 + krf * 8 + k2]`).
bool tied_to_reduction(const std::string& v, const std::vector<const Expr*>& loads,
                       const std::set<std::string>& reduce) {
  for (const Expr* l : loads)
    for (const Expr& index : l->args) {
      std::set<std::string> names;
      detail::names_in(index, names);
      if (!names.count(v)) continue;
      for (const std::string& r : reduce)
        if (names.count(r)) return true;
    }
  return false;
}

// Variables of enclosing blocks (a MoE kernel's expert `e` bound by an outer block) or loops used
// by the block's accesses: spatial variables of the logical matmul.
std::set<std::string> add_outer_vars(const PrimFunc& f, std::size_t index, Block& b,
                                     const std::set<std::string>& used) {
  std::set<std::string> added;
  std::set<std::string> known;
  for (const IterVar& v : b.iters) known.insert(v.name);
  for (const std::string& n : used) {
    if (known.count(n) || f.find_symbol(n) || f.find_buffer(n)) continue;
    const IterVar* found = nullptr;
    int depth = b.depth;
    for (std::size_t i = index; i-- > 0 && depth > 0 && !found;) {
      const Block& o = f.blocks[i];
      if (o.depth >= depth) continue;
      depth = o.depth;
      for (const IterVar& v : o.iters)
        if (v.name == n) found = &v;
    }
    if (found) {
      b.iters.push_back({n, 'S', found->extent, found->binding, found->line});
      known.insert(n);
      added.insert(n);
      continue;
    }
    for (const Loop& l : b.loops)
      if (l.var == n) {
        Expr binding;
        binding.kind = Expr::Kind::kName;
        binding.text = n;
        b.iters.push_back({n, 'S', l.extent, binding, l.line});
        known.insert(n);
        added.insert(n);
        break;
      }
  }
  return added;
}

// The first load of an integer buffer used as a whole index of another load (`w[e[0], n, k]`):
// the weight is gathered per expert through that index buffer.
const Expr* gathered_dim(const PrimFunc& f, const Expr& load, std::size_t& dim) {
  for (std::size_t i = 0; i < load.args.size(); ++i) {
    const Expr& index = strip_cast(load.args[i]);
    if (index.kind != Expr::Kind::kLoad) continue;
    const Buffer* ib = f.find_buffer(index.text);
    if (ib && detail::is_integer_dtype(ib->dtype)) {
      dim = i;
      return &index;
    }
  }
  return nullptr;
}

Expr times(const Expr& e, std::int64_t c) {
  if (c == 1) return e;
  Expr lit;
  lit.kind = Expr::Kind::kInt;
  lit.value = c;
  lit.line = e.line;
  Expr p;
  p.kind = Expr::Kind::kBinary;
  p.text = "*";
  p.line = e.line;
  p.args = {e, lit};
  return p;
}

// A padded operand: its staging copy reads the parameter under `T.if_then_else(v < m, X[v, k],
// 0)`, so the block variable spans the padded extent. The parameter's own dimension indexed by
// the plain variable is the true extent. Returns whether a guard was seen.
bool unpad(const PrimFunc& f, const Expr& operand, std::size_t index,
           const std::vector<std::string>& vars, std::vector<Expr>& extents) {
  const Expr inlined = detail::inline_expr(f, operand, index);
  const Expr& origin = strip_guard(inlined);
  if (&origin == &strip_cast(inlined)) return false;
  std::vector<const Expr*> loads;
  if (origin.kind == Expr::Kind::kLoad) {
    loads.push_back(&origin);
  } else {
    detail::loads_in(origin, loads);
  }
  for (const Expr* l : loads) {
    const Buffer* buf = f.find_buffer(l->text);
    if (!buf || buf->kind == BufferKind::kAlloc) continue;
    for (std::size_t i = 0; i < l->args.size() && i < buf->shape.size(); ++i) {
      const Expr& ix = strip_cast(l->args[i]);
      std::set<std::string> names;
      detail::names_in(ix, names);
      // A split role (`k0 * 64 + krf`) indexing one dimension: that dimension is the role's size.
      const bool whole_role = ix.kind != Expr::Kind::kName && vars.size() > 1 &&
                              std::all_of(vars.begin(), vars.end(),
                                          [&](const std::string& v) { return names.count(v) > 0; });
      if (whole_role) {
        Expr one;
        one.kind = Expr::Kind::kInt;
        one.value = 1;
        for (Expr& e : extents) e = one;
        extents[0] = buf->shape[i];
        continue;
      }
      if (ix.kind != Expr::Kind::kName) continue;
      for (std::size_t v = 0; v < vars.size(); ++v)
        if (vars[v] == ix.text) extents[v] = buf->shape[i];
    }
  }
  return true;
}

// The copy chain of a staging buffer (`B_local[v0, v1] = B[v0, v1]`) back to its source.
// `transposed` flips for each copy whose source reads the destination's last two variables in
// the other order (`W_shared[v0, v1, v2] = W[v2, v1]`).
std::string staged_origin(const PrimFunc& f, const std::string& buffer, std::size_t before,
                          bool* transposed = nullptr) {
  std::string current = buffer;
  for (int hop = 0; hop < 8; ++hop) {
    bool moved = false;
    for (std::size_t i = std::min(before, f.blocks.size()); i-- > 0;) {
      const Block& b = f.blocks[i];
      if (b.stores.empty() && b.writes.size() == 1 && b.writes[0].buffer == current &&
          b.reads.size() == 1) {  // a tile copy (`T.tvm_load_matrix_sync`, `T.ptx_ldmatrix`)
        current = b.reads[0].buffer;
        moved = true;
        break;
      }
      if (b.stores.size() != 1 || b.stores[0].buffer != current) continue;
      const Expr& v = strip_guard(b.stores[0].value);
      if (v.kind == Expr::Kind::kLoad) {
        const std::vector<Expr>& dst = b.stores[0].indices;
        if (transposed && dst.size() >= 2 && v.args.size() >= 2) {
          const std::string d0 = to_string(dst[dst.size() - 2]), d1 = to_string(dst.back());
          const std::string s0 = to_string(v.args[v.args.size() - 2]),
                            s1 = to_string(v.args.back());
          if (d0 == s1 && d1 == s0 && d0 != d1) *transposed = !*transposed;
        }
        current = v.text;
        moved = true;
      }
      break;
    }
    if (!moved) break;
  }
  return current;
}

// BitBLAS: B is written by a block calling an extern decode function
// (`T.call_extern("handle", "decode_i4s_to_f16_scale", Compressed.data, ...)`) whose T.reads
// name the packed storage and the scale (and zeros). The name gives the width and signedness:
// decode_i<bits><s|u>_to_<type>[_scale][_zeros_<mode>].
std::optional<WeightStorage> extern_decode(const PrimFunc& f, const std::string& b_buffer,
                                           std::size_t index, const RoleExtents& extents) {
  for (std::size_t i = index; i-- > 0;) {
    const Block& d = f.blocks[i];
    bool writes = false;
    for (const BufferAccess& a : d.writes) writes = writes || a.buffer == b_buffer;
    for (const Store& st : d.stores) writes = writes || st.buffer == b_buffer;
    if (!writes) continue;
    std::string name;
    for (const Expr& c : d.calls)
      if (c.text == "T.call_extern" || c.text == "T.call_pure_extern")
        for (const Expr& a : c.args)
          if (a.kind == Expr::Kind::kString && a.text.rfind("decode_i", 0) == 0) name = a.text;
    if (name.empty()) {
      if (d.stores.empty()) continue;  // another tile's region, keep looking
      return std::nullopt;
    }
    std::size_t pos = 8;  // after "decode_i"
    int bits = 0;
    while (pos < name.size() && std::isdigit(static_cast<unsigned char>(name[pos])))
      bits = bits * 10 + (name[pos++] - '0');
    if (bits < 1 || bits > 8)
      throw Unsupported{d.line, "extern decode function '" + name + "' names no bit width"};
    WeightStorage w;
    w.decode_function = name;
    w.bits = bits;
    std::vector<const Buffer*> floats;
    for (const BufferAccess& a : d.reads) {
      const Buffer* buf = f.find_buffer(staged_origin(f, a.buffer, i));
      if (!buf) continue;
      if (detail::is_integer_dtype(buf->dtype) && w.buffer.empty()) {
        w.buffer = buf->name;
        w.storage_dtype = buf->dtype;
        w.storage_shape = buf->shape;
      } else if (!detail::is_integer_dtype(buf->dtype)) {
        floats.push_back(buf);
      }
    }
    if (w.buffer.empty())
      throw Unsupported{d.line, "extern decode '" + name + "' reads no integer storage"};
    const int storage_bits = detail::dtype_bits(w.storage_dtype);
    w.elems_per_word = std::max(1, storage_bits / bits);
    if (w.elems_per_word > 1) w.pack_axis = "k";
    auto k = extents.at("k");
    auto n = extents.at("n");
    const bool scaled = name.find("_scale") != std::string::npos;
    const bool zeros = name.find("_zeros") != std::string::npos;
    if (scaled && !floats.empty()) {
      const Buffer& sc = *floats[0];
      w.scale_buffer = sc.name;
      w.scale_dtype = sc.dtype;
      w.scale_shape = sc.shape;
      for (const Expr& dim : sc.shape) {
        auto v = constant(dim);
        if (v && n && *v == *n) continue;
        if (auto g = ratio(k, dim)) {
          w.group_size = *g;
          w.group_axis = "k";
        }
      }
    }
    if (zeros && floats.size() > 1) {
      w.zero_buffer = floats[1]->name;
      w.zero_dtype = floats[1]->dtype;
      const std::size_t m = name.find("_zeros_");
      w.zero_mode = m == std::string::npos ? "original" : name.substr(m + 7);
    }
    w.group_aligned =
        w.group_size > 0 && w.elems_per_word > 1 && w.group_size % w.elems_per_word == 0;
    return w;
  }
  return std::nullopt;
}

MatmulKernel recognize(const PrimFunc& f, std::size_t index, Block b, const Update& u,
                       const std::map<std::string, std::int64_t>& tile = {},
                       const std::map<std::string, std::int64_t>& role_tile = {}) {
  const Store st = b.stores[0];
  MatmulKernel k;
  k.func = f.name;
  k.block = b.name;
  k.line = b.line;
  const Expr* x = u.x;
  const Expr* y = u.y;
  // B with its producers inlined: a dequantize block's gathered expert (`w[indptr[0, e], ..]`)
  // shows only here when B is the block's own buffer (`y[i, j]`, MLC-LLM's MoE GEMV).
  const Expr inlined_b = detail::inline_expr(f, *y, index);
  std::set<std::string> outer_vars;
  {
    std::set<std::string> used = vars_of(st.indices);
    detail::names_in(*x, used);
    detail::names_in(*y, used);
    detail::names_in(inlined_b, used);
    outer_vars = add_outer_vars(f, index, b, used);
  }
  const std::set<std::string> in_c = vars_of(st.indices);
  // A per-thread scalar accumulator (`acc[0]`, lowered cross-thread reductions) holds one output
  // element at a time: every spatial variable is an output variable.
  const bool scalar_acc = in_c.empty();
  std::set<std::string> in_x, in_y;
  detail::names_in(*x, in_x);
  detail::names_in(*y, in_y);
  std::vector<const Expr*> x_loads{x}, y_loads;
  detail::loads_in(*y, y_loads);
  // B: the dequantized operand, else the one whose own variable comes later in C; an operand
  // with no variable of its own in C (a GEMV's vector, decode attention's query) is A.
  const bool x_dequant = detail::has_producer(f, x->text, index);
  const bool y_dequant = y->kind != Expr::Kind::kLoad || detail::has_producer(f, y->text, index);
  bool swap = false;
  if (x_dequant != y_dequant) {
    swap = x_dequant;
  } else if (!scalar_acc) {
    const auto ex = exclusive_vars(b, in_c, in_x, in_y), ey = exclusive_vars(b, in_c, in_y, in_x);
    if (ex.empty() != ey.empty()) {
      swap = ey.empty();
    } else {
      swap = first_position(st.indices, ex) > first_position(st.indices, ey);
    }
  }
  if (swap) {
    std::swap(x, y);
    std::swap(in_x, in_y);
    x_loads = {x};
    y_loads.clear();
    detail::loads_in(*y, y_loads);
  }
  k.a_buffer = x->text;
  k.c_buffer = st.buffer;
  std::set<std::string> reduce;
  for (const IterVar& v : b.iters)
    if (v.kind == 'R') reduce.insert(v.name);
  // Variables B reads only inside a gathered index (`w[indptr[0, e], n, k]`): the expert a
  // product runs for, a batch of the MoE kernel.
  std::set<std::string> gather_vars, direct_y;
  std::vector<const Expr*> gather_loads = y_loads;
  const Expr inlined_y = swap ? detail::inline_expr(f, *y, index) : inlined_b;
  detail::loads_in(inlined_y, gather_loads);
  for (const Expr* l : gather_loads)
    for (const Expr& index : l->args) {
      const Expr& ix = strip_cast(index);
      const Buffer* ib = ix.kind == Expr::Kind::kLoad ? f.find_buffer(ix.text) : nullptr;
      detail::names_in(index, ib && detail::is_integer_dtype(ib->dtype) ? gather_vars : direct_y);
    }
  for (const std::string& g : gather_vars)
    if (outer_vars.count(g)) in_y.insert(g);
  auto extent_of = [&](const IterVar& v) {
    auto it = tile.find(v.name);
    return it == tile.end() ? v.extent : times(v.extent, it->second);
  };
  for (const IterVar& v : b.iters) {
    const bool c = in_c.count(v.name) || scalar_acc || outer_vars.count(v.name);
    const bool a = in_x.count(v.name), w = in_y.count(v.name);
    if (v.kind == 'R') {
      if (!a || !w || (c && !scalar_acc && in_c.count(v.name)))
        throw Unsupported{
            v.line, "reduction variable '" + v.name + "' is not indexed by both operands only"};
      k.k_vars.push_back(v.name);
      k.k_extents.push_back(extent_of(v));
    } else if (v.kind != 'S') {
      throw Unsupported{v.line, "block variable '" + v.name + "' is neither spatial nor reduce"};
    } else if (a && w && tied_to_reduction(v.name, x_loads, reduce) &&
               tied_to_reduction(v.name, y_loads, reduce)) {
      // rfactor: the reduction's spatial part, kept apart in the partial-sum buffer's index.
      k.k_vars.push_back(v.name);
      k.k_extents.push_back(extent_of(v));
    } else if ((c && a && w) || (w && !a && gather_vars.count(v.name) && !direct_y.count(v.name))) {
      k.batch_vars.push_back(v.name);
      k.batch_extents.push_back(extent_of(v));
    } else if (c && a) {
      k.m_vars.push_back(v.name);
      k.m_extents.push_back(extent_of(v));
    } else if (c && w) {
      k.n_vars.push_back(v.name);
      k.n_extents.push_back(extent_of(v));
    } else if (!a && !w && !in_c.count(v.name) &&
               constant(v.extent) == std::optional<std::int64_t>(1)) {
      continue;  // a unit variable left by a schedule (`v_i_o = T.axis.spatial(1, 0)`)
    } else {
      throw Unsupported{v.line, "spatial variable '" + v.name + "' is not indexed by the output " +
                                    "and an operand (broadcast)"};
    }
  }
  // An MMA shape (`m16n8k16`) whose tiles the block variables count: each role's extent times it.
  for (const auto& [r, t] : role_tile) {
    auto& ext = r == "m" ? k.m_extents : r == "n" ? k.n_extents : k.k_extents;
    if (ext.empty()) {
      Expr one;
      one.kind = Expr::Kind::kInt;
      one.value = 1;
      ext.push_back(times(one, t));
    } else {
      ext.front() = times(ext.front(), t);
    }
  }
  check_not_convolution(b, *x, k.m_vars, k.k_vars);
  for (const Expr* l : y_loads) check_not_convolution(b, *l, k.n_vars, k.k_vars);
  bool padded = false;
  for (auto* role : {&k.batch_vars, &k.m_vars, &k.k_vars}) {
    auto& ext = role == &k.batch_vars ? k.batch_extents
                : role == &k.m_vars   ? k.m_extents
                                      : k.k_extents;
    if (role != &k.k_vars || y->kind == Expr::Kind::kLoad)
      padded |= unpad(f, *x, index, *role, ext);
  }
  if (y->kind == Expr::Kind::kLoad) padded |= unpad(f, *y, index, k.n_vars, k.n_extents);
  const Buffer& a = buffer_of(f, k.a_buffer, x->line);
  const Buffer& c = buffer_of(f, k.c_buffer, st.line);
  k.a_dtype = a.dtype;
  k.accumulate_dtype = c.dtype;

  std::map<std::string, std::string> role;
  for (const auto& v : k.batch_vars) role[v] = "batch";
  for (const auto& v : k.m_vars) role[v] = "m";
  for (const auto& v : k.n_vars) role[v] = "n";
  for (const auto& v : k.k_vars) role[v] = "k";
  auto product_of = [](const std::vector<Expr>& extents) -> std::optional<std::int64_t> {
    std::int64_t p = 1;
    for (const Expr& e : extents) {
      auto v = constant(e);
      if (!v || *v < 1 || p > (std::int64_t{1} << 40)) return std::nullopt;
      p *= *v;
    }
    return p;
  };
  const RoleExtents extents{{"k", product_of(k.k_extents)}, {"n", product_of(k.n_extents)}};
  const Expr weight = detail::inline_expr(f, *y, index);
  if (weight.kind != Expr::Kind::kLoad || y->kind != Expr::Kind::kLoad)
    k.storage = read_storage(f, strip_guard(weight), role, extents);
  if (!k.storage && y->kind == Expr::Kind::kLoad)
    k.storage = extern_decode(f, y->text, index, extents);
  // The load that fixes B's layout: the stored weight, else B itself.
  const Expr* layout_load = y->kind == Expr::Kind::kLoad ? y : nullptr;
  std::vector<const Expr*> weight_loads;
  detail::loads_in(weight, weight_loads);
  for (const Expr* l : weight_loads)
    if (k.storage && l->text == k.storage->buffer) layout_load = l;
  if (!layout_load && !y_loads.empty()) layout_load = y_loads[0];
  // A staged B (`W_shared[v0, n, k] = W[k, n]`, Dlight's reindex): the layout is the source's.
  const Expr& staged = strip_guard(weight);
  if (!k.storage && staged.kind == Expr::Kind::kLoad && f.find_buffer(staged.text) &&
      f.find_buffer(staged.text)->kind != BufferKind::kAlloc)
    layout_load = &staged;
  // B's own load in the block: B, or the stored (integer) load of an inline dequantize.
  k.b_buffer = y->kind == Expr::Kind::kLoad ? y->text : y_loads.front()->text;
  for (const Expr* l : y_loads) {
    const Buffer* lb = y->kind == Expr::Kind::kLoad ? nullptr : f.find_buffer(l->text);
    if (lb && detail::is_integer_dtype(lb->dtype)) {
      k.b_buffer = l->text;
      break;
    }
  }
  const Buffer& w = buffer_of(f, k.b_buffer, y->line);
  k.b_dtype = w.dtype;
  if (y->kind != Expr::Kind::kLoad) k.b_dtype = dequantized_dtype(*y, k.a_dtype);
  const auto pn = first_position(layout_load->args, k.n_vars),
             pk = first_position(layout_load->args, k.k_vars);
  k.layout = pn <= pk ? llm::Layout::kNT : llm::Layout::kNN;
  // A gathered expert weight: `w[indptr[e], n, k]`.
  const Expr* origin_load = layout_load;
  for (const Expr* l : weight_loads)
    if (l->text == (k.storage ? k.storage->buffer : std::string())) origin_load = l;
  if (y->kind == Expr::Kind::kLoad && !k.storage && weight.kind == Expr::Kind::kLoad)
    origin_load = &weight;
  std::size_t gdim = 0;
  if (const Expr* g = gathered_dim(f, *origin_load, gdim)) {
    const Buffer& ob = buffer_of(f, origin_load->text, origin_load->line);
    k.expert_index_buffer = g->text;
    if (gdim < ob.shape.size()) k.experts = ob.shape[gdim];
  }
  std::string origin = k.storage ? k.storage->buffer : origin_load->text;
  if (buffer_of(f, origin, y->line).kind == BufferKind::kAlloc)
    origin = staged_origin(f, origin, index);  // through tile copies (WMMA/MMA fragments)
  const Buffer& ob = buffer_of(f, origin, y->line);
  const bool weight_like = ob.kind != BufferKind::kAlloc &&
                           (k.batch_vars.empty() || !k.expert_index_buffer.empty()) &&
                           !has_symbol(f, ob.shape);
  k.b_operand = weight_like || (!k.expert_index_buffer.empty() && ob.kind != BufferKind::kAlloc)
                    ? workload::OperandRole::kWeight
                    : workload::OperandRole::kActivation;

  std::set<std::string> symbols;
  check_extent_names(f, b, symbols);
  k.symbols.assign(symbols.begin(), symbols.end());
  trace_epilogue(f, index, k);
  k.approximations = detail::check_accesses(f, b, weight, *x, st);
  if (padded)
    k.approximations.push_back(fmt::format(
        "line {}: block {} runs over padded extents (T.if_then_else in its staging): sizes are "
        "the parameters' own",
        b.line, b.name));
  if (b.predicated || u.guarded)
    k.approximations.push_back(fmt::format(
        "line {}: block {} is predicated (T.where, if or a T.if_then_else padding guard): its "
        "domain is over-approximated by the block variables' extents",
        b.line, b.name));
  return k;
}

// The call of a tensor intrinsic in block `index` or the blocks nested in it ("" for none):
// `T.tvm_mma_sync`, `T.ptx_mma`, `T.mma_sync`, or the callee an extern call names.
std::string callee_of(const Expr& c) {
  if (c.text == "T.attr" || c.text == "T.evaluate" || c.text == "T.sblock_attr" ||
      c.text == "T.block_attr" || c.text == "T.launch_thread")
    return "";
  if (c.text == "T.call_extern" || c.text == "T.call_pure_extern" ||
      c.text == "T.call_llvm_pure_intrin" || c.text == "T.call_llvm_intrin") {
    for (const Expr& a : c.args)
      if (a.kind == Expr::Kind::kString && a.text != "handle" && a.text.rfind("float", 0) != 0 &&
          a.text.rfind("int", 0) != 0 && a.text.rfind("uint", 0) != 0)
        return a.text;
    return "";
  }
  return c.text;
}

// A call to an intrinsic inside a stored value (`C[T.Ramp(0, 1, 16)] = T.call_llvm_pure_intrin(
// ..., "llvm.x86.avx512.vpdpbusd.512", ...)`).
std::string intrinsic_in(const Expr& e) {
  if (e.kind == Expr::Kind::kCall &&
      (e.text == "T.call_llvm_pure_intrin" || e.text == "T.call_llvm_intrin" ||
       e.text == "T.call_extern" || e.text == "T.call_pure_extern"))
    return callee_of(e);
  for (const Expr& a : e.args) {
    std::string c = intrinsic_in(a);
    if (!c.empty()) return c;
  }
  return "";
}

// The call of a tensor intrinsic in block `index` or the blocks nested in it ("" for none):
// `T.tvm_mma_sync`, `T.ptx_mma`, `T.mma_sync`, or the callee an extern call names; `shape` gets
// an MMA shape string's tile (`"m16n8k16"` → m 16, n 8, k 16).
std::string intrinsic_call(const PrimFunc& f, std::size_t index,
                           std::map<std::string, std::int64_t>& shape) {
  const int depth = f.blocks[index].depth;
  for (std::size_t i = index; i < f.blocks.size(); ++i) {
    if (i > index && f.blocks[i].depth <= depth) break;
    for (const Expr& c : f.blocks[i].calls) {
      const std::string name = callee_of(c);
      if (name.empty()) continue;
      for (const Expr& a : c.args) {
        if (a.kind != Expr::Kind::kString || a.text.size() < 6 || a.text[0] != 'm') continue;
        long long m = 0, n = 0, k = 0;
        char tail = 0;
        if (std::sscanf(a.text.c_str(), "m%lldn%lldk%lld%c", &m, &n, &k, &tail) == 3 && m > 0 &&
            n > 0 && k > 0)
          shape = {{"m", m}, {"n", n}, {"k", k}};
      }
      return name;
    }
    for (const Store& st : f.blocks[i].stores) {
      const std::string name = intrinsic_in(st.value);
      if (!name.empty()) return name;
    }
  }
  return "";
}

// A tensorized block (`T.tensorize`, MMA/WMMA, a dot-product intrinsic): no store, its
// T.reads name the accumulator and two operand tiles, its T.writes the accumulator. The tile
// widths of the regions (`v_i_o * 16:v_i_o * 16 + 16`) multiply the block variables' extents.
std::optional<MatmulKernel> recognize_intrinsic(const PrimFunc& f, std::size_t index) {
  const Block& b = f.blocks[index];
  if (!b.writes_given || !b.reads_given || b.writes.size() != 1) return std::nullopt;
  std::map<std::string, std::int64_t> shape;
  const std::string call = intrinsic_call(f, index, shape);
  if (call.empty()) return std::nullopt;
  const BufferAccess& c = b.writes[0];
  std::vector<const BufferAccess*> operands;
  bool reads_c = false;
  for (const BufferAccess& r : b.reads) {
    if (r.buffer == c.buffer) {
      reads_c = true;
    } else {
      operands.push_back(&r);
    }
  }
  if (operands.size() != 2) return std::nullopt;
  std::map<std::string, std::int64_t> tile;
  auto widen = [&](const BufferAccess& a) {
    for (std::size_t i = 0; i < a.indices.size() && i < a.widths.size(); ++i) {
      if (a.widths[i] < 2) continue;
      std::set<std::string> names;
      detail::names_in(a.indices[i], names);
      for (const IterVar& v : b.iters)
        if (names.count(v.name)) tile[v.name] = std::max(tile[v.name], a.widths[i]);
    }
  };
  widen(c);
  for (const BufferAccess* o : operands) widen(*o);
  // A warp-level layout (`C_warp[v0_o, v1_o, 0:32, 0:8]`): the dimensions without a block
  // variable hold one tile; their element counts are M·N (C), M·K (A) and N·K (B).
  auto tile_elems = [&](const BufferAccess& a) {
    std::int64_t p = 1;
    for (std::size_t i = 0; i < a.indices.size() && i < a.widths.size(); ++i) {
      std::set<std::string> names;
      detail::names_in(a.indices[i], names);
      bool var = false;
      for (const IterVar& v : b.iters) var = var || names.count(v.name) > 0;
      if (!var && a.widths[i] > 0) p *= a.widths[i];
    }
    return p;
  };
  const std::int64_t pc = tile_elems(c), pa = tile_elems(*operands[0]),
                     pb = tile_elems(*operands[1]);
  auto exact_root = [](std::int64_t num, std::int64_t den) -> std::int64_t {
    if (den < 1 || num % den != 0) return 0;
    const std::int64_t q = num / den;
    const auto r = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(q))));
    return r * r == q ? r : 0;
  };
  if (pc > 1 && pa > 1 && pb > 1 && pa < (1 << 20) && pb < (1 << 20) && pc < (1 << 20)) {
    const std::int64_t tm = exact_root(pa * pc, pb), tn = exact_root(pb * pc, pa),
                       tk = exact_root(pa * pb, pc);
    if (tm > 0 && tn > 0 && tk > 0) shape = {{"m", tm}, {"n", tn}, {"k", tk}};
  }
  auto load = [](const BufferAccess& a) {
    Expr e;
    e.kind = Expr::Kind::kLoad;
    e.text = a.buffer;
    e.args = a.indices;
    e.line = a.line;
    return e;
  };
  // The update the intrinsic performs, spelled as a scalar block: C = C + A * B.
  Expr x = load(*operands[0]), y = load(*operands[1]), acc = load(c);
  Block synthetic = b;
  Store st;
  st.buffer = c.buffer;
  st.indices = c.indices;
  st.line = c.line;
  st.value.kind = Expr::Kind::kBinary;
  st.value.text = "+";
  Expr prod;
  prod.kind = Expr::Kind::kBinary;
  prod.text = "*";
  prod.args = {x, y};
  st.value.args = {acc, prod};
  synthetic.stores = {st};
  const Expr& p = synthetic.stores[0].value.args[1];
  Update u;
  u.x = &p.args[0];
  u.y = &p.args[1];
  MatmulKernel k = recognize(f, index, synthetic, u, tile, shape);
  k.intrinsic = call;
  bool transposed = false;
  staged_origin(f, k.b_buffer, index, &transposed);
  if (transposed) k.layout = k.layout == llm::Layout::kNT ? llm::Layout::kNN : llm::Layout::kNT;
  if (!reads_c)
    k.approximations.push_back(fmt::format(
        "line {}: the intrinsic block does not read its accumulator (an overwrite)", b.line));
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
      if (b.stores.size() == 1) u = match_update(f, b.stores[0], i);
      if (!u) {
        if (auto k = recognize_intrinsic(f, i)) {
          kernels.push_back(std::move(*k));
          ++found;
          while (i + 1 < f.blocks.size() && f.blocks[i + 1].depth > b.depth) ++i;  // its body
          continue;
        }
        if (why_not.empty()) {
          why_not = fmt::format("block '{}' reduces but its update is not C = C + A * B", b.name);
          why_line = b.line;
        }
        continue;
      }
      kernels.push_back(recognize(f, i, b, *u));
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
  } else if (asymmetric ||
             w.decode_function.find(std::to_string(w.bits) + "u_") != std::string::npos) {
    s.weights.dtype = quant::DataType::unsigned_int(w.bits);
  } else {
    s.weights.dtype = quant::DataType::signed_int(w.bits);  // stored with an implicit offset
  }
  if (!w.scale_buffer.empty()) {
    quant::ScaleLevel level;
    level.dtype = data_type(w.scale_dtype, k.func);
    if (w.group_size > 0 && w.group_axis == "k" && w.group_size_n == 0) {
      level.granularity = quant::Granularity::kGroup;
      level.group_size = w.group_size;
    } else if (w.group_size > 0) {
      // Groups along N (`s[n // 128, k // 128]` or `s[n // 64]`): a block scale, the whole of K
      // when only N is grouped.
      level.granularity = quant::Granularity::kBlock;
      level.block_n = w.group_axis == "n" ? w.group_size : w.group_size_n;
      if (w.group_axis == "k") {
        level.block_k = w.group_size;
      } else {
        std::int64_t kk = 1;
        for (const Expr& e : k.k_extents) {
          auto v = constant(e);
          if (!v)
            throw InputError(error_code::kMissingField, "", k.func,
                             "scale groups along N with a symbolic K: bind K to model the block");
          kk *= *v;
        }
        level.block_k = kk;
      }
    } else if (!w.scale_shape.empty()) {
      level.granularity = quant::Granularity::kPerChannel;
    }
    if (asymmetric) {
      level.zero = detail::is_integer_dtype(w.zero_dtype) ? quant::DataType::unsigned_int(w.bits)
                                                          : data_type(w.zero_dtype, k.func);
      if (w.zero_mode == "rescale") level.zero_mode = quant::ZeroMode::kRescale;
    }
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
      throw InputError(  // at the kernel: the user may have given no bindings at all
          error_code::kMissingField, "", k.func,
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
  if (k.experts) {
    auto v = constant(*k.experts, &symbols);
    if (!v)
      throw InputError(error_code::kMissingField, "", k.func,
                       fmt::format("expert count {} of {} is not bound (bind {}=VALUE)",
                                   to_string(*k.experts), k.func, to_string(*k.experts)));
    if (*v < 1)
      throw InputError(
          error_code::kRange, "", k.func,
          fmt::format("expert count {} = {} (expected >= 1)", to_string(*k.experts), *v));
    b.experts = *v;
  }
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
