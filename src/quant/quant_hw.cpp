#include "tenet/quant/quant_hw.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>

#include "detail/checked_int.hpp"
#include "detail/exact.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/poly/context.hpp"

namespace tenet::quant {
namespace {

using workload::OperandRole;
using Groups = std::array<long long, 3>;  // per GEMM index i, j, k (see hw::Operand::group)

constexpr int kI = 0, kJ = 1, kK = 2;

bool b_is_kv(const ApplyOptions& o) { return o.b == OperandRole::kKvCache; }
OperandRole b_kind(const ApplyOptions& o) {
  return b_is_kv(o) ? OperandRole::kKvCache : OperandRole::kWeight;
}

// The GEMM index of the KV cache's token / channel axis.
int token_index(const ApplyOptions& o) { return o.kv_token_axis == KvTokenAxis::kN ? kJ : kK; }
int channel_index(const ApplyOptions& o) { return o.kv_token_axis == KvTokenAxis::kN ? kK : kJ; }

int axis_index(PackAxis a, const ApplyOptions& o) {
  switch (a) {
    case PackAxis::kM:
      return kI;
    case PackAxis::kN:
      return kJ;
    case PackAxis::kK:
      return kK;
    case PackAxis::kToken:
      return token_index(o);
    case PackAxis::kChannel:
      return channel_index(o);
  }
  return kK;
}

Groups scale_groups(OperandRole kind, const ScaleLevel& l, const ApplyOptions& o) {
  Groups g{0, 0, 0};
  const bool kv = kind == OperandRole::kKvCache;
  const int row = kind == OperandRole::kActivation ? kI : kv ? token_index(o) : kJ;
  const int column = kv ? channel_index(o) : kK;
  switch (l.granularity) {
    case Granularity::kPerTensor:
      break;
    case Granularity::kPerChannel:
      g[kv ? channel_index(o) : kJ] = 1;
      break;
    case Granularity::kPerToken:
      g[kv ? token_index(o) : kI] = 1;
      break;
    case Granularity::kPerInputChannel:
      g[kK] = 1;
      break;
    case Granularity::kGroup:
      g[row] = 1, g[column] = l.group_size;
      break;
    case Granularity::kBlock:
      g[kJ] = l.block_n, g[kK] = l.block_k;
      break;
  }
  return g;
}

hw::Operand operand_as_stored(const std::string& name, OperandRole role, const OperandSpec& op,
                              Groups groups, const ApplyOptions& o) {
  hw::Operand x{name, role, op.dtype.bits(), role == OperandRole::kOutput, groups};
  if (op.packing && op.packing->values_per_word > 1) {
    x.bits = op.packing->storage_bits;
    x.group[axis_index(op.packing->axis, o)] = op.packing->values_per_word;
  }
  return x;
}

int array_bits(const QuantSpec& spec, const OperandSpec& b) {
  return dequantizes(spec, b) ? dequant_target(spec).bits() : b.dtype.bits();
}

void add_scale_operands(hw::GemmProblem& p, const std::string& tensor, OperandRole kind,
                        const OperandSpec& op, const ApplyOptions& o) {
  for (std::size_t l = 0; l < op.scales.size(); ++l) {
    const ScaleLevel& level = op.scales[l];
    const Groups g = scale_groups(kind, level, o);
    const std::string scale = scale_tensor_id(tensor, l), zero = zero_tensor_id(tensor, l);
    auto dotted = [](const std::string& id, OperandRole role) {
      return report_name(workload::Access{id, workload::AccessKind::kRead, {}, 16, role});
    };
    p.operands.push_back(
        {dotted(scale, OperandRole::kScale), OperandRole::kScale, level.dtype.bits(), false, g});
    if (level.zero)
      p.operands.push_back(
          {dotted(zero, OperandRole::kZero), OperandRole::kZero, level.zero->bits(), false, g});
  }
}

long long ceil_div(long long a, long long b) { return a / b + (a % b != 0 ? 1 : 0); }

using ::tenet::detail::narrow_count;

using ::tenet::detail::big;

// Bytes of (reads + writes) accesses of `bits` each, exact.
Integer bytes_in(long long reads, long long writes, int bits) {
  return ((big(reads) + big(writes)) * bits + 7) / 8;
}
// bytes_in in 64 bits, or InputError(overflow) naming `what` and the tensor (`name`). The same
// integer in 128 bits (reads + writes < 2^64, bits < 2^31), GMP only to name an overflow.
long long bytes_of(long long reads, long long writes, int bits, const char* what,
                   const std::string& name) {
  const __int128 bytes = ((static_cast<__int128>(reads) + writes) * bits + 7) / 8;
  if (bytes >= INT64_MIN && bytes <= INT64_MAX) return static_cast<long long>(bytes);
  return narrow_count(bytes_in(reads, writes, bits), {what + name});
}

// a + b, or InputError(overflow) naming `what` (the figure built only then).
long long add_bytes(long long a, long long b, const char* what) {
  std::int64_t sum = 0;
  if (::tenet::detail::add_fits(a, b, sum)) return sum;
  return ::tenet::detail::checked_add(a, b, {what});
}

long long ceil_bytes(const mpq_class& bits) {
  mpz_class bytes = bits.get_num() + 8 * bits.get_den() - 1;
  bytes /= 8 * bits.get_den();
  return narrow_count(bytes, {"a tensor's DRAM bytes"});
}

// Storage bits per element of a tensor (packing waste included), exact.
mpq_class bits_per_element(const TensorStorage& s) {
  mpq_class r(s.storage_bits(), s.elements);
  r.canonicalize();
  return r;
}

long long waste_of(long long bytes, const TensorStorage& s) {
  // The same integer in 128 bits when the storage and waste bits lie below 2^62 (their product
  // with `bytes` below 2^125; division truncates as GMP's), GMP otherwise.
  if (s.words.fits_slong_p() && s.elements.fits_slong_p()) {
    constexpr __int128 kLimit = static_cast<__int128>(1) << 62;
    const __int128 storage = static_cast<__int128>(s.words.get_si()) * s.word_bits;
    const __int128 waste = storage - static_cast<__int128>(s.elements.get_si()) * s.bits;
    if (storage == 0) return 0;
    if (storage > -kLimit && storage < kLimit && waste > -kLimit && waste < kLimit) {
      const __int128 w = static_cast<__int128>(bytes) * waste / storage;
      if (w >= LONG_MIN && w <= LONG_MAX) return static_cast<long long>(w);
    }
  }
  if (s.storage_bits() == 0) return 0;
  return narrow_count(poly::Integer(static_cast<long>(bytes)) * s.waste_bits() / s.storage_bits(),
                      {"a tensor's packing waste in bytes"});
}

// What the traffic of a tensor in storage format reads: the product's counts, the hardware model
// of B as the array sees it (its TensorResult), and whether B is dequantized into the SRAM (DRAM
// holds it packed).
struct TrafficContext {
  const QuantCosts& costs;
  const hw::TensorResult& array_b;
  bool b_dequantized_into_sram;
};

TensorTraffic traffic_of(const TrafficContext& e, const hw::TensorResult& t,
                         const arch::EnergyTable& energy, QuantEnergy& q) {
  TensorTraffic x{t.name, t.role, t.bits, t.bits};
  const bool is_b = t.name == "B";
  const bool scale_or_zero = t.role == OperandRole::kScale || t.role == OperandRole::kZero;
  const TensorStorage& s = e.costs.tensor(t.name);
  x.bits = s.bits;
  x.dram_bytes = t.dram_bytes;
  double dram_pj = t.energy_pj.dram;
  if (is_b && e.b_dequantized_into_sram) {  // DRAM holds the packed format
    const mpq_class bits =
        bits_per_element(s) * mpq_class(static_cast<long>(t.dram_reads + t.dram_writes));
    x.dram_bytes = ceil_bytes(bits);
    dram_pj =
        t.dram_reads * energy.dram.read_pj * bits_per_element(s).get_d() / energy.dram.access_bits;
  }
  x.sram_bytes = bytes_of(t.sram_reads, t.sram_writes, t.bits, "the SRAM bytes of ", t.name);
  const hw::TensorResult& rf = is_b ? e.array_b : t;
  x.register_file_bytes = scale_or_zero ? 0
                                        : bytes_of(rf.register_reads, rf.register_writes, rf.bits,
                                                   "the register file bytes of ", t.name);
  x.dram_waste_bytes = waste_of(x.dram_bytes, s);
  x.sram_waste_bytes = is_b && e.b_dequantized_into_sram ? 0 : waste_of(x.sram_bytes, s);
  q.dram += dram_pj;
  q.sram += t.energy_pj.sram;
  q.register_file += scale_or_zero ? 0 : rf.energy_pj.register_file;
  return x;
}

// The quantization analysis of a GEMM, built once per (scheme, apply options, whether the
// dequant work is given) and thread on the parametric GEMM [M, N, K], counted per shape: the
// isl set algebra does not depend on the sizes (issue 6: reuse of work).
class AnalyzerCache {
 public:
  const QuantAnalyzer& get(const QuantSpec& spec, const ApplyOptions& apply, bool dequant_given) {
    for (const Entry& e : entries_)
      if (e.dequant_given == dequant_given && e.analyzer.options().apply == apply &&
          e.analyzer.spec() == spec)
        return e.analyzer;
    if (entries_.size() >= kCapacity) entries_.erase(entries_.begin());
    CostOptions options;
    options.apply = apply;
    if (dequant_given) options.dequant_elements = Integer(0);
    entries_.push_back(
        {dequant_given, QuantAnalyzer(mapping::make_parametric_gemm_workload(), spec, options)});
    return entries_.back().analyzer;
  }

