#include "tir/relation.hpp"

#include <fmt/core.h>

#include <map>

#include "poly/parse.hpp"
#include "tenet/error.hpp"
#include "tir/expr_util.hpp"
#include "tir/trace.hpp"

namespace tenet::tir {
namespace {

using detail::affine_text;
using detail::isl_name;
using detail::NonAffine;
using detail::Unsupported;

using NameOf = std::function<std::optional<std::string>(const std::string&)>;

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : sep) + i;
  return s;
}

// "[n, m] -> " for the function's symbols without a value.
std::string params_prefix(const PrimFunc& f, const SymbolValues* values) {
  std::vector<std::string> names;
  for (const Symbol& s : f.symbols)
    if (!values || !values->count(s.name)) names.push_back(isl_name(s.name));
  return names.empty() ? "" : "[" + join(names) + "] -> ";
}

NameOf names_for(const PrimFunc& f, const std::vector<std::string>& vars) {
  return [&f, vars](const std::string& n) -> std::optional<std::string> {
    for (const std::string& v : vars)
      if (v == n) return isl_name(n);
    if (f.find_symbol(n)) return isl_name(n);
    return std::nullopt;
  };
}

std::string tuple(const std::vector<std::string>& vars) {
  std::vector<std::string> names;
  for (const std::string& v : vars) names.push_back(isl_name(v));
  return "S[" + join(names) + "]";
}

AccessRelation relation_of(const PrimFunc& f, const std::vector<std::string>& vars,
                           const std::string& buffer, const std::vector<Expr>& indices,
                           workload::AccessKind kind, const SymbolValues* values) {
  const NameOf name_of = names_for(f, vars);
  const Buffer* b = f.find_buffer(buffer);
  AccessRelation r;
  r.buffer = buffer;
  r.kind = kind;
  std::vector<std::string> outs, constraints;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const std::string out = fmt::format("o{}", i);
    outs.push_back(out);
    try {
      constraints.push_back(out + " = " + affine_text(indices[i], name_of, values));
    } catch (const NonAffine& e) {
      if (!b || i >= b->shape.size())
        throw Unsupported{e.line,
                          "index of " + buffer + " is not affine and its extent is unknown"};
      constraints.push_back(
          fmt::format("0 <= {} < {}", out, affine_text(b->shape[i], name_of, values)));
      r.approximated = true;
      r.reason = fmt::format("line {}: {}", e.line, e.reason);
    }
  }
  r.relation = params_prefix(f, values) + "{ " + tuple(vars) + " -> " + isl_name(buffer) + "[" +
               join(outs) + "]" + (constraints.empty() ? "" : " : " + join(constraints, " and ")) +
               " }";
  return r;
}

std::string domain_text(const PrimFunc& f, const std::vector<std::string>& vars,
                        const std::vector<const Expr*>& extents, const SymbolValues* values) {
  const NameOf name_of = names_for(f, vars);
  std::vector<std::string> c;
  for (std::size_t i = 0; i < vars.size(); ++i)
    c.push_back(
        fmt::format("0 <= {} < {}", isl_name(vars[i]), affine_text(*extents[i], name_of, values)));
  return params_prefix(f, values) + "{ " + tuple(vars) +
         (c.empty() ? "" : " : " + join(c, " and ")) + " }";
}

[[noreturn]] void rethrow(const Unsupported& e, const std::string& file) {
  throw InputError(error_code::kParse, file, fmt::format("line {}", e.line), e.reason);
}

const Block& find_block(const PrimFunc& f, const MatmulKernel& k) {
  for (const Block& b : f.blocks)
    if (b.name == k.block && b.line == k.line) return b;
  throw InternalError("block " + k.block + " of " + k.func + " not found");
}

workload::OperandRole storage_role(const WeightStorage& w, const std::string& buffer) {
  if (buffer == w.buffer) return workload::OperandRole::kWeight;
  if (buffer == w.scale_buffer) return workload::OperandRole::kScale;
  if (buffer == w.zero_buffer) return workload::OperandRole::kZero;
  return workload::OperandRole::kOther;
}

}  // namespace

BlockRelations block_relations(const PrimFunc& f, const Block& block, const SymbolValues* values) {
  BlockRelations out;
  std::vector<std::string> vars;
  std::vector<const Expr*> extents;
  for (const IterVar& v : block.iters) {
    vars.push_back(v.name);
    extents.push_back(&v.extent);
  }
  try {
    out.domain = domain_text(f, vars, extents, values);
    std::vector<BufferAccess> reads = block.reads, writes = block.writes;
    if (!block.reads_given)
      for (const Store& s : block.stores) {
        std::vector<const Expr*> loads;
        detail::loads_in(s.value, loads);
        for (const Expr* l : loads) reads.push_back({l->text, l->args, false, {}, l->line});
      }
    if (!block.writes_given)
      for (const Store& s : block.stores)
        writes.push_back({s.buffer, s.indices, false, {}, s.line});
    for (const BufferAccess& a : reads)
      out.accesses.push_back(
          relation_of(f, vars, a.buffer, a.indices, workload::AccessKind::kRead, values));
    for (const BufferAccess& a : writes)
      out.accesses.push_back(
          relation_of(f, vars, a.buffer, a.indices, workload::AccessKind::kWrite, values));
  } catch (const Unsupported& e) {
    rethrow(e, "");
  }
  return out;
}

