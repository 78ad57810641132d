// The evaluation of a fused kernel (attention or MLP; tenet/fused/kernel.hpp): the sibling of
// eval::evaluate for a chain of statements. It searches the blocking (fused::search_blocking) and
// costs every matmul tile of every stage through eval::evaluate — the request of tile_request
// below, operands on chip — so a stage is timed exactly as the same matmul elsewhere, with the
// scheme's formats, the dequant unit and the accelerator's array(s). The DRAM traffic of the
// chain, its intermediates and the vector unit's work are the fused model's
// (docs/model.md#fused-kernels; docs/architecture.md#the-pipeline says why a sibling).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tenet/eval/request.hpp"
#include "tenet/fused/kernel.hpp"
#include "tenet/fused/result.hpp"
#include "tenet/llm/layer_cost.hpp"

namespace tenet::eval {

struct KernelRequest {
  fused::Kernel kernel;
  // The accelerator, the scheme (KV cache for attention, weights for the MLP; activations for the
  // rest), the dataflow, the dequant unit and the hardware options; its matmul and tiling are
  // ignored (each tile is its own buffer tile). Systolic timing only.
  Request base;
  std::vector<fused::Blocking> blockings;  // empty: the search's candidates (docs/model.md §8)
  // Also count the chosen blocking from the chain's isl relations (poly::count) and check the
  // counts equal the closed forms (KernelResult::relation_counts; InternalError if not).
  bool relation_centric = false;
};

// InputError as validate (fused/kernel.hpp) for bad shapes (where "attention" / "ffn"), as
// eval::evaluate for a tile, InputError(usage, "timing") under TENET timing and InputError(range,
// kind) when no blocking fits the global buffer.
fused::KernelResult evaluate_kernel(const KernelRequest& request);

// The request eval::evaluate costs one tile of a stage with ("qk", "pv", "up", "down"; shape
// M, N, K): the base request with the tile as its matmul (attention: B the KV cache, NT for Q·Kᵀ,
// NN for P·V; MLP: B the weights), the whole tile as its one buffer tile, and the DRAM link,
// buffer capacity and call cost left to the fused model (unlimited there, no edge transfers, no
// kernel_launch_ns: the kernel pays it once). evaluate_kernel also costs a tile transposed
// (shape N, M, K) when no operand is quantized and A and B share a format, and takes the faster;
// on a chip of several units, each tile on one unit too (docs/model.md#fused-kernels).
Request tile_request(const KernelRequest& request, const std::string& stage,
                     const std::array<std::int64_t, 3>& shape);

// The fused attention kernel of a model row (llm::MatmulShape::fused_attention set): HQ =
// batch·heads, HKV = batch·kv_heads (the sequences are independent heads), Q = M, KV = N, D = K,
// scores on chip. InternalError for a row without fused_attention.
fused::AttentionKernel attention_kernel(const llm::MatmulShape& row);

// A fused kernel's result as one call of a model row (docs/llm.md#fused-attention): its cycles,
// bound, DRAM and SRAM bytes; utilization = MACs / (cycles · PEs of every matrix unit); energy =
// Σ tiles · each tile's energy as eval::evaluate costs it alone; bounds: the compulsory DRAM
// bytes (Q, K, V read once, O written once) and their link time, Σ tiles · each tile's compute
// roofline.
llm::LayerCost kernel_call_cost(const fused::KernelResult& result, const arch::Accelerator& acc,
                                const std::string& scheme);

// eval::evaluate_kernel of a fused model row under `base` (its scheme, accelerator, options),
// as one call's cost: an attention row's attention_kernel, or an MLP row's (fused_ffn) kernel
// S = M, H = K, I = N, silu_gated (gated) or gelu (plain), with its bias.
llm::LayerCost evaluate_fused_row(const Request& base, const llm::MatmulShape& row);

}  // namespace tenet::eval
