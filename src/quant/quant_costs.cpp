#include "tenet/quant/quant_costs.hpp"

#include <fmt/format.h>

#include <climits>
#include <optional>
#include <tuple>

#include "detail/exact.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"
#include "tenet/poly/parameters.hpp"

namespace tenet::quant {
namespace {

using workload::Access;
using workload::OperandRole;

// The parametric sets whose counts make up the costs, and how they combine: built once by
// QuantAnalyzer's constructor (isl set algebra), counted per evaluation.
struct Plan {
  std::vector<isl::set> sets;                   // distinct (isl is_equal) sets to count
  std::vector<poly::ParametricCount> counters;  // per set, prepared by QuantAnalyzer's constructor
  int domain = -1;

  struct Tensor {
    TensorStorage proto;  // name, role, bits, word_bits
    int elements = -1;    // set index
    int words = -1;       // set index (= elements when not packed)
  };
  std::vector<Tensor> tensors;      // one per report name, in access order
  std::vector<int> weight_tensors;  // indices into tensors: B and its scale/zero tensors
  int b_tensor = -1;

  bool dequantizes = false;
  int dequant_ops_per_element = 0;
  int dequant_set = -1;  // -1: the options' dequant_elements

  struct Term {
    Integer QuantOps::*field;
    int set;
    int multiplier;
  };
  std::vector<Term> terms;  // ops += count(set) × multiplier
};

struct Builder {
  const QuantSpec& spec;
  const CostOptions& options;
  const workload::Workload& w;  // quantized
  Plan& plan;

