#include "hw/format.hpp"

#include <fmt/format.h>

#include "tenet/hw/gemm_problem.hpp"

namespace tenet::hw {
namespace {

using nlohmann::json;

json tensor_json(const TensorResult& t) {
  return {{"role", role_key(t.role)},
          {"bits", t.bits},
          {"output", t.output},
          {"stationary", t.stationary},
          {"resident", t.resident},
          {"footprint_bytes", t.footprint_bytes},
          {"register_reads", t.register_reads},
          {"register_writes", t.register_writes},
          {"sram_reads", t.sram_reads},
          {"sram_writes", t.sram_writes},
          {"sram_array_reads", t.sram_array_reads},
          {"sram_array_writes", t.sram_array_writes},
          {"dram_reads", t.dram_reads},
          {"dram_writes", t.dram_writes},
          {"dram_bytes", t.dram_bytes},
          {"energy_pj",
           {{"register_file", t.energy_pj.register_file},
            {"sram", t.energy_pj.sram},
            {"dram", t.energy_pj.dram},
            {"total", t.energy_pj.total}}}};
}

std::string with_commas(long long v) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

}  // namespace

json to_json(const Result& r) {
  json tensors = json::object();
  for (const TensorResult& t : r.tensors) tensors[t.name] = tensor_json(t);
  return {
      {"cycles",
       {{"total", r.cycles.total},
        {"compute", r.cycles.compute},
        {"last_write_index", r.cycles.last_write_index},
        {"stall", r.cycles.stall},
        {"stall_sram", r.cycles.stall_sram},
        {"stall_dram", r.cycles.stall_dram},
        {"edge_fill", r.cycles.edge_fill}}},
      {"busy_cycles", {{"compute", r.busy.compute}, {"sram", r.busy.sram}, {"dram", r.busy.dram}}},
      {"bound", to_string(r.bound)},
      {"utilization", r.utilization},
      {"mapping_efficiency", r.mapping_efficiency},
      {"array_use", json::parse(array_use_json(r.array_use, r.rows, r.cols,
                                               array_use_note(r.array_use, r.rows, r.cols, r.bound))
                                    .dump())},
      {"seconds", r.seconds},
      {"accelerator", r.accelerator},
      {"array", {{"rows", r.rows}, {"cols", r.cols}}},
      {"dataflow", mapping::to_string(r.dataflow)},
      {"gemm",
       {{"m", r.shape.m}, {"n", r.shape.n}, {"k", r.shape.k}, {"accumulate", r.accumulate}}},
      {"tiling", mapping::to_string(r.tiling)},
      {"precision", workload::to_string(r.precision)},
      {"macs_per_cycle_per_pe", r.macs_per_cycle},
      {"cycles_per_mac", r.cycles_per_mac},
      {"macs", r.macs},
      {"folds", r.folds},
      {"tiles", r.tiles},
      {"dram_bytes", r.dram_bytes},
      {"energy_pj",
       {{"total", r.energy_pj.total},
        {"mac", r.energy_pj.mac},
        {"register_file", r.energy_pj.register_file},
        {"sram", r.energy_pj.sram},
        {"dram", r.energy_pj.dram}}},
      {"tensors", tensors}};
}

void merge_into(json& report, const Result& r) {
  json mine = to_json(r);
  json tensors = mine["tensors"];
  mine.erase("tensors");
  for (auto it = mine.begin(); it != mine.end(); ++it) report[it.key()] = it.value();
  for (auto it = tensors.begin(); it != tensors.end(); ++it)
    for (auto f = it.value().begin(); f != it.value().end(); ++f)
      if (!report["tensors"][it.key()].contains(f.key()))
        report["tensors"][it.key()][f.key()] = f.value();
}

nlohmann::ordered_json array_use_json(const ArrayUse& u, long long rows, long long cols,
                                      const std::string& note) {
  return {{"rows", rows},
          {"cols", cols},
          {"rows_used", u.rows_used},
          {"cols_used", u.cols_used},
          {"row_dim", dimension_name(u.row_dim)},
          {"col_dim", dimension_name(u.col_dim)},
          {"stream_dim", dimension_name(u.stream_dim)},
          {"row_share", u.row_share},
          {"col_share", u.col_share},
          {"compute_share", u.compute_share},
          {"pipeline_share", u.pipeline_share},
          {"stream_cycles", u.stream_cycles},
          {"fold_overhead_cycles", u.fold_overhead_cycles},
          {"note", note.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(note)}};
}

std::string array_use_text(const ArrayUse& u, long long rows, long long cols) {
  return fmt::format("{} of {} rows ({}), {} of {} columns ({}) busy, {} streams", u.rows_used,
                     rows, dimension_name(u.row_dim), u.cols_used, cols, dimension_name(u.col_dim),
                     dimension_name(u.stream_dim));
}

std::string format_table(const Result& r) {
  std::string out = fmt::format(
      "hardware model: {} ({}x{} PEs), dataflow {}, GEMM {}x{}x{}, tiling {}, {} "
      "({} MAC/cycle, {} cycle/MAC per PE)\n",
      r.accelerator, r.rows, r.cols, mapping::to_string(r.dataflow), r.shape.m, r.shape.n,
      r.shape.k, mapping::to_string(r.tiling), workload::to_string(r.precision), r.macs_per_cycle,
      r.cycles_per_mac);
  out += fmt::format("  cycles total        {:>22} cycles\n", with_commas(r.cycles.total));
  out += fmt::format("  cycles compute      {:>22} cycles\n", with_commas(r.cycles.compute));
  out += fmt::format("  cycles stall        {:>22} cycles (SRAM {}, DRAM {})\n",
                     with_commas(r.cycles.stall), with_commas(r.cycles.stall_sram),
                     with_commas(r.cycles.stall_dram));
  out += fmt::format("  time                {:>22.6g} s\n", r.seconds);
  out += fmt::format("  utilization         {:>22.4f} (0-1)\n", r.utilization);
  out += fmt::format("  mapping efficiency  {:>22.4f} (0-1)\n", r.mapping_efficiency);
  out += "  array use           " + array_use_text(r.array_use, r.rows, r.cols) + "\n";
  out += fmt::format("  bound by            {:>22} (busy: compute {}, SRAM {}, DRAM {} cycles)\n",
                     to_string(r.bound), with_commas(r.busy.compute), with_commas(r.busy.sram),
                     with_commas(r.busy.dram));
  out += fmt::format("  MACs                {:>22}\n", with_commas(r.macs));
  out += fmt::format("  folds / tiles       {:>22}\n",
                     with_commas(r.folds) + " / " + with_commas(r.tiles));
  out += fmt::format("  DRAM traffic        {:>22} bytes\n", with_commas(r.dram_bytes));
  out += fmt::format(
      "  energy total        {:>22.6g} pJ (MAC {:.6g}, RF {:.6g}, SRAM {:.6g}, "
      "DRAM {:.6g})\n",
      r.energy_pj.total, r.energy_pj.mac, r.energy_pj.register_file, r.energy_pj.sram,
      r.energy_pj.dram);
  out += fmt::format("  {:<6} {:>10} {:>4} {:>8} {:>16} {:>16} {:>16} {:>16} {:>16} {:>14}\n",
                     "tensor", "role", "bits", "resident", "SRAM reads", "SRAM writes",
                     "DRAM reads", "DRAM writes", "DRAM bytes", "energy pJ");
  out += fmt::format("  {:<6} {:>10} {:>4} {:>8} {:>16} {:>16} {:>16} {:>16} {:>16} {:>14}\n", "",
                     "", "", "", "(elements)", "(elements)", "(elements)", "(elements)", "(bytes)",
                     "(pJ)");
  for (const TensorResult& t : r.tensors)
    out += fmt::format("  {:<6} {:>10} {:>4} {:>8} {:>16} {:>16} {:>16} {:>16} {:>16} {:>14.6g}\n",
                       t.name, role_key(t.role), t.bits, t.resident ? "yes" : "no",
                       with_commas(t.sram_reads), with_commas(t.sram_writes),
                       with_commas(t.dram_reads), with_commas(t.dram_writes),
                       with_commas(t.dram_bytes), t.energy_pj.total);
  return out;
}

}  // namespace tenet::hw
