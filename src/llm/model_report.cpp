#include "llm/model_report.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "detail/exact.hpp"
#include "hw/bounds_format.hpp"
#include "hw/format.hpp"
#include "quant/quant_hw_format.hpp"
#include "tenet/error.hpp"

namespace tenet::llm {
namespace {

using ojson = nlohmann::ordered_json;

using ::tenet::detail::big;
using ::tenet::detail::exact_json;

double to_double(const Integer& v) { return v.get_d(); }

void check_cost(const LayerCost& c, const MatmulShape& s) {
  const bool ok = c.cycles >= 0 && c.dram_bytes >= 0 && c.sram_bytes >= 0 &&
                  std::isfinite(c.energy_pj) && c.energy_pj >= 0 && c.utilization >= 0 &&
                  c.utilization <= 1;
  if (!ok) {
    std::ostringstream text;
    text << "the layer evaluator returned an impossible cost for " << s << ": " << c;
    throw InternalError(text.str());
  }
}

LayerCost times(const LayerCost& c, std::int64_t count) {
  LayerCost t = c;
  t.cycles *= big(count);
  t.dram_bytes *= big(count);
  t.sram_bytes *= big(count);
  t.energy_pj *= static_cast<double>(count);
  if (t.bounds) t.bounds = t.bounds->times(big(count));
  return t;
}

void add_to_scheme(const LayerReport& layer, std::vector<SchemeTotals>& by_scheme) {
  auto it = std::find_if(by_scheme.begin(), by_scheme.end(),
                         [&](const SchemeTotals& s) { return s.scheme == layer.total.scheme; });
  if (it == by_scheme.end()) {
    by_scheme.push_back({layer.total.scheme, {}, {}, {}, {}, {}, 0, 0});
    it = by_scheme.end() - 1;
  }
  it->calls += big(layer.shape.count);
  it->macs += layer.shape.macs();
  it->cycles += layer.total.cycles;
  it->dram_bytes += layer.total.dram_bytes;
  it->sram_bytes += layer.total.sram_bytes;
  it->energy_pj += layer.total.energy_pj;
}

void add_to_totals(const LayerReport& layer, ReportTotals& t, double& weighted_utilization) {
  add_to_scheme(layer, t.by_scheme);
  t.calls += big(layer.shape.count);
  t.macs += layer.shape.macs();
  t.cycles += layer.total.cycles;
  t.dram_bytes += layer.total.dram_bytes;
  t.sram_bytes += layer.total.sram_bytes;
  t.energy_pj += layer.total.energy_pj;
  if (layer.total.bounds) {
    if (!t.bounds) t.bounds = hw::BoundsSum{};
    *t.bounds += *layer.total.bounds;
  }
  weighted_utilization += layer.per_call.utilization * to_double(layer.total.cycles);
}

// A pass runs its entries in order, each `count` times, over and over (layer after layer): a
// call of entry i follows a call of entry i-1 (entry 0 follows the last), except the pass's
// very first call. Each call may hide its first DRAM fill in its predecessor's idle link cycles;
// a predecessor's idle cycles serve one successor, so min(count_i, count_prev) pairs of calls
// (one fewer for entry 0) hide min(fill, idle) each. The hidden cycles never exceed the link's
// idle cycles: the total stays >= the DRAM bytes / bandwidth.
Integer prefetch_hidden_cycles(const std::vector<LayerReport>& layers) {
  Integer hidden;
  const std::size_t n = layers.size();
  for (std::size_t i = 0; i < n; ++i) {
    const LayerReport& now = layers[i];
    const LayerReport& prev = layers[(i + n - 1) % n];
    std::int64_t pairs = std::min(now.shape.count, prev.shape.count);
    if (i == 0) pairs = std::min(pairs, now.shape.count - 1);
    if (pairs <= 0) continue;
    const Integer& fill = now.per_call.prefetchable_cycles;
    const Integer& idle = prev.per_call.link_idle_cycles;
    hidden += big(pairs) * (fill < idle ? fill : idle);
  }
  return hidden;
}

// ---- shared pieces of the renderings ---------------------------------------------------------

ojson shape_json(const MatmulShape& s) {
  ojson j = {{"name", s.name},
             {"phase", to_string(s.phase)},
             {"batch", s.batch},
             {"M", s.m},
             {"N", s.n},
             {"K", s.k},
             {"count", s.count},
             {"layout", to_string(s.layout)},
             {"b_operand", to_string(s.b_operand)},
             {"epilogue_ops", s.epilogue_ops},
             {"macs", exact_json(s.macs())}};
  if (s.weights_quantized) j["weights_quantized"] = *s.weights_quantized;
  if (!s.quant.empty()) j["quant"] = s.quant;
  if (s.fused_attention)  // the `tenet kernel --attention HQ,HKV,Q,KV,D` the row is
    j["fused"] = {{"kind", "attention"},
                  {"hq", s.batch * s.fused_attention->heads},
                  {"hkv", s.batch * s.fused_attention->kv_heads},
                  {"q", s.m},
                  {"kv", s.n},
                  {"d", s.k},
                  {"causal", s.fused_attention->causal},
                  {"window", s.fused_attention->window},
                  {"scores", "on_chip"}};
  if (s.fused_ffn)  // the `tenet kernel --ffn S,H,I` the row is
    j["fused"] = {{"kind", "ffn"},
                  {"s", s.m},
                  {"h", s.k},
                  {"i", s.n},
                  {"activation", s.fused_ffn->gated ? "silu_gated" : "gelu"},
                  {"bias", s.fused_ffn->bias}};
  const DataTypes& d = s.dtypes;
  for (const auto& [key, value] :
       {std::pair{"in_dtype", &d.in}, std::pair{"w_dtype", &d.w}, std::pair{"out_dtype", &d.out},
        std::pair{"accum_dtype", &d.accum}}) {
    if (!value->empty()) j[key] = *value;
  }
  return j;
}

using ::tenet::detail::csv_field;

using ::tenet::detail::cell_text;

// A text table: column titles, rows of cells, the first column left-aligned, others right.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> titles) : rows_{std::move(titles)} {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void rule() { rules_.push_back(rows_.size()); }
  std::string render() const {
    std::vector<std::size_t> width(rows_.front().size(), 0);
    for (const auto& row : rows_)
      for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    std::string out;
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      if (std::find(rules_.begin(), rules_.end(), r) != rules_.end()) out += rule_line(width);
      out += row_line(rows_[r], width);
      if (r == 0) out += rule_line(width);
    }
    return out;
  }