KernelWorkload kernel_workload(const Module& module, const BoundKernel& bound, bool trace_storage) {
  const MatmulKernel& k = bound.kernel;
  const PrimFunc* f = module.find_function(k.func);
  if (!f) throw InternalError("function " + k.func + " not found");
  if (!k.intrinsic.empty())
    throw InputError(error_code::kUnknownName, module.file, fmt::format("line {}", k.line),
                     "block " + k.block + " is tensorized (" + k.intrinsic +
                         "): its accesses are tiles, not the scalar relations of the exact engine");
  if (k.runtime_tile)
    throw InputError(error_code::kUnknownName, module.file, fmt::format("line {}", k.line),
                     "block " + k.block +
                         " computes one tile at a run-time offset: its relations are a tile's, "
                         "not the kernel's");
  const Block& b = find_block(*f, k);
  const std::size_t index = static_cast<std::size_t>(&b - f->blocks.data());
  std::vector<std::string> vars;
  for (const auto* group : {&k.batch_vars, &k.m_vars, &k.n_vars, &k.k_vars})
    vars.insert(vars.end(), group->begin(), group->end());
  std::vector<const Expr*> extents;
  for (const std::string& v : vars)
    for (const IterVar& iv : b.iters)
      if (iv.name == v) extents.push_back(&iv.extent);
  if (extents.size() != vars.size())
    throw InputError(error_code::kUnknownName, module.file, fmt::format("line {}", k.line),
                     "block " + k.block +
                         " uses variables of an enclosing block: its relations are not derived");

  const Store& st = b.stores[0];
  const Expr* a_load = nullptr;
  const Expr* b_load = nullptr;
  std::vector<const Expr*> loads;
  detail::loads_in(st.value, loads);
  for (const Expr* l : loads) {
    if (l->text == k.a_buffer && !a_load) a_load = l;
    if (l->text == k.b_buffer && !b_load) b_load = l;
  }
  if (!a_load || !b_load) throw InternalError("operands of " + k.block + " not found");
  // B's loads: B itself, or every load of an inline dequantize (`A[k] * ((q - 7) * s[n, g])`).
  std::vector<const Expr*> b_loads;
  for (const Expr* l : loads)
    if (l != a_load && l->text != st.buffer) b_loads.push_back(l);
  const SymbolValues* values = &bound.symbols;
  KernelWorkload out;
  std::vector<workload::Access> accesses;
  const poly::Origin origin{module.file, fmt::format("line {}", b.line)};
  auto add = [&](const std::string& buffer, const std::vector<Expr>& indices,
                 workload::AccessKind kind, workload::OperandRole role) {
    const AccessRelation r = relation_of(*f, vars, buffer, indices, kind, values);
    if (r.approximated) out.approximations.push_back(r.reason);
    isl::map rel = poly::parse_map(r.relation, origin);
    for (workload::Access& a : accesses)
      if (a.tensor == isl_name(buffer) && a.kind == kind) {
        a.relation = a.relation.unite(rel);
        return;
      }
    const Buffer* buf = f->find_buffer(buffer);
    const int bits = buf ? detail::dtype_bits(buf->dtype) : 0;
    accesses.push_back({isl_name(buffer), kind, rel, bits > 0 ? bits : 32, role});
  };
  try {
    const std::string domain = domain_text(*f, vars, extents, values);
    add(k.a_buffer, a_load->args, workload::AccessKind::kRead, workload::OperandRole::kActivation);
    if (trace_storage && k.storage) {
      for (const Expr* bl : b_loads) {
        const Expr weight = detail::inline_producers(*f, *bl, index);
        std::vector<const Expr*> leaves;
        detail::loads_in(weight, leaves, /*indices=*/true);
        for (const Expr* l : leaves)
          add(l->text, l->args, workload::AccessKind::kRead, storage_role(*k.storage, l->text));
      }
    } else {
      add(k.b_buffer, b_load->args, workload::AccessKind::kRead, workload::OperandRole::kWeight);
    }
    add(st.buffer, st.indices, workload::AccessKind::kWrite, workload::OperandRole::kOutput);
    out.workload = workload::Workload(k.func + "/" + k.block, poly::parse_set(domain, origin),
                                      std::move(accesses));
  } catch (const Unsupported& e) {
    rethrow(e, module.file);
  }
  return out;
}

}  // namespace tenet::tir
