#include "tenet/quant/quant_costs.hpp"

#include <fmt/format.h>

#include <optional>
#include <tuple>

#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

namespace tenet::quant {
namespace {

using workload::Access;
using workload::OperandRole;

struct Context {
  const QuantSpec& spec;
  const CostOptions& options;
  const workload::Workload& w;  // quantized

  Integer count_range(const isl::map& relation) const {
    return poly::count(relation.intersect_domain(w.domain()).range(), options.count);
  }
  // Distinct (a-element, b-element) pairs used together by some instance.
  Integer count_pairs(const isl::map& a, const isl::map& b) const {
    return count_range(a.range_product(b));
  }
  const Access* role(OperandRole r) const {
    for (const auto& a : w.accesses())
      if (a.role == r) return &a;
    return nullptr;
  }
  const Access* tensor(const std::string& id) const {
    for (const auto& a : w.accesses())
      if (a.tensor == id) return &a;
    return nullptr;
  }
  bool b_is_kv() const { return options.apply.b == BOperand::kKvCache; }
  OperandKind b_kind() const { return b_is_kv() ? OperandKind::kKvCache : OperandKind::kWeights; }
  const OperandSpec& b_spec() const { return spec.operand(b_kind()); }
};

Integer ceil_div(const Integer& a, const Integer& b) { return (a + b - 1) / b; }
// long is 64 bits on the supported platforms (LP64).
Integer big(long long v) { return Integer(static_cast<long>(v)); }

// Operand kind of a quantized operand access (nullopt for scale/zero/other tensors).
std::optional<OperandKind> kind_of(const Context& c, const Access& a) {
  switch (a.role) {
    case OperandRole::kActivation:
      return OperandKind::kActivations;
    case OperandRole::kWeight:
      return c.b_kind();
    case OperandRole::kOutput:
      return OperandKind::kOutput;
    default:
      return std::nullopt;
  }
}

TensorStorage storage_of(const Context& c, const Access& a) {
  TensorStorage s;
  s.name = report_name(a);
  s.role = a.role;
  s.bits = s.word_bits = a.bits;
  s.elements = c.count_range(a.relation);
  s.words = s.elements;
  const auto kind = kind_of(c, a);
  if (!kind) return s;
  const OperandSpec& op = c.spec.operand(*kind);
  if (!op.packing) return s;
  s.word_bits = op.packing->storage_bits;
  s.words = c.count_range(a.relation.apply_range(packing_map(a, *kind, op, c.options.apply)));
  return s;
}

std::vector<TensorStorage> storage_of_all(const Context& c) {
  std::vector<TensorStorage> out;
  for (const auto& a : c.w.accesses()) {
    bool seen = false;
    for (const auto& s : out) seen = seen || s.name == report_name(a);
    if (!seen) out.push_back(storage_of(c, a));
  }
  return out;
}

// The tensors that make up the weights in memory: B and its scale/zero tensors.
std::vector<std::string> weight_tensor_names(const Context& c, const Access& b) {
  std::vector<std::string> names{b.tensor};
  for (std::size_t l = 0; l < c.b_spec().scales.size(); ++l) {
    names.push_back(scale_tensor_id(b.tensor, l));
    if (c.b_spec().scales[l].zero) names.push_back(zero_tensor_id(b.tensor, l));
  }
  return names;
}

// B elements dequantized: once each (dram_to_sram) or once per M-tile that uses them.
Integer dequant_elements(const Context& c, const Access& b) {
  if (c.options.dequant_elements) return *c.options.dequant_elements;
  const Access* a = c.role(OperandRole::kActivation);
  const long long tile = c.options.tile_m;
  if (c.spec.dequant.placement == DequantPlacement::kDramToSram || tile <= 0 || !a)
    return c.count_range(b.relation);
  const isl::map to_tile(poly::thread_context().get(),
                         fmt::format("{{ {}[m, k] -> Mtile[floor(m/{})] }}", a->tensor, tile));
  return c.count_pairs(b.relation, a->relation.apply_range(to_tile));
}

int quantize_ops_per_element(const OperandSpec& op) {
  if (op.scales.empty()) return 1;  // a cast
  bool dynamic = false;
  for (const auto& l : op.scales) dynamic = dynamic || l.dynamic;
  return 1 + static_cast<int>(op.scales.size()) + (dynamic ? 1 : 0);
}

DataType epilogue_type(const QuantSpec& spec) {
  return spec.accumulator.is_float() ? spec.accumulator : DataType::fp32();
}

struct ScaleWork {
  Integer epilogue, rescale, zero_sums;
};

// Work of the scale levels of one operand that are not consumed by a dequantization.
ScaleWork scale_work(const Context& c, const Access& x, const OperandSpec& op, bool is_b,
                     const Access& out, const TensorStorage& a_store,
                     const TensorStorage& b_store) {
  ScaleWork work;
  const Integer outputs = c.count_range(out.relation);
  for (std::size_t l = 0; l < op.scales.size(); ++l) {
    const ScaleLevel& level = op.scales[l];
    if (is_b && applied_in_dequant(c.spec, level)) continue;
    const bool k_indexed = indexed_by_k(level.granularity);
    const Access& s = *c.tensor(scale_tensor_id(x.tensor, l));
    (k_indexed ? work.rescale : work.epilogue) +=
        k_indexed ? c.count_pairs(out.relation, s.relation) : outputs;
    if (!level.zero) continue;
    const Access& z = *c.tensor(zero_tensor_id(x.tensor, l));
    (k_indexed ? work.rescale : work.epilogue) +=
        k_indexed ? c.count_pairs(out.relation, z.relation) : outputs;
    // z_B · Σ_k A (each A element once) or z_A · Σ_k B (offline unless B is the KV cache).
    work.zero_sums += is_b ? a_store.elements : (c.b_is_kv() ? b_store.elements : Integer(0));
  }
  return work;
}

double dequant_energy(const Context& c, const QuantOps& ops, const OpEnergyTable& t) {
  const DataType target = dequant_target(c.spec);
  if (c.spec.dequant.ops_per_element) return ops.dequant.get_d() * t.lookup(target).add_pj;
  const DequantOps d = dequant_op_breakdown(c.spec, c.b_spec());
  const int word = c.b_spec().packing ? c.b_spec().packing->storage_bits : 32;
  const double per_element = d.unpack * t.lookup(DataType::signed_int(word)).add_pj +
                             (d.convert + d.offset) * t.lookup(target).add_pj +
                             d.scale * t.lookup(target).mul_pj;
  return ops.dequant_elements.get_d() * per_element;
}

ComputeEnergy energy_of(const Context& c, const QuantCosts& q) {
  const OpEnergyTable& t = c.options.energy;
  const OpEnergy epi = t.lookup(epilogue_type(c.spec));
  ComputeEnergy e;
  e.mac = q.macs.get_d() * q.mac_energy_pj;
  e.dequant = dequant_energy(c, q.ops, t);
  e.epilogue = q.ops.epilogue.get_d() * epi.mul_pj;
  e.rescale = q.ops.rescale.get_d() * (epi.mul_pj + epi.add_pj);
  e.zero_sums = q.ops.zero_sums.get_d() * t.lookup(c.spec.activations.dtype).add_pj;
  e.quantize = Integer(q.ops.activation_quant + q.ops.output_quant).get_d() * epi.add_pj;
  return e;
}

std::optional<Integer> dequant_cycles(const QuantSpec& spec, const OperandSpec& b,
                                      const QuantOps& ops) {
  if (!dequantizes(spec, b)) return Integer(0);
  if (spec.dequant.elements_per_cycle > 0)
    return ceil_div(ops.dequant_elements, big(spec.dequant.elements_per_cycle));
  if (spec.dequant.ops_per_cycle > 0) return ceil_div(ops.dequant, big(spec.dequant.ops_per_cycle));
  return std::nullopt;
}

void count_ops(const Context& c, QuantCosts& q) {
  const Access* a = c.role(OperandRole::kActivation);
  const Access* b = c.role(OperandRole::kWeight);
  const Access* out = c.role(OperandRole::kOutput);
  const TensorStorage none;
  const TensorStorage& a_store = a ? q.tensor(report_name(*a)) : none;
  const TensorStorage& b_store = b ? q.tensor(report_name(*b)) : none;
  if (b && dequantizes(c.spec, c.b_spec())) {
    q.ops.dequant_elements = dequant_elements(c, *b);
    q.ops.dequant_ops_per_element = dequant_ops_per_element(c.spec, c.b_spec());
    q.ops.dequant = q.ops.dequant_elements * q.ops.dequant_ops_per_element;
  }
  if (out) {
    for (const auto& [x, op, is_b] :
         {std::tuple{a, &c.spec.activations, false}, std::tuple{b, &c.b_spec(), true}}) {
      if (!x) continue;
      const ScaleWork w = scale_work(c, *x, *op, is_b, *out, a_store, b_store);
      q.ops.epilogue += w.epilogue;
      q.ops.rescale += w.rescale;
      q.ops.zero_sums += w.zero_sums;
    }
    if (c.spec.output.quantized())
      q.ops.output_quant = c.count_range(out->relation) * quantize_ops_per_element(c.spec.output);
  }
  if (a && c.spec.activations.quantized())
    q.ops.activation_quant = a_store.elements * quantize_ops_per_element(c.spec.activations);
}

void weight_totals(const Context& c, QuantCosts& q) {
  const Access* b = c.role(OperandRole::kWeight);
  if (!b) return;
  for (const auto& id : weight_tensor_names(c, *b)) {
    const TensorStorage& s = q.tensor(report_name(*c.tensor(id)));
    q.weight_storage_bits += s.storage_bits();
    q.weight_bytes += s.bytes();
  }
  const Integer elements = q.tensor(report_name(*b)).elements;
  q.effective_bits_per_weight = mpq_class(q.weight_storage_bits, elements);
  q.effective_bits_per_weight.canonicalize();
}

}  // namespace

Integer TensorStorage::bytes() const { return ceil_div(storage_bits(), Integer(8)); }

bool operator==(const TensorStorage& a, const TensorStorage& b) {
  return a.name == b.name && a.role == b.role && a.bits == b.bits && a.word_bits == b.word_bits &&
         a.elements == b.elements && a.words == b.words;
}

const TensorStorage& QuantCosts::tensor(const std::string& name) const {
  for (const auto& t : tensors)
    if (t.name == name) return t;
  throw InternalError("QuantCosts: no tensor named " + name);
}

QuantCosts analyze_quant(const workload::Workload& gemm, const QuantSpec& spec,
                         const CostOptions& options) {
  QuantCosts q;
  q.quantized = apply(gemm, spec, options.apply);
  const Context c{spec, options, q.quantized};
  q.tensors = storage_of_all(c);
  q.macs = poly::count(q.quantized.domain(), options.count) * big(q.quantized.macs_per_instance());
  q.mac = mac_precision(spec, c.b_spec());
  q.mac_energy_pj = mac_energy_pj(options.energy, q.mac.a, q.mac.b, q.mac.accumulate);
  weight_totals(c, q);
  count_ops(c, q);
  q.dequant_cycles = dequant_cycles(spec, c.b_spec(), q.ops);
  q.energy = energy_of(c, q);
  return q;
}

}  // namespace tenet::quant
