// Materialised attention scores (ScoresPlace::kMaterialised, docs/model.md#fused-kernels): the
// plain attention a compiler such as XLA emits — Q·Kᵀ, the softmax and P·V as whole tensors —
// where S and P of every head are kept in the global buffer when they fit (their rows padded to
// the buffer's row, global_buffer.row_elements) and spilled to DRAM when not, and the heads'
// matmul folds issue back to back on the matrix units.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "fused/model.hpp"
#include "tenet/arch/accelerator.hpp"

namespace tenet::fused {

// `elements` rounded up to a multiple of the buffer's row (global_buffer.row_elements).
std::int64_t padded_row(const arch::Accelerator& acc, std::int64_t elements);

// The bytes of `bytes` stored as rows of `row` elements once each row is padded (padded_row):
// ⌈bytes × padded_row(row) / row⌉.
std::int64_t padded_row_bytes(const arch::Accelerator& acc, std::int64_t bytes, std::int64_t row);

// On-chip bytes of S (fp32) and P (at `activation_bits`) of every head, whole: HQ × Q rows of
// padded_row(KV) elements each.
std::int64_t materialised_scores_bytes(const AttentionKernel& a, const arch::Accelerator& acc,
                                       int activation_bits);

}  // namespace tenet::fused
