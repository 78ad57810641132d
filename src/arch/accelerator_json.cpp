#include "tenet/arch/accelerator_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include "io/json_reader.hpp"
#include "tenet/error.hpp"

namespace tenet::arch {
namespace {

using nlohmann::json;
using ObjectReader = io::JsonFields;

std::string child(const std::string& ptr, const std::string& key) {
  return io::pointer_join(ptr, key);
}

void type_error(const ObjectReader& r, const std::string& key, const std::string& expected,
                const json& got) {
  r.problems().add(error_code::kType, r.pointer_of(key),
                   "expected " + expected + ", got " + io::json_type_name(got) + " " +
                       (got.is_object() || got.is_array() ? std::string() : got.dump()));
}

// A bandwidth member: a number of bytes/cycle > 0, or the string "unlimited".
std::optional<Bandwidth> read_bandwidth(const ObjectReader& r, const char* key, bool required) {
  const json* v = r.find(key, required, "bytes per cycle or \"unlimited\"");
  if (!v) return std::nullopt;
  if (v->is_string() && v->get<std::string>() == "unlimited") return Bandwidth::infinite();
  if (!v->is_number()) {
    type_error(r, key, "a number of bytes per cycle or \"unlimited\"", *v);
    return std::nullopt;
  }
  return Bandwidth::of(v->get<double>());  // range checked by the Accelerator
}

void read_array(const ObjectReader& root, AcceleratorSpec& spec) {
  auto array = root.object("pe_array", true, "the PE array shape {rows, cols}");
  if (!array) return;
  array->allow_only({"comment", "rows", "cols"});
  if (auto v = array->integer("rows", true, "number of PE rows")) spec.rows = *v;
  if (auto v = array->integer("cols", true, "number of PE columns")) spec.cols = *v;
}

void read_interconnect(const ObjectReader& root, AcceleratorSpec& spec) {
  auto ic = root.object("interconnect", true, "the interconnect {kind[, map]}");
  if (!ic) return;
  ic->allow_only({"comment", "kind", "map"});
  if (auto kind = ic->string("kind", true, "systolic, mesh, row_broadcast, ...")) {
    try {
      spec.interconnect.kind = parse_interconnect_kind(*kind);
    } catch (const InputError& e) {
      ic->problems().add(e, ic->pointer_of("kind"));
    }
  }
  if (auto map = ic->string("map", false, "an isl map")) spec.interconnect.custom_map = *map;
}

// The MAC precisions a key of /pe/precisions or /energy/mac_pj names: one workload::DataType
// name (int8, fp16, bf16, fp8_e4m3, ...), or "fp8", an 8-bit float unit that multiplies both OCP
// formats (e4m3 and e5m2). An unknown name is a problem at `ptr`; none is returned.
std::vector<workload::DataType> precisions_named(const ObjectReader& r, const std::string& key,
                                                 const std::string& ptr) {
  if (key == "fp8") return {workload::DataType::fp8_e4m3(), workload::DataType::fp8_e5m2()};
  try {
    return {workload::parse_data_type(key)};
  } catch (const InputError& e) {
    r.problems().add(e.code(), ptr,
                     "unknown MAC precision \"" + key +
                         "\": expected a number format (int4, int8, int16, int32, fp8, fp16, "
                         "bf16, fp32, fp8_e4m3, uint8, ...)");
    return {};
  }
}

void read_precisions(const ObjectReader& pe, AcceleratorSpec& spec) {
  auto precisions = pe.object("precisions", true, "MAC rate per precision");
  if (!precisions) return;
  for (auto it = precisions->value().begin(); it != precisions->value().end(); ++it) {
    if (it.key() == "comment") continue;
    const std::string ptr = child(precisions->pointer(), it.key());
    if (!it->is_object()) {
      type_error(*precisions, it.key(), "an object {macs_per_cycle | cycles_per_mac}", *it);
      continue;
    }
    ObjectReader p(*it, ptr, pe.problems());
    p.allow_only({"comment", "macs_per_cycle", "cycles_per_mac"});
    MacRate rate;
    auto macs = p.integer("macs_per_cycle", false, "MACs per cycle");
    auto cycles = p.integer("cycles_per_mac", false, "cycles per MAC");
    if (!macs && !cycles && !p.find("macs_per_cycle", false, "") &&
        !p.find("cycles_per_mac", false, ""))
      pe.problems().add(
          error_code::kMissingField, ptr + "/macs_per_cycle",
          "precision \"" + it.key() + "\" has no MAC rate: give macs_per_cycle or cycles_per_mac");
    if (macs) rate.macs_per_cycle = *macs;
    if (cycles) rate.cycles_per_mac = *cycles;
    for (const workload::DataType& type : precisions_named(pe, it.key(), ptr))
      spec.precisions[type] = rate;
  }
}

// pe.float_on_integer: the integer MAC precision float operands may run on (checked against the
// precisions by the Accelerator's validation).
void read_float_on_integer(const ObjectReader& pe, AcceleratorSpec& spec) {
  auto name = pe.string("float_on_integer", false, "an integer MAC precision such as \"int16\"");
  if (!name) return;
  const std::string ptr = child(pe.pointer(), "float_on_integer");
  const std::vector<workload::DataType> types = precisions_named(pe, *name, ptr);
  if (types.size() == 1) spec.float_on_integer = types.front();
}

void read_pe(const ObjectReader& root, AcceleratorSpec& spec) {
  auto pe = root.object("pe", true, "the processing element {register_file_bytes, precisions}");
  if (!pe) return;
  pe->allow_only({"comment", "register_file_bytes", "precisions", "stationary_double_buffered",
                  "float_on_integer"});
  if (auto v = pe->integer("register_file_bytes", true, "register file size per PE in bytes"))
    spec.register_file_bytes = *v;
  if (auto v = pe->boolean("stationary_double_buffered", false))
    spec.stationary_double_buffered = *v;
  read_precisions(*pe, spec);
  read_float_on_integer(*pe, spec);
}

void read_partitions(const ObjectReader& gb, GlobalBuffer& out) {
  auto parts = gb.object("partitions", false, "capacity per operand role");
  if (!parts) return;
  for (auto it = parts->value().begin(); it != parts->value().end(); ++it) {
    if (it.key() == "comment") continue;
    if (!it->is_object()) {
      type_error(*parts, it.key(), "an object {bytes, bandwidth_bytes_per_cycle}", *it);
      continue;
    }
    ObjectReader p(*it, child(parts->pointer(), it.key()), gb.problems());
    p.allow_only({"comment", "bytes", "bandwidth_bytes_per_cycle", "holds"});
    BufferPartition part;
    if (const json* holds = p.find("holds", true, "operand roles held")) {
      if (!holds->is_array()) {
        type_error(p, "holds", "an array of role names", *holds);
      } else {
        for (size_t i = 0; i < holds->size(); ++i) {
          if ((*holds)[i].is_string())
            part.holds.push_back((*holds)[i].get<std::string>());
          else
            gb.problems().add(error_code::kType, p.pointer() + "/holds/" + std::to_string(i),
                              "expected a role name, got " + (*holds)[i].dump());
        }
      }
    }
    if (auto v = p.integer("bytes", true, "partition capacity in bytes")) part.bytes = *v;
    if (auto bw = read_bandwidth(p, "bandwidth_bytes_per_cycle", true)) part.bandwidth = *bw;
    out.partitions[it.key()] = part;
  }
  if (out.partitions.empty())
    gb.problems().add(error_code::kMissingField, parts->pointer(),
                      "expected at least one partition");
}

void read_global_buffer(const ObjectReader& root, AcceleratorSpec& spec) {
  auto gb = root.object("global_buffer", true, "the on-chip SRAM");
  if (!gb) return;
  gb->allow_only({"comment", "bytes", "bandwidth_bytes_per_cycle", "partitions", "double_buffered",
                  "row_elements"});
  GlobalBuffer& out = spec.global_buffer;
  const bool partitioned = gb->find("partitions", false, "") != nullptr;
  if (auto v = gb->integer("bytes", !partitioned, "shared capacity in bytes")) out.bytes = *v;
  if (partitioned) {
    if (gb->find("bandwidth_bytes_per_cycle", false, ""))
      gb->problems().add(error_code::kUsage, gb->pointer() + "/bandwidth_bytes_per_cycle",
                         "with partitions, give the bandwidth inside each partition");
    read_partitions(*gb, out);
  } else if (auto bw = read_bandwidth(*gb, "bandwidth_bytes_per_cycle", true)) {
    out.bandwidth = *bw;
  }
  if (auto v = gb->boolean("double_buffered", false)) out.double_buffered = *v;
  if (auto v = gb->integer("row_elements", false, "elements per buffer row")) out.row_elements = *v;
}

void read_dram(const ObjectReader& root, AcceleratorSpec& spec, std::optional<double> clock_mhz) {
  auto dram = root.object("dram", true, "off-chip memory {bandwidth, latency_cycles}");
  if (!dram) return;
  dram->allow_only({"comment", "bandwidth_bytes_per_cycle", "bandwidth_gb_per_s", "latency_cycles",
                    "prefetch_across_matmuls", "read_overlap_fraction",
                    "oversized_read_overlap_fraction", "window_read_overlap_fraction",
                    "capacity_bytes"});
  const bool per_cycle = dram->find("bandwidth_bytes_per_cycle", false, "") != nullptr;
  const bool per_second = dram->find("bandwidth_gb_per_s", false, "") != nullptr;
  if (per_cycle && per_second)
    dram->problems().add(error_code::kUsage, dram->pointer() + "/bandwidth_gb_per_s",
                         "give either bandwidth_bytes_per_cycle or bandwidth_gb_per_s, not both");
  if (per_second) {
    if (auto gbps = dram->number("bandwidth_gb_per_s", true, "GB/s")) {
      if (!(*gbps > 0) || !std::isfinite(*gbps))
        dram->problems().add(error_code::kRange, dram->pointer() + "/bandwidth_gb_per_s",
                             fmt::format("expected a bandwidth > 0 GB/s, got {}", *gbps));
      else if (clock_mhz && *clock_mhz > 0)
        spec.dram.bandwidth = Bandwidth::of(*gbps * 1e3 / *clock_mhz);
    }
  } else if (auto bw = read_bandwidth(*dram, "bandwidth_bytes_per_cycle", true)) {
    spec.dram.bandwidth = *bw;
  }
  if (auto v = dram->integer("latency_cycles", true, "DRAM latency in cycles"))
    spec.dram.latency_cycles = *v;
  if (auto v = dram->boolean("prefetch_across_matmuls", false))
    spec.dram.prefetch_across_matmuls = *v;
  if (auto v = dram->number("read_overlap_fraction", false,
                            "share of the input reads overlapped with the array (0-1)"))
    spec.dram.read_overlap_fraction = *v;
  if (auto v =
          dram->number("oversized_read_overlap_fraction", false,
                       "share of an oversized operand's reads overlapped with the array (0-1)"))
    spec.dram.oversized_read_overlap_fraction = *v;
  if (auto v = dram->number("window_read_overlap_fraction", false,
                            "share of the input reads overlapped with the array, the rest within "
                            "the DRAM window's slack (0-1)"))
    spec.dram.window_read_overlap_fraction = *v;
}

// "fusion": {"attention": {...}} (arch::AttentionKernelSpec; docs/formats.md#accelerator-file).
void read_attention_kernel(const ObjectReader& a, AttentionKernelSpec& out) {
  a.allow_only({"comment", "query_block", "back_to_back", "serial_softmax", "block_ns", "row_ns",
                "call_ns", "softmax_ops_per_score", "ramp_keys", "ramp_ns_per_key"});
  if (auto v = a.integer("query_block", false, "queries per block (>= 1)", {1, 1LL << 24}))
    out.query_block = *v;
  if (auto v = a.boolean("back_to_back", false)) out.back_to_back = *v;
  if (auto v = a.boolean("serial_softmax", false)) out.serial_softmax = *v;
  auto ns = [&](const char* key, double& field, const char* what) {
    auto v = a.number(key, false, what);
    if (!v) return;
    if (!(*v >= 0) || *v > 1e9) {
      a.attempt(key, [&] {
        throw InputError(error_code::kRange, "", "",
                         std::string("expected ") + what + " between 0 and 1e9 ns");
      });
      return;
    }
    field = *v;
  };
  ns("block_ns", out.block_ns, "a fixed cost per (KV head, query block), ns");
  ns("row_ns", out.row_ns, "a fixed cost per computed query row and query head, ns");
  ns("call_ns", out.call_ns, "a fixed cost per call beyond kernel_launch_ns, ns");
  ns("ramp_ns_per_key", out.ramp_ns_per_key, "the ramp's cost per key, ns");
  if (auto v =
          a.integer("ramp_keys", false, "keys of each query block's ramp (>= 0)", {0, 1LL << 40}))
    out.ramp_keys = *v;
  if (auto v = a.integer("softmax_ops_per_score", false,
                         "the vector unit's operations per score (>= 1)", {1, 1000}))
    out.softmax_ops_per_score = *v;
}

// "fusion": {"materialised_attention": {...}} (arch::MaterialisedAttentionSpec).
void read_materialised_attention(const ObjectReader& a, MaterialisedAttentionSpec& out) {
  a.allow_only({"comment", "load_filled_rows", "head_ns"});
  if (auto v = a.boolean("load_filled_rows", false)) out.load_filled_rows = *v;
  if (auto v = a.number("head_ns", false, "a least time per query head and query block, ns")) {
    if (!(*v >= 0) || *v > 1e9)
      a.attempt("head_ns", [&] {
        throw InputError(error_code::kRange, "", "",
                         "expected a least time per query head between 0 and 1e9 ns");
      });
    else
      out.head_ns = *v;
  }
}

// "matrix_units": {"count": N} and "kernel_launch_ns"
// (docs/hardware.md#a-chip-several-matrix-units).
void read_chip(const ObjectReader& root, AcceleratorSpec& spec) {
  if (auto units = root.object("matrix_units", false, "the matrix units {count, split_stream}")) {
    units->allow_only({"comment", "count", "split_stream"});
    if (auto v = units->integer("count", true, "number of matrix units (PE arrays) >= 1"))
      spec.chip.matrix_units = *v;
    if (auto v = units->boolean("split_stream", false)) spec.chip.split_stream = *v;
  }
  if (auto v = root.number("kernel_launch_ns", false, "fixed cost of one kernel call in ns"))
    spec.chip.kernel_launch_ns = *v;
  if (auto compiler = root.object("compiler", false,
                                  "how the chip's compiler chooses a tiling "
                                  "{tiling_near_tie_percent}")) {
    compiler->allow_only({"comment", "tiling_near_tie_percent"});
    if (auto v = compiler->integer("tiling_near_tie_percent", false,
                                   "the latency rule's near-tie window in percent, 0..100"))
      spec.chip.tiling_near_tie_percent = *v;
  }
  if (auto fusion =
          root.object("fusion", false,
                      "what the chip's compiler fuses {mlp, mlp_resident_bytes, mlp_weights_whole, "
                      "mlp_block_ns, attention, "
                      "non_causal_attention, materialised_attention}")) {
    fusion->allow_only({"comment", "mlp", "mlp_resident_bytes", "mlp_weights_whole", "mlp_block_ns",
                        "attention", "non_causal_attention", "materialised_attention"});
    if (auto v = fusion->string("non_causal_attention", false, "on_chip, materialised or dram")) {
      if (*v == "on_chip" || *v == "materialised" || *v == "dram")
        spec.chip.non_causal_scores = *v;
      else
        fusion->problems().add(
            error_code::kUnknownName, fusion->pointer_of("non_causal_attention"),
            "expected \"on_chip\", \"materialised\" or \"dram\", got \"" + *v + "\"");
    }
    if (auto v = fusion->boolean("mlp", false)) spec.chip.fuse_mlp = *v;
    if (auto v =
            fusion->integer("mlp_resident_bytes", false,
                            "the most bytes of MLP weights kept on chip (>= 0)", {0, 1LL << 62}))
      spec.chip.mlp_resident_bytes = *v;
    if (auto v = fusion->boolean("mlp_weights_whole", false)) spec.chip.mlp_weights_whole = *v;
    if (auto v = fusion->number("mlp_block_ns", false,
                                "fixed cost of each token block after the first, ns (>= 0)")) {
      if (*v < 0 || !std::isfinite(*v))
        fusion->problems().add(error_code::kRange, fusion->pointer_of("mlp_block_ns"),
                               fmt::format("expected mlp_block_ns >= 0, got {}", *v));
      else
        spec.chip.mlp_block_ns = *v;
    }
    if (auto a = fusion->object("attention", false, "the chip's fused attention kernel"))
      read_attention_kernel(*a, spec.chip.attention);
    if (auto a = fusion->object("materialised_attention", false,
                                "how the compiler runs materialised attention scores"))
      read_materialised_attention(*a, spec.chip.materialised);
  }
}

void read_access_energy(const ObjectReader& energy, const char* key, AccessEnergy& out) {
  auto level = energy.object(key, false, "");
  if (!level) return;
  level->allow_only({"comment", "read_pj", "write_pj", "access_bits"});
  if (auto v = level->number("read_pj", false, "pJ per access")) out.read_pj = *v;
  if (auto v = level->number("write_pj", false, "pJ per access")) out.write_pj = *v;
  if (auto v = level->integer("access_bits", false, "bits per access")) {
    if (*v > (1 << 20))
      level->problems().add(error_code::kRange, level->pointer() + "/access_bits",
                            fmt::format("expected access_bits <= 2^20, got {}", *v));
    else
      out.access_bits = static_cast<int>(*v);
  }
}

void read_energy(const ObjectReader& root, AcceleratorSpec& spec) {
  auto energy = root.object("energy", false, "");
  if (!energy) return;
  energy->allow_only({"comment", "mac_pj", "register_file", "sram", "dram"});
  if (auto macs = energy->object("mac_pj", false, "")) {
    for (auto it = macs->value().begin(); it != macs->value().end(); ++it) {
      if (it.key() == "comment") continue;
      if (!it->is_number()) {
        type_error(*macs, it.key(), "a number of pJ per MAC", *it);
        continue;
      }
      for (const workload::DataType& type :
           precisions_named(*macs, it.key(), io::pointer_join(macs->pointer(), it.key())))
        spec.energy.mac_pj[type] = it->get<double>();
    }
  }
  read_access_energy(*energy, "register_file", spec.energy.register_file);
  read_access_energy(*energy, "sram", spec.energy.sram);
  read_access_energy(*energy, "dram", spec.energy.dram);
}

void read_micro(const ObjectReader& root, AcceleratorSpec& spec) {
  auto m = root.object("microarchitecture", false, "");
  if (!m) return;
  m->allow_only({"comment", "accumulators", "tile", "run_overhead_cycles", "dma", "dram_layouts",
                 "dram_placement", "accumulate_from_dram", "padding", "feeder", "residency"});
  Microarch& u = spec.micro;
  if (auto a = m->object("accumulators", false, "")) {
    a->allow_only({"comment", "double_buffered", "drain_cycles", "drain_cycles_reload"});
    if (auto v = a->boolean("double_buffered", false)) u.accumulator_double_buffered = *v;
    if (auto v = a->integer("drain_cycles", false, "cycles")) u.drain_cycles = *v;
    if (auto v = a->integer("drain_cycles_reload", false, "cycles")) u.drain_cycles_reload = *v;
  }
  if (auto t = m->object("tile", false, "")) {
    t->allow_only({"comment", "fill_drain_cycles", "min_cycles", "overhead_cycles"});
    if (auto v = t->integer("fill_drain_cycles", false, "cycles")) u.tile_fill_drain_cycles = *v;
    if (auto v = t->integer("min_cycles", false, "cycles")) u.min_tile_cycles = *v;
    if (auto v = t->integer("overhead_cycles", false, "cycles")) u.tile_overhead_cycles = *v;
  }
  if (auto v = m->integer("run_overhead_cycles", false, "cycles")) u.run_overhead_cycles = *v;
  if (auto d = m->object("dma", false, "")) {
    d->allow_only({"comment", "command_cycles", "max_burst_bytes", "beat_bytes",
                   "outstanding_bursts", "burst_latency_cycles", "separate_channels",
                   "throttle_bytes", "throttle_gap_cycles", "command_setup_cycles"});
    u.dma.enabled = true;
    if (auto v = d->integer("command_cycles", false, "cycles")) u.dma.command_cycles = *v;
    if (auto v = d->integer("max_burst_bytes", false, "bytes")) u.dma.max_burst_bytes = *v;
    if (auto v = d->integer("beat_bytes", false, "bytes")) u.dma.beat_bytes = *v;
    if (auto v = d->integer("outstanding_bursts", false, "bursts")) u.dma.outstanding_bursts = *v;
    if (auto v = d->integer("burst_latency_cycles", false, "cycles"))
      u.dma.burst_latency_cycles = *v;
    if (auto v = d->boolean("separate_channels", false)) u.dma.separate_channels = *v;
    if (auto v = d->integer("throttle_bytes", false, "bytes")) u.dma.throttle_bytes = *v;
    if (auto v = d->integer("throttle_gap_cycles", false, "cycles")) u.dma.throttle_gap_cycles = *v;
    if (auto v = d->integer("command_setup_cycles", false, "cycles"))
      u.dma.command_setup_cycles = *v;
  }
  if (auto l = m->object("dram_layouts", false, "")) {
    for (auto it = l->value().begin(); it != l->value().end(); ++it) {
      if (it.key() == "comment") continue;
      if (!it->is_object()) {
        type_error(*l, it.key(), "an object {contiguous, retiled}", *it);
        continue;
      }
      ObjectReader r(*it, child(l->pointer(), it.key()), l->problems());
      r.allow_only({"comment", "contiguous", "retiled"});
      DramLayout layout;
      if (auto v = r.string("contiguous", false, "m, n or k")) layout.contiguous = *v;
      if (auto v = r.boolean("retiled", false)) layout.retiled = *v;
      u.layouts[it.key()] = layout;
    }
  }
  if (auto v = m->string("dram_placement", false, "aligned or packed")) {
    if (*v == "packed" || *v == "aligned")
      u.packed_placement = *v == "packed";
    else
      m->problems().add(error_code::kUnknownName, m->pointer_of("dram_placement"),
                        "expected \"aligned\" or \"packed\", got \"" + *v + "\"");
  }
  if (auto v = m->boolean("accumulate_from_dram", false)) u.accumulate_from_dram = *v;
  if (auto p = m->object("padding", false, "")) {
    p->allow_only({"comment", "array_edges", "stream_multiple", "stream_aligned_tiles_only"});
    if (auto v = p->boolean("array_edges", false)) u.pad_to_array = *v;
    if (auto v = p->integer("stream_multiple", false, "elements")) u.pad_stream_multiple = *v;
    if (auto v = p->boolean("stream_aligned_tiles_only", false))
      u.pad_stream_aligned_tiles_only = *v;
  }
  if (auto f = m->object("feeder", false, "")) {
    f->allow_only({"comment", "word_elements", "unaligned_factor", "unaligned_stall_cycles"});
    if (auto v = f->integer("word_elements", false, "elements")) u.feeder_word = *v;
    if (auto v = f->number("unaligned_factor", false, "factor")) u.unaligned_factor = *v;
    if (auto v = f->number("unaligned_stall_cycles", false, "cycles per streamed cycle"))
      u.unaligned_stall_cycles = *v;
  }
  if (auto r = m->object("residency", false, "")) {
    r->allow_only({"comment", "sram_resident", "tile_fits_one_bank"});
    if (const json* roles = r->find("sram_resident", false, "")) {
      if (!roles->is_array()) {
        type_error(*r, "sram_resident", "an array of role names", *roles);
      } else {
        for (size_t i = 0; i < roles->size(); ++i) {
          if ((*roles)[i].is_string())
            u.sram_resident.push_back((*roles)[i].get<std::string>());
          else
            r->problems().add(error_code::kType,
                              r->pointer() + "/sram_resident/" + std::to_string(i),
                              "expected a role name, got " + (*roles)[i].dump());
        }
      }
    }
    if (auto v = r->boolean("tile_fits_one_bank", false)) u.tile_fits_one_bank = *v;
  }
}

json micro_json(const Microarch& u) {
  json j;
  j["accumulators"] = {{"double_buffered", u.accumulator_double_buffered},
                       {"drain_cycles", u.drain_cycles},
                       {"drain_cycles_reload", u.drain_cycles_reload}};
  j["tile"] = {{"fill_drain_cycles", u.tile_fill_drain_cycles},
               {"min_cycles", u.min_tile_cycles},
               {"overhead_cycles", u.tile_overhead_cycles}};
  j["run_overhead_cycles"] = u.run_overhead_cycles;
  if (u.dma.enabled)
    j["dma"] = {{"command_cycles", u.dma.command_cycles},
                {"max_burst_bytes", u.dma.max_burst_bytes},
                {"beat_bytes", u.dma.beat_bytes},
                {"outstanding_bursts", u.dma.outstanding_bursts},
                {"burst_latency_cycles", u.dma.burst_latency_cycles},
                {"separate_channels", u.dma.separate_channels},
                {"throttle_bytes", u.dma.throttle_bytes},
                {"throttle_gap_cycles", u.dma.throttle_gap_cycles},
                {"command_setup_cycles", u.dma.command_setup_cycles}};
  if (!u.layouts.empty()) {
    json l = json::object();
    for (const auto& [role, layout] : u.layouts)
      l[role] = {{"contiguous", layout.contiguous}, {"retiled", layout.retiled}};
    j["dram_layouts"] = l;
  }
  j["dram_placement"] = u.packed_placement ? "packed" : "aligned";
  j["accumulate_from_dram"] = u.accumulate_from_dram;
  j["padding"] = {{"array_edges", u.pad_to_array},
                  {"stream_multiple", u.pad_stream_multiple},
                  {"stream_aligned_tiles_only", u.pad_stream_aligned_tiles_only}};
  j["feeder"] = {{"word_elements", u.feeder_word},
                 {"unaligned_factor", u.unaligned_factor},
                 {"unaligned_stall_cycles", u.unaligned_stall_cycles}};
  j["residency"] = {{"sram_resident", u.sram_resident},
                    {"tile_fits_one_bank", u.tile_fits_one_bank}};
  return j;
}

json bandwidth_json(const Bandwidth& bw) {
  if (bw.unlimited) return "unlimited";
  return bw.bytes_per_cycle;
}

json access_energy_json(const AccessEnergy& e) {
  return {{"read_pj", e.read_pj}, {"write_pj", e.write_pj}, {"access_bits", e.access_bits}};
}

}  // namespace

Accelerator parse_accelerator(const json& root_json, const std::string& file) {
  io::JsonProblems issues(file);
  if (!root_json.is_object())
    throw InputError(
        error_code::kType, file, "",
        "expected an architecture object, got " + std::string(io::json_type_name(root_json)));
  ObjectReader root(root_json, "", issues);
  root.allow_only({"comment", "$schema", "name", "source", "pe_array", "interconnect", "clock_mhz",
                   "pe", "global_buffer", "dram", "energy", "dataflow", "vector_unit", "link",
                   "microarchitecture", "matrix_units", "kernel_launch_ns", "compiler", "fusion"});
  AcceleratorSpec spec;
  if (auto v = root.string("name", true, "accelerator name")) spec.name = *v;
  if (auto v = root.string("comment", false, "")) spec.comment = *v;
  if (auto v = root.string("source", false, "")) spec.source = *v;
  if (auto v = root.string("dataflow", false, "os, ws or is")) spec.dataflow = *v;
  read_array(root, spec);
  read_interconnect(root, spec);
  auto clock = root.number("clock_mhz", true, "clock frequency in MHz");
  if (clock) spec.clock_mhz = *clock;
  read_pe(root, spec);
  read_global_buffer(root, spec);
  read_dram(root, spec, clock);
  read_energy(root, spec);
  {  // the serving members (arch/serving.hpp)
    std::optional<ObjectReader> dram;
    if (root_json.contains("dram") && root_json["dram"].is_object())
      dram.emplace(root_json["dram"], "/dram", issues);
    spec.serving = read_serving(root, dram ? &*dram : nullptr);
  }
  read_micro(root, spec);
  read_chip(root, spec);
  issues.throw_if_any();
  try {
    return Accelerator(with_energy_defaults(std::move(spec)));
  } catch (const InputError& e) {
    throw e.located(file, "");
  }
}

Accelerator parse_accelerator_text(const std::string& text, const std::string& file) {
  return parse_accelerator(io::parse_json(text, file), file);
}

Accelerator load_accelerator(const std::string& path) {
  AcceleratorSpec spec = parse_accelerator(io::read_json_file(path), path).spec();
  spec.file = path;  // named by evaluation errors (a precision the file lacks)
  return Accelerator(std::move(spec));
}

json to_json(const Accelerator& acc) {
  const AcceleratorSpec& s = acc.spec();
  json j;
  j["name"] = s.name;
  if (!s.comment.empty()) j["comment"] = s.comment;
  if (!s.source.empty()) j["source"] = s.source;
  j["pe_array"] = {{"rows", s.rows}, {"cols", s.cols}};
  j["interconnect"] = {{"kind", to_string(s.interconnect.kind)}};
  if (s.interconnect.kind == InterconnectKind::kCustom)
    j["interconnect"]["map"] = s.interconnect.custom_map;
  j["clock_mhz"] = s.clock_mhz;
  json precisions = json::object();
  for (const auto& [type, rate] : s.precisions)
    precisions[workload::to_string(type)] = {{"macs_per_cycle", rate.macs_per_cycle},
                                             {"cycles_per_mac", rate.cycles_per_mac}};
  if (!s.dataflow.empty()) j["dataflow"] = s.dataflow;
  j["pe"] = {{"register_file_bytes", s.register_file_bytes},
             {"stationary_double_buffered", s.stationary_double_buffered},
             {"precisions", precisions}};
  if (s.float_on_integer) j["pe"]["float_on_integer"] = workload::to_string(*s.float_on_integer);
  json gb = {{"double_buffered", s.global_buffer.double_buffered}};
  if (s.global_buffer.partitions.empty()) {
    gb["bytes"] = s.global_buffer.bytes;
    gb["bandwidth_bytes_per_cycle"] = bandwidth_json(s.global_buffer.bandwidth);
  } else {
    for (const auto& [key, part] : s.global_buffer.partitions)
      gb["partitions"][key] = {{"bytes", part.bytes},
                               {"bandwidth_bytes_per_cycle", bandwidth_json(part.bandwidth)},
                               {"holds", part.holds}};
  }
  if (s.global_buffer.row_elements != 1) gb["row_elements"] = s.global_buffer.row_elements;
  j["global_buffer"] = gb;
  j["dram"] = {{"bandwidth_bytes_per_cycle", bandwidth_json(s.dram.bandwidth)},
               {"latency_cycles", s.dram.latency_cycles},
               {"prefetch_across_matmuls", s.dram.prefetch_across_matmuls}};
  if (s.dram.read_overlap_fraction != 1)
    j["dram"]["read_overlap_fraction"] = s.dram.read_overlap_fraction;
  if (s.dram.oversized_read_overlap_fraction)
    j["dram"]["oversized_read_overlap_fraction"] = *s.dram.oversized_read_overlap_fraction;
  if (s.dram.window_read_overlap_fraction)
    j["dram"]["window_read_overlap_fraction"] = *s.dram.window_read_overlap_fraction;
  json macs = json::object();
  for (const auto& [type, pj] : s.energy.mac_pj) macs[workload::to_string(type)] = pj;
  j["energy"] = {{"mac_pj", macs},
                 {"register_file", access_energy_json(s.energy.register_file)},
                 {"sram", access_energy_json(s.energy.sram)},
                 {"dram", access_energy_json(s.energy.dram)}};
  serving_to_json(s.serving, j);
  if (s.micro.active()) j["microarchitecture"] = micro_json(s.micro);
  if (s.chip.matrix_units != 1) j["matrix_units"] = {{"count", s.chip.matrix_units}};
  if (s.chip.split_stream) j["matrix_units"]["split_stream"] = true;
  if (s.chip.kernel_launch_ns != 0) j["kernel_launch_ns"] = s.chip.kernel_launch_ns;
  if (s.chip.tiling_near_tie_percent != 2)
    j["compiler"] = {{"tiling_near_tie_percent", s.chip.tiling_near_tie_percent}};
  if (s.chip.fuse_mlp) j["fusion"] = {{"mlp", true}};
  if (s.chip.mlp_resident_bytes >= 0) j["fusion"]["mlp_resident_bytes"] = s.chip.mlp_resident_bytes;
  if (s.chip.mlp_weights_whole) j["fusion"]["mlp_weights_whole"] = true;
  if (s.chip.mlp_block_ns != 0) j["fusion"]["mlp_block_ns"] = s.chip.mlp_block_ns;
  if (s.chip.non_causal_scores != "on_chip")
    j["fusion"]["non_causal_attention"] = s.chip.non_causal_scores;
  if (s.chip.attention.active()) {
    const AttentionKernelSpec& a = s.chip.attention;
    j["fusion"]["attention"] = {{"query_block", a.query_block},
                                {"back_to_back", a.back_to_back},
                                {"serial_softmax", a.serial_softmax},
                                {"block_ns", a.block_ns},
                                {"row_ns", a.row_ns},
                                {"call_ns", a.call_ns}};
    if (a.softmax_ops_per_score > 0)
      j["fusion"]["attention"]["softmax_ops_per_score"] = a.softmax_ops_per_score;
    if (a.ramp_keys > 0) j["fusion"]["attention"]["ramp_keys"] = a.ramp_keys;
    if (a.ramp_ns_per_key > 0) j["fusion"]["attention"]["ramp_ns_per_key"] = a.ramp_ns_per_key;
  }
  if (s.chip.materialised.active())
    j["fusion"]["materialised_attention"] = {
        {"load_filled_rows", s.chip.materialised.load_filled_rows},
        {"head_ns", s.chip.materialised.head_ns}};
  return j;
}

}  // namespace tenet::arch
