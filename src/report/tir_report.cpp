// `tenet tir` once its options are read: the matmul kernels of a TVMScript dump recognised by
// structure, bound to sizes, and costed like `tenet model` / `tenet log` rows (docs/tir.md#cli).
#include "report/tir_report.hpp"

#include <fmt/core.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "llm/model_report.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/quant/quant_json.hpp"
#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"

namespace tenet::report {
namespace {

using ojson = nlohmann::ordered_json;

// What every kernel is costed on: the request of --arch and --dataflow (eval::make_request,
// every other setting at its default); the scheme is the kernel's own ("auto") unless a preset is
// forced.
struct CostSetup {
  eval::Request base;
  std::shared_ptr<const quant::QuantSpec> forced;
  const arch::Accelerator& acc() const { return *base.accelerator; }
};

// The cost of one imported kernel through the evaluation pipeline: the one place `tenet tir`
// rows are costed.
llm::LayerCost cost_kernel(const CostSetup& c, const tir::BoundKernel& k) {
  eval::Request r = c.base;
  r.matmul = k.shape;
  r.scheme = c.forced ? c.forced : std::make_shared<const quant::QuantSpec>(*k.quant);
  return eval::evaluate(r).call_cost();
}

CostSetup cost_setup(const TirRun& o) {
  eval::Settings settings;
  settings.arch = o.arch;
  settings.dataflow = o.dataflow;
  settings.edge_transfers = o.edge_transfers;
  CostSetup c{eval::make_request(settings), nullptr};
  if (o.quant != "auto")
    c.forced = std::make_shared<const quant::QuantSpec>(eval::resolve_scheme(o.quant));
  return c;
}

// Every --bind name must be a symbolic size of an analysed function.
void check_bindings(const tir::Module& m, const std::string& func, const tir::SymbolValues& v) {
  std::set<std::string> known;
  for (const tir::PrimFunc& f : m.functions)
    if (func.empty() || f.name == func)
      for (const tir::Symbol& s : f.symbols) known.insert(s.name);
  // Sizes a Relax function binds (a MoE kernel's `num_experts`), and the expert dimension.
  for (const std::string& s : m.relax_symbols) known.insert(s);
  for (const auto& [name, value] : v) {
    if (!known.count(name)) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError(
          error_code::kUnknownName, "", "bind",
          fmt::format("'{}' is not a symbolic size of {} (symbols: {})", name,
                      func.empty() ? "the module" : func, list.empty() ? "none" : list));
    }
    if (value < 1)
      throw InputError(error_code::kRange, "", "bind",
                       fmt::format("{} = {} (expected a size >= 1)", name, value));
  }
}

ojson quant_json(const tir::MatmulKernel& k) {
  if (!k.storage) return nullptr;
  const tir::WeightStorage& w = *k.storage;
  ojson j = {
      {"storage_dtype", w.storage_dtype},
      {"bits", w.bits},
      {"elems_per_word", w.elems_per_word},
      {"pack_axis", w.pack_axis.empty() ? ojson(nullptr) : ojson(w.pack_axis)},
      {"group_size", w.group_size},
      {"group_axis", w.group_axis.empty() ? ojson(nullptr) : ojson(w.group_axis)},
      {"zero_point", !w.zero_buffer.empty()},
      {"offset", w.offset ? ojson(*w.offset) : ojson(nullptr)},
      {"scale_dtype", w.scale_dtype.empty() ? ojson(nullptr) : ojson(w.scale_dtype)},
      {"storage_buffer", w.buffer},
      {"scale_buffer", w.scale_buffer.empty() ? ojson(nullptr) : ojson(w.scale_buffer)},
      {"zero_buffer", w.zero_buffer.empty() ? ojson(nullptr) : ojson(w.zero_buffer)},
      {"group_index", w.group_index_buffer.empty() ? ojson(nullptr) : ojson(w.group_index_buffer)},
      {"group_size_n", w.group_size_n},
      {"zero_mode", w.zero_mode.empty() ? ojson(nullptr) : ojson(w.zero_mode)},
      {"decode_function", w.decode_function.empty() ? ojson(nullptr) : ojson(w.decode_function)},
      {"value_dtype", w.value_dtype.empty() ? ojson(nullptr) : ojson(w.value_dtype)}};
  return j;
}

ojson kernel_fields(const tir::BoundKernel& b, const std::string& scheme) {
  const tir::MatmulKernel& k = b.kernel;
  ojson symbols = ojson::object();
  for (const auto& [name, value] : b.symbols) symbols[name] = value;
  ojson q = quant_json(k);
  if (q.is_object()) q["scale_shape"] = b.scale_shape;
  return {{"func", k.func},
          {"block", k.block},
          {"line", k.line},
          {"dtypes",
           {{"A", k.a_dtype},
            {"B", k.b_dtype},
            {"accumulate", k.accumulate_dtype},
            {"output", k.output_dtype}}},
          {"quant", std::move(q)},
          {"scheme", scheme},
          {"matching_preset", tir::matching_preset(*b.quant, k.layout)},
          {"epilogue", k.epilogue},
          {"symbols", std::move(symbols)},
          {"intrinsic", k.intrinsic.empty() ? ojson(nullptr) : ojson(k.intrinsic)},
          {"experts", b.experts > 0 ? ojson(b.experts) : ojson(nullptr)},
          {"approximations", k.approximations}};
}

ojson skipped_json(const std::vector<tir::Skipped>& skipped) {
  ojson out = ojson::array();
  for (const tir::Skipped& s : skipped)
    out.push_back({{"func", s.func}, {"reason", s.reason}, {"line", s.line}});
  return out;
}

std::string skipped_lines(const std::vector<tir::Skipped>& skipped) {
  std::string out;
  for (const tir::Skipped& s : skipped)
    out += fmt::format("skipped {} (line {}): {}\n", s.func, s.line, s.reason);
  return out;
}

// The model/log report's JSON with each row extended by the kernel's TIR fields, and the
// skipped functions: {"kernels": [...], "skipped": [...], ...}.
std::string merge_json(const std::string& report, const std::vector<tir::BoundKernel>& kernels,
                       const std::vector<std::string>& schemes,
                       const std::vector<tir::Skipped>& skipped) {
  ojson doc = ojson::parse(report);
  ojson rows = ojson::array();
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    ojson row = kernel_fields(kernels[i], schemes[i]);
    for (auto& [key, value] : doc["layers"][i].items())
      if (!row.contains(key)) row[key] = value;
    rows.push_back(std::move(row));
  }
  ojson out;
  for (auto& [key, value] : doc.items()) {
    if (key == "layers") {
      out["kernels"] = std::move(rows);
      out["skipped"] = skipped_json(skipped);
    } else {
      out[key] = value;
    }
  }
  return out.dump(2) + "\n";
}

