// The exact counts of a fused kernel under one blocking (docs/model.md#fused-kernels): how many
// times each tensor crosses the DRAM link, by the matmul tile it feeds; the matmul tiles the array
// runs, by shape; every intermediate element, on chip or spilled; the vector unit's work. Block
// by block in closed form (a few operations per query or token block); the relations of the same
// chain, counted by isl, are fused/relations.hpp, and the brute-force enumeration of
// tests/fused checks both.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tenet/fused/kernel.hpp"

namespace tenet::fused {

// A matmul tile of one stage: C[m, n] (+)= A[m, k]·B[k, n].
using TileShape = std::array<std::int64_t, 3>;  // m, n, k

// One stage of the chain that runs on the PE array, and its tiles by shape.
struct StageCount {
  std::string name;                         // "qk", "pv" (attention); "up", "down" (MLP)
  std::map<TileShape, std::int64_t> tiles;  // tile shape -> tiles of that shape
  std::int64_t macs() const;
};

// One tensor's DRAM transfers. A tensor that is one operand of a stage's tile (operand 'A', 'B'
// or 'C') moves that operand's elements per transfer; its bytes are the operand's bytes in
// storage format (scale and zero tensors included). A bias moves `plain_elements` at the
// activations' format.
struct TensorCount {
  std::string name;   // "Q", "K", "V", "O", "S", "P" / "X", "W1", "b1", "H1", "A", "W2", "b2", "Y"
  std::string kind;   // "input", "output" or "intermediate" (spill traffic)
  std::string stage;  // the stage whose operand it is ("" for a bias)
  char operand = 'A';
  std::map<TileShape, std::int64_t> transfers;  // tile shape -> reads or writes of the operand
  std::int64_t plain_elements = 0;              // a bias: elements read
  std::int64_t elements() const;                // element transfers, reads and writes
};

// An intermediate tensor: each of its elements is produced once, and kept on chip or spilled
// (written to DRAM and read back) — never both, never neither.
struct IntermediateCount {
  std::string name;  // "S" and "P" (attention), "H1" and "A" (MLP)
  std::int64_t produced = 0, on_chip = 0, spilled = 0;
};

// The vector unit's element work (eval turns it into operations and bytes).
struct VectorCount {
  std::string kind;             // "softmax" | "activation" (arch::vector_op_kinds)
  std::int64_t elements = 0;    // scores (attention) or activated elements (MLP)
  std::int64_t row_steps = 0;   // online softmax: rows x key blocks (max, correction, sum)
  std::int64_t rescaled = 0;    // online softmax: O accumulator elements rescaled
  std::int64_t normalized = 0;  // online softmax: O elements divided by the row sum
  std::int64_t bias_adds = 0;   // MLP with bias: H1 and Y elements
};

struct ChainCounts {
  std::vector<StageCount> stages;
  std::vector<TensorCount> tensors;  // inputs, outputs, then spilled intermediates
  std::vector<IntermediateCount> intermediates;
  VectorCount vector;
  std::int64_t blocks = 0;  // (KV head, query block) pairs, or token blocks
  std::int64_t rows = 0;  // attention: rows of Q·Kᵀ computed, Σ over blocks of g × its queries
                          // (padding rows included); 0 for the MLP
  // attention: the keys each query block computes (its key blocks' keys; the same for every KV
  // head), in query-block order; empty for the MLP
  std::vector<std::int64_t> block_keys;
  std::int64_t macs() const;
  const TensorCount& tensor(const std::string& name) const;  // InternalError if absent
};

// The counts of `k` under `b`; `spill`: the intermediates go through DRAM (scores in DRAM, or a
// blocking whose intermediates do not fit on chip). InputError(range, "blockings":
// eval::KernelRequest's) for a block size < 1.
ChainCounts count_chain(const Kernel& k, const Blocking& b, bool spill);

}  // namespace tenet::fused
