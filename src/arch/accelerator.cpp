#include "tenet/arch/accelerator.hpp"

#include <fmt/format.h>
#include <isl/map.h>

#include <algorithm>
#include <cmath>
#include <ostream>

#include "io/json_reader.hpp"
#include "poly/parse.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

namespace tenet::arch {
namespace {

const char* const kRoleKeys[] = {"activation", "weight", "output", "scale", "zero", "other"};

bool is_role_key(const std::string& key) {
  for (const char* k : kRoleKeys)
    if (key == k) return true;
  return false;
}

// The interconnect kinds with their file names, in a fixed order.
struct KindName {
  InterconnectKind kind;
  const char* name;
};
const KindName kKinds[] = {{InterconnectKind::kSystolic, "systolic"},
                           {InterconnectKind::kMesh, "mesh"},
                           {InterconnectKind::kRowBroadcast, "row_broadcast"},
                           {InterconnectKind::kColumnBroadcast, "column_broadcast"},
                           {InterconnectKind::kMulticast, "multicast"},
                           {InterconnectKind::kChain, "chain"},
                           {InterconnectKind::kCustom, "custom"}};

std::string kind_names() {
  std::string names;
  for (const KindName& k : kKinds) names += (names.empty() ? "" : ", ") + std::string(k.name);
  return names;
}

void check_bandwidth(const Bandwidth& bw, const std::string& where, io::JsonProblems& issues) {
  if (bw.unlimited) return;
  if (!(bw.bytes_per_cycle > 0) || !std::isfinite(bw.bytes_per_cycle))
    issues.add(error_code::kRange, where,
               fmt::format("expected a bandwidth > 0 bytes/cycle or \"unlimited\", got {}",
                           bw.bytes_per_cycle));
}

void check_array(const AcceleratorSpec& s, io::JsonProblems& issues) {
  if (s.rows <= 0)
    issues.add(error_code::kRange, "/pe_array/rows",
               fmt::format("expected a number of PE rows > 0, got {}", s.rows));
  if (s.cols <= 0)
    issues.add(error_code::kRange, "/pe_array/cols",
               fmt::format("expected a number of PE columns > 0, got {}", s.cols));
  long long pes = 0;
  if (s.rows > 0 && s.cols > 0 &&
      (__builtin_mul_overflow(s.rows, s.cols, &pes) || s.rows > (1LL << 30) ||
       s.cols > (1LL << 30)))
    issues.add(error_code::kOverflow, "/pe_array",
               fmt::format("a {}x{} array is too large (rows and columns must be < 2^30)", s.rows,
                           s.cols));
}

bool is_two_d_pe_tuple(isl_map* m, isl_dim_type type) {
  if (isl_map_dim(m, type) != 2) return false;
  if (!isl_map_has_tuple_name(m, type)) return false;
  return std::string(isl_map_get_tuple_name(m, type)) == "PE";
}

void check_interconnect(const Interconnect& ic, io::JsonProblems& issues) {
  if (ic.kind != InterconnectKind::kCustom) {
    if (!ic.custom_map.empty())
      issues.add(error_code::kUnknownField, "/interconnect/map",
                 std::string("a map is only allowed with kind \"custom\", the kind is \"") +
                     to_string(ic.kind) + "\"");
    return;
  }
  if (ic.custom_map.empty()) {
    issues.add(error_code::kMissingField, "/interconnect/map",
               "kind \"custom\" needs an isl map \"{ PE[x,y] -> PE[...] }\"");
    return;
  }
  try {
    isl::map m = poly::parse_map(ic.custom_map, {"", "/interconnect/map"});
    if (!is_two_d_pe_tuple(m.get(), isl_dim_in) || !is_two_d_pe_tuple(m.get(), isl_dim_out))
      issues.add(error_code::kSpace, "/interconnect/map",
                 "expected a map from PE[x,y] to PE[x',y'], got " + ic.custom_map);
  } catch (const InputError& e) {
    issues.add(e.code(), e.where(), e.message());
  }
}

void check_precisions(const AcceleratorSpec& s, io::JsonProblems& issues) {
  if (s.precisions.empty())
    issues.add(error_code::kMissingField, "/pe/precisions",
               "expected at least one supported MAC precision, e.g. {\"fp16\": "
               "{\"macs_per_cycle\": 1}}");
  for (const auto& [type, rate] : s.precisions) {
    const std::string where = "/pe/precisions/" + workload::to_string(type);
    if (rate.macs_per_cycle < 1)
      issues.add(error_code::kRange, where + "/macs_per_cycle",
                 fmt::format("expected macs_per_cycle >= 1, got {}", rate.macs_per_cycle));
    if (rate.cycles_per_mac < 1)
      issues.add(error_code::kRange, where + "/cycles_per_mac",
                 fmt::format("expected cycles_per_mac >= 1, got {}", rate.cycles_per_mac));
    if (rate.macs_per_cycle > 1 && rate.cycles_per_mac > 1)
      issues.add(error_code::kRange, where,
                 "give either macs_per_cycle or cycles_per_mac greater than 1, not both");
  }
  if (const auto& f = s.float_on_integer) {
    const std::string name = workload::to_string(*f);
    if (!f->is_integer())
      issues.add(error_code::kRange, "/pe/float_on_integer",
                 "expected an integer MAC precision (float operands converted to fixed point), "
                 "got \"" +
                     name + "\"");
    else if (!s.precisions.count(*f))
      issues.add(
          error_code::kUnknownName, "/pe/float_on_integer",
          "\"" + name + "\" is not one of the accelerator's MAC precisions (/pe/precisions)");
  }
}

void check_global_buffer(const GlobalBuffer& gb, io::JsonProblems& issues) {
  if (gb.row_elements < 1)
    issues.add(error_code::kRange, "/global_buffer/row_elements",
               fmt::format("expected elements per buffer row >= 1, got {}", gb.row_elements));
  if (gb.partitions.empty()) {
    if (gb.bytes <= 0)
      issues.add(error_code::kRange, "/global_buffer/bytes",
                 fmt::format("expected a global buffer capacity > 0 bytes, got {}", gb.bytes));
    check_bandwidth(gb.bandwidth, "/global_buffer/bandwidth_bytes_per_cycle", issues);
    return;
  }
  if (gb.bytes != 0)
    issues.add(error_code::kUsage, "/global_buffer/bytes",
               "give either a shared capacity (bytes) or partitions, not both");
  std::map<std::string, std::string> holder;  // role -> partition
  for (const auto& [key, part] : gb.partitions) {
    const std::string where = "/global_buffer/partitions/" + key;
    if (part.holds.empty())
      issues.add(error_code::kMissingField, where + "/holds",
                 "expected the operand roles this partition holds, e.g. [\"weight\"]");
    for (size_t i = 0; i < part.holds.size(); ++i) {
      const std::string& role = part.holds[i];
      const std::string at = where + "/holds/" + std::to_string(i);
      if (!is_role_key(role))
        issues.add(error_code::kUnknownName, at,
                   "unknown operand role \"" + role +
                       "\", expected one of activation, weight, output, scale, zero, other");
      else if (holder.count(role))
        issues.add(error_code::kDuplicate, at,
                   "role \"" + role + "\" is already held by partition \"" + holder[role] + "\"");
      else
        holder[role] = key;
    }
    if (part.bytes <= 0)
      issues.add(error_code::kRange, where + "/bytes",
                 fmt::format("expected a partition capacity > 0 bytes, got {}", part.bytes));
    check_bandwidth(part.bandwidth, where + "/bandwidth_bytes_per_cycle", issues);
  }
}

void check_access_energy(const AccessEnergy& e, const std::string& where,
                         io::JsonProblems& issues) {
  auto check = [&](double v, const char* field) {
    if (!(v >= 0) || !std::isfinite(v))
      issues.add(error_code::kRange, where + "/" + field,
                 fmt::format("expected an energy >= 0 pJ, got {}", v));
  };
  check(e.read_pj, "read_pj");
  check(e.write_pj, "write_pj");
  if (e.access_bits < 1)
    issues.add(error_code::kRange, where + "/access_bits",
               fmt::format("expected access_bits >= 1, got {}", e.access_bits));
}

void check_energy(const AcceleratorSpec& s, io::JsonProblems& issues) {
  for (const auto& [type, pj] : s.energy.mac_pj) {
    const std::string where = "/energy/mac_pj/" + workload::to_string(type);
    if (!(pj >= 0) || !std::isfinite(pj))
      issues.add(error_code::kRange, where, fmt::format("expected an energy >= 0 pJ, got {}", pj));
  }
  for (const auto& [type, rate] : s.precisions) {
    (void)rate;
    const std::string name = workload::to_string(type);
    if (!s.energy.mac_pj.count(type))
      issues.add(error_code::kMissingField, "/energy/mac_pj/" + name,
                 "no MAC energy for precision \"" + name +
                     "\" and no 45 nm default exists for it; give energy.mac_pj." + name +
                     " in pJ");
  }
  check_access_energy(s.energy.register_file, "/energy/register_file", issues);
  check_access_energy(s.energy.sram, "/energy/sram", issues);
  check_access_energy(s.energy.dram, "/energy/dram", issues);
}

void check_micro(const Microarch& m, io::JsonProblems& issues) {
  const std::string w = "/microarchitecture";
  auto at_least = [&](long long v, long long lo, const std::string& field, const char* unit) {
    if (v < lo)
      issues.add(error_code::kRange, w + field,
                 fmt::format("expected {} >= {} {}, got {}", field.substr(field.rfind('/') + 1), lo,
                             unit, v));
  };
  at_least(m.drain_cycles, 0, "/accumulators/drain_cycles", "cycles");
  at_least(m.drain_cycles_reload, 0, "/accumulators/drain_cycles_reload", "cycles");
  at_least(m.tile_fill_drain_cycles, -1, "/tile/fill_drain_cycles", "cycles");
  at_least(m.min_tile_cycles, 0, "/tile/min_cycles", "cycles");
  at_least(m.tile_overhead_cycles, 0, "/tile/overhead_cycles", "cycles");
  at_least(m.run_overhead_cycles, 0, "/run_overhead_cycles", "cycles");
  at_least(m.dma.command_cycles, 0, "/dma/command_cycles", "cycles");
  at_least(m.dma.max_burst_bytes, 0, "/dma/max_burst_bytes", "bytes");
  at_least(m.dma.beat_bytes, 1, "/dma/beat_bytes", "bytes");
  at_least(m.dma.outstanding_bursts, 0, "/dma/outstanding_bursts", "bursts");
  at_least(m.dma.burst_latency_cycles, 0, "/dma/burst_latency_cycles", "cycles");
  at_least(m.dma.throttle_bytes, 0, "/dma/throttle_bytes", "bytes");
  at_least(m.dma.throttle_gap_cycles, 0, "/dma/throttle_gap_cycles", "cycles");
  at_least(m.dma.command_setup_cycles, 0, "/dma/command_setup_cycles", "cycles");
  at_least(m.pad_stream_multiple, 1, "/padding/stream_multiple", "elements");
  at_least(m.feeder_word, 1, "/feeder/word_elements", "elements");
  if (!(m.unaligned_factor >= 1) || !std::isfinite(m.unaligned_factor))
    issues.add(error_code::kRange, w + "/feeder/unaligned_factor",
               fmt::format("expected a factor >= 1, got {}", m.unaligned_factor));
  if (!(m.unaligned_stall_cycles >= 0) || !std::isfinite(m.unaligned_stall_cycles))
    issues.add(
        error_code::kRange, w + "/feeder/unaligned_stall_cycles",
        fmt::format("expected cycles >= 0 per streamed cycle, got {}", m.unaligned_stall_cycles));
  for (const auto& [role, layout] : m.layouts)
    if (!layout.contiguous.empty() && layout.contiguous != "m" && layout.contiguous != "n" &&
        layout.contiguous != "k")
      issues.add(error_code::kRange, w + "/dram_layouts/" + role + "/contiguous",
                 "expected \"m\", \"n\" or \"k\", got \"" + layout.contiguous + "\"");
}

// The chip's matrix units and call cost (docs/hardware.md#a-chip-several-matrix-units).
void check_chip(const AcceleratorSpec& s, io::JsonProblems& issues) {
  if (s.chip.matrix_units < 1 || s.chip.matrix_units > (1LL << 20))
    issues.add(error_code::kRange, "/matrix_units/count",
               fmt::format("expected a number of matrix units in 1..1048576, got {}",
                           s.chip.matrix_units));
  if (s.chip.tiling_near_tie_percent < 0 || s.chip.tiling_near_tie_percent > 100)
    issues.add(
        error_code::kRange, "/compiler/tiling_near_tie_percent",
        fmt::format("expected a window in 0..100 percent, got {}", s.chip.tiling_near_tie_percent));
  if (!(s.chip.kernel_launch_ns >= 0) || !std::isfinite(s.chip.kernel_launch_ns) ||
      s.chip.kernel_launch_ns > 1e12)
    issues.add(error_code::kRange, "/kernel_launch_ns",
               fmt::format("expected a call cost in 0..1e12 ns, got {}", s.chip.kernel_launch_ns));
}

// Every rule violation of the spec, each at its JSON pointer (a spec has no file of its own).
io::JsonProblems validate(const AcceleratorSpec& s) {
  io::JsonProblems issues("");
  check_array(s, issues);
  check_interconnect(s.interconnect, issues);
  if (!(s.clock_mhz > 0) || !std::isfinite(s.clock_mhz))
    issues.add(error_code::kRange, "/clock_mhz",
               fmt::format("expected a clock frequency > 0 MHz, got {}", s.clock_mhz));
  if (s.register_file_bytes <= 0)
    issues.add(
        error_code::kRange, "/pe/register_file_bytes",
        fmt::format("expected a register file size > 0 bytes, got {}", s.register_file_bytes));
  check_precisions(s, issues);
  check_global_buffer(s.global_buffer, issues);
  check_bandwidth(s.dram.bandwidth, "/dram/bandwidth_bytes_per_cycle", issues);
  if (s.dram.latency_cycles < 0)
    issues.add(error_code::kRange, "/dram/latency_cycles",
               fmt::format("expected a DRAM latency >= 0 cycles, got {}", s.dram.latency_cycles));
  if (!(s.dram.read_overlap_fraction >= 0 && s.dram.read_overlap_fraction <= 1))
    issues.add(error_code::kRange, "/dram/read_overlap_fraction",
               fmt::format("expected a read overlap fraction from 0 to 1, got {}",
                           s.dram.read_overlap_fraction));
  if (const auto& f = s.dram.oversized_read_overlap_fraction; f && !(*f >= 0 && *f <= 1))
    issues.add(error_code::kRange, "/dram/oversized_read_overlap_fraction",
               fmt::format("expected a read overlap fraction from 0 to 1, got {}", *f));
  if (const auto& f = s.dram.window_read_overlap_fraction; f && !(*f >= 0 && *f <= 1))
    issues.add(error_code::kRange, "/dram/window_read_overlap_fraction",
               fmt::format("expected a read overlap fraction from 0 to 1, got {}", *f));
  if (!s.dataflow.empty() && s.dataflow != "os" && s.dataflow != "ws" && s.dataflow != "is")
    issues.add(error_code::kUnknownName, "/dataflow",
               fmt::format("unknown dataflow \"{}\", expected os, ws or is", s.dataflow));
  check_energy(s, issues);
  check_micro(s.micro, issues);
  check_chip(s, issues);
  return issues;
}

std::string interconnect_text(const Interconnect& ic, long long cols) {
  switch (ic.kind) {
    case InterconnectKind::kSystolic:
      return "{ PE[x,y] -> PE[x+1,y]; PE[x,y] -> PE[x,y+1] }";
    case InterconnectKind::kMesh:
      return "{ PE[x,y] -> PE[x+1,y]; PE[x,y] -> PE[x,y+1]; PE[x,y] -> PE[x-1,y]; "
             "PE[x,y] -> PE[x,y-1] }";
    case InterconnectKind::kRowBroadcast:
      return "{ PE[x,y] -> PE[x,y2] : y2 != y }";
    case InterconnectKind::kColumnBroadcast:
      return "{ PE[x,y] -> PE[x2,y] : x2 != x }";
    case InterconnectKind::kMulticast:
      return "{ PE[x,y] -> PE[x,y2] : y2 != y; PE[x,y] -> PE[x2,y] : x2 != x }";
    case InterconnectKind::kChain:
      return fmt::format("{{ PE[x,y] -> PE[x,y+1]; PE[x,y] -> PE[x+1,0] : y = {} }}", cols - 1);
    case InterconnectKind::kCustom:  // the user's text: read by poly::parse_map (architecture())
      break;
  }
  throw InternalError("interconnect_text: not a built-in kind");
}

long long bandwidth_bits(const Bandwidth& bw) {
  constexpr long long kUnlimitedBits = 1LL << 40;
  if (bw.unlimited) return kUnlimitedBits;
  return std::max(1LL, std::llround(bw.bytes_per_cycle * 8));
}

long long array_side_bits_per_cycle(const GlobalBuffer& gb) {
  if (gb.partitions.empty()) return bandwidth_bits(gb.bandwidth);
  long long total = 0;
  for (const auto& [key, part] : gb.partitions) {
    (void)key;
    total = std::min(1LL << 40, total + bandwidth_bits(part.bandwidth));
  }
  return total;
}

}  // namespace

const char* to_string(InterconnectKind k) {
  for (const KindName& kn : kKinds)
    if (kn.kind == k) return kn.name;
  return "?";
}

InterconnectKind parse_interconnect_kind(const std::string& name) {
  for (const KindName& kn : kKinds)
    if (name == kn.name) return kn.kind;
  throw InputError(error_code::kUnknownName, "", "/interconnect/kind",
                   "unknown interconnect kind \"" + name + "\", expected one of " + kind_names());
}

bool operator==(const AcceleratorSpec& a, const AcceleratorSpec& b) {
  return a.name == b.name && a.comment == b.comment && a.source == b.source && a.rows == b.rows &&
         a.cols == b.cols && a.interconnect == b.interconnect && a.clock_mhz == b.clock_mhz &&
         a.register_file_bytes == b.register_file_bytes &&
         a.stationary_double_buffered == b.stationary_double_buffered && a.dataflow == b.dataflow &&
         a.precisions == b.precisions && a.float_on_integer == b.float_on_integer &&
         a.global_buffer == b.global_buffer && a.dram == b.dram && a.energy == b.energy &&
         a.serving == b.serving && a.micro == b.micro && a.chip == b.chip;
}

bool Microarch::active() const {
  static const Microarch defaults{};
  return !(*this == defaults);
}

bool operator==(const Microarch& a, const Microarch& b) {
  return a.accumulator_double_buffered == b.accumulator_double_buffered &&
         a.drain_cycles == b.drain_cycles && a.drain_cycles_reload == b.drain_cycles_reload &&
         a.tile_fill_drain_cycles == b.tile_fill_drain_cycles &&
         a.min_tile_cycles == b.min_tile_cycles &&
         a.tile_overhead_cycles == b.tile_overhead_cycles &&
         a.run_overhead_cycles == b.run_overhead_cycles && a.dma == b.dma &&
         a.layouts == b.layouts && a.packed_placement == b.packed_placement &&
         a.accumulate_from_dram == b.accumulate_from_dram && a.pad_to_array == b.pad_to_array &&
         a.pad_stream_multiple == b.pad_stream_multiple &&
         a.pad_stream_aligned_tiles_only == b.pad_stream_aligned_tiles_only &&
         a.feeder_word == b.feeder_word && a.unaligned_factor == b.unaligned_factor &&
         a.unaligned_stall_cycles == b.unaligned_stall_cycles &&
         a.sram_resident == b.sram_resident && a.tile_fits_one_bank == b.tile_fits_one_bank;
}

AcceleratorSpec with_energy_defaults(AcceleratorSpec spec) {
  for (const auto& [type, rate] : spec.precisions) {
    (void)rate;
    if (spec.energy.mac_pj.count(type)) continue;
    if (auto pj = default_mac_energy_pj(type)) spec.energy.mac_pj[type] = *pj;
  }
  return spec;
}

Accelerator::Accelerator(AcceleratorSpec spec) : spec_(std::move(spec)) {
  validate(spec_).throw_if_any();
}

Architecture Accelerator::architecture() const {
  isl::ctx ctx = poly::thread_context().get();
  isl::set pes(ctx,
               fmt::format("{{ PE[x,y] : 0 <= x < {} and 0 <= y < {} }}", spec_.rows, spec_.cols));
  // A custom map is the file's text: read through the one checked reader, as validate() did.
  isl::map links = spec_.interconnect.kind == InterconnectKind::kCustom
                       ? poly::parse_map(spec_.interconnect.custom_map, {"", "/interconnect/map"})
                       : isl::map(ctx, interconnect_text(spec_.interconnect, spec_.cols));
  links = links.intersect_domain(pes).intersect_range(pes);
  return Architecture(spec_.name, pes, links, array_side_bits_per_cycle(spec_.global_buffer), 1,
                      spec_.register_file_bytes, spec_.global_buffer.bytes);
}

workload::DataType Accelerator::select_precision(int bits) const {
  using workload::DataType;
  static const DataType kOrder[] = {
      DataType::signed_int(4),  DataType::signed_int(8), DataType::fp8_e4m3(),
      DataType::fp8_e5m2(),     DataType::fp16(),        DataType::bf16(),
      DataType::signed_int(16), DataType::fp32(),        DataType::signed_int(32)};
  for (const DataType& type : kOrder)
    if (type.bits() >= bits && spec_.precisions.count(type)) return type;
  // Any other supported format wide enough: the narrowest (then the map's order).
  const DataType* best = nullptr;
  for (const auto& [type, rate] : spec_.precisions) {
    (void)rate;
    if (type.bits() >= bits && (!best || type.bits() < best->bits())) best = &type;
  }
  if (best) return *best;
  std::string supported;
  for (const auto& [type, rate] : spec_.precisions) {
    (void)rate;
    supported += (supported.empty() ? "" : ", ") + workload::to_string(type);
  }
  throw InputError(error_code::kUnknownName, "", "/pe/precisions",
                   fmt::format("accelerator \"{}\" has no MAC precision for {}-bit operands "
                               "(supported: {})",
                               spec_.name, bits, supported));
}

namespace {

std::string supported_text(const AcceleratorSpec& s) {
  std::string supported;
  for (const auto& [type, rate] : s.precisions) {
    (void)rate;
    supported += (supported.empty() ? "" : ", ") + workload::to_string(type);
  }
  return supported;
}

// The narrowest supported precision satisfying `fits` (ties: the map's order).
template <typename Fits>
std::optional<workload::DataType> narrowest(const AcceleratorSpec& s, Fits fits) {
  std::optional<workload::DataType> best;
  for (const auto& [type, rate] : s.precisions) {
    (void)rate;
    if (fits(type) && (!best || type.bits() < best->bits())) best = type;
  }
  return best;
}

// Every value of `w` is a value of `t`, a precision of the same kind: a signed integer needs a
// signed one at least as wide, an unsigned one an unsigned one as wide or a signed one a bit
// wider; a float (or another non-integer format) a float at least as wide.
bool holds_in_kind(const workload::DataType& t, const workload::DataType& w) {
  using workload::NumberFormat;
  if (w.is_integer()) {
    if (!t.is_integer()) return false;
    const bool t_signed = t.format() == NumberFormat::kInt;
    if (w.format() == NumberFormat::kInt) return t_signed && t.bits() >= w.bits();
    return t.bits() >= w.bits() + (t_signed ? 1 : 0);
  }
  if (w.is_float()) return t.is_float() && t.bits() >= w.bits();
  return !t.is_integer() && t.bits() >= w.bits();
}

// Every value of the integer type `i` is exactly a value of the float type `f`: its magnitude
// bits fit the significand (mantissa + the implicit bit).
bool holds_exactly(const workload::DataType& f, const workload::DataType& i) {
  const int magnitude_bits = i.format() == workload::NumberFormat::kUint ? i.bits() : i.bits() - 1;
  return f.is_float() && f.mantissa_bits() + 1 >= magnitude_bits;
}

}  // namespace

workload::DataType Accelerator::mac_precision_for(const workload::DataType& wanted) const {
  if (spec_.precisions.count(wanted)) return wanted;
  const bool integer = wanted.is_integer();
  if (auto same =
          narrowest(spec_, [&](const workload::DataType& t) { return holds_in_kind(t, wanted); }))
    return *same;
  if (integer) {
    if (auto f =
            narrowest(spec_, [&](const workload::DataType& t) { return holds_exactly(t, wanted); }))
      return *f;
  } else if (spec_.float_on_integer && spec_.float_on_integer->bits() >= wanted.bits()) {
    return *spec_.float_on_integer;
  }
  const std::string kind = integer ? "integer" : "float";
  std::string hint;
  if (!integer)
    hint = spec_.float_on_integer
               ? fmt::format("; /pe/float_on_integer allows {} MACs, narrower than {} bits",
                             workload::to_string(*spec_.float_on_integer), wanted.bits())
               : "; float operands never run on integer MACs unless the file allows it with "
                 "/pe/float_on_integer";
  throw InputError(
      error_code::kUnknownName, spec_.file, "/pe/precisions",
      fmt::format("accelerator \"{}\" has no MAC precision for {} operands: no {} MAC at least {} "
                  "bits wide (supported: {}){}",
                  spec_.name, workload::to_string(wanted), kind, wanted.bits(),
                  supported_text(spec_), hint));
}

const MacRate& Accelerator::mac_rate(const workload::DataType& precision) const {
  auto it = spec_.precisions.find(precision);
  if (it == spec_.precisions.end()) {
    const std::string name = workload::to_string(precision);
    throw InputError(
        error_code::kUnknownName, "", "/pe/precisions/" + name,
        "accelerator \"" + spec_.name + "\" has no MAC rate for precision \"" + name + "\"");
  }
  return it->second;
}

double Accelerator::mac_energy_pj(const workload::DataType& precision) const {
  auto it = spec_.energy.mac_pj.find(precision);
  if (it == spec_.energy.mac_pj.end()) {
    const std::string name = workload::to_string(precision);
    throw InputError(error_code::kMissingField, "", "/energy/mac_pj/" + name,
                     "no MAC energy for precision \"" + name + "\"");
  }
  return it->second;
}

std::ostream& operator<<(std::ostream& os, const Accelerator& a) {
  const AcceleratorSpec& s = a.spec();
  os << "accelerator " << (s.name.empty() ? "(unnamed)" : s.name) << ": " << s.rows << "x" << s.cols
     << " PEs, " << to_string(s.interconnect.kind) << " interconnect, " << s.clock_mhz << " MHz";
  if (s.chip.matrix_units > 1) os << ", " << s.chip.matrix_units << " matrix units";
  if (s.chip.kernel_launch_ns > 0) os << ", " << s.chip.kernel_launch_ns << " ns per kernel call";
  for (const auto& [type, rate] : s.precisions)
    os << "\n  " << type << ": " << rate.macs_per_cycle << " MAC(s) every " << rate.cycles_per_mac
       << " cycle(s)";
  if (s.global_buffer.partitions.empty())
    os << "\n  global buffer " << s.global_buffer.bytes << " B";
  for (const auto& [key, part] : s.global_buffer.partitions)
    os << "\n  global buffer partition " << key << ": " << part.bytes << " B";
  os << "\n  DRAM latency " << s.dram.latency_cycles << " cycles\n  " << s.energy;
  return os;
}

Accelerator make_ideal_systolic(long long rows, long long cols) {
  AcceleratorSpec spec;
  spec.name = fmt::format("ideal-systolic-{}x{}", rows, cols);
  spec.comment = "systolic array with ideal memories (unlimited bandwidth, no latency)";
  spec.source = "built in: tenet::arch::make_ideal_systolic";
  spec.rows = rows;
  spec.cols = cols;
  spec.register_file_bytes = 16;
  for (const workload::DataType& p :
       {workload::DataType::signed_int(8), workload::DataType::fp16(), workload::DataType::fp32(),
        workload::DataType::signed_int(32)})
    spec.precisions[p] = MacRate{};
  spec.global_buffer.bytes = 1LL << 62;
  spec.global_buffer.bandwidth = Bandwidth::infinite();
  spec.dram.bandwidth = Bandwidth::infinite();
  spec.dram.latency_cycles = 0;
  try {
    return Accelerator(with_energy_defaults(std::move(spec)));
  } catch (const InputError& e) {
    throw InputError(e.code(), "", "array", e.message());
  }
}

long long buffer_total(const GlobalBuffer& gb) {
  if (gb.partitions.empty()) return gb.bytes;
  long long total = 0;
  for (const auto& [key, part] : gb.partitions) total += part.bytes;
  return total;
}

void set_buffer_bytes(GlobalBuffer& gb, long long total) {
  if (gb.partitions.empty()) {
    gb.bytes = total;
    return;
  }
  const long double old_total = static_cast<long double>(buffer_total(gb));
  long long given = 0;
  std::size_t i = 0;
  for (auto& [key, part] : gb.partitions) {
    if (++i == gb.partitions.size()) {
      part.bytes = std::max(1LL, total - given);
    } else {
      part.bytes = std::max(1LL, static_cast<long long>(total * (part.bytes / old_total)));
      given += part.bytes;
    }
  }
}

Accelerator with_buffer_bytes(const Accelerator& acc, long long total) {
  AcceleratorSpec spec = acc.spec();
  set_buffer_bytes(spec.global_buffer, total);
  try {
    return Accelerator(std::move(spec));
  } catch (const InputError& e) {
    throw InputError(e.code(), "", "buffer_bytes", e.message());
  }
}

Accelerator with_array_shape(const Accelerator& acc, long long rows, long long cols) {
  AcceleratorSpec spec = acc.spec();
  spec.rows = rows;
  spec.cols = cols;
  try {
    return Accelerator(std::move(spec));
  } catch (const InputError& e) {
    throw InputError(e.code(), "", "array", e.message());
  }
}

}  // namespace tenet::arch