 private:
  static std::string row_line(const std::vector<std::string>& row,
                              const std::vector<std::size_t>& w) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string pad(w[i] - row[i].size(), ' ');
      line += i == 0 ? row[i] + pad : "  " + pad + row[i];
    }
    return line.erase(line.find_last_not_of(' ') + 1) + "\n";
  }
  static std::string rule_line(const std::vector<std::size_t>& w) {
    std::size_t total = 0;
    for (std::size_t x : w) total += x + 2;
    return std::string(total - 2, '-') + "\n";
  }
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::size_t> rules_;
};

// Integers with thousands separators (parameter counts read better so).
std::string grouped(const ojson& v) {
  if (!v.is_number_integer() &&
      !(v.is_string() && !v.get<std::string>().empty() &&
        v.get<std::string>().find_first_not_of("0123456789") == std::string::npos)) {
    return cell_text(v);
  }
  const std::string digits = cell_text(v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
    out += digits[i];
  }
  return out;
}

std::string inputs_lines(const std::string& source, const ojson& inputs, const ojson& summary,
                         const std::vector<std::string>& assumptions) {
  std::string out = "source: " + source + "\n";
  for (const auto& [key, value] : inputs.items()) out += key + ": " + cell_text(value) + "\n";
  for (const auto& [key, value] : summary.items()) out += key + ": " + grouped(value) + "\n";
  for (const std::string& a : assumptions) out += "warning: " + a + "\n";
  return out;
}

void add_summary(ojson& doc, const ojson& summary, const std::vector<std::string>& assumptions) {
  if (summary.empty()) return;
  doc["summary"] = summary;
  doc["assumptions"] = assumptions;
}

std::vector<std::string> shape_cells(const MatmulShape& s) {
  return {s.name,
          s.phase == Phase::kUnspecified ? "-" : to_string(s.phase),
          std::to_string(s.batch),
          std::to_string(s.m),
          std::to_string(s.n),
          std::to_string(s.k),
          std::to_string(s.count),
          to_string(s.layout),
          to_string(s.b_operand)};
}

