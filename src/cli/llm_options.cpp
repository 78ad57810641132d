#include "cli/llm_options.hpp"

#include <fmt/core.h>

#include "tenet/llm/model_matmuls.hpp"

namespace tenet::cli {

void add_report_options(CLI::App& sub, ReportOptions& o) {
  sub.add_option("--format", o.format, "Output: table (default), json or csv")
      ->check(CLI::IsMember({"table", "json", "csv"}));
  sub.add_flag("--shapes-only,--list", o.shapes_only,
               "List the matmuls (shapes and counts) without evaluating their cost");
  sub.add_flag("--merge-shapes", o.merge_shapes,
               "Merge entries with identical calls (names joined with '+')");
  sub.add_option("--arch", o.cost.arch, "Accelerator: preset name or architecture JSON file");
  sub.add_option("--dataflow", o.cost.dataflow, "Dataflow (os, ws, is, ...)");
  sub.add_option("--quant", o.cost.quant, "Quantization scheme: preset name or JSON file");
  sub.add_option("--timing", o.cost.timing, "Timing model");
}

void print_llm_report(std::vector<llm::MatmulShape> shapes, const llm::ReportContext& context,
                      const ReportOptions& o) {
  if (o.merge_shapes) shapes = llm::aggregate_matmuls(shapes);
  const llm::ReportFormat format = llm::parse_report_format(o.format);
  if (o.shapes_only) {
    fmt::print("{}", llm::format_shapes(shapes, context, format));
    return;
  }
  const llm::CostModel model = llm::make_layer_evaluator(o.cost);
  const llm::ModelReport report = llm::build_model_report(shapes, model, context);
  fmt::print("{}", llm::format_model_report(report, format));
}

}  // namespace tenet::cli
