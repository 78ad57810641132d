#include "report/llm_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "detail/exact.hpp"
#include "hw/vector_unit.hpp"
#include "llm/expert_routing.hpp"
#include "llm/kernel_name.hpp"
#include "llm/model_summary.hpp"
#include "llm/scheme_comparison.hpp"
#include "llm/vector_ops.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/defaults.hpp"
#include "tir/log_join.hpp"

namespace tenet::report {
namespace {

// One of `allowed`, else InputError(unknown-name) at `field`.
const std::string& one_of(const std::string& value, std::initializer_list<const char*> allowed,
                          const char* field) {
  std::string list;
  for (const char* a : allowed) {
    if (value == a) return value;
    list += (list.empty() ? "" : ", ") + std::string(a);
  }
  throw InputError(error_code::kUnknownName, "", field,
                   "expected one of " + list + ", got '" + value + "'");
}

}  // namespace

llm::GenerationOptions generation_options(const ModelPass& o) {
  llm::GenerationOptions g;
  g.phase = with_location("phase", [&] { return llm::parse_phase(o.phase); });
  g.batch = o.batch;
  g.prompt = o.prompt;
  g.context = o.context;
  g.fused_qkv = one_of(o.qkv, {"fused", "separate"}, "qkv") == "fused";
  g.fused_gate_up = one_of(o.gate_up, {"fused", "separate"}, "gate_up") == "fused";
  g.lm_head = one_of(o.lm_head, {"last", "all"}, "lm_head") == "all" ? llm::LmHead::kAllTokens
                                                                     : llm::LmHead::kLastToken;
  g.attention = with_location("attention", [&] { return llm::parse_attention_mask(o.attention); });
  g.fused_attention = with_location(
      "attention_kernel", [&] { return llm::parse_attention_kernel(o.attention_kernel); });
  if (!o.mla.empty()) g.mla = with_location("mla", [&] { return llm::parse_mla_path(o.mla); });
  if (o.routing != "uniform") g.routing = llm::load_expert_routing(o.routing);
  return g;
}

llm::ReportContext model_context(const std::string& source, const ModelPass& o,
                                 const llm::ModelConfig& model, const llm::GenerationOptions& g) {
  llm::ReportContext c;
  c.source = source;
  c.inputs = {{"model", model.name},
              {"model_type", model.model_type},
              {"phase", o.phase},
              {"batch", g.batch}};
  if (g.phase == llm::Phase::kPrefill) {
    c.inputs["prompt"] = g.prompt;
    c.tokens = g.batch * g.prompt;  // checked by generate_matmuls
  } else {
    c.inputs["context"] = g.context;
    c.tokens = g.batch;
  }
  if (!model.mla) c.inputs["qkv"] = model.fused_qkv_weights ? "fused" : o.qkv;
  if (model.mlp == llm::MlpKind::kGated ||
      (model.moe && model.moe->expert_mlp == llm::MlpKind::kGated)) {
    c.inputs["gate_up"] = model.fused_gate_up_weights && !model.moe ? "fused" : o.gate_up;
  }
  c.inputs["lm_head"] = g.phase == llm::Phase::kPrefill ? o.lm_head : "last";
  if (g.phase == llm::Phase::kPrefill) c.inputs["attention"] = o.attention;
  c.inputs["attention_kernel"] = o.attention_kernel;
  if (model.mla) c.inputs["mla"] = to_string(llm::resolved_mla_path(g));
  if (model.moe) c.inputs["routing"] = o.routing;
  c.summary = llm::summary_json(llm::summarize_model(model, g));
  c.assumptions = model.assumptions;
  return c;
}

nlohmann::ordered_json log_facts(const input::WorkloadLog& log) {
  nlohmann::ordered_json skipped_lines = log.skipped_lines;
  using json = nlohmann::ordered_json;
  return {{"lines", log.lines},
          {"records", log.records},
          {"text_records", log.text_records},
          {"json_records", log.json_records},
          {"calls", log.calls.get_str()},
          {"distinct", log.entries.size()},
          {"skipped", log.skipped},
          {"skipped_lines", skipped_lines},
          {"header_records", log.header_records},
          {"quantization", log.quantization.empty() ? json(nullptr) : json(log.quantization)},
          {"model", log.model.empty() ? json(nullptr) : json(log.model)}};
}

namespace {

// The header's scheme as a name eval can load: a preset name, or a scheme file (a relative path
// is taken from the log's directory). Loaded once here so that a bad name is reported at the
// header's line.
std::string header_scheme(const input::WorkloadLog& log) {
  namespace fs = std::filesystem;
  std::string q = log.quantization;
  const bool file_like = q.find('/') != std::string::npos ||
                         (q.size() > 5 && q.compare(q.size() - 5, 5, ".json") == 0);
  if (file_like && fs::path(q).is_relative())
    q = (fs::path(log.file).parent_path() / fs::path(q)).lexically_normal().string();
  try {
    (void)eval::resolve_scheme(q);
  } catch (const InputError& e) {
    if (!e.file().empty() && e.code() != error_code::kIo) throw;  // an error inside the file
    throw InputError(
        e.code(), log.file, "line " + std::to_string(log.quantization_line) + ", /quantization",
        "the header's quantization \"" + log.quantization +
            "\" is neither a quantization preset nor a readable scheme file: " + e.message());
  }
  return q;
}

void add_distinct(std::vector<std::string>& list, const std::string& text) {
  if (std::find(list.begin(), list.end(), text) == list.end()) list.push_back(text);
}

}  // namespace

LogWorkload prepare_log(const input::WorkloadLog& log, const std::string& tir_path,
                        LlmReportOptions& o) {
  LogWorkload w;
  w.context.source = log.file;
  w.context.inputs = log_facts(log);
  w.shapes = log.entries;
  if (!tir_path.empty()) {
    tir::LogJoin joined = tir::join_log(log.entries, tir::read_module(tir_path));
    for (const std::string& text : joined.warnings) add_distinct(w.warnings, text);
    for (auto& [name, spec] : joined.schemes) o.cost.named_schemes[name] = spec;
    w.context.inputs["tir"] = tir_path;
    w.shapes = std::move(joined.shapes);
  }
  const bool forced = !o.cost.quant.empty() || o.cost.scheme;
  if (forced || o.shapes_only) return w;
  if (!log.quantization.empty()) {
    const std::string scheme = header_scheme(log);
    for (llm::MatmulShape& s : w.shapes)
      if (s.quant.empty()) s.quant = scheme;
  }
  std::vector<std::string> unschemed;
  for (const llm::MatmulShape& s : w.shapes)
    if (s.quant.empty() && s.weights_quantized.value_or(false)) add_distinct(unschemed, s.name);
  if (!unschemed.empty())
    throw InputError(
        error_code::kMissingField, log.file, "",
        "kernel " + unschemed.front() +
            (unschemed.size() > 1
                 ? " (and " + std::to_string(unschemed.size() - 1) + " other kernel(s))"
                 : std::string()) +
            " dequantizes its weights (its name says \"dequantize\") but the log names no "
            "quantization scheme, and a dequantize kernel is never costed as unquantized. Give "
            "the scheme in one of three ways: a header record in the log ({\"record\": "
            "\"header\", \"quantization\": \"q4f16_1\"}, docs/logs.md), the model's TVMScript "
            "dump (--tir FILE: each kernel's own dequantize chain), or --quant SCHEME");
  return w;
}

std::vector<std::string> split_scheme_list(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char c : text + ",") {
    if (c != ',') {
      item += c;
      continue;
    }
    if (item.empty())
      throw InputError(
          error_code::kParse, "", "quant",
          "expected a scheme or a comma-separated list of schemes, got \"" + text + "\"");
    items.push_back(item);
    item.clear();
  }
  return items;
}