const std::vector<std::string> kShapeTitles = {"layer", "phase", "batch",  "M", "N",
                                               "K",     "count", "layout", "B"};

std::string energy_uj(double pj) { return fmt::format("{:.3f}", pj * 1e-6); }
std::string percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100); }

std::string seconds_text(double s) {
  if (s >= 1) return fmt::format("{:.3f} s", s);
  if (s >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  return fmt::format("{:.3f} us", s * 1e6);
}

// ---- cost report renderings ------------------------------------------------------------------

// "note: ..." lines for the rows whose MACs are not of their precision, one per distinct fallback.
std::string fallback_notes(const ModelReport& r) {
  std::vector<std::pair<std::string, std::int64_t>> notes;  // text, rows
  for (const LayerReport& l : r.layers) {
    if (!l.total.precision_fallback) continue;
    const std::string text = (l.total.scheme.empty() ? "" : l.total.scheme + ": ") +
                             quant::to_string(*l.total.precision_fallback);
    auto it =
        std::find_if(notes.begin(), notes.end(), [&](const auto& n) { return n.first == text; });
    if (it == notes.end())
      notes.emplace_back(text, 1);
    else
      ++it->second;
  }
  std::string out;
  for (const auto& [text, rows] : notes)
    out += fmt::format("note: precision fallback in {} row(s): {}\n", rows, text);
  return out;
}

// "1x32": the rows x columns of the array the call's folds occupy at most ("-" without the
// systolic model's view).
std::string busy_cell(const LayerCost& c) {
  if (!c.array_use) return "-";
  return std::to_string(c.array_use->rows_used) + "x" + std::to_string(c.array_use->cols_used);
}

}  // namespace

std::string array_notes(const std::vector<LayerReport>& layers) {
  std::vector<std::pair<std::string, std::vector<std::string>>> notes;  // text, rows
  for (const LayerReport& l : layers) {
    if (l.total.array_note.empty()) continue;
    const std::string text =
        (l.total.scheme.empty() ? "" : l.total.scheme + ": ") + l.total.array_note;
    auto it =
        std::find_if(notes.begin(), notes.end(), [&](const auto& n) { return n.first == text; });
    if (it == notes.end()) it = notes.insert(notes.end(), {text, {}});
    if (std::find(it->second.begin(), it->second.end(), l.shape.name) == it->second.end())
      it->second.push_back(l.shape.name);
  }
  std::string out;
  for (const auto& [text, rows] : notes) {
    std::string names;
    for (const std::string& n : rows) names += (names.empty() ? "" : ", ") + n;
    out += fmt::format(
        "note: {} — the mapping under-uses the array; its MAC rate is not the limit ({})\n", text,
        names);
  }
  return out;
}