 private:
  static constexpr std::size_t kCapacity = 64;
  struct Entry {
    bool dequant_given;
    QuantAnalyzer analyzer;
  };
  std::vector<Entry> entries_;
};

AnalyzerCache& analyzer_cache() {
  poly::thread_context();  // created first, destroyed after the cache (poly/context.hpp)
  thread_local AnalyzerCache cache;
  return cache;
}

// The largest M, N and K of the parametric GEMM (mapping::make_parametric_gemm_workload).
constexpr long long kParametricGemmMax = 1000000000;

// The exact quantization counts of one GEMM: through the cached parametric analysis, or, for a
// size beyond the parametric GEMM's bounds, through an analysis of that GEMM alone.
QuantCosts quant_costs_of(const QuantSpec& spec, const mapping::GemmShape& shape,
                          const CostOptions& cost) {
  if (std::max({shape.m, shape.n, shape.k}) <= kParametricGemmMax)
    return analyzer_cache()
        .get(spec, cost.apply, cost.dequant_elements.has_value())
        .evaluate({{"M", shape.m}, {"N", shape.n}, {"K", shape.k}}, cost);
  return QuantAnalyzer(mapping::make_gemm_workload(shape), spec, cost).evaluate({}, cost);
}

// ---- the steps of the product stage (evaluate_product) -----------------------------------------

// B as the array sees it: the dequantized (or stored) values, one per element.
hw::GemmProblem make_array_view_problem(const hw::GemmProblem& stored, const QuantSpec& spec,
                                        const ApplyOptions& apply) {
  const OperandSpec& b = spec.operand(b_kind(apply));
  hw::GemmProblem p = stored;
  for (auto& x : p.operands)
    if (x.name == "B") x.bits = array_bits(spec, b), x.group = {0, 1, 1};
  return p;
}

// The exact quantization counts (QuantAnalyzer, built once per thread and scheme), the
// dequantized elements taken from the hardware model: B's DRAM reads (dram_to_sram) or its
// array-side SRAM reads as the array sees it.
QuantCosts count_quant_costs(const mapping::GemmShape& shape, const QuantSpec& spec,
                             const ApplyOptions& apply, const hw::Result& stored,
                             const hw::TensorResult& array_b, const OpEnergyTable& energy) {
  const OperandSpec& b = spec.operand(b_kind(apply));
  // The generated GEMM indexes B[k, j] whatever B's memory layout (the layout does not change
  // any count): it is analysed as such.
  CostOptions cost;
  cost.apply = apply;
  cost.apply.b_layout = workload::Layout::kNN;
  cost.energy = energy;
  const bool into_sram = spec.dequant.placement == DequantPlacement::kDramToSram;
  if (dequantizes(spec, b))
    cost.dequant_elements = poly::Integer(
        static_cast<long>(into_sram ? stored.tensor("B").dram_reads : array_b.sram_array_reads));
  return quant_costs_of(spec, shape, cost);
}

// Busy cycles of the dequant unit (0 when nothing is dequantized); InputError(missing-field,
// "/dequant/throughput") when something is but no rate is given.
long long dequant_unit_cycles(const QuantSpec& spec, const DequantRate& rate, const QuantCosts& c) {
  if (c.ops.dequant_elements == 0) return 0;
  if (rate.elements_per_cycle > 0)
    return ceil_div(narrow_count(c.ops.dequant_elements, {"the dequantized elements"}),
                    rate.elements_per_cycle);
  if (rate.ops_per_cycle > 0)
    return ceil_div(narrow_count(c.ops.dequant, {"the dequantization ops"}), rate.ops_per_cycle);
  throw InputError(
      error_code::kMissingField, "", "/dequant/throughput",
      fmt::format("scheme \"{}\" dequantizes {} weight elements (placement {}); give "
                  "the dequant unit's throughput (dequant.throughput)",
                  spec.name, c.ops.dequant_elements.get_str(), to_string(spec.dequant.placement)));
}

// The tensor of that name (hw::Result::tensor of a result's tensors).
const hw::TensorResult& tensor_named(const std::vector<hw::TensorResult>& tensors,
                                     const std::string& name) {
  for (const hw::TensorResult& t : tensors)
    if (t.name == name) return t;
  throw InternalError("hw::Result has no tensor \"" + name + "\"");
}

// The identity scheme: every tensor as the hardware model counts it, no quantization work.
ProductResult identity_product(ProductResult r) {
  r.total_cycles = r.hw.cycles.total;
  r.bound = hw::bounding_resource(r.hw.busy);
  r.dram_bytes = big(r.hw.dram_bytes);
  for (const hw::TensorResult& t : r.hw.tensors) {
    r.sram_bytes += bytes_in(t.sram_reads, t.sram_writes, t.bits);
    r.register_file_bytes += bytes_in(t.register_reads, t.register_writes, t.bits);
  }
  const hw::EnergyBreakdown& e = r.hw.energy_pj;
  r.energy.mac = e.mac, r.energy.register_file = e.register_file;
  r.energy.sram = e.sram, r.energy.dram = e.dram;
  return r;
}

}  // namespace

const TensorTraffic& ProductResult::tensor(const std::string& name) const {
  for (const auto& t : traffic)
    if (t.name == name) return t;
  throw InternalError("ProductResult: no tensor named " + name);
}

const QuantCosts& ProductResult::counts() const {
  if (!costs) throw InternalError("ProductResult::counts: the identity scheme has no counts");
  return *costs;
}

hw::GemmProblem make_quant_problem(const arch::Accelerator& acc, const mapping::GemmShape& shape,
                                   const QuantSpec& spec, const ApplyOptions& o) {
  const OperandSpec& b = spec.operand(b_kind(o));
  hw::GemmProblem p;
  p.shape = shape;
  p.operands.push_back(
      operand_as_stored("A", OperandRole::kActivation, spec.activations, {1, 0, 1}, o));
  hw::Operand bx = operand_as_stored("B", OperandRole::kWeight, b, {0, 1, 1}, o);
  if (spec.dequant.placement == DequantPlacement::kDramToSram && dequantizes(spec, b))
    bx = {"B", OperandRole::kWeight, dequant_target(spec).bits(), false, {0, 1, 1}};
  p.operands.push_back(bx);
  p.operands.push_back(operand_as_stored("C", OperandRole::kOutput, spec.output, {1, 1, 0}, o));
  add_scale_operands(p, "A", OperandRole::kActivation, spec.activations, o);
  add_scale_operands(p, "B", b_kind(o), b, o);
  add_scale_operands(p, "C", OperandRole::kOutput, spec.output, o);
  const DataType wanted = mac_precision(spec, b).multiplier();
  try {
    p.precision = acc.mac_precision_for(wanted);
  } catch (const InputError& e) {
    throw InputError(
        e.code(), e.file(), e.where(),
        "scheme \"" + spec.name + "\" needs " + to_string(wanted) + " MACs: " + e.message());
  }
  hw::validate(p);
  return p;
}

std::optional<PrecisionFallback> precision_fallback(const ProductResult& r) {
  if (!r.costs) return std::nullopt;
  const DataType requested = r.costs->mac.multiplier();
  if (requested == r.hw.precision) return std::nullopt;
  return PrecisionFallback{requested, r.hw.precision};
}

std::string to_string(const PrecisionFallback& f) {
  return to_string(f.requested) + " operands on " + to_string(f.used) + " MACs";
}

ProductResult evaluate_product(const ProductInputs& in) {
  ProductResult r;
  r.problem = in.problem;
  r.hw = in.stored
             ? *in.stored
             : hw::evaluate_gemm(in.accelerator, in.problem, in.dataflow, in.tiling, in.options);
  if (!in.spec) return identity_product(std::move(r));
  const QuantSpec& spec = *in.spec;
  // B as the array sees it: only its array-side counts (SRAM reads towards the array, register
  // accesses) are read from this view, and they do not depend on residency. The buffer holds B
  // as stored (r.hw checked that its tile fits), so this view's wider B is not held against the
  // buffer's capacity (a 4-bit weight dequantized to int8 on its way to the array would
  // otherwise "not fit" a tile that fits).
  hw::Options array_options = in.options;
  array_options.unlimited_buffer = true;
  // (its tensors alone: no cycles are read from it)
  const std::vector<hw::TensorResult> array_view =
      hw::evaluate_gemm_tensors(in.accelerator, make_array_view_problem(in.problem, spec, in.apply),
                                in.dataflow, r.hw.tiling, array_options);
  const hw::TensorResult& array_b = tensor_named(array_view, "B");
  r.costs = count_quant_costs(in.problem.shape, spec, in.apply, r.hw, array_b,
                              OpEnergyTable::defaults_45nm());
  r.dequant_cycles = dequant_unit_cycles(spec, in.dequant_rate, *r.costs);
  r.scheme = spec.name;
  const OperandSpec& b = spec.operand(b_kind(in.apply));
  r.placement = dequantizes(spec, b) ? spec.dequant.placement : DequantPlacement::kNone;
  r.total_cycles = std::max(r.hw.cycles.total, r.dequant_cycles);
  r.bound = hw::bounding_resource(r.hw.busy, r.dequant_cycles);

  const bool into_sram = spec.dequant.placement == DequantPlacement::kDramToSram;
  const TrafficContext context{*r.costs, array_b, into_sram && dequantizes(spec, b)};
  long long dram = 0, sram = 0, register_file = 0;
  r.traffic.reserve(r.hw.tensors.size());
  for (const hw::TensorResult& t : r.hw.tensors) {
    r.traffic.push_back(traffic_of(context, t, in.accelerator.spec().energy, r.energy));
    const TensorTraffic& x = r.traffic.back();
    dram = add_bytes(dram, x.dram_bytes, "the DRAM bytes");
    sram = add_bytes(sram, x.sram_bytes, "the SRAM bytes");
    register_file = add_bytes(register_file, x.register_file_bytes, "the register file bytes");
  }
  r.dram_bytes = big(dram), r.sram_bytes = big(sram), r.register_file_bytes = big(register_file);
  r.energy.mac = r.hw.energy_pj.mac;
  r.energy.dequant = r.costs->energy.dequant;
  r.energy.epilogue = r.costs->energy.epilogue;
  r.energy.rescale = r.costs->energy.rescale;
  r.energy.zero_sums = r.costs->energy.zero_sums;
  r.energy.quantize = r.costs->energy.quantize;
  return r;
}

int array_view_bits(const QuantSpec& spec, const ApplyOptions& apply) {
  return array_bits(spec, spec.operand(b_kind(apply)));
}

}  // namespace tenet::quant
