// Rendering of one evaluation as `tenet analyze` prints it (docs/output.md): the relation-centric
// report, and for a GEMM the hardware model's and the quantization's keys.
#include "report/evaluation_report.hpp"

#include <fmt/core.h>

#include <map>

#include "arch/plausibility.hpp"
#include "detail/exact.hpp"
#include "hw/bounds_format.hpp"
#include "hw/format.hpp"
#include "quant/quant_hw_format.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/bounds.hpp"
#include "tenet/quant/apply.hpp"
#include "tenet/quant/quant_costs.hpp"
#include "tenet/quant/quant_json.hpp"

namespace tenet::report {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

// Exact counts: JSON numbers when they fit 64 bits, decimal strings beyond (docs/output.md); the
// TENET-timing counts are exact integers of any size.
json exact(const poly::Integer& v) { return ::tenet::detail::exact_json<json>(v); }

std::string with_commas(const poly::Integer& v) {
  const std::string digits = poly::Integer(abs(v)).get_str();
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

json tenet_quant_keys(const quant::QuantSpec& spec, const quant::QuantCosts& c) {
  const quant::QuantOps& ops = c.ops;
  json keys = json::object();
  keys["quant"] = {{"scheme", spec.name},
                   {"mac_precision",
                    {{"a", quant::to_string(c.mac.a)},
                     {"b", quant::to_string(c.mac.b)},
                     {"accumulate", quant::to_string(c.mac.accumulate)}}},
                   {"effective_bits_per_weight", c.effective_bits_per_weight.get_d()},
                   {"weight_bytes", exact(c.weight_bytes)}};
  const bool dequantizes = quant::dequantizes(spec);
  keys["dequant"] = {{"ops", exact(ops.dequant)},
                     {"cycles", c.dequant_cycles ? exact(*c.dequant_cycles) : json(0)},
                     {"elements", exact(ops.dequant_elements)},
                     {"ops_per_element", ops.dequant_ops_per_element},
                     {"placement", quant::to_string(dequantizes ? spec.dequant.placement
                                                                : quant::DequantPlacement::kNone)}};
  keys["epilogue"] = {{"ops", exact(ops.epilogue)}};
  keys["rescale"] = {{"ops", exact(ops.rescale)}};
  keys["zero_sums"] = {{"ops", exact(ops.zero_sums)}};
  keys["quantize"] = {{"activation_ops", exact(ops.activation_quant)},
                      {"output_ops", exact(ops.output_quant)}};
  keys["tensors"] = json::object();
  for (const quant::TensorStorage& t : c.tensors)
    keys["tensors"][t.name] = {{"bits", t.bits},
                               {"storage_bits", t.word_bits},
                               {"elements", exact(t.elements)},
                               {"words", exact(t.words)},
                               {"storage_bytes", exact(t.bytes())}};
  return keys;
}

std::string tenet_quant_table(const quant::QuantSpec& spec, const quant::QuantCosts& c) {
  const quant::QuantOps& ops = c.ops;
  std::string out = fmt::format(
      "Quantization {} (TENET timing: no hardware model; dequant work counts each weight once)\n",
      spec.name);
  out += fmt::format("  MACs                 {} x {} -> {}\n", quant::to_string(c.mac.a),
                     quant::to_string(c.mac.b), quant::to_string(c.mac.accumulate));
  out += fmt::format("  bits per weight      {:.4g} bits (weights + scales/zeros: {} bytes)\n",
                     c.effective_bits_per_weight.get_d(), with_commas(c.weight_bytes));
  out += fmt::format("  dequant              {} ops ({} elements x {} ops), {} cycles\n",
                     with_commas(ops.dequant), with_commas(ops.dequant_elements),
                     ops.dequant_ops_per_element,
                     c.dequant_cycles ? with_commas(*c.dequant_cycles) : std::string("0"));
  out += fmt::format("  epilogue / rescale   {} / {} ops\n", with_commas(ops.epilogue),
                     with_commas(ops.rescale));
  out += fmt::format("  quantize A / C       {} / {} ops\n", with_commas(ops.activation_quant),
                     with_commas(ops.output_quant));
  out += "  tensor storage (bits per value, word bits, elements, words, bytes):\n";
  for (const quant::TensorStorage& t : c.tensors)
    out += fmt::format("    {:<9} {:>3} {:>3} {:>16} {:>16} {:>16}\n", t.name, t.bits, t.word_bits,
                       with_commas(t.elements), with_commas(t.words), with_commas(t.bytes()));
  return out;
}

std::string unit_of(const std::string& path, const std::string& leaf) {
  if (path.rfind("energy_pj", 0) == 0 || leaf == "energy_pj") return "pJ";
  if (path.rfind("cycles", 0) == 0 || path.rfind("busy_cycles", 0) == 0 || leaf == "cycles" ||
      leaf == "cycles_per_mac" || leaf == "latency_cycles")
    return "cycles";
  if (leaf.find("bytes") != std::string::npos || path.rfind("bytes", 0) == 0) return "bytes";
  static const std::map<std::string, std::string> units{
      {"sram_reads", "elements"},
      {"sram_writes", "elements"},
      {"sram_array_reads", "elements"},
      {"sram_array_writes", "elements"},
      {"dram_reads", "elements"},
      {"dram_writes", "elements"},
      {"register_reads", "elements"},
      {"register_writes", "elements"},
      {"elements", "elements"},
      {"words", "words"},
      {"bits", "bits per value"},
      {"storage_bits", "bits per element as stored"},
      {"utilization", "0-1"},
      {"mapping_efficiency", "0-1"},
      {"seconds", "s"},
      {"macs", "MACs"},
      {"folds", "folds"},
      {"tiles", "tiles"},
      {"ops", "ops"},
      {"activation_ops", "ops"},
      {"output_ops", "ops"},
      {"ops_per_element", "ops per element"},
      {"macs_per_cycle_per_pe", "MACs/cycle"},
      {"effective_bits_per_weight", "bits per weight"},
      {"rows", "PEs"},
      {"cols", "PEs"},
      {"rows_used", "PEs"},
      {"cols_used", "PEs"},
      {"row_share", "0-1"},
      {"col_share", "0-1"},
      {"compute_share", "0-1"},
      {"pipeline_share", "0-1"},
      {"stream_cycles", "cycles"},
      {"fold_overhead_cycles", "cycles"}};
  const auto it = units.find(leaf);
  return it == units.end() ? "" : it->second;
}

using ::tenet::detail::csv_field;

void flatten(const json& v, const std::string& section, const std::string& name,
             const std::string& path, std::string& out) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      flatten(it.value(), section, name, path.empty() ? it.key() : path + "." + it.key(), out);
    return;
  }
  const std::string leaf = path.substr(path.find_last_of('.') + 1);
  out += csv_field(section) + "," + csv_field(name) + "," + csv_field(path) + "," +
         csv_field(::tenet::detail::cell_text(v)) + "," + csv_field(unit_of(path, leaf)) + "\n";
}

}  // namespace

