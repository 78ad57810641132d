// The isl relations of a fused kernel and their counts (fused/relations.hpp).
#include "fused/relations.hpp"

#include <fmt/format.h>
#include <isl/cpp.h>

#include "fused/counts.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"
#include "tenet/poly/count.hpp"

namespace tenet::fused {
namespace {

std::int64_t count_of(const isl::map& m) { return poly::to_int64(poly::count(m)); }
std::int64_t count_of(const isl::set& s) { return poly::to_int64(poly::count(s)); }

// Transfers of a tensor: pairs (block iteration, element) of schedule⁻¹ ∘ access on `domain`.
std::int64_t transfers(const isl::set& domain, const isl::map& schedule, const isl::map& access) {
  const isl::map to_blocks = schedule.intersect_domain(domain);
  return count_of(to_blocks.reverse().apply_range(access.intersect_domain(domain)));
}

RelationCounts attention_relations(const AttentionKernel& a, const Blocking& b) {
  const isl::ctx ctx = poly::thread_context().get();
  const std::int64_t g = a.group();
  // The statement instances of the blocks the kernel computes: all, or under a causal mask the
  // blocks where some query sees some key (j <= KV - Q + i; with a window W also
  // j > KV - Q + i - W), from the first key the block's first query sees on.
  const std::string window =
      a.window > 0 ? fmt::format(" and j2 > {0} - {1} + i2 - {2} and j > {0} - {1} + {3} qb - {2}",
                                 a.kv, a.q, a.window, b.rows)
                   : "";
  const std::string computed =
      a.causal ? fmt::format(
                     " and exists (qb, kb, i2, j2 : {0} qb <= i < {0} qb + {0} and {1} kb <= j < "
                     "{1} kb + {1} and {0} qb <= i2 < {0} qb + {0} and i2 < {2} and {1} kb <= j2 "
                     "< {1} kb + {1} and j2 < {3} and j2 <= {3} - {2} + i2{4})",
                     b.rows, b.cols, a.q, a.kv, window)
               : std::string();
  const std::string bounds = fmt::format(
      "0 <= hq < {} and 0 <= i < {} and 0 <= j < {} and 0 <= c < {}", a.hq, a.q, a.kv, a.d);
  const isl::set qk(ctx, "{ QK[hq, i, j, c] : " + bounds + computed + " }");
  const isl::set pv(ctx, "{ PV[hq, i, j, c] : " + bounds + computed + " }");
  // The block iterations: (KV head, query block, key block); Q and O are kept over key blocks.
  auto sched = [&](const char* st, bool keys) {
    return isl::map(
        ctx, fmt::format("{{ {}[hq, i, j, c] -> T[floor(hq / {}), floor(i / {}){}] }}", st, g,
                         b.rows, keys ? fmt::format(", floor(j / {})", b.cols) : ""));
  };
  auto access = [&](const char* st, const char* tensor) {
    const std::string t = tensor;
    const std::string idx = t == "K" || t == "V"   ? fmt::format("floor(hq / {}), j, c", g)
                            : t == "S" || t == "P" ? "hq, i, j"
                                                   : "hq, i, c";
    return isl::map(ctx, fmt::format("{{ {}[hq, i, j, c] -> {}[{}] }}", st, tensor, idx));
  };
  RelationCounts r;
  r.transfers["Q"] = transfers(qk, sched("QK", false), access("QK", "Q"));
  r.transfers["K"] = transfers(qk, sched("QK", true), access("QK", "K"));
  r.transfers["V"] = transfers(pv, sched("PV", true), access("PV", "V"));
  r.transfers["O"] = transfers(pv, sched("PV", false), access("PV", "O"));
  // S is written by Q·Kᵀ (one value per (hq, i, j), whatever c), P read by P·V.
  r.elements["S"] = count_of(access("QK", "S").intersect_domain(qk).range());
  r.produced["S"] = transfers(qk, sched("QK", true), access("QK", "S"));
  r.elements["P"] = count_of(access("PV", "P").intersect_domain(pv).range());
  r.produced["P"] = transfers(pv, sched("PV", true), access("PV", "P"));
  r.macs = count_of(qk) + count_of(pv);
  return r;
}

RelationCounts ffn_relations(const FfnKernel& f, const Blocking& b) {
  const isl::ctx ctx = poly::thread_context().get();
  const std::int64_t w1 = f.w1_cols();
  const isl::set up(
      ctx,
      fmt::format("{{ U[t, n, k] : 0 <= t < {} and 0 <= n < {} and 0 <= k < {} }}", f.s, w1, f.h));
  const isl::set down(
      ctx,
      fmt::format("{{ D[t, n, k] : 0 <= t < {} and 0 <= n < {} and 0 <= k < {} }}", f.s, f.h, f.i));
  auto sched = [&](const char* st) {
    return isl::map(ctx, fmt::format("{{ {}[t, n, k] -> T[floor(t / {})] }}", st, b.rows));
  };
  // Resident weights and biases are kept over every token block: one block iteration for all.
  auto kept = [&](const char* st) {
    return b.resident ? isl::map(ctx, fmt::format("{{ {}[t, n, k] -> T[0] }}", st)) : sched(st);
  };
  auto access = [&](const char* st, const char* tensor, const char* idx) {
    return isl::map(ctx, fmt::format("{{ {}[t, n, k] -> {}[{}] }}", st, tensor, idx));
  };
  RelationCounts r;
  r.transfers["X"] = transfers(up, sched("U"), access("U", "X", "t, k"));
  r.transfers["W1"] = transfers(up, kept("U"), access("U", "W1", "k, n"));
  r.transfers["W2"] = transfers(down, kept("D"), access("D", "W2", "k, n"));
  r.transfers["Y"] = transfers(down, sched("D"), access("D", "Y", "t, n"));
  if (f.bias) {
    r.transfers["b1"] = transfers(up, kept("U"), access("U", "b1", "n"));
    r.transfers["b2"] = transfers(down, kept("D"), access("D", "b2", "n"));
  }
  r.elements["H1"] = count_of(access("U", "H1", "t, n").intersect_domain(up).range());
  r.produced["H1"] = transfers(up, sched("U"), access("U", "H1", "t, n"));
  r.elements["A"] = count_of(access("D", "A", "t, k").intersect_domain(down).range());
  r.produced["A"] = transfers(down, sched("D"), access("D", "A", "t, k"));
  r.macs = count_of(up) + count_of(down);
  return r;
}

}  // namespace

RelationCounts count_relations(const Kernel& k, const Blocking& b) {
  if (const auto* a = std::get_if<AttentionKernel>(&k)) return attention_relations(*a, b);
  return ffn_relations(std::get<FfnKernel>(k), b);
}

std::map<std::string, std::int64_t> checked_relation_counts(const KernelResult& r) {
  const RelationCounts rel = count_relations(r.kernel, r.blocking);
  std::map<std::string, std::int64_t> out;
  auto check = [&](const std::string& what, std::int64_t relations, std::int64_t closed) {
    if (relations != closed)
      throw InternalError(fmt::format(
          "fused kernel: the isl relations count {} {} of {} where the closed forms count {}",
          relations, what, kind_name(r.kernel), closed));
    out[what] = relations;
  };
  for (const TensorResult& t : r.tensors)
    if (t.kind != "intermediate") check(t.name, rel.transfers.at(t.name), t.dram_elements);
  // A padded blocking (the chip's fixed query block) computes padding rows the relations, which
  // state the kernel's own work, do not have: its intermediates and MACs are checked against the
  // closed forms of the same blocking unpadded (Q, K, V and O move the same bytes either way).
  ChainCounts unpadded;
  if (r.blocking.padded) {
    Blocking b = r.blocking;
    b.padded = false;
    unpadded = count_chain(r.kernel, b, r.spilled);
  }
  auto produced = [&](const IntermediateResult& i) {
    if (!r.blocking.padded) return i.produced;
    for (const IntermediateCount& u : unpadded.intermediates)
      if (u.name == i.name) return u.produced;
    throw InternalError("fused kernel: no intermediate " + i.name);
  };
  for (const IntermediateResult& i : r.intermediates) {
    check(i.name, rel.elements.at(i.name), produced(i));
    if (rel.produced.at(i.name) != rel.elements.at(i.name))
      throw InternalError("fused kernel: an element of " + i.name +
                          " is made in more than one block iteration");
  }
  check("macs", rel.macs, r.blocking.padded ? unpadded.macs() : r.macs);
  return out;
}

}  // namespace tenet::fused
