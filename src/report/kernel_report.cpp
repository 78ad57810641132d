// `tenet kernel`'s report (report/kernel_report.hpp; every field: docs/output.md#tenet-kernel).
#include "report/kernel_report.hpp"

#include <fmt/format.h>

#include "detail/exact.hpp"

namespace tenet::report {
namespace {

using Json = nlohmann::ordered_json;

double seconds(double cycles, double clock_hz) { return cycles / clock_hz; }

Json blocking_json(const fused::KernelResult& r) {
  if (std::holds_alternative<fused::AttentionKernel>(r.kernel)) {
    Json j{{"query_block", r.blocking.rows}, {"kv_block", r.blocking.cols}};
    if (r.blocking.padded) j["padded"] = true;  // the chip's fixed query block, computed whole
    return j;
  }
  Json j{{"token_block", r.blocking.rows}};
  if (r.blocking.resident) j["resident_weights"] = true;  // W1, W2, biases read once
  return j;
}

Json stage_json(const fused::StageResult& s, double clock_hz) {
  Json j{{"name", s.name}, {"unit", s.unit}};
  if (s.unit == "matrix")
    j["macs"] = s.macs;
  else
    j["ops"] = s.ops;
  j["cycles"] = s.cycles;
  j["seconds"] = seconds(s.cycles, clock_hz);
  j["sram_bytes"] = s.sram_bytes;
  if (s.unit == "matrix") {
    Json tiles = Json::array();
    for (const fused::TileCost& t : s.tiles)
      tiles.push_back({{"m", t.shape[0]},
                       {"n", t.shape[1]},
                       {"k", t.shape[2]},
                       {"count", t.count},
                       {"cycles_per_tile", t.cycles},
                       {"bound", t.bound}});
    j["tiles"] = tiles;
  }
  return j;
}

}  // namespace

Json kernel_json(const fused::KernelResult& r, const Json& inputs) {
  const double hz = r.clock_hz;
  Json j;
  j["kernel"] = fused::kind_name(r.kernel);
  j["inputs"] = inputs;
  j["seconds"] = r.seconds;
  j["cycles"] = r.cycles;
  j["dram_bytes"] = r.dram_bytes;
  j["sram_bytes"] = r.sram_bytes;
  j["levels"] = {{"dram_bytes", r.dram_bytes}, {"sram_bytes", r.sram_bytes}};
  j["bound"] = r.bound;
  j["macs"] = r.macs;
  j["blocking"] = blocking_json(r);
  j["intermediate_placement"] = r.placement;
  j["footprint_bytes"] = r.footprint_bytes;
  j["buffer_bytes"] = r.capacity_bytes;
  j["compulsory_dram_bytes"] = r.compulsory_dram_bytes;
  j["units"] = Json::array({{{"unit", "matrix"},
                             {"index", 0},
                             {"busy_cycles", r.matrix_cycles},
                             {"seconds", seconds(r.matrix_cycles, hz)}}});
  j["vector_unit"] = {{"busy_cycles", r.vector_cycles}, {"seconds", seconds(r.vector_cycles, hz)}};
  j["dram"] = {{"busy_cycles", r.dram_cycles}, {"seconds", seconds(r.dram_cycles, hz)}};
  j["exposed_cycles"] = r.exposed_cycles;
  j["launch_cycles"] = r.launch_cycles;
  if (r.overhead_cycles != 0) j["overhead_cycles"] = r.overhead_cycles;
  if (r.head_cycles != 0) j["head_cycles"] = r.head_cycles;
  Json tensors = Json::array();
  for (const fused::TensorResult& t : r.tensors)
    tensors.push_back({{"name", t.name},
                       {"kind", t.kind},
                       {"dram_elements", t.dram_elements},
                       {"dram_bytes", t.dram_bytes}});
  j["tensors"] = tensors;
  Json inter = Json::array();
  for (const fused::IntermediateResult& i : r.intermediates)
    inter.push_back({{"name", i.name},
                     {"produced", i.produced},
                     {"on_chip", i.on_chip},
                     {"spilled", i.spilled}});
  j["intermediates"] = inter;
  Json stages = Json::array();
  for (const fused::StageResult& s : r.stages) stages.push_back(stage_json(s, hz));
  j["stages"] = stages;
  if (!r.relation_counts.empty()) {
    Json rel = Json::object();
    for (const auto& [name, n] : r.relation_counts) rel[name] = n;
    j["relation_counts"] = rel;
  }
  j["search"] = {{"candidates", r.candidates}, {"evaluated", r.evaluated}};
  return j;
}

std::string render_kernel(const fused::KernelResult& r, const Json& inputs,
                          io::ReportFormat format) {
  const Json j = kernel_json(r, inputs);
  if (format == io::ReportFormat::kJson) return j.dump(2) + "\n";
  const Json& b = j["blocking"];
  const std::int64_t rows = r.blocking.rows, cols = r.blocking.cols;
  if (format == io::ReportFormat::kCsv) {
    std::string out =
        "kernel,arch,quant,block_rows,block_cols,placement,cycles,seconds,dram_bytes,sram_bytes,"
        "compulsory_dram_bytes,bound,matrix_seconds,vector_seconds,dram_seconds\n";
    out += fmt::format("{},{},{},{},{},{},{},{:.9g},{},{},{},{},{:.9g},{:.9g},{:.9g}\n",
                       j["kernel"].get<std::string>(),
                       ::tenet::detail::csv_field(inputs.value("arch", "")),
                       ::tenet::detail::csv_field(inputs.value("quant", "")), rows, cols,
                       r.placement, r.cycles, r.seconds, r.dram_bytes, r.sram_bytes,
                       r.compulsory_dram_bytes, r.bound, seconds(r.matrix_cycles, r.clock_hz),
                       seconds(r.vector_cycles, r.clock_hz), seconds(r.dram_cycles, r.clock_hz));
    return out;
  }
  std::string out = fmt::format("{} kernel on {} ({})\n", j["kernel"].get<std::string>(),
                                inputs.value("arch", ""), inputs.value("quant", ""));
  out += fmt::format("  blocking        {}  ({} candidates), intermediates {}\n", b.dump(),
                     r.candidates, r.placement);
  out += fmt::format("  time            {:.6g} s  ({} cycles), bound {}\n", r.seconds, r.cycles,
                     r.bound);
  out += fmt::format("  matrix unit     {:.6g} s busy\n", seconds(r.matrix_cycles, r.clock_hz));
  out += fmt::format("  vector unit     {:.6g} s busy\n", seconds(r.vector_cycles, r.clock_hz));
  out += fmt::format("  DRAM link       {:.6g} s busy\n", seconds(r.dram_cycles, r.clock_hz));
  out += fmt::format("  DRAM bytes      {}  (every input and output once: {})\n", r.dram_bytes,
                     r.compulsory_dram_bytes);
  out += fmt::format("  SRAM bytes      {}\n", r.sram_bytes);
  out += fmt::format("  on chip         {} of {} bytes\n", r.footprint_bytes, r.capacity_bytes);
  out += fmt::format("\n  {:<6} {:<13} {:>16} {:>18}\n", "tensor", "kind", "DRAM elements",
                     "DRAM bytes");
  for (const fused::TensorResult& t : r.tensors)
    out += fmt::format("  {:<6} {:<13} {:>16} {:>18}\n", t.name, t.kind, t.dram_elements,
                       t.dram_bytes);
  out += fmt::format("\n  {:<12} {:>16} {:>16} {:>16}\n", "intermediate", "produced", "on chip",
                     "spilled");
  for (const fused::IntermediateResult& i : r.intermediates)
    out += fmt::format("  {:<12} {:>16} {:>16} {:>16}\n", i.name, i.produced, i.on_chip, i.spilled);
  out += fmt::format("\n  {:<11} {:<7} {:>18} {:>14}\n", "stage", "unit", "MACs / ops",
                     "busy seconds");
  for (const fused::StageResult& s : r.stages)
    out += fmt::format("  {:<11} {:<7} {:>18} {:>14.6g}\n", s.name, s.unit,
                       s.unit == "matrix" ? s.macs : s.ops, seconds(s.cycles, r.clock_hz));
  return out;
}

}  // namespace tenet::report