namespace {

std::string report_table(const ModelReport& r) {
  const ReportTotals& t = r.totals;
  const bool mixed = t.by_scheme.size() > 1;  // rows show their scheme, totals per scheme
  std::vector<std::string> titles = kShapeTitles;
  if (mixed) titles.push_back("scheme");
  for (const char* title :
       {"cycles", "bound", "util", "PEs busy", "DRAM bytes", "SRAM bytes", "energy (uJ)"})
    titles.push_back(title);
  TextTable table(titles);
  for (const LayerReport& l : r.layers) {
    std::vector<std::string> row = shape_cells(l.shape);
    if (mixed) row.push_back(l.total.scheme);
    for (std::string cell :
         {l.total.cycles.get_str(), l.total.bound, percent(l.total.utilization), busy_cell(l.total),
          l.total.dram_bytes.get_str(), l.total.sram_bytes.get_str(), energy_uj(l.total.energy_pj)})
      row.push_back(cell);
    table.add(row);
  }
  table.rule();
  if (mixed) {
    for (const SchemeTotals& s : t.by_scheme)
      table.add({"total " + s.scheme, "", "", "", "", "", s.calls.get_str(), "", "", s.scheme,
                 s.cycles.get_str(), "", "", "", s.dram_bytes.get_str(), s.sram_bytes.get_str(),
                 energy_uj(s.energy_pj)});
    table.add({"total", "", "", "", "", "", t.calls.get_str(), "", "", "", t.cycles.get_str(), "",
               percent(t.utilization), "", t.dram_bytes.get_str(), t.sram_bytes.get_str(),
               energy_uj(t.energy_pj)});
  } else {
    table.add({"total", "", "", "", "", "", t.calls.get_str(), "", "", t.cycles.get_str(), "",
               percent(t.utilization), "", t.dram_bytes.get_str(), t.sram_bytes.get_str(),
               energy_uj(t.energy_pj)});
  }
  std::string out = inputs_lines(r.source, r.inputs, r.summary, r.assumptions) +
                    "cost model: " + r.description + "\n\n" + table.render() + "\n";
  out += fallback_notes(r);
  out += array_notes(r.layers);
  out += fmt::format("time: {} at {:.3f} GHz (cycles, bytes and energy: all calls of a row)\n",
                     seconds_text(t.seconds), r.clock_hz * 1e-9);
  if (t.prefetch_hidden_cycles > 0)
    out += fmt::format("total: {} cycles of first DRAM fills hidden under the previous matmul\n",
                       t.prefetch_hidden_cycles.get_str());
  if (t.tokens_per_second) {
    out += fmt::format("tokens: {}, tokens/s: {:.2f}\n", *t.tokens, *t.tokens_per_second);
  }
  if (t.bounds) out += hw::bounds_line(*t.bounds, t.cycles, t.dram_bytes);
  return out;
}

ojson totals_json(const ReportTotals& t) {
  ojson j = {{"calls", exact_json(t.calls)},
             {"macs", exact_json(t.macs)},
             {"cycles", exact_json(t.cycles)},
             {"dram_bytes", exact_json(t.dram_bytes)},
             {"sram_bytes", exact_json(t.sram_bytes)},
             {"energy_pj", t.energy_pj},
             {"utilization", t.utilization},
             {"seconds", t.seconds},
             {"prefetch_hidden_cycles", exact_json(t.prefetch_hidden_cycles)}};
  if (t.bounds) j["bounds"] = hw::bounds_json(*t.bounds, t.cycles, t.dram_bytes);
  ojson by_scheme = ojson::array();
  for (const SchemeTotals& s : t.by_scheme)
    by_scheme.push_back({{"scheme", s.scheme},
                         {"calls", exact_json(s.calls)},
                         {"macs", exact_json(s.macs)},
                         {"cycles", exact_json(s.cycles)},
                         {"dram_bytes", exact_json(s.dram_bytes)},
                         {"sram_bytes", exact_json(s.sram_bytes)},
                         {"energy_pj", s.energy_pj},
                         {"seconds", s.seconds}});
  j["by_scheme"] = std::move(by_scheme);
  j["tokens"] = t.tokens ? ojson(*t.tokens) : ojson(nullptr);
  j["tokens_per_second"] = t.tokens_per_second ? ojson(*t.tokens_per_second) : ojson(nullptr);
  return j;
}

std::string report_json(const ModelReport& r) {
  ojson layers = ojson::array();
  for (const LayerReport& l : r.layers) {
    ojson j = shape_json(l.shape);
    j.update(layer_cost_json(l.total));
    j["per_call"] = layer_cost_json(l.per_call);
    layers.push_back(std::move(j));
  }
  ojson doc = {{"source", r.source}, {"inputs", r.inputs}};
  add_summary(doc, r.summary, r.assumptions);
  doc["cost_model"] = {{"description", r.description}, {"clock_hz", r.clock_hz}};
  doc["warnings"] = r.warnings;
  doc["layers"] = std::move(layers);
  doc["totals"] = totals_json(r.totals);
  return doc.dump(2) + "\n";
}

const char* kCsvShapeHeader =
    "name,phase,batch,M,N,K,count,layout,b_operand,weights_quantized,epilogue_ops,macs";

std::string csv_shape(const MatmulShape& s) {
  const std::string quantized =
      s.weights_quantized ? (*s.weights_quantized ? "true" : "false") : "";
  return fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}", csv_field(s.name), to_string(s.phase),
                     s.batch, s.m, s.n, s.k, s.count, to_string(s.layout), to_string(s.b_operand),
                     quantized, s.epilogue_ops, s.macs().get_str());
}

std::string csv_bounds_header() {
  std::string h;
  for (const hw::BoundsField& f : hw::bounds_fields()) h += std::string(",bounds_") + f.name;
  return h;
}