  int add(const isl::set& set) {
    for (std::size_t i = 0; i < plan.sets.size(); ++i)
      if (plan.sets[i].is_equal(set)) return static_cast<int>(i);
    plan.sets.push_back(set);
    return static_cast<int>(plan.sets.size() - 1);
  }
  int range(const isl::map& relation) { return add(relation.intersect_domain(w.domain()).range()); }
  // Distinct (a-element, b-element) pairs used together by some instance.
  int pairs(const isl::map& a, const isl::map& b) { return range(a.range_product(b)); }
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
  int tensor_index(const std::string& name) const {
    for (std::size_t i = 0; i < plan.tensors.size(); ++i)
      if (plan.tensors[i].proto.name == name) return static_cast<int>(i);
    throw InternalError("QuantAnalyzer: no tensor named " + name);
  }
  bool b_is_kv() const { return options.apply.b == OperandRole::kKvCache; }
  OperandRole b_kind() const { return b_is_kv() ? OperandRole::kKvCache : OperandRole::kWeight; }
  const OperandSpec& b_spec() const { return spec.operand(b_kind()); }
};

Integer ceil_div(const Integer& a, const Integer& b) { return (a + b - 1) / b; }
// long is 64 bits on the supported platforms (LP64).
using ::tenet::detail::big;

// Operand kind of a quantized operand access (nullopt for scale/zero/other tensors).
std::optional<OperandRole> kind_of(const Builder& c, const Access& a) {
  switch (a.role) {
    case OperandRole::kActivation:
      return OperandRole::kActivation;
    case OperandRole::kWeight:
      return c.b_kind();
    case OperandRole::kOutput:
      return OperandRole::kOutput;
    default:
      return std::nullopt;
  }
}

Plan::Tensor storage_of(Builder& c, const Access& a) {
  Plan::Tensor t;
  TensorStorage& s = t.proto;
  s.name = report_name(a);
  s.role = a.role;
  s.bits = s.word_bits = a.bits;
  t.elements = t.words = c.range(a.relation);
  const auto kind = kind_of(c, a);
  if (!kind) return t;
  const OperandSpec& op = c.spec.operand(*kind);
  if (!op.packing) return t;
  s.word_bits = op.packing->storage_bits;
  t.words = c.range(a.relation.apply_range(packing_map(a, *kind, op, c.options.apply)));
  return t;
}

void plan_storage(Builder& c) {
  for (const auto& a : c.w.accesses()) {
    bool seen = false;
    for (const auto& t : c.plan.tensors) seen = seen || t.proto.name == report_name(a);
    if (!seen) c.plan.tensors.push_back(storage_of(c, a));
  }
}

// The tensors that make up the weights in memory: B and its scale/zero tensors.
void plan_weights(Builder& c) {
  const Access* b = c.role(OperandRole::kWeight);
  if (!b) return;
  std::vector<std::string> names{b->tensor};
  for (std::size_t l = 0; l < c.b_spec().scales.size(); ++l) {
    names.push_back(scale_tensor_id(b->tensor, l));
    if (c.b_spec().scales[l].zero) names.push_back(zero_tensor_id(b->tensor, l));
  }
  for (const auto& id : names)
    c.plan.weight_tensors.push_back(c.tensor_index(report_name(*c.tensor(id))));
  c.plan.b_tensor = c.tensor_index(report_name(*b));
}

// B elements dequantized: once each (dram_to_sram) or once per M-tile that uses them.
int dequant_set(Builder& c, const Access& b) {
  const Access* a = c.role(OperandRole::kActivation);
  const long long tile = c.options.tile_m;
  if (c.spec.dequant.placement == DequantPlacement::kDramToSram || tile <= 0 || !a)
    return c.range(b.relation);
  const isl::map to_tile(poly::thread_context().get(),
                         fmt::format("{{ {}[m, k] -> Mtile[floor(m/{})] }}", a->tensor, tile));
  return c.pairs(b.relation, a->relation.apply_range(to_tile));
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

// Work of the scale levels of one operand that are not consumed by a dequantization:
// i,j-indexed factors cost one epilogue op per output, k-indexed ones one rescale per (output,
// scale element) pair; a zero point adds the same again plus its row/column sums.
void plan_scale_work(Builder& c, const Access& x, const OperandSpec& op, bool is_b,
                     const Access& out, int a_elements, int b_elements) {
  const int outputs = c.range(out.relation);
  for (std::size_t l = 0; l < op.scales.size(); ++l) {
    const ScaleLevel& level = op.scales[l];
    if (is_b && applied_in_dequant(c.spec, level)) continue;
    const bool k_indexed = indexed_by_k(level.granularity);
    for (const Access* factor : {c.tensor(scale_tensor_id(x.tensor, l)),
                                 level.zero ? c.tensor(zero_tensor_id(x.tensor, l)) : nullptr}) {
      if (!factor) continue;
      if (k_indexed)
        c.plan.terms.push_back({&QuantOps::rescale, c.pairs(out.relation, factor->relation), 1});
      else
        c.plan.terms.push_back({&QuantOps::epilogue, outputs, 1});
    }
    if (!level.zero) continue;
    // z_B · Σ_k A (each A element once) or z_A · Σ_k B (offline unless B is the KV cache).
    const int sums = is_b ? a_elements : (c.b_is_kv() ? b_elements : -1);
    if (sums >= 0) c.plan.terms.push_back({&QuantOps::zero_sums, sums, 1});
  }
}

void plan_ops(Builder& c) {
  Plan& p = c.plan;
  const Access* a = c.role(OperandRole::kActivation);
  const Access* b = c.role(OperandRole::kWeight);
  const Access* out = c.role(OperandRole::kOutput);
  const int a_elements = a ? p.tensors[c.tensor_index(report_name(*a))].elements : -1;
  const int b_elements = b ? p.tensors[c.tensor_index(report_name(*b))].elements : -1;
  if (b && dequantizes(c.spec, c.b_spec())) {
    p.dequantizes = true;
    p.dequant_ops_per_element = dequant_ops_per_element(c.spec, c.b_spec());
    if (!c.options.dequant_elements) p.dequant_set = dequant_set(c, *b);
  }
  if (out) {
    for (const auto& [x, op, is_b] :
         {std::tuple{a, &c.spec.activations, false}, std::tuple{b, &c.b_spec(), true}})
      if (x) plan_scale_work(c, *x, *op, is_b, *out, a_elements, b_elements);
    if (c.spec.output.quantized())
      p.terms.push_back({&QuantOps::output_quant, c.range(out->relation),
                         quantize_ops_per_element(c.spec.output)});
  }
  if (a && c.spec.activations.quantized())
    p.terms.push_back(
        {&QuantOps::activation_quant, a_elements, quantize_ops_per_element(c.spec.activations)});
}

double dequant_energy(const QuantSpec& spec, const OperandSpec& b, const QuantOps& ops,
                      const OpEnergyTable& t) {
  const DataType target = dequant_target(spec);
  if (spec.dequant.ops_per_element) return ops.dequant.get_d() * t.lookup(target).add_pj;
  const DequantOps d = dequant_op_breakdown(spec, b);
  const int word = b.packing ? b.packing->storage_bits : 32;
  const double per_element = d.unpack * t.lookup(DataType::signed_int(word)).add_pj +
                             (d.convert + d.offset) * t.lookup(target).add_pj +
                             d.scale * t.lookup(target).mul_pj;
  return ops.dequant_elements.get_d() * per_element;
}

ComputeEnergy energy_of(const QuantSpec& spec, const OperandSpec& b, const QuantCosts& q,
                        const OpEnergyTable& t) {
  const OpEnergy epi = t.lookup(epilogue_type(spec));
  ComputeEnergy e;
  e.mac = q.macs.get_d() * q.mac_energy_pj;
  e.dequant = dequant_energy(spec, b, q.ops, t);
  e.epilogue = q.ops.epilogue.get_d() * epi.mul_pj;
  e.rescale = q.ops.rescale.get_d() * (epi.mul_pj + epi.add_pj);
  e.zero_sums = q.ops.zero_sums.get_d() * t.lookup(spec.activations.dtype).add_pj;
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

}  // namespace

Integer TensorStorage::bytes() const {
  // The same integer in 128 bits when the words fit 64 (word_bits is an int: the bits stay below
  // 2^95), GMP otherwise; the storage bits are >= 0, so truncation is GMP's.
  if (words.fits_slong_p() && words >= 0 && word_bits >= 0) {
    const __int128 bytes = (static_cast<__int128>(words.get_si()) * word_bits + 7) / 8;
    if (bytes <= LONG_MAX) return Integer(static_cast<long>(bytes));
  }
  return ceil_div(storage_bits(), Integer(8));
}

bool operator==(const TensorStorage& a, const TensorStorage& b) {
  return a.name == b.name && a.role == b.role && a.bits == b.bits && a.word_bits == b.word_bits &&
         a.elements == b.elements && a.words == b.words;
}

const TensorStorage& QuantCosts::tensor(const std::string& name) const {
  for (const auto& t : tensors)
    if (t.name == name) return t;
  throw InternalError("QuantCosts: no tensor named " + name);
}

struct QuantAnalyzer::Impl {
  QuantSpec spec;
  CostOptions options;
  workload::Workload quantized;
  std::vector<std::string> parameters;
  Plan plan;
  MacPrecision mac;

  Impl(const workload::Workload& gemm, const QuantSpec& s, const CostOptions& o)
      : spec(s), options(o), quantized(apply(gemm, s, o.apply)) {
    Builder c{spec, options, quantized, plan};
    std::vector<isl::map> relations;
    for (const auto& a : quantized.accesses()) relations.push_back(a.relation);
    parameters = poly::parameter_names({quantized.domain()}, relations);
    plan.domain = c.add(quantized.domain());
    plan_storage(c);
    plan_weights(c);
    plan_ops(c);
    mac = mac_precision(spec, c.b_spec());
    for (const isl::set& set : plan.sets) plan.counters.emplace_back(set);
  }
  const OperandSpec& b_spec() const {
    return spec.operand(options.apply.b == OperandRole::kKvCache ? OperandRole::kKvCache
                                                                 : OperandRole::kWeight);
  }
};

QuantAnalyzer::QuantAnalyzer(const workload::Workload& gemm, const QuantSpec& spec,
                             const CostOptions& options)
    : impl_(std::make_unique<Impl>(gemm, spec, options)) {}
QuantAnalyzer::~QuantAnalyzer() = default;
QuantAnalyzer::QuantAnalyzer(const QuantAnalyzer& o) : impl_(std::make_unique<Impl>(*o.impl_)) {}
QuantAnalyzer& QuantAnalyzer::operator=(const QuantAnalyzer& o) {
  if (this != &o) impl_ = std::make_unique<Impl>(*o.impl_);
  return *this;
}
QuantAnalyzer::QuantAnalyzer(QuantAnalyzer&&) noexcept = default;
QuantAnalyzer& QuantAnalyzer::operator=(QuantAnalyzer&&) noexcept = default;

const QuantSpec& QuantAnalyzer::spec() const { return impl_->spec; }
const CostOptions& QuantAnalyzer::options() const { return impl_->options; }
const workload::Workload& QuantAnalyzer::quantized() const { return impl_->quantized; }
std::vector<std::string> QuantAnalyzer::parameters() const { return impl_->parameters; }

QuantCosts QuantAnalyzer::evaluate(const poly::ParameterValues& values) const {
  return evaluate(values, impl_->options);
}

QuantCosts QuantAnalyzer::evaluate(const poly::ParameterValues& values,
                                   const CostOptions& options) const {
  const Impl& m = *impl_;
  const Plan& p = m.plan;
  if (options.apply != m.options.apply || options.tile_m != m.options.tile_m)
    throw InternalError(
        "QuantAnalyzer::evaluate: apply options or tile_m differ from the ones "
        "the analyzer was built for");
  const poly::ParameterFix fix(m.parameters, values);
  // Count each set once (the dequant set only when no figure is given).
  std::vector<Integer> counts(p.sets.size());
  for (std::size_t i = 0; i < p.sets.size(); ++i)
    if (static_cast<int>(i) != p.dequant_set || !options.dequant_elements)
      counts[i] = p.counters[i].count(fix, options.count);
  if (!fix.empty() && counts[p.domain] == 0)
    throw InputError(error_code::kRange, "", "/parameters",
                     "the workload has no instance for " +
                         (fix.empty() ? std::string("its sizes") : fix.describe()));

  QuantCosts q;
  q.tensors.reserve(p.tensors.size());
  for (const Plan::Tensor& t : p.tensors) {
    TensorStorage s = t.proto;
    s.elements = counts[t.elements];
    s.words = counts[t.words];
    q.tensors.push_back(std::move(s));
  }
  q.macs = counts[p.domain] * big(m.quantized.macs_per_instance());
  q.mac = m.mac;
  q.mac_energy_pj = mac_energy_pj(options.energy, q.mac.a, q.mac.b, q.mac.accumulate);
  if (p.b_tensor >= 0) {
    for (int i : p.weight_tensors) {
      q.weight_storage_bits += q.tensors[i].storage_bits();
      q.weight_bytes += q.tensors[i].bytes();
    }
    q.effective_bits_per_weight = mpq_class(q.weight_storage_bits, q.tensors[p.b_tensor].elements);
    q.effective_bits_per_weight.canonicalize();
  }
  if (p.dequantizes) {
    if (options.dequant_elements)
      q.ops.dequant_elements = *options.dequant_elements;
    else if (p.dequant_set >= 0)
      q.ops.dequant_elements = counts[p.dequant_set];
    else
      throw InternalError("QuantAnalyzer: built with a dequant_elements figure, none given");
    q.ops.dequant_ops_per_element = p.dequant_ops_per_element;
    q.ops.dequant = q.ops.dequant_elements * q.ops.dequant_ops_per_element;
  }
  for (const Plan::Term& t : p.terms) q.ops.*t.field += counts[t.set] * t.multiplier;
  q.dequant_cycles = dequant_cycles(m.spec, m.b_spec(), q.ops);
  q.energy = energy_of(m.spec, m.b_spec(), q, options.energy);
  return q;
}

QuantCosts analyze_quant(const workload::Workload& gemm, const QuantSpec& spec,
                         const CostOptions& options) {
  return QuantAnalyzer(gemm, spec, options).evaluate();
}

}  // namespace tenet::quant
