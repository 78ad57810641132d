#include "cli/llm_options.hpp"

#include <fmt/core.h>

#include "cli/command.hpp"
#include "cli/option_rules.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/model_matmuls.hpp"
#include "tenet/llm/scheme_comparison.hpp"

namespace tenet::cli {

void add_report_options(CLI::App& sub, ReportOptions& o) {
  sub.add_option("--format", o.format, "Output: table (default), json or csv")
      ->check(CLI::IsMember({"table", "json", "csv"}));
  sub.add_flag("--shapes-only,--list", o.shapes_only,
               "List the matmuls (shapes and counts) without evaluating their cost");
  sub.add_flag("--merge-shapes", o.merge_shapes,
               "Merge entries with identical calls (names joined with '+')");
  sub.add_option("--arch", o.cost.arch,
                 "Accelerator: preset name or architecture JSON file (default scalable-32x32)");
  sub.add_option("--array", o.cost.array, "Override the accelerator's PE array shape, RxC");
  sub.add_option("--dataflow", o.cost.dataflow, "Dataflow: os (default), ws or is");
  sub.add_option("--quant", o.cost.quant,
                 "Quantization scheme(s): preset name or JSON file; a comma-separated list "
                 "compares them side by side (default q0f16, or a log record's scheme)");
  sub.add_option("--timing", o.cost.timing, "Timing model: systolic (the only one per layer)");
  sub.add_option("--tile", o.cost.tile,
                 "Buffer tiling MxNxK[:ORDER] for every matmul, or auto (default: chosen per "
                 "matmul)");
  sub.add_option("--tiling-objective", o.cost.tiling_objective,
                 "With --tile auto: what each matmul's tiling minimises: latency (default), "
                 "energy, dram_bytes or edp");
  with_rule(sub.add_option("--dequant-rate", o.cost.dequant_rate,
                           "Dequant unit throughput, elements/cycle (default: the scheme's, else "
                           "one per array column)"),
            OptionRule::kNonNegative);
  sub.add_flag("--edge-transfers", o.cost.edge_transfers, kEdgeTransfersHelp);
}

void print_llm_report(std::vector<llm::MatmulShape> shapes, const llm::ReportContext& context,
                      const ReportOptions& o) {
  if (o.merge_shapes) shapes = llm::aggregate_matmuls(shapes);
  const llm::ReportFormat format = llm::parse_report_format(o.format);
  if (o.shapes_only) {
    fmt::print("{}", llm::format_shapes(shapes, context, format));
    return;
  }
  const std::vector<std::string> schemes =
      o.cost.quant.empty() ? std::vector<std::string>{} : split_scheme_list(o.cost.quant);
  if (schemes.size() <= 1) {
    const llm::CostModel model = llm::make_layer_evaluator(o.cost);
    const llm::ModelReport report = llm::build_model_report(shapes, model, context);
    fmt::print("{}", llm::format_model_report(report, format));
    return;
  }
  std::vector<llm::SchemeReport> reports;
  for (const std::string& scheme : schemes) {
    llm::EvaluatorSpec spec = o.cost;
    spec.quant = scheme;
    const llm::CostModel model = llm::make_layer_evaluator(spec);
    reports.push_back({scheme, llm::build_model_report(shapes, model, context)});
  }
  fmt::print("{}", llm::format_comparison(reports, format));
}

}  // namespace tenet::cli