std::string csv_bounds(const std::optional<hw::BoundsSum>& b, const Integer& cycles,
                       const Integer& dram_bytes) {
  std::string out;
  if (!b) return std::string(hw::bounds_fields().size(), ',');
  for (const std::string& v : hw::bounds_csv_values(*b, cycles, dram_bytes)) out += "," + v;
  return out;
}

// ,array_rows,array_cols,rows_used,cols_used,array_note (empty without the array's view).
std::string csv_array_use(const LayerCost& c) {
  if (!c.array_use) return ",,,,,";
  return fmt::format(",{},{},{},{},{}", c.array_rows, c.array_cols, c.array_use->rows_used,
                     c.array_use->cols_used, csv_field(c.array_note));
}

std::string csv_cost(const LayerCost& c) {
  return fmt::format("{},{},{},{},{},{}", c.cycles.get_str(), csv_field(c.bound), c.utilization,
                     c.dram_bytes.get_str(), c.sram_bytes.get_str(), c.energy_pj) +
         csv_bounds(c.bounds, c.cycles, c.dram_bytes) + "," + csv_field(c.scheme) + "," +
         (c.precision_fallback ? csv_field(quant::to_string(*c.precision_fallback)) : "") +
         csv_array_use(c);
}

std::string report_csv(const ModelReport& r) {
  std::string out = std::string(kCsvShapeHeader) +
                    ",cycles,bound,utilization,dram_bytes,sram_bytes,energy_pj" +
                    csv_bounds_header() +
                    ",scheme,precision_fallback,array_rows,array_cols,rows_used,cols_used,"
                    "array_note\n";
  for (const LayerReport& l : r.layers) out += csv_shape(l.shape) + "," + csv_cost(l.total) + "\n";
  const ReportTotals& t = r.totals;
  out += fmt::format("total,,,,,,{},,,,,{},{},,{},{},{},{}", t.calls.get_str(), t.macs.get_str(),
                     t.cycles.get_str(), t.utilization, t.dram_bytes.get_str(),
                     t.sram_bytes.get_str(), t.energy_pj) +
         csv_bounds(t.bounds, t.cycles, t.dram_bytes) + ",,,,,,,\n";
  if (t.by_scheme.size() > 1) {  // totals per scheme: the scheme column says which
    for (const SchemeTotals& s : t.by_scheme)
      out += fmt::format("total,,,,,,{},,,,,{},{},,,{},{},{}", s.calls.get_str(), s.macs.get_str(),
                         s.cycles.get_str(), s.dram_bytes.get_str(), s.sram_bytes.get_str(),
                         s.energy_pj) +
             std::string(hw::bounds_fields().size(), ',') + "," + csv_field(s.scheme) + ",,,,,,\n";
  }
  return out;
}

// ---- shapes-only renderings ------------------------------------------------------------------

struct ShapeTotals {
  Integer calls, macs;
};

ShapeTotals shape_totals(const std::vector<MatmulShape>& shapes) {
  ShapeTotals t;
  for (const MatmulShape& s : shapes) {
    t.calls += big(s.count);
    t.macs += s.macs();
  }
  return t;
}

std::string quantized_cell(const MatmulShape& s) {
  if (!s.weights_quantized) return "-";
  return *s.weights_quantized ? "yes" : "no";
}

std::string shapes_table(const std::vector<MatmulShape>& shapes, const ReportContext& c) {
  std::vector<std::string> titles = kShapeTitles;
  for (const char* t : {"dequant", "epilogue", "MACs (all calls)"}) titles.push_back(t);
  TextTable table(titles);
  for (const MatmulShape& s : shapes) {
    std::vector<std::string> row = shape_cells(s);
    row.push_back(quantized_cell(s));
    row.push_back(std::to_string(s.epilogue_ops));
    row.push_back(s.macs().get_str());
    table.add(row);
  }
  const ShapeTotals t = shape_totals(shapes);
  table.rule();
  table.add({"total", "", "", "", "", "", t.calls.get_str(), "", "", "", "", t.macs.get_str()});
  return inputs_lines(c.source, c.inputs, c.summary, c.assumptions) + "\n" + table.render();
}

