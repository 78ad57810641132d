// The fused-kernel model (docs/model.md#fused-kernels): the blocking search and the time of a
// blocking from its exact counts (fused/counts.hpp) and the cost of each matmul tile, which the
// caller supplies — eval::evaluate_kernel asks eval::evaluate for it, so every matmul stage is
// costed by the one pipeline.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "fused/counts.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/fused/result.hpp"

namespace tenet::fused {

// One matmul tile of a stage, operands on chip: what eval::evaluate says of it.
struct TileEvaluation {
  std::int64_t cycles = 0;  // clock cycles (compute, SRAM stalls, dequant unit; no DRAM)
  // The same tile on one matrix unit of the chip (= cycles on a one-unit chip; 0: not given, taken
  // as cycles x units): a stage deals its tiles' folds over all the units (evaluate_blocking).
  std::int64_t unit_cycles = 0;
  std::string bound;  // compute, sram or dequant
  // Bytes of each operand of one tile in storage format (scale / zero tensors included): what
  // one transfer of A, B or C between DRAM and the chip moves.
  std::int64_t a_bytes = 0, b_bytes = 0, c_bytes = 0;
  std::int64_t sram_bytes = 0;  // SRAM traffic of the tile
  double energy_pj = 0;         // eval::evaluate's energy of the tile alone (operands moved once)
  std::int64_t compute_floor_cycles = 0;  // the tile's compute roofline (hw::compute_bounds)
  // The tile's folds streamed back to back (arch::AttentionKernelSpec::back_to_back): how many,
  // and each one's cycles without the pipeline's fill and drain (max(stream, weight load) with
  // double-buffered held operands, stream + load otherwise; a load is R cycles). 0: not given.
  std::int64_t folds = 0, fold_cycles = 0;
  // Σ over the folds when they differ (materialised attention loading only the rows each held
  // tile fills: arch::MaterialisedAttentionSpec::load_filled_rows); 0: folds x fold_cycles.
  std::int64_t folds_cycles = 0;
};
// (stage name, tile shape) -> its evaluation. Called once per distinct tile of a search.
using TileEvaluator = std::function<TileEvaluation(const std::string&, const TileShape&)>;

struct ModelInputs {
  const arch::Accelerator& accelerator;
  int activation_bits = 16;  // the activations' format (Q, O, X, Y, biases, spilled S / P / H1 / A)
  TileEvaluator tiles;
  // The candidate blockings; empty: candidate_blockings(kernel), then, when none of those fits,
  // candidate_blockings(kernel, true).
  std::vector<Blocking> candidates;
};

// Bytes of `elements` values of `bits` each, rounded up to whole bytes.
std::int64_t bytes_of(std::int64_t elements, int bits);

// Elementary operations and port bytes of the vector stage: `ops` of the stage's kind (softmax,
// activation) and `elementwise` multiplies (the online softmax's rescale of the O accumulator,
// at the rate of the unit's elementwise kind, `residual`: a multiply is no special function).
struct VectorWork {
  std::int64_t ops = 0, elementwise = 0, sram_bytes = 0;
  std::vector<std::pair<std::string, std::int64_t>> by_kind(const std::string& kind) const {
    if (elementwise == 0) return {{kind, ops}};
    return {{kind, ops}, {"residual", elementwise}};
  }
};

// The vector stage's work of `k` from its counts: the softmax (over whole rows when
// `rows_whole`, else the online softmax's per-block steps) or the MLP's activation and bias adds,
// at `act_bits` per activation (the one formula of the fused model and an MLP run as matmuls).
// `score_ops`: the online softmax's operations per score (0: llm::detail::kSoftmaxOps; the chip's
// attention kernel's softmax_ops_per_score).
VectorWork vector_work(const Kernel& k, const VectorCount& v, bool rows_whole, int act_bits,
                       std::int64_t score_ops = 0);

// The blockings the search tries: attention rows (queries per block) in {16, ..., 256} and cols
// (keys per block) in {64, ..., 512}, clipped to Q and KV; MLP token blocks in {16, ..., 1024}
// clipped to S. `small`: the blocks tried when none of those fits the global buffer (rows 1, 2,
// 4, 8; attention cols 16, 32).
std::vector<Blocking> candidate_blockings(const Kernel& k, bool small = false);

// The chip's own attention kernel (the accelerator's "fusion": {"attention"}) as it applies to
// `k`: causal attention — a decoder's prefill, extend and decode against its KV cache — runs it;
// any other kernel (non-causal encoder attention, the MLP) gets the defaults (none of its rules).
const arch::AttentionKernelSpec& chip_attention_kernel(const Kernel& k,
                                                       const arch::Accelerator& acc);

// Whether `k`'s matmul stages run their folds back to back on `acc` (docs/model.md#fused-kernels):
// the chip's attention kernel says so (fusion.attention.back_to_back), or the scores are
// materialised (every head's folds issue as one stream).
bool back_to_back(const Kernel& k, const arch::Accelerator& acc);

// The result of one blocking (its counts, tiles, time).
KernelResult evaluate_blocking(const Kernel& k, const Blocking& b, const ModelInputs& in);

// Every candidate; the best under the latency objective of the tiling search: the fastest C*,
// among the candidates within 2 % of it the fewest DRAM bytes, then the fewest cycles, then the
// earlier candidate.
// InputError(range, kind) when no candidate fits the global buffer even with its intermediates
// spilled.
KernelResult search_blocking(const Kernel& k, const ModelInputs& in);

}  // namespace tenet::fused