namespace {

// One non-matmul kernel of a log, costed on the vector unit (all its calls).
struct VectorRow {
  const input::VectorKernelCall* call = nullptr;
  llm::VectorKernelTraits traits;
  llm::VectorOp op;  // one call
  std::string bound;
  double seconds = 0;  // all calls
  llm::Integer dram_bytes;
};

struct VectorCosts {
  std::vector<VectorRow> rows;
  std::vector<std::pair<std::string, std::pair<double, llm::Integer>>> by_kind;
  double seconds = 0;
  llm::Integer dram_bytes;
};

// The scheme whose formats the non-matmul kernels use: the forced one, else the one the log's
// matmuls are costed with (the header's), else the default.
quant::QuantSpec vector_scheme(const std::vector<llm::MatmulShape>& shapes,
                               const eval::Settings& cost) {
  if (cost.scheme) return *cost.scheme;
  std::string name = cost.quant;
  for (const llm::MatmulShape& s : shapes)
    if (name.empty() && !s.quant.empty()) name = s.quant;
  if (name.empty()) name = eval::defaults::kScheme;
  auto named = cost.named_schemes.find(name);
  if (named != cost.named_schemes.end()) return *named->second;
  return eval::resolve_scheme(name);
}

VectorCosts cost_vector_kernels(const std::vector<input::VectorKernelCall>& calls,
                                const std::vector<llm::MatmulShape>& shapes,
                                const eval::Settings& cost) {
  const eval::Request base = eval::make_request(cost);
  const arch::Accelerator& acc = *base.accelerator;
  const arch::VectorUnit unit = hw::vector_unit_of(acc);
  const quant::QuantSpec scheme = vector_scheme(shapes, cost);
  llm::ElementBits bits;  // as the generator reads them (llm::evaluate_request)
  bits.activation = scheme.activations.dtype.bits();
  bits.kv_cache = scheme.kv_cache ? scheme.kv_cache->dtype.bits() : bits.activation;
  bits.embedding = scheme.weights.dtype.bits();
  const double clock = acc.spec().clock_mhz * 1e6;
  VectorCosts out;
  for (const input::VectorKernelCall& c : calls) {
    VectorRow r;
    r.call = &c;
    r.traits = *llm::interpret_vector_kernel(c.kernel);
    r.op = llm::logged_vector_op(c.kernel, r.traits, c.extents, c.count, bits);
    const hw::VectorCycles vc =
        hw::vector_op_cycles(acc, unit, r.op.kind, r.op.ops, r.op.sram_bytes, r.op.dram_bytes);
    r.bound = vc.bound;
    r.seconds = vc.cycles * static_cast<double>(c.count) / clock;
    r.dram_bytes =
        llm::Integer(static_cast<long>(r.op.dram_bytes)) * llm::Integer(static_cast<long>(c.count));
    out.seconds += r.seconds;
    out.dram_bytes += r.dram_bytes;
    auto it = std::find_if(out.by_kind.begin(), out.by_kind.end(),
                           [&](const auto& k) { return k.first == r.op.kind; });
    if (it == out.by_kind.end())
      it = out.by_kind.insert(out.by_kind.end(), {r.op.kind, {0.0, llm::Integer(0)}});
    it->second.first += r.seconds;
    it->second.second += r.dram_bytes;
    out.rows.push_back(std::move(r));
  }
  return out;
}

std::string shape_text(const std::vector<std::int64_t>& extents) {
  std::string text;
  for (std::int64_t e : extents) text += (text.empty() ? "" : "x") + std::to_string(e);
  return text;
}

// The matmul report with the non-matmul kernels added: JSON `non_matmul` and `all_totals`, the
// table a second section and the totals split (docs/logs.md#non-matmul-kernels).
std::string with_vector_kernels(const llm::ModelReport& report, const VectorCosts& v,
                                io::ReportFormat format) {
  const std::string base = llm::format_model_report(report, format);
  const double matmul_seconds = report.totals.seconds;
  const llm::Integer matmul_dram = report.totals.dram_bytes;
  if (format == io::ReportFormat::kJson) {
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(base);
    nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
    for (const VectorRow& r : v.rows)
      kernels.push_back({{"kernel", r.call->kernel},
                         {"kind", r.op.kind},
                         {"op", r.traits.op},
                         {"phase", r.call->phase == llm::Phase::kUnspecified
                                       ? nlohmann::ordered_json()
                                       : nlohmann::ordered_json(llm::to_string(r.call->phase))},
                         {"count", r.call->count},
                         {"shape", r.call->extents},
                         {"elements", r.op.elements},
                         {"ops", r.op.ops},
                         {"dram_bytes", ::tenet::detail::exact_json(r.dram_bytes)},
                         {"seconds", r.seconds},
                         {"bound", r.bound}});
    nlohmann::ordered_json kinds = nlohmann::ordered_json::object();
    for (const auto& [kind, t] : v.by_kind)
      kinds[kind] = {{"seconds", t.first}, {"dram_bytes", ::tenet::detail::exact_json(t.second)}};
    doc["non_matmul"] = {{"kernels", kernels},
                         {"totals",
                          {{"seconds", v.seconds},
                           {"dram_bytes", ::tenet::detail::exact_json(v.dram_bytes)},
                           {"by_kind", kinds}}}};
    doc["all_totals"] = {{"matmul_seconds", matmul_seconds},
                         {"non_matmul_seconds", v.seconds},
                         {"seconds", matmul_seconds + v.seconds},
                         {"matmul_dram_bytes", ::tenet::detail::exact_json(matmul_dram)},
                         {"non_matmul_dram_bytes", ::tenet::detail::exact_json(v.dram_bytes)},
                         {"dram_bytes", ::tenet::detail::exact_json(matmul_dram + v.dram_bytes)}};
    return doc.dump(2) + "\n";
  }
  if (format != io::ReportFormat::kTable) return base;  // CSV: the matmul rows
  std::string out = base;
  out += fmt::format(
      "\nnon-matmul kernels (vector unit):\n{:<44} {:<10} {:>7} {:>16} {:>14} {:>16} {:>7}\n",
      "kernel", "kind", "calls", "shape", "seconds", "DRAM bytes", "bound");
  for (const VectorRow& r : v.rows)
    out += fmt::format("{:<44} {:<10} {:>7} {:>16} {:>14.6g} {:>16} {:>7}\n", r.call->kernel,
                       r.op.kind, r.call->count, shape_text(r.call->extents), r.seconds,
                       r.dram_bytes.get_str(), r.bound);
  for (const auto& [kind, t] : v.by_kind)
    out += fmt::format("{:<44} {:<10} {:>7} {:>16} {:>14.6g} {:>16}\n", "total " + kind, kind, "",
                       "", t.first, t.second.get_str());
  out += fmt::format(
      "total matmul: {:.6g} s, {} DRAM bytes; total non-matmul: {:.6g} s, {} DRAM "
      "bytes; total: {:.6g} s\n",
      matmul_seconds, matmul_dram.get_str(), v.seconds, v.dram_bytes.get_str(),
      matmul_seconds + v.seconds);
  return out;
}

// A scheme's name as the comparison shows it: its `name`, with what was given when two schemes of
// the list share that name.
std::string display_name(const std::vector<std::shared_ptr<const quant::QuantSpec>>& specs,
                         std::size_t i, const std::string& given) {
  const std::string& name = specs[i]->name;
  const auto same =
      std::count_if(specs.begin(), specs.end(), [&](const auto& s) { return s->name == name; });
  return same > 1 && given != name ? name + " (" + given + ")" : name;
}

}  // namespace