std::string shapes_json(const std::vector<MatmulShape>& shapes, const ReportContext& c) {
  ojson layers = ojson::array();
  for (const MatmulShape& s : shapes) layers.push_back(shape_json(s));
  const ShapeTotals t = shape_totals(shapes);
  ojson totals = {{"calls", exact_json(t.calls)}, {"macs", exact_json(t.macs)}};
  totals["tokens"] = c.tokens ? ojson(*c.tokens) : ojson(nullptr);
  ojson doc = {{"source", c.source}, {"inputs", c.inputs}};
  add_summary(doc, c.summary, c.assumptions);
  doc["layers"] = std::move(layers);
  doc["totals"] = std::move(totals);
  return doc.dump(2) + "\n";
}

std::string shapes_csv(const std::vector<MatmulShape>& shapes) {
  std::string out = std::string(kCsvShapeHeader) + "\n";
  for (const MatmulShape& s : shapes) out += csv_shape(s) + "\n";
  const ShapeTotals t = shape_totals(shapes);
  out += fmt::format("total,,,,,,{},,,,,{}\n", t.calls.get_str(), t.macs.get_str());
  return out;
}

}  // namespace

nlohmann::ordered_json layer_cost_json(const LayerCost& c) {
  ojson j = {{"cycles", exact_json(c.cycles)},         {"bound", c.bound},
             {"utilization", c.utilization},           {"dram_bytes", exact_json(c.dram_bytes)},
             {"sram_bytes", exact_json(c.sram_bytes)}, {"energy_pj", c.energy_pj}};
  if (c.bounds) j["bounds"] = hw::bounds_json(*c.bounds, c.cycles, c.dram_bytes);
  j["scheme"] = c.scheme.empty() ? ojson(nullptr) : ojson(c.scheme);
  j["precision_fallback"] = quant::precision_fallback_json(c.precision_fallback);
  if (c.array_use)
    j["array_use"] = hw::array_use_json(*c.array_use, c.array_rows, c.array_cols, c.array_note);
  return j;
}

ModelReport build_model_report(const std::vector<MatmulShape>& shapes, const CostModel& model,
                               const ReportContext& context) {
  if (!(model.clock_hz > 0) || !std::isfinite(model.clock_hz)) {
    throw InputError(error_code::kRange, "", "clock",
                     fmt::format("expected a positive clock frequency, got {} Hz", model.clock_hz));
  }
  if (!model.evaluate) throw InternalError("build_model_report: the cost model has no evaluator");
  ModelReport r;
  r.source = context.source;
  r.inputs = context.inputs;
  r.summary = context.summary;
  r.assumptions = context.assumptions;
  r.description = model.description;
  r.clock_hz = model.clock_hz;
  r.warnings = model.warnings;
  double weighted_utilization = 0;
  for (const MatmulShape& s : shapes) {
    LayerReport layer{s, model.evaluate(s), {}};
    check_cost(layer.per_call, s);
    layer.total = times(layer.per_call, s.count);
    add_to_totals(layer, r.totals, weighted_utilization);
    r.layers.push_back(std::move(layer));
  }
  ReportTotals& t = r.totals;
  if (model.prefetch_across_matmuls) {
    t.prefetch_hidden_cycles = prefetch_hidden_cycles(r.layers);
    t.cycles -= t.prefetch_hidden_cycles;
  }
  if (t.cycles > 0) t.utilization = weighted_utilization / to_double(t.cycles);
  t.seconds = to_double(t.cycles) / model.clock_hz;
  for (SchemeTotals& s : t.by_scheme) s.seconds = to_double(s.cycles) / model.clock_hz;
  t.tokens = context.tokens;
  if (t.tokens && t.seconds > 0) t.tokens_per_second = static_cast<double>(*t.tokens) / t.seconds;
  return r;
}

std::string format_model_report(const ModelReport& report, ReportFormat format) {
  switch (format) {
    case ReportFormat::kTable:
      return report_table(report);
    case ReportFormat::kJson:
      return report_json(report);
    case ReportFormat::kCsv:
      return report_csv(report);
  }
  throw InternalError("bad ReportFormat");
}

std::string format_shapes(const std::vector<MatmulShape>& shapes, const ReportContext& context,
                          ReportFormat format) {
  switch (format) {
    case ReportFormat::kTable:
      return shapes_table(shapes, context);
    case ReportFormat::kJson:
      return shapes_json(shapes, context);
    case ReportFormat::kCsv:
      return shapes_csv(shapes);
  }
  throw InternalError("bad ReportFormat");
}

}  // namespace tenet::llm
