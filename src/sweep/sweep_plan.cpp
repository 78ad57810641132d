#include "sweep/sweep_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>

#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/defaults.hpp"
#include "tenet/input/workload_log.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"
#include "tenet/quant/quant_json.hpp"

namespace tenet::sweep {
namespace {

// The arch axes in point order, after the preset.
// Axes after kClock are evaluation options, not accelerator parameters (see evaluation_arch).
enum ArchAxis { kArray, kBuffer, kSram, kDram, kLatency, kClock, kDequant, kEdge, kArchAxes };

std::size_t axis_size(const ArchAxes& a, int axis) {
  switch (axis) {
    case kArray:
      return a.arrays.size();
    case kBuffer:
      return a.buffer_bytes.size();
    case kSram:
      return a.sram_bandwidth.size();
    case kDram:
      return a.dram_bandwidth.size();
    case kLatency:
      return a.dram_latency.size();
    case kClock:
      return a.clock_mhz.size();
    case kDequant:
      return a.dequant_rate.size();
    case kEdge:
      return a.edge_transfers.size();
  }
  return 0;
}

// Rethrows an error of a loader at the spec field that named the input.
template <class F>
auto at_field(const SweepSpec& spec, const std::string& pointer, F&& load) -> decltype(load()) {
  try {
    return load();
  } catch (const InputError& e) {
    std::string message = e.message();
    if (!e.file().empty() && e.file() != spec.file) {
      message += " (in " + e.file();
      if (!e.where().empty()) message += " at " + e.where();
      message += ")";
    }
    throw InputError(e.code(), spec.file, pointer, message);
  }
}

bool path_like(const std::string& name) {
  return name.find('/') != std::string::npos ||
         (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0);
}

// A file named in the spec: relative paths are relative to the spec file's directory.
std::string input_path(const SweepSpec& spec, const std::string& name) {
  const std::filesystem::path p(name);
  if (spec.file.empty() || p.is_absolute()) return name;
  return (std::filesystem::path(spec.file).parent_path() / p).lexically_normal().string();
}

// A preset name, or a file (path-like names) relative to the spec.
std::string preset_or_path(const SweepSpec& spec, const std::string& name) {
  return path_like(name) ? input_path(spec, name) : name;
}

arch::Bandwidth sram_total(const arch::GlobalBuffer& gb) {
  if (gb.partitions.empty()) return gb.bandwidth;
  double total = 0;
  for (const auto& [key, part] : gb.partitions) {
    if (part.bandwidth.unlimited) return arch::Bandwidth::infinite();
    total += part.bandwidth.bytes_per_cycle;
  }
  return arch::Bandwidth::of(total);
}

// Total bandwidth split in the preset's proportions, or evenly when a port was unlimited.
void set_sram_bandwidth(arch::GlobalBuffer& gb, const arch::Bandwidth& total) {
  if (gb.partitions.empty()) {
    gb.bandwidth = total;
    return;
  }
  const arch::Bandwidth old = sram_total(gb);
  const double parts = static_cast<double>(gb.partitions.size());
  for (auto& [key, part] : gb.partitions) {
    if (total.unlimited)
      part.bandwidth = total;
    else if (old.unlimited)
      part.bandwidth = arch::Bandwidth::of(total.bytes_per_cycle / parts);
    else
      part.bandwidth = arch::Bandwidth::of(total.bytes_per_cycle *
                                           (part.bandwidth.bytes_per_cycle / old.bytes_per_cycle));
  }
}

// The preset with one value of each arch axis applied (choice[axis] indexes that axis; an
// absent axis is skipped).
arch::AcceleratorSpec apply_axes(arch::AcceleratorSpec s, const ArchAxes& a,
                                 const std::array<std::size_t, kArchAxes>& choice) {
  if (!a.arrays.empty()) std::tie(s.rows, s.cols) = a.arrays[choice[kArray]].value;
  if (!a.buffer_bytes.empty())
    arch::set_buffer_bytes(s.global_buffer, a.buffer_bytes[choice[kBuffer]].value);
  if (!a.sram_bandwidth.empty())
    set_sram_bandwidth(s.global_buffer, a.sram_bandwidth[choice[kSram]].value);
  if (!a.dram_bandwidth.empty()) s.dram.bandwidth = a.dram_bandwidth[choice[kDram]].value;
  if (!a.dram_latency.empty()) s.dram.latency_cycles = a.dram_latency[choice[kLatency]].value;
  if (!a.clock_mhz.empty()) s.clock_mhz = a.clock_mhz[choice[kClock]].value;
  return s;
}

// The pointer of the value an axis contributes to a variant (for error messages).
std::string axis_pointer(const ArchAxes& a, int axis, std::size_t i) {
  switch (axis) {
    case kArray:
      return a.arrays[i].pointer;
    case kBuffer:
      return a.buffer_bytes[i].pointer;
    case kSram:
      return a.sram_bandwidth[i].pointer;
    case kDram:
      return a.dram_bandwidth[i].pointer;
    case kLatency:
      return a.dram_latency[i].pointer;
    case kClock:
      return a.clock_mhz[i].pointer;
    case kDequant:
      return a.dequant_rate[i].pointer;
    case kEdge:
      return a.edge_transfers[i].pointer;
  }
  return "";
}

// Every axis value applied alone to every preset must give a valid accelerator.
void check_arch_axes(const SweepSpec& spec, const std::vector<arch::AcceleratorSpec>& presets) {
  for (const arch::AcceleratorSpec& preset : presets)
    for (int axis = 0; axis < kArchAxes; ++axis)
      for (std::size_t i = 0; i < axis_size(spec.arch, axis); ++i) {
        std::array<std::size_t, kArchAxes> choice{};
        ArchAxes only;
        only.presets = spec.arch.presets;
        switch (axis) {
          case kArray:
            only.arrays = {spec.arch.arrays[i]};
            break;
          case kBuffer:
            only.buffer_bytes = {spec.arch.buffer_bytes[i]};
            break;
          case kSram:
            only.sram_bandwidth = {spec.arch.sram_bandwidth[i]};
            break;
          case kDram:
            only.dram_bandwidth = {spec.arch.dram_bandwidth[i]};
            break;
          case kLatency:
            only.dram_latency = {spec.arch.dram_latency[i]};
            break;
          case kClock:
            only.clock_mhz = {spec.arch.clock_mhz[i]};
            break;
          default:
            continue;
        }
        at_field(spec, axis_pointer(spec.arch, axis, i),
                 [&] { return arch::Accelerator(apply_axes(preset, only, choice)); });
      }
}

// Adds the instance, or one instance per matmul entry.
void add_instance(std::vector<WorkloadInstance>& out, WorkloadInstance w, LayerRows rows) {
  if (rows == LayerRows::kTotal) {
    out.push_back(std::move(w));
    return;
  }
  for (const llm::MatmulShape& s : w.matmuls) {
    WorkloadInstance one = w;
    one.layer = s.name;
    one.matmuls = {s};
    out.push_back(std::move(one));
  }
}

void expand_model(const SweepSpec& spec, const WorkloadSpec& w,
                  std::vector<WorkloadInstance>& out) {
  const ModelWorkloadSpec& m = w.model;
  const llm::ModelConfig config = at_field(
      spec, m.file.pointer, [&] { return llm::load_model_config(input_path(spec, m.file.value)); });
  for (const auto& phase : m.phases)
    for (const auto& batch : m.batches) {
      const bool prefill = phase.value == llm::Phase::kPrefill;
      for (const auto& len : prefill ? m.prompts : m.contexts) {
        llm::GenerationOptions g;
        g.phase = phase.value;
        g.batch = batch.value;
        (prefill ? g.prompt : g.context) = len.value;
        g.fused_qkv = m.fused_qkv;
        g.fused_gate_up = m.fused_gate_up;
        g.lm_head = m.lm_head_all ? llm::LmHead::kAllTokens : llm::LmHead::kLastToken;
        g.fused_attention = false;  // a sweep maps matmuls: attention as qk and pv
        WorkloadInstance inst;
        inst.workload = m.file.value;
        inst.kind = "model";
        inst.phase = phase.value;
        inst.batch = batch.value;
        inst.seq_len = len.value;
        inst.tokens = prefill ? batch.value * len.value : batch.value;
        inst.matmuls =
            at_field(spec, len.pointer, [&] { return llm::generate_matmuls(config, g); });
        add_instance(out, std::move(inst), m.layers);
      }
    }
}

// One instance per batch × prompt × tokens × tp × pp, each checked as llm::evaluate_request
// checks it (tp splits the heads, pp ≤ layers, P + G within the positions, a link for tp/pp > 1
// on every preset) so that a bad value fails before any work.
void expand_request(const SweepSpec& spec, const WorkloadSpec& w,
                    const std::vector<arch::AcceleratorSpec>& presets,
                    std::vector<WorkloadInstance>& out) {
  const RequestWorkloadSpec& q = w.request;
  auto config = std::make_shared<const llm::ModelConfig>(at_field(spec, q.file.pointer, [&] {
    return llm::load_model_config(input_path(spec, q.file.value));
  }));
  for (const auto& tp : q.tps) {
    at_field(spec, tp.pointer, [&] { return llm::tensor_parallel_shard(*config, tp.value); });
    if (tp.value > 1 && !q.link_gbps)
      for (std::size_t i = 0; i < presets.size(); ++i)
        if (!presets[i].serving.link)
          throw InputError(error_code::kUsage, spec.file, tp.pointer,
                           "tensor parallelism needs a chip-to-chip link: give \"link_gbps\" or "
                           "a \"link\" in " +
                               spec.arch.presets[i].value);
  }
  for (const auto& pp : q.pps) {
    if (pp.value > config->layers)
      throw InputError(error_code::kRange, spec.file, pp.pointer,
                       fmt::format("{} pipeline stages for the {} layers of {}", pp.value,
                                   config->layers, config->name));
    if (pp.value > 1 && !q.link_gbps)
      for (std::size_t i = 0; i < presets.size(); ++i)
        if (!presets[i].serving.link)
          throw InputError(error_code::kUsage, spec.file, pp.pointer,
                           "pipeline parallelism needs a chip-to-chip link: give \"link_gbps\" "
                           "or a \"link\" in " +
                               spec.arch.presets[i].value);
  }
  for (const auto& prompt : q.prompts)
    for (const auto& tokens : q.tokens)
      if (prompt.value + tokens.value - 1 > config->max_positions)
        throw InputError(
            error_code::kRange, spec.file, tokens.pointer,
            fmt::format("prompt {} + tokens {} exceeds the {} positions of {}", prompt.value,
                        tokens.value, config->max_positions, config->name));
  for (const auto& batch : q.batches)
    for (const auto& prompt : q.prompts)
      for (const auto& tokens : q.tokens)
        for (const auto& tp : q.tps)
          for (const auto& pp : q.pps) {
            WorkloadInstance inst;
            inst.workload = q.file.value;
            inst.kind = "request";
            inst.batch = batch.value;
            inst.seq_len = prompt.value;
            inst.tokens = tokens.value;
            inst.request_model = config;
            llm::RequestOptions& o = inst.request;
            o.prompt = prompt.value;
            o.tokens = tokens.value;
            o.batch = batch.value;
            o.tp = tp.value;
            o.pp = pp.value;
            o.link_gbps = q.link_gbps;
            o.link_latency_us = q.link_latency_us;
            o.pass.fused_qkv = q.fused_qkv;
            o.pass.fused_gate_up = q.fused_gate_up;
            out.push_back(std::move(inst));
          }
}

void expand_log(const SweepSpec& spec, const WorkloadSpec& w, std::vector<WorkloadInstance>& out) {
  input::LogReadOptions options;
  options.lenient = w.log.lenient;
  const input::WorkloadLog log = at_field(spec, w.log.file.pointer, [&] {
    return input::read_workload_log_file(input_path(spec, w.log.file.value), options);
  });
  if (log.entries.empty())
    throw InputError(error_code::kRange, spec.file, w.log.file.pointer,
                     "the log " + w.log.file.value + " holds no matmul record");
  WorkloadInstance inst;
  inst.workload = w.log.file.value;
  inst.kind = "log";
  inst.matmuls = log.entries;
  add_instance(out, std::move(inst), w.log.layers);
}

void expand_gemm(const WorkloadSpec& w, std::vector<WorkloadInstance>& out) {
  const GemmWorkloadSpec& g = w.gemm;
  for (const auto& b : g.batches)
    for (const auto& m : g.m)
      for (const auto& n : g.n)
        for (const auto& k : g.k) {
          llm::MatmulShape s;
          s.name = g.name;
          s.batch = b.value, s.m = m.value, s.n = n.value, s.k = k.value;
          s.b_operand = g.b_operand;
          s.accumulate = g.accumulate;
          WorkloadInstance inst;
          inst.workload = g.name;
          inst.kind = "gemm";
          inst.batch = b.value;
          inst.layer = g.name;
          inst.matmuls = {s};
          out.push_back(std::move(inst));
        }
}

std::uint64_t checked_product(std::uint64_t a, std::uint64_t b, const std::string& file) {
  if (b != 0 && a > static_cast<std::uint64_t>(INT64_MAX) / b)
    throw InputError(error_code::kRange, file, "", "the sweep has more than 2^63 points");
  return a * b;
}

}  // namespace

bool operator==(const ArchVariant& a, const ArchVariant& b) {
  return a.preset == b.preset && a.rows == b.rows && a.cols == b.cols &&
         a.buffer_bytes == b.buffer_bytes && a.sram_bandwidth == b.sram_bandwidth &&
         a.dram_bandwidth == b.dram_bandwidth && a.dram_latency == b.dram_latency &&
         a.clock_mhz == b.clock_mhz && a.dequant_rate == b.dequant_rate &&
         a.edge_transfers == b.edge_transfers;
}

PointCoords SweepPlan::coords(std::uint64_t index) const {
  if (index >= size_) throw InternalError("sweep point index out of range");
  PointCoords c;
  c.tiling = index % tilings_.size(), index /= tilings_.size();
  c.dataflow = index % dataflows_.size(), index /= dataflows_.size();
  c.arch = index % arch_count_, index /= arch_count_;
  c.quant = index % quants_.size(), index /= quants_.size();
  c.workload = static_cast<std::size_t>(index);
  return c;
}

namespace {

// Mixed-radix digits of an arch index: preset first (outermost), then the axes.
std::pair<std::size_t, std::array<std::size_t, kArchAxes>> arch_digits(
    std::size_t index, const std::vector<std::size_t>& radix) {
  std::array<std::size_t, kArchAxes> choice{};
  for (int axis = kArchAxes - 1; axis >= 0; --axis) {
    const std::size_t r = radix[axis + 1];
    choice[axis] = index % r;
    index /= r;
  }
  return {index, choice};
}

}  // namespace

ArchVariant SweepPlan::arch_variant(std::size_t arch_index) const {
  const auto [preset, choice] = arch_digits(arch_index, arch_radix_);
  const arch::AcceleratorSpec s = accelerator_spec(arch_index);
  ArchVariant v;
  v.preset = spec_.arch.presets[preset].value;
  v.rows = s.rows, v.cols = s.cols;
  v.buffer_bytes = arch::buffer_total(s.global_buffer);
  v.sram_bandwidth = sram_total(s.global_buffer);
  v.dram_bandwidth = s.dram.bandwidth;
  v.dram_latency = s.dram.latency_cycles;
  v.clock_mhz = s.clock_mhz;
  v.dequant_rate =
      spec_.arch.dequant_rate.empty() ? 0 : spec_.arch.dequant_rate[choice[kDequant]].value;
  v.edge_transfers = spec_.arch.edge_transfers.empty()
                         ? eval::defaults::kEdgeTransfers
                         : spec_.arch.edge_transfers[choice[kEdge]].value;
  return v;
}

std::size_t SweepPlan::evaluation_arch(std::size_t arch_index) const {
  // digits below the clock's (the dequant rate) times the clock axis size
  std::size_t inner = 1;
  for (int axis = kClock + 1; axis < kArchAxes; ++axis) inner *= arch_radix_[axis + 1];
  const std::size_t clock = arch_radix_[kClock + 1];
  const std::size_t digit = (arch_index / inner) % clock;
  return arch_index - digit * inner;
}

arch::AcceleratorSpec SweepPlan::accelerator_spec(std::size_t arch_index) const {
  const auto [preset, choice] = arch_digits(arch_index, arch_radix_);
  return apply_axes(presets_[preset], spec_.arch, choice);
}

SweepPlan make_sweep_plan(const SweepSpec& spec) {
  SweepPlan p;
  p.spec_ = spec;
  for (const auto& name : spec.arch.presets)
    p.presets_.push_back(at_field(spec, name.pointer, [&] {
      return arch::load_accelerator_preset(preset_or_path(spec, name.value)).spec();
    }));
  check_arch_axes(spec, p.presets_);
  p.arch_radix_ = {spec.arch.presets.size()};
  p.arch_count_ = spec.arch.presets.size();
  for (int axis = 0; axis < kArchAxes; ++axis) {
    p.arch_radix_.push_back(std::max<std::size_t>(1, axis_size(spec.arch, axis)));
    p.arch_count_ = checked_product(p.arch_count_, p.arch_radix_.back(), spec.file);
  }
  for (const auto& q : spec.quant)
    p.quants_.push_back({q.value, at_field(spec, q.pointer, [&] {
                           return quant::load_quant(preset_or_path(spec, q.value));
                         })});
  for (const auto& d : spec.dataflows) p.dataflows_.push_back(mapping::parse_dataflow(d.value));
  for (const auto& t : spec.tilings) {
    TilingValue v{t.value.automatic, {}, spec.tiling_objective, t.value.text};
    if (!v.automatic)
      v.tiling = mapping::parse_tiling(t.value.text, t.pointer);
    else if (v.objective != hw::TilingObjective::kLatency)
      v.text += std::string(":") + hw::to_string(v.objective);
    p.tilings_.push_back(v);
  }
  for (const WorkloadSpec& w : spec.workloads) {
    if (w.kind == WorkloadSpec::Kind::kModel)
      expand_model(spec, w, p.workloads_);
    else if (w.kind == WorkloadSpec::Kind::kLog)
      expand_log(spec, w, p.workloads_);
    else if (w.kind == WorkloadSpec::Kind::kRequest)
      expand_request(spec, w, p.presets_, p.workloads_), p.has_requests_ = true;
    else
      expand_gemm(w, p.workloads_);
  }
  std::uint64_t n = p.workloads_.size();
  for (std::uint64_t f : {std::uint64_t(p.quants_.size()), std::uint64_t(p.arch_count_),
                          std::uint64_t(p.dataflows_.size()), std::uint64_t(p.tilings_.size())})
    n = checked_product(n, f, spec.file);
  p.size_ = n;
  return p;
}

}  // namespace tenet::sweep
