// Matmul recognition: the update C = C + A * B, roles, layout, gathered experts, padding
// (docs/tir.md#recognition); the dequantize chain is dequant.cpp, the epilogue epilogue.cpp,
// tensorized blocks intrinsic.cpp, binding bind.cpp.
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
#include "tir/dequant.hpp"
#include "tir/expr_util.hpp"
#include "tir/recognize.hpp"
#include "tir/trace.hpp"

namespace tenet::tir::detail {
namespace {

bool same_load(const Expr& a, const Expr& b) {
  return a.kind == Expr::Kind::kLoad && b.kind == Expr::Kind::kLoad && to_string(a) == to_string(b);
}

bool has_floordiv(const Expr& e) {
  if ((e.kind == Expr::Kind::kBinary && e.text == "//") || e.is_call("T.floordiv")) return true;
  for (const Expr& a : e.args)
    if (has_floordiv(a)) return true;
  return false;
}

// Whether the expression reads an integer buffer (directly or through producer blocks).
bool reads_integer(const PrimFunc& f, const Expr& e, std::size_t index) {
  std::vector<const Expr*> loads;
  detail::value_loads(e, loads);
  for (const Expr* l : loads) {
    const Buffer* b = f.find_buffer(l->text);
    if (b && detail::is_stored_quantized(b->dtype)) return true;
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

bool has_symbol(const PrimFunc& f, const std::vector<Expr>& shape) {
  for (const Expr& e : shape) {
    std::set<std::string> names;
    detail::names_in(e, names);
    for (const std::string& n : names)
      if (f.find_symbol(n)) return true;
  }
  return false;
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

// A scalar integer parameter (`expert: T.int32`) that no shape or extent uses: it selects a slice
// (an expert) when it is a whole index, it is no size.
bool selector(const PrimFunc& f, const std::string& name) {
  const Symbol* s = f.find_symbol(name);
  if (!s || !s->declared || std::find(f.params.begin(), f.params.end(), name) == f.params.end())
    return false;
  std::set<std::string> used;
  for (const Buffer& b : f.buffers)
    for (const Expr& d : b.shape) detail::names_in(d, used);
  for (const Block& b : f.blocks) {
    for (const IterVar& v : b.iters) detail::names_in(v.extent, used);
    for (const Loop& l : b.loops) detail::names_in(l.extent, used);
  }
  return !used.count(name);
}

// The integer-buffer load an index reads an expert through: the index itself (`indptr[0, e]`)
// or a let naming such a load (`e: T.int32 = cur_e[0]` of a persistent kernel, `eid =
// expert_ids[v_e]`), or a scalar parameter selecting the expert (selector()); nullptr for any
// other index.
const Expr* gather_load(const PrimFunc& f, const Expr& index, const Lets& lets) {
  const Expr* ix = &strip_cast(index);
  if (ix->kind == Expr::Kind::kName && selector(f, ix->text)) return ix;
  if (ix->kind == Expr::Kind::kName) {
    auto it = lets.find(ix->text);
    if (it == lets.end()) return nullptr;
    ix = &strip_cast(*it->second);
  }
  if (ix->kind != Expr::Kind::kLoad) return nullptr;
  const Buffer* ib = f.find_buffer(ix->text);
  return ib && detail::is_integer_dtype(ib->dtype) ? ix : nullptr;
}

// The first index of `load` that gathers through an integer buffer (`w[e[0], n, k]`): the weight
// is gathered per expert through that index buffer.
const Expr* gathered_dim(const PrimFunc& f, const Expr& load, const Lets& lets, std::size_t& dim) {
  for (std::size_t i = 0; i < load.args.size(); ++i)
    if (const Expr* g = gather_load(f, load.args[i], lets)) {
      dim = i;
      return g;
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

// Whether a let's value is read from memory at run time: it loads (`cur_e[0]`, `row[0]`) or
// names such a let (`n_offset = num_tiles % 112 * 128`); thread indices (`T.launch_thread`) are
// not.
bool runtime_let(const std::string& name, const Lets& lets, int depth = 0) {
  auto it = lets.find(name);
  if (it == lets.end() || depth > 8) return false;
  std::vector<const Expr*> loads;
  detail::loads_in(*it->second, loads);
  if (!loads.empty()) return true;
  std::set<std::string> names;
  detail::names_in(*it->second, names);
  for (const std::string& n : names)
    if (n != name && runtime_let(n, lets, depth + 1)) return true;
  return false;
}

// `off + v` with `off` known only at run time — a let (`m_offset` of MLC-LLM's group GEMM) or a
// load — and free of block variables: block variable `v` walks one tile of a dimension the
// kernel covers tile by tile (a loop over tiles, e.g. a persistent kernel's while loop).
bool runtime_offset(const Expr& index, const std::string& var, const Block& b, const Lets& lets) {
  std::vector<const Expr*> terms;
  sum_terms(strip_cast(index), terms);
  if (terms.size() < 2) return false;
  bool has_var = false, runtime = false;
  for (const Expr* t : terms) {
    const Expr& term = strip_cast(*t);
    if (term.kind == Expr::Kind::kName && term.text == var) {
      if (has_var) return false;
      has_var = true;
      continue;
    }
    std::set<std::string> names;
    detail::names_in(term, names);
    for (const std::string& n : names) {
      for (const IterVar& v : b.iters)
        if (v.name == n) return false;
      runtime = runtime || runtime_let(n, lets);
    }
    std::vector<const Expr*> loads;
    detail::loads_in(term, loads);
    runtime = runtime || !loads.empty();
  }
  return has_var && runtime;
}

struct Unpadded {
  bool guarded = false;  // a T.if_then_else padding guard was seen
  bool offset = false;   // a run-time tile offset was seen
};

// The true extents of an operand's variables, from the parameter it is staged from:
// - padding: its staging copy reads the parameter under `T.if_then_else(v < m, X[v, k], 0)`, so
//   the block variable spans the padded extent; the parameter's own dimension indexed by the
//   plain variable is the true extent;
// - a run-time tile offset (`X[m_offset + v, k]`, runtime_offset): the block is one tile; the
//   dimension it indexes is the extent.
Unpadded unpad(const PrimFunc& f, const Block& b, const Expr& operand, std::size_t index,
               const std::vector<std::string>& vars, std::vector<Expr>& extents, const Lets& lets) {
  Unpadded r;
  const Expr inlined = detail::inline_expr(f, operand, index);
  const Expr& origin = strip_guard(inlined);
  r.guarded = &origin != &strip_cast(inlined);
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
      bool offset = false;
      for (std::size_t v = 0; v < vars.size(); ++v)
        if (runtime_offset(ix, vars[v], b, lets)) {
          extents[v] = buf->shape[i];
          offset = r.offset = true;
        }
      if (offset || !r.guarded) continue;
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
  return r;
}

// What the first phase of recognize() learns about the update's operands.
struct Operands {
  const Expr* x = nullptr;  // A's load
  const Expr* y = nullptr;  // B: a load, or the dequantize expression it is multiplied by
  std::vector<const Expr*> x_loads, y_loads;
  std::set<std::string> in_c, in_x, in_y;
  std::set<std::string> outer_vars;  // enclosing blocks' or loops' variables added to the block
  // Variables B reads only inside a gathered index (`w[indptr[0, e], n, k]`), and the others.
  std::set<std::string> gather_vars, direct_y;
  bool scalar_acc = false;
};

// Names used by `e`, and by the values of the lets it names (`w[eid, ..]` with `eid =
// indptr[0, e]` uses `e`).
void names_through_lets(const Expr& e, const Lets& lets, std::set<std::string>& out) {
  std::set<std::string> names;
  detail::names_in(e, names);
  for (const std::string& n : names) {
    out.insert(n);
    auto it = lets.find(n);
    if (it != lets.end()) detail::names_in(*it->second, out);
  }
}

// A and B of update `u` (B: the dequantized operand, else the one whose own variable comes later
// in C; an operand with no variable of its own in C — a GEMV's vector, decode attention's query
// — is A), the variables each reads, and the enclosing blocks' variables they use (added to `b`).
Operands operands(const PrimFunc& f, std::size_t index, Block& b, const Update& u,
                  const Lets& lets) {
  const Store& st = b.stores[0];
  Operands o;
  o.x = u.x;
  o.y = u.y;
  // B with its producers inlined: a dequantize block's gathered expert (`w[indptr[0, e], ..]`)
  // shows only here when B is the block's own buffer (`y[i, j]`, MLC-LLM's MoE GEMV).
  const Expr inlined_b = detail::inline_expr(f, *o.y, index);
  {
    std::set<std::string> used = vars_of(st.indices);
    names_through_lets(*o.x, lets, used);
    names_through_lets(*o.y, lets, used);
    names_through_lets(inlined_b, lets, used);
    o.outer_vars = add_outer_vars(f, index, b, used);
  }
  o.in_c = vars_of(st.indices);
  // A per-thread scalar accumulator (`acc[0]`, lowered cross-thread reductions) holds one output
  // element at a time: every spatial variable is an output variable.
  o.scalar_acc = o.in_c.empty();
  detail::names_in(*o.x, o.in_x);
  detail::names_in(*o.y, o.in_y);
  const bool x_dequant = detail::has_producer(f, o.x->text, index);
  const bool y_dequant =
      o.y->kind != Expr::Kind::kLoad || detail::has_producer(f, o.y->text, index);
  bool swap = false;
  if (x_dequant != y_dequant) {
    swap = x_dequant;
  } else if (!o.scalar_acc) {
    const auto ex = exclusive_vars(b, o.in_c, o.in_x, o.in_y),
               ey = exclusive_vars(b, o.in_c, o.in_y, o.in_x);
    if (ex.empty() != ey.empty()) {
      swap = ey.empty();
    } else {
      swap = first_position(st.indices, ex) > first_position(st.indices, ey);
    }
  }
  if (swap) {
    std::swap(o.x, o.y);
    std::swap(o.in_x, o.in_y);
  }
  o.x_loads = {o.x};
  detail::loads_in(*o.y, o.y_loads);
  std::vector<const Expr*> gather_loads = o.y_loads;
  const Expr inlined_y = swap ? detail::inline_expr(f, *o.y, index) : inlined_b;
  detail::loads_in(inlined_y, gather_loads);
  for (const Expr* l : gather_loads)
    for (const Expr& ix : l->args) {
      if (const Expr* g = gather_load(f, ix, lets)) {
        detail::names_in(*g, o.gather_vars);
      } else {
        detail::names_in(ix, o.direct_y);
      }
    }
  for (const std::string& g : o.gather_vars)
    if (o.outer_vars.count(g)) o.in_y.insert(g);
  return o;
}

// Each block variable's role (batch, M, N, K) by which of C, A and B index it; `tile`
// multiplies an extent (a tensorized region's width), `role_tile` a role's (an MMA shape).
void assign_roles(const Block& b, const Operands& o,
                  const std::map<std::string, std::int64_t>& tile,
                  const std::map<std::string, std::int64_t>& role_tile, MatmulKernel& k) {
  std::set<std::string> reduce;
  for (const IterVar& v : b.iters)
    if (v.kind == 'R') reduce.insert(v.name);
  auto extent_of = [&](const IterVar& v) {
    auto it = tile.find(v.name);
    return it == tile.end() ? v.extent : times(v.extent, it->second);
  };
  for (const IterVar& v : b.iters) {
    const bool c = o.in_c.count(v.name) || o.scalar_acc || o.outer_vars.count(v.name);
    const bool a = o.in_x.count(v.name), w = o.in_y.count(v.name);
    if (v.kind == 'R') {
      if (!a || !w || (c && !o.scalar_acc && o.in_c.count(v.name)))
        throw Unsupported{
            v.line, "reduction variable '" + v.name + "' is not indexed by both operands only"};
      k.k_vars.push_back(v.name);
      k.k_extents.push_back(extent_of(v));
    } else if (v.kind != 'S') {
      throw Unsupported{v.line, "block variable '" + v.name + "' is neither spatial nor reduce"};
    } else if (a && w && tied_to_reduction(v.name, o.x_loads, reduce) &&
               tied_to_reduction(v.name, o.y_loads, reduce)) {
      // rfactor: the reduction's spatial part, kept apart in the partial-sum buffer's index.
      k.k_vars.push_back(v.name);
      k.k_extents.push_back(extent_of(v));
    } else if ((c && a && w) ||
               (w && !a && o.gather_vars.count(v.name) && !o.direct_y.count(v.name))) {
      k.batch_vars.push_back(v.name);
      k.batch_extents.push_back(extent_of(v));
    } else if (c && a) {
      k.m_vars.push_back(v.name);
      k.m_extents.push_back(extent_of(v));
    } else if (c && w) {
      k.n_vars.push_back(v.name);
      k.n_extents.push_back(extent_of(v));
    } else if (!a && !w && !o.in_c.count(v.name) &&
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
}

std::optional<std::int64_t> product_of(const std::vector<Expr>& extents) {
  std::int64_t p = 1;
  for (const Expr& e : extents) {
    auto v = constant(e);
    if (!v || *v < 1 || p > (std::int64_t{1} << 40)) return std::nullopt;
    p *= *v;
  }
  return p;
}

// B's storage (the dequantize chain), its own buffer and dtype, the layout, a gathered expert
// weight and whether B is a weight or an activation.
void read_b(const PrimFunc& f, std::size_t index, const Operands& o, const Lets& lets,
            const Expr& weight, MatmulKernel& k) {
  const Expr* y = o.y;
  std::map<std::string, std::string> role;
  for (const auto& v : k.batch_vars) role[v] = "batch";
  for (const auto& v : k.m_vars) role[v] = "m";
  for (const auto& v : k.n_vars) role[v] = "n";
  for (const auto& v : k.k_vars) role[v] = "k";
  const RoleExtents extents{{"k", product_of(k.k_extents)}, {"n", product_of(k.n_extents)}};
  if (weight.kind != Expr::Kind::kLoad || y->kind != Expr::Kind::kLoad)
    k.storage = read_storage(f, weight, role, extents);
  if (!k.storage && y->kind == Expr::Kind::kLoad)
    k.storage = extern_decode(f, y->text, index, extents);
  // The load that fixes B's layout: the stored weight, else B itself.
  const Expr* layout_load = y->kind == Expr::Kind::kLoad ? y : nullptr;
  std::vector<const Expr*> weight_loads;
  detail::loads_in(weight, weight_loads);
  for (const Expr* l : weight_loads)
    if (k.storage && l->text == k.storage->buffer) layout_load = l;
  if (!layout_load && !o.y_loads.empty()) layout_load = o.y_loads[0];
  // A staged B (`W_shared[v0, n, k] = W[k, n]`, Dlight's reindex): the layout is the source's.
  const Expr& staged = strip_guard(weight);
  if (!k.storage && staged.kind == Expr::Kind::kLoad && f.find_buffer(staged.text) &&
      f.find_buffer(staged.text)->kind != BufferKind::kAlloc)
    layout_load = &staged;
  // B's own load in the block: B, or the stored (integer) load of an inline dequantize.
  k.b_buffer = y->kind == Expr::Kind::kLoad ? y->text : o.y_loads.front()->text;
  for (const Expr* l : o.y_loads) {
    const Buffer* lb = y->kind == Expr::Kind::kLoad ? nullptr : f.find_buffer(l->text);
    if (lb && detail::is_stored_quantized(lb->dtype)) {
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
  if (const Expr* g = gathered_dim(f, *origin_load, lets, gdim)) {
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
}

// The symbolic sizes the kernel's extents use (the block's and those unpad() took from the
// parameters), and where the undeclared ones are used.
void collect_symbols(const PrimFunc& f, const Block& b, MatmulKernel& k) {
  std::set<std::string> symbols;
  check_extent_names(f, b, symbols);
  for (const auto* extents : {&k.batch_extents, &k.m_extents, &k.n_extents, &k.k_extents})
    for (const Expr& e : *extents) {
      std::set<std::string> names;
      detail::names_in(e, names);
      for (const std::string& n : names)
        if (f.find_symbol(n)) symbols.insert(n);
    }
  k.symbols.assign(symbols.begin(), symbols.end());
  for (const std::string& n : k.symbols) {
    const Symbol* s = f.find_symbol(n);
    if (s && !s->declared) k.undeclared[n] = s->use;
  }
}

}  // namespace

MatmulKernel recognize(const PrimFunc& f, std::size_t index, Block b, const Update& u,
                       const std::map<std::string, std::int64_t>& tile,
                       const std::map<std::string, std::int64_t>& role_tile) {
  const Store st = b.stores[0];
  const Lets lets = lets_of(f);
  MatmulKernel k;
  k.func = f.name;
  k.block = b.name;
  k.line = b.line;
  const Operands o = operands(f, index, b, u, lets);
  k.a_buffer = o.x->text;
  k.c_buffer = st.buffer;
  assign_roles(b, o, tile, role_tile, k);
  check_not_convolution(b, *o.x, k.m_vars, k.k_vars);
  for (const Expr* l : o.y_loads) check_not_convolution(b, *l, k.n_vars, k.k_vars);
  Unpadded unpadded;
  auto note = [&](const Unpadded& r) {
    unpadded.guarded |= r.guarded;
    unpadded.offset |= r.offset;
  };
  for (auto* role : {&k.batch_vars, &k.m_vars, &k.k_vars}) {
    auto& ext = role == &k.batch_vars ? k.batch_extents
                : role == &k.m_vars   ? k.m_extents
                                      : k.k_extents;
    if (role != &k.k_vars || o.y->kind == Expr::Kind::kLoad)
      note(unpad(f, b, *o.x, index, *role, ext, lets));
  }
  if (o.y->kind == Expr::Kind::kLoad) note(unpad(f, b, *o.y, index, k.n_vars, k.n_extents, lets));
  k.a_dtype = buffer_of(f, k.a_buffer, o.x->line).dtype;
  k.accumulate_dtype = buffer_of(f, k.c_buffer, st.line).dtype;
  const Expr weight = detail::inline_expr(f, *o.y, index);
  read_b(f, index, o, lets, weight, k);
  collect_symbols(f, b, k);
  trace_epilogue(f, index, k);
  k.approximations = detail::check_accesses(f, b, weight, *o.x, st, lets);
  if (unpadded.guarded)
    k.approximations.push_back(fmt::format(
        "line {}: block {} runs over padded extents (T.if_then_else in its staging): sizes are "
        "the parameters' own",
        b.line, b.name));
  if (unpadded.offset) {
    k.runtime_tile = true;
    k.approximations.push_back(fmt::format(
        "line {}: block {} computes one tile at a run-time offset (a loop over tiles): sizes are "
        "the dimensions of the buffers the tile is read from",
        b.line, b.name));
    if (k.experts)
      k.approximations.push_back(fmt::format(
          "line {}: a group GEMM: its rows go to {} experts at run time; costed as one matmul "
          "over one expert's weight (the rows may read up to every expert's)",
          b.line, to_string(*k.experts)));
  }
  if (b.predicated || u.guarded)
    k.approximations.push_back(fmt::format(
        "line {}: block {} is predicated (T.where, if or a T.if_then_else padding guard): its "
        "domain is over-approximated by the block variables' extents",
        b.line, b.name));
  return k;
}

}  // namespace tenet::tir::detail

namespace tenet::tir {
namespace {

using detail::match_update;
using detail::recognize;
using detail::recognize_intrinsic;
using detail::Unsupported;
using detail::Update;

// The block with its own lets substituted into its stores (`zp: T.float16 = zeros[n, k // 32]`
// then `C = C + A * ((q - zp) * s)`): the update reads in loads.
Block with_lets(const Block& b) {
  Block copy = b;
  std::map<std::string, Expr> lets;
  for (const auto& [name, value] : b.lets) lets[name] = detail::substitute(value, lets);
  for (Store& st : copy.stores) st.value = detail::substitute(st.value, lets);
  return copy;
}

void analyse(const PrimFunc& f, Recognition& out) {
  std::size_t found = 0;
  std::string why_not;
  int why_line = f.line;
  std::vector<MatmulKernel> kernels;
  try {
    for (std::size_t i = 0; i < f.blocks.size(); ++i) {
      bool reduces = false;
      for (const IterVar& v : f.blocks[i].iters) reduces = reduces || v.kind == 'R';
      if (!reduces) continue;
      const Block substituted = f.blocks[i].lets.empty() ? Block() : with_lets(f.blocks[i]);
      const Block& b = f.blocks[i].lets.empty() ? f.blocks[i] : substituted;
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

}  // namespace tenet::tir