void rename_quant_tensors(analysis::Report& report, const workload::Workload& workload) {
  std::map<std::string, std::string> names;
  for (const workload::Access& a : workload.accesses()) names[a.tensor] = quant::report_name(a);
  for (analysis::TensorMetrics& t : report.tensors) {
    const auto it = names.find(t.name);
    if (it != names.end()) t.name = it->second;
  }
}

HardwareReport hardware_report(const eval::Evaluation& e, const eval::Request& request) {
  HardwareReport r;
  r.keys["tensors"] = json::object();
  if (!e.is_systolic()) {
    const std::optional<quant::QuantCosts>& counts = e.tenet().quant_counts;
    if (!counts) return r;
    r.keys = tenet_quant_keys(e.scheme->spec, *counts);
    r.table = tenet_quant_table(e.scheme->spec, *counts);
    return r;
  }
  const quant::ProductResult& product = e.product();
  quant::merge_into(r.keys, product);
  r.table = hw::format_table(product.hw) + quant::format_table(product);
  if (!request.tiling) r.keys["tiling_objective"] = hw::to_string(request.tiling_objective);
  const llm::LayerCost& c = e.call_cost();
  r.keys["bounds"] = json::parse(hw::bounds_json(*c.bounds, c.cycles, c.dram_bytes).dump());
  r.table += hw::bounds_line(*c.bounds, c.cycles, c.dram_bytes);
  if (!c.array_note.empty())
    r.table += "note: " + c.array_note +
               " (the mapping under-uses the array; its MAC rate is not the limit)\n";
  return r;
}

