#include "quant/quant_hw_format.hpp"

#include <fmt/format.h>

#include "hw/format.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/gemm_problem.hpp"

namespace tenet::quant {
namespace {

using nlohmann::json;

long long as_ll(const poly::Integer& v) { return poly::to_int64(v); }

std::string with_commas(long long v) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

json energy_json(const QuantEnergy& e) {
  return {{"total", e.total()},     {"mac", e.mac},         {"register_file", e.register_file},
          {"sram", e.sram},         {"dram", e.dram},       {"dequant", e.dequant},
          {"epilogue", e.epilogue}, {"rescale", e.rescale}, {"zero_sums", e.zero_sums},
          {"quantize", e.quantize}};
}

json tensor_fields(const ProductResult& r, const TensorTraffic& t) {
  const TensorStorage& s = r.counts().tensor(t.name);
  return {{"bits", t.bits},
          {"storage_bits", t.storage_bits},
          {"elements", as_ll(s.elements)},
          {"words", as_ll(s.words)},
          {"dram_bytes", t.dram_bytes},
          {"sram_bytes", t.sram_bytes},
          {"register_file_bytes", t.register_file_bytes},
          {"dram_waste_bytes", t.dram_waste_bytes},
          {"sram_waste_bytes", t.sram_waste_bytes}};
}

json quant_summary(const ProductResult& r) {
  const QuantCosts& c = r.counts();
  const MacPrecision& m = c.mac;
  return {{"scheme", r.scheme},
          {"mac_precision",
           {{"a", to_string(m.a)}, {"b", to_string(m.b)}, {"accumulate", to_string(m.accumulate)}}},
          {"effective_bits_per_weight", c.effective_bits_per_weight.get_d()},
          {"weight_bytes", as_ll(c.weight_bytes)}};
}

double ratio(double a, double b) { return b == 0 ? 0 : a / b; }

}  // namespace

std::string array_use_note(const ProductResult& r) {
  return hw::array_use_note(r.hw.array_use, r.hw.rows, r.hw.cols, r.bound);
}

json precision_fallback_json(const std::optional<PrecisionFallback>& f) {
  if (!f) return nullptr;
  return {{"requested", to_string(f->requested)}, {"used", to_string(f->used)}};
}

void merge_into(json& report, const ProductResult& r) {
  hw::merge_into(report, r.hw);
  report["bound"] = hw::to_string(r.bound);
  const std::string note = array_use_note(r);  // under the product's bound
  report["array_use"]["note"] = note.empty() ? json() : json(note);
  if (!r.costs) return;  // the identity scheme: the hardware model's keys
  const QuantOps& ops = r.costs->ops;
  report["cycles"]["total"] = r.total_cycles;
  report["cycles"]["array_total"] = r.hw.cycles.total;
  report["cycles"]["dequant"] = r.dequant_cycles;
  report["busy_cycles"]["dequant"] = r.dequant_cycles;
  report["quant"] = quant_summary(r);
  report["precision_fallback"] = precision_fallback_json(precision_fallback(r));
  report["dequant"] = {{"ops", as_ll(ops.dequant)},
                       {"cycles", r.dequant_cycles},
                       {"elements", as_ll(ops.dequant_elements)},
                       {"ops_per_element", ops.dequant_ops_per_element},
                       {"placement", to_string(r.placement)}};
  report["epilogue"] = {{"ops", as_ll(ops.epilogue)}};
  report["rescale"] = {{"ops", as_ll(ops.rescale)}};
  report["zero_sums"] = {{"ops", as_ll(ops.zero_sums)}};
  report["quantize"] = {{"activation_ops", as_ll(ops.activation_quant)},
                        {"output_ops", as_ll(ops.output_quant)}};
  report["bytes"] = {{"dram", as_ll(r.dram_bytes)},
                     {"sram", as_ll(r.sram_bytes)},
                     {"register_file", as_ll(r.register_file_bytes)}};
  report["dram_bytes"] = as_ll(r.dram_bytes);
  report["energy_pj"] = energy_json(r.energy);
  for (const TensorTraffic& t : r.traffic) {
    const json fields = tensor_fields(r, t);
    for (auto f = fields.begin(); f != fields.end(); ++f)
      report["tensors"][t.name][f.key()] = f.value();
  }
}

json to_json(const ProductResult& r) {
  json report = json::object();
  merge_into(report, r);
  return report;
}

std::string format_table(const ProductResult& r) {
  if (!r.costs) return "";  // the identity scheme: hw::format_table(r.hw) says it all
  const QuantCosts& c = *r.costs;
  const QuantOps& ops = c.ops;
  std::string out = fmt::format("quantization {}: MACs {} x {} -> {}, {} bits per weight\n",
                                r.scheme, to_string(c.mac.a), to_string(c.mac.b),
                                to_string(c.mac.accumulate), c.effective_bits_per_weight.get_d());
  if (const auto f = precision_fallback(r))
    out += "  note: precision fallback, " + to_string(*f) + "\n";
  out += fmt::format("  cycles total        {:>22} cycles (array {}, dequant unit {})\n",
                     with_commas(r.total_cycles), with_commas(r.hw.cycles.total),
                     with_commas(r.dequant_cycles));
  out += fmt::format(
      "  bound by            {:>22} (busy: compute {}, SRAM {}, DRAM {}, dequant {} "
      "cycles)\n",
      hw::to_string(r.bound), with_commas(r.hw.busy.compute), with_commas(r.hw.busy.sram),
      with_commas(r.hw.busy.dram), with_commas(r.dequant_cycles));
  out += fmt::format("  dequant             {:>22} ops ({} elements x {} ops)\n",
                     with_commas(as_ll(ops.dequant)), with_commas(as_ll(ops.dequant_elements)),
                     ops.dequant_ops_per_element);
  out += fmt::format("  epilogue / rescale  {:>22} ops\n",
                     with_commas(as_ll(ops.epilogue)) + " / " + with_commas(as_ll(ops.rescale)));
  out += fmt::format(
      "  quantize A / C      {:>22} ops\n",
      with_commas(as_ll(ops.activation_quant)) + " / " + with_commas(as_ll(ops.output_quant)));
  out += fmt::format("  bytes DRAM / SRAM / RF {:>19} bytes\n",
                     with_commas(as_ll(r.dram_bytes)) + " / " + with_commas(as_ll(r.sram_bytes)) +
                         " / " + with_commas(as_ll(r.register_file_bytes)));
  const QuantEnergy& e = r.energy;
  out += fmt::format(
      "  energy total        {:>22.6g} pJ (MAC {:.6g}, RF {:.6g}, SRAM {:.6g}, DRAM "
      "{:.6g}, dequant {:.6g}, epilogue {:.6g}, rescale {:.6g}, quantize {:.6g})\n",
      e.total(), e.mac, e.register_file, e.sram, e.dram, e.dequant, e.epilogue, e.rescale,
      e.quantize + e.zero_sums);
  out += fmt::format("  {:<9} {:>5} {:>7} {:>16} {:>16} {:>16} {:>14}\n", "tensor", "bits",
                     "stored", "DRAM bytes", "SRAM bytes", "RF bytes", "DRAM waste");
  for (const TensorTraffic& t : r.traffic)
    out += fmt::format("  {:<9} {:>5} {:>7} {:>16} {:>16} {:>16} {:>14}\n", t.name, t.bits,
                       t.storage_bits, with_commas(t.dram_bytes), with_commas(t.sram_bytes),
                       with_commas(t.register_file_bytes), with_commas(t.dram_waste_bytes));
  return out;
}

json comparison_json(const std::vector<ProductResult>& results,
                     const std::vector<UncostedScheme>& uncosted) {
  json rows = json::array();
  for (const ProductResult& r : results) {
    const ProductResult& first = results.front();
    rows.push_back({{"scheme", r.scheme},
                    {"unsupported", nullptr},
                    {"cycles", r.total_cycles},
                    {"bound", hw::to_string(r.bound)},
                    {"bytes",
                     {{"dram", as_ll(r.dram_bytes)},
                      {"sram", as_ll(r.sram_bytes)},
                      {"register_file", as_ll(r.register_file_bytes)}}},
                    {"energy_pj", r.energy.total()},
                    {"speedup", ratio(static_cast<double>(first.total_cycles),
                                      static_cast<double>(r.total_cycles))},
                    {"energy_ratio", ratio(r.energy.total(), first.energy.total())},
                    {"precision_fallback", precision_fallback_json(precision_fallback(r))},
                    {"report", to_json(r)}});
  }
  for (const UncostedScheme& u : uncosted) {  // in order of position: each lands at its place
    const std::size_t at = std::min(u.position, rows.size());
    rows.insert(rows.begin() + static_cast<std::ptrdiff_t>(at),
                json{{"scheme", u.scheme}, {"unsupported", u.reason}});
  }
  return {{"schemes", rows}};
}

std::string format_comparison(const std::vector<ProductResult>& results,
                              const std::vector<UncostedScheme>& uncosted) {
  if (results.empty()) return "";
  const ProductResult& first = results.front();
  std::string out = fmt::format(
      "GEMM {}x{}x{} on {} ({}x{}), dataflow {}, tiling of the first scheme {}\n", first.hw.shape.m,
      first.hw.shape.n, first.hw.shape.k, first.hw.accelerator, first.hw.rows, first.hw.cols,
      mapping::to_string(first.hw.dataflow), mapping::to_string(first.hw.tiling));
  out += fmt::format("{:<28} {:>14} {:>8} {:>15} {:>15} {:>15} {:>13} {:>9} {:>8}\n", "scheme",
                     "cycles", "bound", "DRAM bytes", "SRAM bytes", "RF bytes", "energy pJ",
                     "speed-up", "energy");
  std::vector<std::string> rows;
  for (const ProductResult& r : results)
    rows.push_back(fmt::format(
        "{:<28} {:>14} {:>8} {:>15} {:>15} {:>15} {:>13.4g} {:>8.3f}x {:>7.3f}x\n", r.scheme,
        with_commas(r.total_cycles), hw::to_string(r.bound), with_commas(as_ll(r.dram_bytes)),
        with_commas(as_ll(r.sram_bytes)), with_commas(as_ll(r.register_file_bytes)),
        r.energy.total(),
        ratio(static_cast<double>(first.total_cycles), static_cast<double>(r.total_cycles)),
        ratio(r.energy.total(), first.energy.total())));
  for (const UncostedScheme& u : uncosted)
    rows.insert(rows.begin() + static_cast<std::ptrdiff_t>(std::min(u.position, rows.size())),
                fmt::format("{:<28} unsupported: {}\n", u.scheme, u.reason));
  for (const std::string& row : rows) out += row;
  out +=
      "cycles: latency in cycles (array incl. stalls, or the dequant unit if longer); speed-up "
      "and energy relative to the first costed scheme\n";
  for (const ProductResult& r : results)
    if (const auto f = precision_fallback(r))
      out += "note: " + r.scheme + " runs with a precision fallback, " + to_string(*f) + "\n";
  for (const ProductResult& r : results) {
    const std::string note = array_use_note(r);
    if (!note.empty())
      out += "note: " + r.scheme + ": " + note +
             " (the mapping under-uses the array; its MAC rate is not the limit)\n";
  }
  return out;
}

}  // namespace tenet::quant
