// compare, search and bound as one function each (include/tenet/command/commands.hpp): the one
// place their requests, matmul lists and report contexts are assembled.
#include "command/commands.hpp"

#include "arch/plausibility.hpp"
#include "report/curve_report.hpp"
#include "report/evaluation_report.hpp"
#include "sweep/mapping_search.hpp"
#include "sweep/search_report.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/defaults.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/traffic_curve.hpp"
#include "tenet/input/workload_log.hpp"
#include "tenet/llm/model_matmuls.hpp"

namespace tenet::command {

SourceMatmuls source_matmuls(const MatmulSource& source) {
  const bool model = !source.model.empty() || source.config.has_value();
  const int given = int(source.gemm.has_value()) + int(model) + int(!source.log.empty());
  if (given != 1)
    throw InputError(error_code::kUsage, "", "gemm", "give exactly one of gemm, model or log");
  SourceMatmuls out;
  if (source.gemm) {
    const auto [m, n, k] = *source.gemm;
    if (m <= 0 || n <= 0 || k <= 0)
      throw InputError(error_code::kRange, "", "gemm",
                       "expected M, N, K > 0, got " + std::to_string(m) + "," + std::to_string(n) +
                           "," + std::to_string(k));
    llm::MatmulShape s;
    s.name = "gemm";
    s.batch = source.pass.batch;
    s.m = m, s.n = n, s.k = k;
    out.matmuls.push_back(s);
    out.inputs["gemm"] = {{"m", m}, {"n", n}, {"k", k}};
    if (s.batch != 1) out.inputs["gemm"]["batch"] = s.batch;
    return out;
  }
  if (!source.log.empty()) {
    const input::WorkloadLog log = input::read_workload_log_file(source.log);
    out.matmuls = log.entries;
    out.inputs["log"] = log.file;
    out.inputs["matmuls"] = out.matmuls.size();
    return out;
  }
  const llm::ModelConfig config =
      source.config ? *source.config : llm::load_model_config(source.model);
  llm::GenerationOptions g = report::generation_options(source.pass);
  g.fused_attention = false;  // search and bound map matmuls: attention as qk and pv
  out.matmuls = llm::generate_matmuls(config, g);
  out.inputs["model"] = config.name;
  out.inputs["phase"] = source.pass.phase;
  out.inputs["batch"] = source.pass.batch;
  if (g.phase == llm::Phase::kPrefill)
    out.inputs["prompt"] = source.pass.prompt;
  else
    out.inputs["context"] = source.pass.context;
  out.inputs["matmuls"] = out.matmuls.size();
  return out;
}

std::string compare(const CompareArgs& args) {
  if (args.format == io::ReportFormat::kCsv)
    throw InputError(error_code::kUnknownName, "", "format", "expected table or json, got csv");
  if (args.schemes.empty())
    throw InputError(error_code::kMissingField, "", "quant", "give at least one scheme");
  MatmulSource source;
  source.gemm = args.gemm;
  llm::MatmulShape matmul = source_matmuls(source).matmuls.front();
  matmul.accumulate = args.accumulate;
  if (args.kv) {
    if (args.kv_token_axis != "n" && args.kv_token_axis != "k")
      throw InputError(
          error_code::kUnknownName, "", "kv_token_axis",
          "expected n (K cache in Q·Kᵀ) or k (V cache in P·V), got \"" + args.kv_token_axis + "\"");
    matmul.b_operand = workload::OperandRole::kKvCache;
    matmul.layout = args.kv_token_axis == "n" ? llm::Layout::kNT : llm::Layout::kNN;
  }
  eval::Settings settings = args.settings;
  settings.quant.clear();  // one request per scheme below
  settings.scheme.reset();
  eval::Request request = eval::make_request(settings);
  request.matmul = matmul;
  if (request.timing != eval::Timing::kSystolic)
    throw InputError(error_code::kUsage, "", "timing",
                     "compare uses the systolic timing model (the TENET delay: analyze)");
  std::vector<eval::Evaluation> evaluations;
  std::vector<quant::UncostedScheme> uncosted;  // a scheme this accelerator cannot run: a row
  std::optional<InputError> first_error;
  for (std::size_t i = 0; i < args.schemes.size(); ++i) {
    request.scheme = args.schemes[i];
    try {
      evaluations.push_back(eval::evaluate(request));
    } catch (const InputError& e) {
      if (!first_error) first_error = e;
      uncosted.push_back({i, args.schemes[i]->name, e.message()});
    }
  }
  if (evaluations.empty()) throw *first_error;  // nothing to compare: the first scheme's error
  return report::render_comparison(evaluations, args.format, uncosted,
                                   arch::implausible_values(*request.accelerator));
}

std::string search(const SearchArgs& args) {
  if (args.format == io::ReportFormat::kCsv)
    throw InputError(error_code::kUnknownName, "", "format", "expected table or json, got csv");
  const std::vector<sweep::LayerSearch> results =
      sweep::search_layers(args.settings, source_matmuls(args.source).matmuls);
  // Nothing could be mapped at all (e.g. no tile fits the buffer): an error, the first layer's.
  bool any = false;
  for (const sweep::LayerSearch& l : results) any = any || l.best.has_value();
  if (!any && !results.empty())
    throw InputError(
        error_code::kRange, "", results.front().shape.name,
        results.front().error.empty() ? "no mapping could be evaluated" : results.front().error);
  if (args.format == io::ReportFormat::kJson) return sweep::search_json(results).dump(2) + "\n";
  return sweep::format_search_table(results, true);
}

std::string bound(const BoundArgs& args) {
  if (!args.source.log.empty())
    throw InputError(error_code::kUsage, "", "log", "bound takes a gemm or a model, not a log");
  if (args.buffers.empty())
    throw InputError(error_code::kMissingField, "", "buffers", "give at least one buffer size");
  if (args.bits && (args.settings.scheme || !args.settings.quant.empty()))
    throw InputError(error_code::kUsage, "", "bits",
                     "operand widths are for an unquantized GEMM; the scheme sets them");
  eval::Request base = eval::make_request(args.settings);
  const std::array<int, 3> bits = args.bits.value_or(std::array<int, 3>{16, 16, 16});
  for (int b : bits)
    if (b < 1 || b > 64)
      throw InputError(error_code::kRange, "", "bits",
                       "expected widths in 1..64, got " + std::to_string(b));
  base.bits = {bits[0], bits[1], bits[2]};
  SourceMatmuls source = source_matmuls(args.source);
  report::CurveContext context;
  context.inputs = std::move(source.inputs);
  context.inputs["arch"] = base.accelerator->name();
  context.inputs["quant"] = base.scheme ? base.scheme->name : std::string("none");
  if (!base.scheme) context.inputs["bits"] = {{"a", bits[0]}, {"b", bits[1]}, {"c", bits[2]}};
  eval::CurveOptions options;
  options.dataflows =
      args.dataflows.empty() ? eval::defaults::search_dataflows(*base.accelerator) : args.dataflows;
  std::string dataflows;
  for (mapping::Dataflow f : options.dataflows)
    dataflows += std::string(dataflows.empty() ? "" : ",") + mapping::to_string(f);
  context.inputs["dataflows"] = dataflows;
  options.bound_only = args.bound_only;
  return report::render_curve(eval::traffic_curve(base, source.matmuls, args.buffers, options),
                              context, args.format);
}

}  // namespace tenet::command