void merge_keys(ojson& report, const json& extra) {
  for (auto it = extra.begin(); it != extra.end(); ++it) {
    if (it.key() != "tensors") {
      report[it.key()] = ojson::parse(it.value().dump());
      continue;
    }
    for (auto t = it.value().begin(); t != it.value().end(); ++t) {
      ojson& entry = report["tensors"][t.key()];
      for (auto f = t.value().begin(); f != t.value().end(); ++f)
        if (!entry.contains(f.key())) entry[f.key()] = ojson::parse(f.value().dump());
    }
  }
}

std::string keys_to_csv_rows(const json& extra) {
  std::string out;
  for (auto it = extra.begin(); it != extra.end(); ++it) {
    if (it.key() == "tensors") {
      for (auto t = it.value().begin(); t != it.value().end(); ++t)
        flatten(t.value(), "tensor", t.key(), "", out);
      continue;
    }
    flatten(it.value(), "hardware", "", it.key(), out);
  }
  return out;
}

std::string render_evaluation(const eval::Evaluation& e, const eval::Request& request,
                              ReportFormat format) {
  const eval::RelationCentric& relations = e.relations();
  analysis::Report report = relations.report;
  HardwareReport hardware;
  if (!request.problem) {
    if (e.scheme) rename_quant_tensors(report, relations.analyzed.workload);
    hardware = hardware_report(e, request);
  }
  const AnalysisEcho context{&relations.analyzed, &request.analysis};
  switch (format) {
    case ReportFormat::kJson: {
      ojson j = report_to_json(report, context);
      merge_keys(j, hardware.keys);
      if (request.accelerator) j["warnings"] = arch::implausible_values(*request.accelerator);
      return j.dump(2) + "\n";
    }
    case ReportFormat::kCsv:
      return report_to_csv(report) + keys_to_csv_rows(hardware.keys);
    case ReportFormat::kTable:
      break;
  }
  const std::string table = report_to_table(report, context);
  return hardware.table.empty() ? table : table + "\n" + hardware.table;
}

nlohmann::json comparison_json(const std::vector<eval::Evaluation>& schemes,
                               const std::vector<quant::UncostedScheme>& uncosted) {
  std::vector<quant::ProductResult> results;
  for (const eval::Evaluation& e : schemes) results.push_back(e.product());
  json doc = quant::comparison_json(results, uncosted);
  std::size_t next = 0;  // the costed rows, in order
  for (json& row : doc["schemes"]) {
    if (!row["unsupported"].is_null()) continue;
    const llm::LayerCost& c = schemes.at(next++).call_cost();
    row["bounds"] = json::parse(hw::bounds_json(*c.bounds, c.cycles, c.dram_bytes).dump());
  }
  return doc;
}

std::string render_comparison(const std::vector<eval::Evaluation>& schemes, ReportFormat format,
                              const std::vector<quant::UncostedScheme>& uncosted,
                              const std::vector<std::string>& warnings) {
  if (format == ReportFormat::kJson) {
    json doc = comparison_json(schemes, uncosted);
    doc["warnings"] = warnings;
    return doc.dump(2) + "\n";
  }
  if (format == ReportFormat::kCsv)
    throw InputError(error_code::kUnknownName, "", "format",
                     "a comparison renders as table or json, not csv");
  std::vector<quant::ProductResult> results;
  std::string bounds;
  for (const eval::Evaluation& e : schemes) {
    const llm::LayerCost& c = e.call_cost();
    results.push_back(e.product());
    bounds += e.product().scheme + ": " + hw::bounds_line(*c.bounds, c.cycles, c.dram_bytes);
  }
  return quant::format_comparison(results, uncosted) + bounds;
}

}  // namespace tenet::report