llm::ModelReport build_llm_report(const std::vector<llm::MatmulShape>& shapes,
                                  const llm::ReportContext& context, const eval::Settings& cost) {
  return llm::build_model_report(shapes, eval::make_cost_model(cost, shapes), context);
}

std::string render_llm_report(std::vector<llm::MatmulShape> shapes,
                              const llm::ReportContext& context, const LlmReportOptions& o,
                              io::ReportFormat format) {
  if (o.merge_shapes) shapes = llm::aggregate_matmuls(shapes);
  if (o.shapes_only) return llm::format_shapes(shapes, context, format);
  const std::vector<std::string> schemes =
      o.cost.quant.empty() ? std::vector<std::string>{} : split_scheme_list(o.cost.quant);
  if (schemes.size() <= 1) {
    const llm::ModelReport report = build_llm_report(shapes, context, o.cost);
    if (o.vector_kernels.empty()) return llm::format_model_report(report, format);
    return with_vector_kernels(report, cost_vector_kernels(o.vector_kernels, shapes, o.cost),
                               format);
  }
  // Each scheme as a loaded spec, shown by its name (a file's `name`, not its path); a name or
  // file that cannot be read is the error it is.
  std::vector<std::shared_ptr<const quant::QuantSpec>> specs;
  for (const std::string& scheme : schemes)
    specs.push_back(std::make_shared<const quant::QuantSpec>(eval::resolve_scheme(scheme)));
  std::vector<llm::SchemeReport> reports;
  std::optional<InputError> first_error;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    eval::Settings settings = o.cost;
    settings.quant.clear();
    settings.scheme = specs[i];
    llm::SchemeReport r;
    r.scheme = display_name(specs, i, schemes[i]);
    try {  // a scheme this accelerator cannot run is a row with its reason; the others are costed
      r.report = build_llm_report(shapes, context, settings);
    } catch (const InputError& e) {
      if (!first_error) first_error = e;
      r.unsupported = e.message();
    }
    reports.push_back(std::move(r));
  }
  if (std::all_of(reports.begin(), reports.end(),
                  [](const llm::SchemeReport& r) { return !r.unsupported.empty(); }))
    throw *first_error;  // nothing to compare: the first scheme's error
  return llm::format_comparison(reports, format);
}

}  // namespace tenet::report