std::vector<tir::BoundKernel> bind_all(const tir::Recognition& found,
                                       const tir::SymbolValues& values) {
  std::map<std::string, int> per_func;
  for (const tir::MatmulKernel& k : found.kernels) ++per_func[k.func];
  std::vector<tir::BoundKernel> kernels;
  for (const tir::MatmulKernel& k : found.kernels) {
    kernels.push_back(tir::bind(k, values));
    if (per_func[k.func] > 1) kernels.back().shape.name = k.func + "/" + k.block;
  }
  return kernels;
}

// Costs every kernel once. A kernel the accelerator cannot run (a precision it lacks, a scheme
// that does not fit it) moves to `skipped` with the reason instead of stopping the report.
std::map<std::string, llm::LayerCost> cost_all(const CostSetup& setup,
                                               std::vector<tir::BoundKernel>& kernels,
                                               std::vector<tir::Skipped>& skipped) {
  std::map<std::string, llm::LayerCost> costs;
  std::vector<tir::BoundKernel> costed;
  for (tir::BoundKernel& k : kernels) {
    try {
      costs.emplace(k.shape.name, cost_kernel(setup, k));
      costed.push_back(std::move(k));
    } catch (const InputError& e) {
      skipped.push_back(
          {k.kernel.func,
           fmt::format("cannot be costed on {}: {}{} [{}]", setup.acc().name(),
                       e.where().empty() ? "" : e.where() + ": ", e.message(), e.code()),
           k.kernel.line});
    }
  }
  kernels = std::move(costed);
  return costs;
}

llm::CostModel cost_model(const CostSetup& setup,
                          const std::map<std::string, llm::LayerCost>& costs) {
  llm::CostModel model;
  model.clock_hz = setup.acc().spec().clock_mhz * 1e6;
  model.description =
      fmt::format("{} ({}x{} PEs, {:g} MHz), {}, {}, systolic timing, tiling auto (latency)",
                  setup.acc().name(), setup.acc().rows(), setup.acc().cols(),
                  setup.acc().spec().clock_mhz, mapping::to_string(setup.base.dataflow),
                  setup.forced ? setup.forced->name : std::string("quant auto (per kernel)"));
  model.evaluate = [&costs](const llm::MatmulShape& s) { return costs.at(s.name); };
  return model;
}

}  // namespace

TirReport render_tir_report(const TirRun& o, io::ReportFormat format) {
  const tir::Module module = tir::read_module(o.input);
  tir::Recognition found = tir::find_matmuls(module, o.func);
  const tir::SymbolValues values = tir::parse_bindings(o.bind);
  check_bindings(module, o.func, values);
  std::vector<tir::BoundKernel> kernels = bind_all(found, values);
  std::map<std::string, llm::LayerCost> costs;
  std::optional<CostSetup> setup;
  if (!o.shapes_only) {
    setup = cost_setup(o);
    costs = cost_all(*setup, kernels, found.skipped);
  }
  std::vector<llm::MatmulShape> shapes;
  for (const tir::BoundKernel& k : kernels) shapes.push_back(k.shape);
  const std::vector<std::string> schemes(kernels.size(), o.quant);
  llm::ReportContext context;
  context.source = o.input;
  context.inputs = {{"functions", module.functions.size() + module.skipped.size()},
                    {"relax_functions", module.relax_functions},
                    {"matmul_kernels", kernels.size()},
                    {"skipped", found.skipped.size()},
                    {"quant", o.quant}};
  const std::string text =
      o.shapes_only
          ? llm::format_shapes(shapes, context, format)
          : llm::format_model_report(
                llm::build_model_report(shapes, cost_model(*setup, costs), context), format);
  if (format == io::ReportFormat::kJson)
    return {merge_json(text, kernels, schemes, found.skipped), ""};
  if (format == io::ReportFormat::kTable) return {text + skipped_lines(found.skipped), ""};
  return {text, skipped_lines(found.skipped)};
}

}  // namespace tenet::report
