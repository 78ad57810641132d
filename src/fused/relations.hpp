// The relation-centric view of a fused kernel (docs/model.md#fused-kernels): its statements as isl
// iteration domains, their accesses (inputs, outputs and intermediates) as access relations, the
// blocking as a schedule onto block iterations, and each tensor's DRAM transfers as the number of
// (block iteration, element) pairs of schedule⁻¹ ∘ access over the loops the tensor is kept
// across — counted exactly by poly::count. The same numbers as fused/counts.hpp's closed forms;
// eval::evaluate_kernel checks them against each other when asked
// (KernelRequest::relation_centric).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "tenet/fused/kernel.hpp"
#include "tenet/fused/result.hpp"

namespace tenet::fused {

struct RelationCounts {
  // Element transfers of each input and output tensor (Q, K, V, O / X, W1, b1, W2, b2, Y).
  std::map<std::string, std::int64_t> transfers;
  // Each intermediate (S, P / H1, A): its elements, and the (block iteration, element) pairs of
  // the matmul statement that writes it (S, H1) or reads it (P, A) — equal when every element is
  // made (used) in one block iteration, i.e. accounted for once.
  std::map<std::string, std::int64_t> elements, produced;
  std::int64_t macs = 0;  // points of the matmul statements' domains
};

RelationCounts count_relations(const Kernel& k, const Blocking& b);

// The counts of `r`'s kernel and blocking from the relations, checked against `r` (its tensors'
// element transfers, its intermediates, its MACs): InternalError on any difference. Returns
// "<tensor>" -> element transfers for the inputs and outputs, "<intermediate>" -> elements,
// "macs" -> MACs.
std::map<std::string, std::int64_t> checked_relation_counts(const KernelResult& r);

}  // namespace tenet::fused
