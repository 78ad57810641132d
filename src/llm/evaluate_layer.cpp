#include "tenet/llm/evaluate_layer.hpp"

#include <algorithm>

#include "tenet/error.hpp"

namespace tenet::llm {
namespace {

using quant::Granularity;
using quant::OperandSpec;
using quant::QuantSpec;

Integer big(long long v) { return Integer(static_cast<long>(v)); }

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

quant::KvTokenAxis token_axis(Layout layout) {
  return layout == Layout::kNT ? quant::KvTokenAxis::kN : quant::KvTokenAxis::kK;
}

void check_shape(const MatmulShape& s) {
  if (s.batch < 1 || s.m < 1 || s.n < 1 || s.k < 1)
    throw InputError(error_code::kRange, "", s.name.empty() ? "shape" : s.name,
                     "expected batch, M, N, K >= 1");
}

quant::QuantHwOptions hw_options(const arch::Accelerator& acc, mapping::Dataflow dataflow,
                                 const AppliedScheme& applied, const LayerOptions& o) {
  quant::QuantHwOptions q;
  q.apply = applied.apply;
  q.tiling = o.tiling;
  q.choose_tiling = o.choose_tiling;
  q.tiling_objective = o.tiling_objective;
  q.hw = o.hw;
  q.dequant_elements_per_cycle = o.dequant_elements_per_cycle;
  q.dequant_ops_per_cycle = o.dequant_ops_per_cycle;
  const quant::DequantSpec& d = applied.spec.dequant;
  const bool rate_given = o.dequant_elements_per_cycle > 0 || o.dequant_ops_per_cycle > 0 ||
                          d.elements_per_cycle > 0 || d.ops_per_cycle > 0;
  if (!rate_given) q.dequant_elements_per_cycle = default_dequant_rate(acc, dataflow);
  return q;
}

double epilogue_energy(const MatmulShape& s, const QuantSpec& spec,
                       const quant::OpEnergyTable& table) {
  if (s.epilogue_ops <= 0) return 0;
  const double outputs =
      static_cast<double>(s.batch) * static_cast<double>(s.m) * static_cast<double>(s.n);
  return outputs * s.epilogue_ops * table.lookup(spec.output.dtype).add_pj;
}

// MACs x cycles per MAC / (cycles x PE lanes), as hw::Result::utilization but over the latency
// that includes the dequant unit; at most 1.
double utilization_of(const quant::QuantHwResult& r) {
  const hw::Result& h = r.hw;
  const double lanes = static_cast<double>(h.rows) * static_cast<double>(h.cols) *
                       static_cast<double>(h.macs_per_cycle);
  const double cycles = static_cast<double>(std::max<long long>(r.total_cycles, 1));
  if (lanes <= 0) return 0;
  const double u =
      static_cast<double>(h.macs) * static_cast<double>(h.cycles_per_mac) / (cycles * lanes);
  return std::min(u, 1.0);
}

}  // namespace

hw::TilingObjective tiling_objective_for(const std::string& name, const std::string& tile,
                                         const std::string& option) {
  if (name.empty()) return hw::TilingObjective::kLatency;
  const hw::TilingObjective objective = hw::parse_tiling_objective(name, option);
  if (!tile.empty() && tile != "auto")
    throw InputError(error_code::kUsage, "", option,
                     "the objective chooses the tiling of --tile auto; with --tile " + tile +
                         " there is nothing to choose");
  return objective;
}

long long default_dequant_rate(const arch::Accelerator& acc, mapping::Dataflow dataflow) {
  return dataflow == mapping::Dataflow::kInputStationary ? acc.rows() : acc.cols();
}

AppliedScheme apply_scheme(const QuantSpec& scheme, const MatmulShape& shape) {
  AppliedScheme a{scheme, {}};
  switch (shape.b_operand) {
    case OperandKind::kWeight:
      a.apply.b = quant::BOperand::kWeights;
      a.apply.b_layout = shape.layout == Layout::kNT ? quant::BLayout::kNK : quant::BLayout::kKN;
      if (shape.weights_quantized == false && quant::dequantizes(scheme))
        a.spec.weights = unquantized_weights(scheme);
      break;
    case OperandKind::kKvCache:
      a.apply.b = quant::BOperand::kKvCache;
      a.apply.kv_token_axis = token_axis(shape.layout);
      if (!a.spec.kv_cache) a.spec.kv_cache = activations_as_b(scheme.activations);
      break;
    case OperandKind::kActivation:
      a.apply.b = quant::BOperand::kKvCache;
      a.apply.kv_token_axis = token_axis(shape.layout);
      a.spec.kv_cache = activations_as_b(scheme.activations);
      break;
  }
  // Nothing left to dequantize (e.g. unquantized logged weights of a weight-only scheme).
  const bool kv_quantized = a.spec.kv_cache && a.spec.kv_cache->quantized();
  if (!a.spec.weights.quantized() && !kv_quantized)
    a.spec.dequant.placement = quant::DequantPlacement::kNone;
  quant::validate(a.spec);
  return a;
}

LayerCost layer_cost(const quant::QuantHwResult& product, std::int64_t batch,
                     double epilogue_energy_pj) {
  const Integer b = big(batch);
  LayerCost c;
  c.cycles = b * big(product.total_cycles + 1);
  c.bound = quant::to_string(product.bound);
  c.utilization = utilization_of(product);
  c.dram_bytes = b * big(product.dram_bytes);
  c.sram_bytes = b * big(product.sram_bytes);
  c.energy_pj = static_cast<double>(batch) * product.energy.total() + epilogue_energy_pj;
  return c;
}

LayerEvaluation evaluate_layer_detail(const arch::Accelerator& acc, mapping::Dataflow dataflow,
                                      const QuantSpec& scheme, const MatmulShape& shape,
                                      const LayerOptions& options) {
  check_shape(shape);
  LayerEvaluation e{apply_scheme(scheme, shape), {}, {}, 0, {}};
  e.options = hw_options(acc, dataflow, e.scheme, options);
  const mapping::GemmShape gemm{shape.m, shape.n, shape.k};
  e.product = quant::evaluate_quant_gemm(acc, gemm, e.scheme.spec, dataflow, e.options);
  e.epilogue_energy_pj = epilogue_energy(shape, e.scheme.spec, e.options.energy);
  e.cost = layer_cost(e.product, shape.batch, e.epilogue_energy_pj);
  return e;
}

LayerCost evaluate_layer(const arch::Accelerator& acc, mapping::Dataflow dataflow,
                         const QuantSpec& scheme, const MatmulShape& shape,
                         const LayerOptions& options) {
  return evaluate_layer_detail(acc, dataflow, scheme, shape, options).cost;
}

}  // namespace tenet::llm
