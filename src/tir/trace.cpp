#include "tir/trace.hpp"

#include <fmt/core.h>

#include <map>

#include "tir/expr_util.hpp"

namespace tenet::tir::detail {
namespace {

constexpr int kMaxDepth = 32;

// The element-wise block before `before` that writes `buffer` with plain block variables as
// indices, or nullptr.
const Block* producer(const PrimFunc& f, const std::string& buffer, std::size_t before,
                      std::size_t rank) {
  for (std::size_t i = std::min(before, f.blocks.size()); i-- > 0;) {
    const Block& b = f.blocks[i];
    if (b.stores.size() != 1 || b.stores[0].buffer != buffer) continue;
    for (const IterVar& v : b.iters)
      if (v.kind != 'S') return nullptr;
    const Store& st = b.stores[0];
    if (st.indices.size() != rank) return nullptr;
    for (const Expr& e : st.indices)
      if (e.kind != Expr::Kind::kName) return nullptr;
    return &b;
  }
  return nullptr;
}

Expr inline_rec(const PrimFunc& f, const Expr& e, std::size_t before, int depth);

Expr inline_load(const PrimFunc& f, const Expr& load, std::size_t before, int depth) {
  const Block* p = depth < kMaxDepth ? producer(f, load.text, before, load.args.size()) : nullptr;
  if (!p) return load;
  std::map<std::string, Expr> lets;
  for (const auto& [name, value] : p->lets) lets[name] = substitute(value, lets);
  std::map<std::string, Expr> by;
  for (std::size_t i = 0; i < load.args.size(); ++i)
    by[p->stores[0].indices[i].text] = load.args[i];
  const Expr value = substitute(substitute(p->stores[0].value, lets), by);
  const std::size_t index = static_cast<std::size_t>(p - f.blocks.data());
  return inline_rec(f, value, index, depth + 1);
}

Expr inline_rec(const PrimFunc& f, const Expr& e, std::size_t before, int depth) {
  if (e.kind == Expr::Kind::kLoad) return inline_load(f, e, before, depth);
  Expr copy = e;
  for (Expr& a : copy.args) a = inline_rec(f, a, before, depth);
  return copy;
}

}  // namespace

Expr inline_producers(const PrimFunc& f, const Expr& load, std::size_t before) {
  return inline_load(f, load, before, 0);
}

Expr inline_expr(const PrimFunc& f, const Expr& e, std::size_t before) {
  return inline_rec(f, e, before, 0);
}

void value_loads(const Expr& e, std::vector<const Expr*>& out) {
  if (e.kind == Expr::Kind::kLoad) {
    out.push_back(&e);
    return;
  }
  const bool guarded = (e.is_call("T.if_then_else") || e.is_call("T.Select")) && e.args.size() == 3;
  for (std::size_t i = guarded ? 1 : 0; i < e.args.size(); ++i) value_loads(e.args[i], out);
}

bool has_producer(const PrimFunc& f, const std::string& buffer, std::size_t before) {
  for (std::size_t i = std::min(before, f.blocks.size()); i-- > 0;) {
    const Block& b = f.blocks[i];
    if (b.stores.size() != 1 || b.stores[0].buffer != buffer) continue;
    Expr load;
    load.kind = Expr::Kind::kLoad;
    load.text = buffer;
    load.args = b.stores[0].indices;
    const Expr inlined = inline_producers(f, load, before);
    std::vector<const Expr*> loads;
    value_loads(inlined, loads);
    for (const Expr* l : loads) {
      const Buffer* lb = f.find_buffer(l->text);
      if (lb && l->text != buffer && is_stored_quantized(lb->dtype)) return true;
    }
    return false;
  }
  return false;
}

Lets lets_of(const PrimFunc& f) {
  Lets lets;
  for (const auto& [name, value] : f.lets) lets.emplace(name, &value);
  for (const Block& b : f.blocks)
    for (const auto& [name, value] : b.lets) lets.emplace(name, &value);
  return lets;
}

std::vector<std::string> check_accesses(const PrimFunc& f, const Block& b, const Expr& weight,
                                        const Expr& a, const Store& c, const Lets& lets) {
  int line = 0;  // of the access being checked
  auto name_of = [&](const std::string& n) -> std::optional<std::string> {
    for (const IterVar& v : b.iters)
      if (v.name == n) return isl_name(n);
    if (f.find_symbol(n)) return isl_name(n);
    auto let = lets.find(n);
    if (let != lets.end())
      throw NonAffine{
          line, (let->second->is_call("T.launch_thread") ? "thread index '" : "run-time value '") +
                    n + "' in an index"};
    return std::nullopt;
  };
  std::vector<const Expr*> loads{&a};
  loads_in(weight, loads, /*indices=*/false);
  std::vector<std::string> notes;
  auto check = [&](const std::string& buffer, const std::vector<Expr>& indices) {
    for (const Expr& i : indices) {
      line = i.line;
      try {
        affine_text(i, name_of, nullptr);
      } catch (const NonAffine& e) {
        notes.push_back(
            fmt::format("line {}: {}[...]: {} (over-approximated by the buffer's "
                        "extent)",
                        e.line, buffer, e.reason));
      }
    }
  };
  for (const Expr* l : loads) check(l->text, l->args);
  check(c.buffer, c.indices);
  return notes;
}

// The copy chain of a staging buffer (`B_local[v0, v1] = B[v0, v1]`) back to its source.
// `transposed` flips for each copy whose source reads the destination's last two variables in
// the other order (`W_shared[v0, v1, v2] = W[v2, v1]`).
std::string staged_origin(const PrimFunc& f, const std::string& buffer, std::size_t before,
                          bool* transposed) {
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

}  // namespace tenet::tir::detail
