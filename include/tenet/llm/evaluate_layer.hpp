// The cost of one LLM matmul entry on an accelerator under a quantization scheme: the library
// function behind make_layer_evaluator (tenet model / tenet log) and the sweeps.
//
// Rules (docs/llm.md#the-evaluation-seam):
// - B = weights (OperandKind::kWeight): the scheme's weight quantization. A log entry with
//   weights_quantized == false under a scheme that dequantizes its weights (weight-only schemes:
//   placement dram_to_sram / sram_to_array) has unquantized weights: B is stored in the
//   dequantized type (dequant.to, else the activations' type), no scales, no packing, no dequant.
//   For other schemes (W8A8, FP8: no dequantize kernel exists) and for weights_quantized == true
//   the scheme decides.
// - B = KV cache (attention Q·Kᵀ, P·V): the scheme's kv_cache operand if it has one, else the
//   activations' format (dtype and scale levels; a per-input-channel level becomes per-channel,
//   packing is dropped). B = another activation: always the activations' format.
//   The KV cache's token axis follows the layout: NT (B stored N×K, one row per token, Q·Kᵀ) →
//   tokens along N; NN (K×N, P·V) → tokens along K.
// - Layout NT/NN does not change the cost of weights: packing and scale axes are stated in GEMM
//   indices (k, n), and the hardware model reads B[k, j] whatever its memory order.
// - `batch` independent products run one after another: cycles, bytes and energy × batch;
//   utilization and bound are those of one product.
// - cycles of one product = cycles.total + 1 (cycles.total is the zero-based index of the last
//   output write, SCALE-Sim's convention), dequant unit included: max(array, dequant) + 1.
// - epilogue_ops (fused element-wise ops of a logged kernel): energy only, one add at the output
//   type per op and output element; their time is assumed hidden under the matmul.
#pragma once

#include <string>

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/llm/layer_cost.hpp"
#include "tenet/llm/matmul_shape.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/mapping/tiling.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::llm {

struct LayerOptions {
  bool choose_tiling = true;  // hw::choose_tiling per matmul; false: use `tiling`
  mapping::Tiling tiling;     // buffer tiling when choose_tiling is false (0 = whole dimension)
  // What hw::choose_tiling minimises when choose_tiling is true.
  hw::TilingObjective tiling_objective = hw::TilingObjective::kLatency;
  hw::Options hw;             // bandwidth / buffer idealisations
  // Dequant unit throughput (only used when the matmul dequantizes). Non-zero values override
  // the scheme's dequant.throughput; when neither is given, default_dequant_rate applies.
  long long dequant_elements_per_cycle = 0;
  long long dequant_ops_per_cycle = 0;
};

// The objective a --tiling-objective option names, for the tiling text of --tile ("" or "auto":
// chosen automatically). An empty name is latency. Throws InputError(unknown-name) for another
// name and InputError(usage) for a name given with an explicit tiling, both located at `option`.
hw::TilingObjective tiling_objective_for(const std::string& name, const std::string& tile,
                                         const std::string& option = "--tiling-objective");

// The default dequant unit: as many elements per cycle as the array has input lanes on the edge
// B enters through (os, ws: the columns; is: the rows), i.e. a unit that can feed B to the array
// at its full edge rate.
long long default_dequant_rate(const arch::Accelerator& acc, mapping::Dataflow dataflow);

// The scheme as it applies to this matmul (rules above) and how B is bound to it.
struct AppliedScheme {
  quant::QuantSpec spec;
  quant::ApplyOptions apply;
};
// Throws InputError (from quant::validate, where = the scheme's field) if the derived scheme is
// invalid.
AppliedScheme apply_scheme(const quant::QuantSpec& scheme, const MatmulShape& shape);

// The detailed evaluation of one entry.
struct LayerEvaluation {
  AppliedScheme scheme;
  quant::QuantHwOptions options;  // what was passed to quant::evaluate_quant_gemm
  quant::QuantHwResult product;   // ONE of the `batch` products
  double epilogue_energy_pj = 0;  // the fused epilogue of one call (all batch products)
  LayerCost cost;                 // one call (all batch products); count is not applied
};

// Throws InputError for a scheme that does not fit the matmul or the accelerator (unsupported
// precision, ...), InputError(range) for a shape with a size < 1.
LayerEvaluation evaluate_layer_detail(const arch::Accelerator& acc, mapping::Dataflow dataflow,
                                      const quant::QuantSpec& scheme, const MatmulShape& shape,
                                      const LayerOptions& options = {});

// evaluate_layer_detail(...).cost. Pure and thread-safe.
LayerCost evaluate_layer(const arch::Accelerator& acc, mapping::Dataflow dataflow,
                         const quant::QuantSpec& scheme, const MatmulShape& shape,
                         const LayerOptions& options = {});

// LayerCost of one call from a product's result: the rules above (× batch, cycles + 1, ...).
LayerCost layer_cost(const quant::QuantHwResult& product, std::int64_t batch,
                     double epilogue_energy_pj);

}  // namespace tenet::llm
