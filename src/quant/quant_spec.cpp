#include "tenet/quant/quant_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "tenet/error.hpp"

namespace tenet::quant {
namespace {

struct Rule {
  OperandRole kind;
  std::vector<Granularity> granularities;
  std::vector<PackAxis> axes;
};

const std::vector<Rule>& rules() {
  using G = Granularity;
  using P = PackAxis;
  static const std::vector<Rule> table{
      {OperandRole::kActivation,
       {G::kPerTensor, G::kPerToken, G::kPerInputChannel, G::kGroup},
       {P::kM, P::kK}},
      {OperandRole::kWeight, {G::kPerTensor, G::kPerChannel, G::kGroup, G::kBlock}, {P::kN, P::kK}},
      {OperandRole::kOutput, {G::kPerTensor, G::kPerChannel, G::kPerToken}, {P::kM, P::kN}},
      {OperandRole::kKvCache,
       {G::kPerTensor, G::kPerChannel, G::kPerToken, G::kGroup},
       {P::kToken, P::kChannel}},
  };
  return table;
}

const Rule& rule_for(OperandRole kind) {
  for (const auto& r : rules())
    if (r.kind == kind) return r;
  throw InternalError("quant: no rule for operand kind");
}

template <typename T>
std::string join(const std::vector<T>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + std::string(to_string(item));
  return out;
}

template <typename T>
bool contains(const std::vector<T>& items, T value) {
  return std::find(items.begin(), items.end(), value) != items.end();
}

// Where a check failed: the file, and the JSON pointer built only when a check fails (validate
// runs on every evaluation; its messages and pointers are for the error alone).
struct Checker {
  const std::string& file;
  [[noreturn]] void fail(const char* code, const std::string& where, const std::string& msg) const {
    throw InputError(code, file, where, msg);
  }
};

bool is_b_operand(OperandRole kind) {
  return kind == OperandRole::kWeight || kind == OperandRole::kKvCache;
}

// The axis a group runs along for this operand (k, or the KV cache's channel axis).
PackAxis group_axis(OperandRole kind) {
  return kind == OperandRole::kKvCache ? PackAxis::kChannel : PackAxis::kK;
}

// The JSON pointer of a field of an operand's scale level `level` (-1: of its packing).
std::string operand_field(OperandRole kind, long level, const char* field) {
  const std::string at = std::string("/") + spec_key(kind);
  if (level < 0) return at + "/packing" + field;
  return at + "/scales/" + std::to_string(level) + field;
}

void validate_level(const Checker& c, const QuantSpec& spec, OperandRole kind,
                    const ScaleLevel& level, long index) {
  const auto at = [&](const char* field) { return operand_field(kind, index, field); };
  const Rule& rule = rule_for(kind);
  if (!contains(rule.granularities, level.granularity))
    c.fail(error_code::kRange, at("/granularity"),
           fmt::format("granularity {} does not fit the {}; allowed: {}",
                       to_string(level.granularity), spec_key(kind), join(rule.granularities)));
  if (level.granularity == Granularity::kGroup && !(level.group_size > 0))
    c.fail(error_code::kRange, at("/group_size"),
           fmt::format("expected group_size > 0, got {}", level.group_size));
  if (level.granularity == Granularity::kBlock && !(level.block_n > 0 && level.block_k > 0))
    c.fail(error_code::kRange, at("/block"),
           fmt::format("expected block sizes > 0, got [{}, {}]", level.block_n, level.block_k));
  if (level.dynamic && kind == OperandRole::kWeight)
    c.fail(error_code::kRange, at("/dynamic"),
           "weight scales are static (computed offline); dynamic applies to activations and "
           "the KV cache");
  if (level.apply == ScaleApply::kDequant && !(is_b_operand(kind) && dequantizes(spec)))
    c.fail(error_code::kRange, at("/apply"),
           "apply \"dequant\" needs the weights or KV cache to be dequantized "
           "(dequant.placement dram_to_sram or sram_to_array)");
}

void validate_packing(const Checker& c, OperandRole kind, const OperandSpec& op) {
  const auto at = [&](const char* field) { return operand_field(kind, -1, field); };
  const Packing& p = *op.packing;
  if (!(p.storage_bits >= 1 && p.storage_bits <= 64))
    c.fail(error_code::kRange, at("/storage_bits"),
           fmt::format("expected storage_bits in [1, 64], got {}", p.storage_bits));
  if (!(p.values_per_word >= 1))
    c.fail(error_code::kRange, at("/values_per_word"),
           fmt::format("expected values_per_word >= 1, got {}", p.values_per_word));
  if (!(static_cast<long long>(p.values_per_word) * op.dtype.bits() <= p.storage_bits))
    c.fail(error_code::kRange, at("/values_per_word"),
           fmt::format("{} values of {} bits do not fit a {}-bit word", p.values_per_word,
                       op.dtype.bits(), p.storage_bits));
  const Rule& rule = rule_for(kind);
  if (!contains(rule.axes, p.axis))
    c.fail(error_code::kRange, at("/axis"),
           fmt::format("axis {} does not fit the {}; allowed: {}", to_string(p.axis),
                       spec_key(kind), join(rule.axes)));
  if (p.group_aligned) {
    const bool grouped = std::any_of(op.scales.begin(), op.scales.end(), [](const ScaleLevel& l) {
      return l.granularity == Granularity::kGroup;
    });
    if (!(grouped && p.axis == group_axis(kind)))
      c.fail(error_code::kRange, at("/group_aligned"),
             fmt::format("group_aligned needs a group scale level and packing along {}",
                         to_string(group_axis(kind))));
  }
}

void validate_operand(const Checker& c, const QuantSpec& spec, OperandRole kind,
                      const OperandSpec& op) {
  for (std::size_t i = 0; i < op.scales.size(); ++i)
    validate_level(c, spec, kind, op.scales[i], static_cast<long>(i));
  if (op.packing) validate_packing(c, kind, op);
}

void validate_dequant(const Checker& c, const QuantSpec& spec) {
  const DequantSpec& d = spec.dequant;
  const bool b_quantized =
      spec.weights.quantized() || (spec.kv_cache && spec.kv_cache->quantized());
  if (!(d.placement == DequantPlacement::kNone || b_quantized))
    c.fail(error_code::kRange, "/dequant/placement",
           fmt::format("placement {} needs quantized weights or KV cache", to_string(d.placement)));
  if (d.to && !dequantizes(spec))
    c.fail(error_code::kRange, "/dequant/to",
           "\"to\" only applies with placement dram_to_sram or sram_to_array");
  if (d.ops_per_element && !(*d.ops_per_element >= 0))
    c.fail(error_code::kRange, "/dequant/ops_per_element",
           fmt::format("expected ops_per_element >= 0, got {}", *d.ops_per_element));
  if (!(d.elements_per_cycle >= 0 && d.ops_per_cycle >= 0))
    c.fail(error_code::kRange, "/dequant/throughput", "expected a throughput > 0");
  if (!(d.elements_per_cycle == 0 || d.ops_per_cycle == 0))
    c.fail(error_code::kRange, "/dequant/throughput",
           "give either elements_per_cycle or ops_per_cycle, not both");
}

void print_operand(std::ostream& os, const char* name, const OperandSpec& op) {
  os << "\n  " << name << ": " << op.dtype;
  for (std::size_t i = 0; i < op.scales.size(); ++i) {
    const ScaleLevel& l = op.scales[i];
    os << (i ? "; " : ", scales ") << to_string(l.granularity);
    if (l.granularity == Granularity::kGroup) os << '(' << l.group_size << ')';
    if (l.granularity == Granularity::kBlock) os << '(' << l.block_n << 'x' << l.block_k << ')';
    os << ' ' << l.dtype;
    if (l.zero) os << " zero " << *l.zero << " (" << to_string(l.zero_mode) << ')';
    if (l.dynamic) os << " dynamic";
    if (l.apply != ScaleApply::kAuto) os << " apply " << to_string(l.apply);
  }
  if (op.packing)
    os << ", packed " << op.packing->values_per_word << " per " << op.packing->storage_bits
       << "-bit word along " << to_string(op.packing->axis)
       << (op.packing->group_aligned ? " (group aligned)" : "");
}

}  // namespace

const char* to_string(Granularity g) {
  switch (g) {
    case Granularity::kPerTensor:
      return "per_tensor";
    case Granularity::kPerChannel:
      return "per_channel";
    case Granularity::kPerToken:
      return "per_token";
    case Granularity::kPerInputChannel:
      return "per_input_channel";
    case Granularity::kGroup:
      return "group";
    case Granularity::kBlock:
      return "block";
  }
  return "?";
}

const char* to_string(ZeroMode m) {
  switch (m) {
    case ZeroMode::kOriginal:
      return "original";
    case ZeroMode::kRescale:
      return "rescale";
    case ZeroMode::kQuantized:
      return "quantized";
  }
  return "?";
}

const char* to_string(ScaleApply a) {
  switch (a) {
    case ScaleApply::kAuto:
      return "auto";
    case ScaleApply::kDequant:
      return "dequant";
    case ScaleApply::kEpilogue:
      return "epilogue";
  }
  return "?";
}

const char* to_string(PackAxis a) {
  switch (a) {
    case PackAxis::kM:
      return "m";
    case PackAxis::kN:
      return "n";
    case PackAxis::kK:
      return "k";
    case PackAxis::kToken:
      return "token";
    case PackAxis::kChannel:
      return "channel";
  }
  return "?";
}

const char* to_string(DequantPlacement p) {
  switch (p) {
    case DequantPlacement::kNone:
      return "none";
    case DequantPlacement::kDramToSram:
      return "dram_to_sram";
    case DequantPlacement::kSramToArray:
      return "sram_to_array";
    case DequantPlacement::kInPe:
      return "in_pe";
    case DequantPlacement::kLut:
      return "lut";
  }
  return "?";
}

const char* spec_key(OperandRole role) {
  switch (role) {
    case OperandRole::kActivation:
      return "activations";
    case OperandRole::kWeight:
      return "weights";
    case OperandRole::kOutput:
      return "output";
    case OperandRole::kKvCache:
      return "kv_cache";
    default:
      throw InternalError(std::string("a quantization scheme has no operand of role ") +
                          workload::to_string(role));
  }
}

bool operator==(const ScaleLevel& a, const ScaleLevel& b) {
  return a.granularity == b.granularity && a.group_size == b.group_size && a.block_n == b.block_n &&
         a.block_k == b.block_k && a.dtype == b.dtype && a.zero == b.zero &&
         a.zero_mode == b.zero_mode && a.dynamic == b.dynamic && a.apply == b.apply;
}

const OperandSpec& QuantSpec::operand(OperandRole k) const {
  switch (k) {
    case OperandRole::kActivation:
      return activations;
    case OperandRole::kWeight:
      return weights;
    case OperandRole::kOutput:
      return output;
    case OperandRole::kKvCache:
      break;
    default:
      spec_key(k);  // throws: not an operand of a scheme
  }
  if (!kv_cache)
    throw InputError(error_code::kMissingField, "", "/kv_cache",
                     "quantization \"" + name + "\" has no kv_cache operand");
  return *kv_cache;
}

bool operator==(const QuantSpec& a, const QuantSpec& b) {
  return a.name == b.name && a.source == b.source && a.activations == b.activations &&
         a.weights == b.weights && a.output == b.output && a.accumulator == b.accumulator &&
         a.kv_cache == b.kv_cache && a.dequant == b.dequant;
}

std::ostream& operator<<(std::ostream& os, const QuantSpec& s) {
  os << "quantization " << (s.name.empty() ? "(unnamed)" : s.name);
  print_operand(os, "activations", s.activations);
  print_operand(os, "weights", s.weights);
  print_operand(os, "output", s.output);
  if (s.kv_cache) print_operand(os, "kv_cache", *s.kv_cache);
  os << "\n  accumulator: " << s.accumulator << "\n  dequant: " << to_string(s.dequant.placement);
  if (dequantizes(s)) os << " to " << dequant_target(s);
  if (s.dequant.ops_per_element) os << ", " << *s.dequant.ops_per_element << " ops/element";
  if (s.dequant.elements_per_cycle) os << ", " << s.dequant.elements_per_cycle << " elements/cycle";
  if (s.dequant.ops_per_cycle) os << ", " << s.dequant.ops_per_cycle << " ops/cycle";
  return os;
}

void validate(const QuantSpec& spec, const std::string& file) {
  const Checker c{file};
  validate_operand(c, spec, OperandRole::kActivation, spec.activations);
  validate_operand(c, spec, OperandRole::kWeight, spec.weights);
  validate_operand(c, spec, OperandRole::kOutput, spec.output);
  if (spec.kv_cache) validate_operand(c, spec, OperandRole::kKvCache, *spec.kv_cache);
  validate_dequant(c, spec);
}

bool dequantizes(const QuantSpec& spec) {
  return spec.dequant.placement == DequantPlacement::kDramToSram ||
         spec.dequant.placement == DequantPlacement::kSramToArray;
}

bool dequantizes(const QuantSpec& spec, const OperandSpec& b) {
  return dequantizes(spec) && b.quantized();
}

DataType dequant_target(const QuantSpec& spec) {
  return spec.dequant.to ? *spec.dequant.to : spec.activations.dtype;
}

bool applied_in_dequant(const QuantSpec& spec, const ScaleLevel& level) {
  if (!dequantizes(spec)) return false;
  switch (level.apply) {
    case ScaleApply::kDequant:
      return true;
    case ScaleApply::kEpilogue:
      return false;
    case ScaleApply::kAuto:
      break;
  }
  return dequant_target(spec).is_float() || level.dtype.is_integer();
}

bool indexed_by_k(Granularity g) {
  return g == Granularity::kGroup || g == Granularity::kBlock || g == Granularity::kPerInputChannel;
}

DequantOps dequant_op_breakdown(const QuantSpec& spec, const OperandSpec& b) {
  DequantOps ops;
  const bool packed = b.packing && b.packing->values_per_word > 1;
  const DataType target = dequant_target(spec);
  ops.unpack = packed ? 2 : 0;  // shift, and
  ops.convert = (b.dtype != target && !(b.dtype.is_integer() && target.is_integer())) ? 1 : 0;
  bool zero = false;
  for (const ScaleLevel& level : b.scales) {
    if (!applied_in_dequant(spec, level)) continue;
    ops.scale += 1;
    zero = zero || level.zero.has_value();
  }
  const bool signed_packed = packed && b.dtype.format() == NumberFormat::kInt;
  ops.offset = (zero ? 1 : 0) + (signed_packed ? 1 : 0);
  return ops;
}

int dequant_ops_per_element(const QuantSpec& spec, const OperandSpec& b) {
  if (spec.dequant.ops_per_element) return *spec.dequant.ops_per_element;
  return dequant_op_breakdown(spec, b).total();
}

DataType MacPrecision::multiplier() const {
  if (a.is_integer() != b.is_integer()) return a.is_integer() ? b : a;
  return a.bits() >= b.bits() ? a : b;
}

MacPrecision mac_precision(const QuantSpec& spec, const OperandSpec& b) {
  return MacPrecision{spec.activations.dtype, dequantizes(spec, b) ? dequant_target(spec) : b.dtype,
                      spec.accumulator};
}

}  // namespace tenet::quant
