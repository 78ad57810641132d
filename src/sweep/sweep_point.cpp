#include "sweep/sweep_point.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tenet::sweep {
namespace {

using ojson = nlohmann::ordered_json;

ojson bandwidth_value(const arch::Bandwidth& b) {
  if (b.unlimited) return "unlimited";
  return b.bytes_per_cycle;
}

ojson optional_value(const std::optional<std::int64_t>& v) { return v ? ojson(*v) : ojson(); }

void add_workload(ojson& p, const WorkloadInstance& w, bool requests) {
  p["workload"] = w.workload;
  p["kind"] = w.kind;
  p["phase"] = w.phase == llm::Phase::kUnspecified ? ojson() : ojson(llm::to_string(w.phase));
  p["batch"] = w.kind == "log" ? ojson() : ojson(w.batch);
  p["seq_len"] = optional_value(w.seq_len);
  if (requests) {  // generated tokens and the chips of a generation request
    const bool q = w.request_model != nullptr;
    p["tokens"] = q ? ojson(w.request.tokens) : ojson();
    p["tp"] = q ? ojson(w.request.tp) : ojson();
    p["pp"] = q ? ojson(w.request.pp) : ojson();
  }
  p["layer"] = w.layer.empty() ? ojson() : ojson(w.layer);
  const bool single = w.matmuls.size() == 1 && !w.layer.empty();
  p["m"] = single ? ojson(w.matmuls[0].m) : ojson();
  p["n"] = single ? ojson(w.matmuls[0].n) : ojson();
  p["k"] = single ? ojson(w.matmuls[0].k) : ojson();
}

void add_arch(ojson& p, const ArchVariant& a) {
  p["arch"] = a.preset;
  p["rows"] = a.rows;
  p["cols"] = a.cols;
  p["buffer_bytes"] = a.buffer_bytes;
  p["sram_bandwidth"] = bandwidth_value(a.sram_bandwidth);
  p["dram_bandwidth"] = bandwidth_value(a.dram_bandwidth);
  p["dram_latency"] = a.dram_latency;
  p["clock_mhz"] = a.clock_mhz;
  p["dequant_rate"] = a.dequant_rate;
  p["edge_transfers"] = a.edge_transfers;
}

}  // namespace

const std::vector<std::string>& parameter_columns(bool requests) {
  static const std::vector<std::string> columns{"workload",
                                                "kind",
                                                "phase",
                                                "batch",
                                                "seq_len",
                                                "layer",
                                                "m",
                                                "n",
                                                "k",
                                                "quant",
                                                "arch",
                                                "rows",
                                                "cols",
                                                "buffer_bytes",
                                                "sram_bandwidth",
                                                "dram_bandwidth",
                                                "dram_latency",
                                                "clock_mhz",
                                                "dequant_rate",
                                                "edge_transfers",
                                                "dataflow",
                                                "tiling"};
  static const std::vector<std::string> with_requests = [] {
    std::vector<std::string> c = columns;
    const auto at = std::find(c.begin(), c.end(), "seq_len") + 1;
    c.insert(at, {"tokens", "tp", "pp"});
    return c;
  }();
  return requests ? with_requests : columns;
}

SweepPoint make_point(const SweepPlan& plan, std::uint64_t index) {
  SweepPoint pt;
  pt.index = index;
  pt.coords = plan.coords(index);
  ojson p = ojson::object();
  add_workload(p, plan.workloads()[pt.coords.workload], plan.has_requests());
  p["quant"] = plan.quants()[pt.coords.quant].name;
  add_arch(p, plan.arch_variant(pt.coords.arch));
  p["dataflow"] = mapping::to_string(plan.dataflows()[pt.coords.dataflow]);
  p["tiling"] = plan.tilings()[pt.coords.tiling].text;
  pt.params = std::move(p);
  pt.id = point_id(pt.params);
  return pt;
}

std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::string point_id(const nlohmann::ordered_json& params) {
  return fmt::format("{:016x}", fnv1a64(params.dump()));
}

}  // namespace tenet::sweep
