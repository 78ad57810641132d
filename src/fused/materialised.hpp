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

// The busy cycles of a matmul stage whose folds issue back to back over `units` matrix units
// (each tile with its count): a fold costs max(its stream, the next stationary tile's preload),
// which loads while the previous fold streams; the units share the folds (the busiest runs
// ⌈Σ / units⌉, no less than the longest fold) and the stage pays one fill and drain and the
// first preload once. Never below the MACs at the units' peak (a fold streams at least its MACs
// over R × C). -1 when it does not apply: a tile not compute-bound (its SRAM port or dequant unit
// sets its time) or whose PEs do not double-buffer the stationary operand (preload 0).
double back_to_back_cycles(const std::vector<std::pair<std::int64_t, const TileEvaluation*>>& tiles,
                           long long units);

}  // namespace tenet::fused
