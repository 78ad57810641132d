// Stage "apply quantization": the rules that bind a scheme to one matmul
// (docs/llm.md#the-evaluation-seam).
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"

namespace tenet::eval {
namespace {

using quant::Granularity;
using quant::OperandSpec;
using quant::QuantSpec;

// The activations' format as the B operand of an activation x activation product (the KV cache
// of a scheme without a kv_cache section, or an activation B).
OperandSpec activations_as_b(const OperandSpec& activations) {
  OperandSpec b = activations;
  b.packing.reset();
  for (quant::ScaleLevel& level : b.scales)
    if (level.granularity == Granularity::kPerInputChannel)
      level.granularity = Granularity::kPerChannel;
  return b;
}

// Weights a logged kernel does not dequantize: stored in the type the MAC takes.
OperandSpec unquantized_weights(const QuantSpec& scheme) {
  OperandSpec w;
  w.dtype = quant::dequant_target(scheme);
  return w;
}

// The KV cache's token axis follows the layout: NT (B stored N x K, one row per token, Q·Kᵀ) ->
// tokens along N; NN (K x N, P·V) -> tokens along K.
quant::KvTokenAxis token_axis(llm::Layout layout) {
  return layout == llm::Layout::kNT ? quant::KvTokenAxis::kN : quant::KvTokenAxis::kK;
}

}  // namespace

AppliedScheme apply_quantization(const QuantSpec& scheme, const llm::MatmulShape& shape) {
  AppliedScheme a{scheme, {}};
  switch (shape.b_operand) {
    case workload::OperandRole::kWeight:
      a.apply.b = workload::OperandRole::kWeight;
      a.apply.b_layout = shape.layout;
      if (shape.weights_quantized == false && quant::dequantizes(scheme))
        a.spec.weights = unquantized_weights(scheme);
      break;
    case workload::OperandRole::kKvCache:
      a.apply.b = workload::OperandRole::kKvCache;
      a.apply.kv_token_axis = token_axis(shape.layout);
      if (!a.spec.kv_cache) a.spec.kv_cache = activations_as_b(scheme.activations);
      break;
    case workload::OperandRole::kActivation:
      a.apply.b = workload::OperandRole::kKvCache;
      a.apply.kv_token_axis = token_axis(shape.layout);
      a.spec.kv_cache = activations_as_b(scheme.activations);
      break;
    default:
      throw InternalError(std::string("a matmul's B operand cannot be a ") +
                          workload::to_string(shape.b_operand));
  }
  // Nothing left to dequantize (e.g. unquantized logged weights of a weight-only scheme).
  const bool kv_quantized = a.spec.kv_cache && a.spec.kv_cache->quantized();
  if (!a.spec.weights.quantized() && !kv_quantized)
    a.spec.dequant.placement = quant::DequantPlacement::kNone;
  quant::validate(a.spec);
  return a;
}

}  // namespace tenet::eval
