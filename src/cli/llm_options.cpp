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
  add_settings_options(sub, o.cost, "");
}

void add_settings_options(CLI::App& sub, eval::Settings& s, const std::string& group) {
  auto in = [&](CLI::Option* option) { return group.empty() ? option : option->group(group); };
  in(sub.add_option("--arch", s.arch,
                    "Accelerator: preset name or architecture JSON file (default scalable-32x32)"));
  in(sub.add_option("--array", s.array, "Override the accelerator's PE array shape, RxC"));
  in(sub.add_option("--dataflow", s.dataflow, "Dataflow: os (default), ws or is"));
  in(sub.add_option("--quant", s.quant,
                    "Quantization scheme(s): preset name or JSON file; a comma-separated list "
                    "compares them side by side (default q0f16, or a log record's scheme)"));
  in(sub.add_option("--timing", s.timing, "Timing model: systolic (the only one per layer)"));
  in(sub.add_option("--tile", s.tile,
                    "Buffer tiling MxNxK[:ORDER] for every matmul, or auto (default: chosen per "
                    "matmul)"));
  in(sub.add_option("--tiling-objective", s.tiling_objective,
                    "With --tile auto: what each matmul's tiling minimises: latency (default), "
                    "energy, dram_bytes or edp"));
  with_rule(in(sub.add_option("--dequant-rate", s.dequant_rate,
                              "Dequant unit throughput, elements/cycle (default: the scheme's, "
                              "else one per array column; is: per row)")),
            OptionRule::kNonNegative);
  with_rule(in(sub.add_option("--dequant-ops-rate", s.dequant_ops_rate,
                              "Dequant unit throughput, ALU ops/cycle (instead of --dequant-rate)"))
                ->excludes("--dequant-rate"),
            OptionRule::kNonNegative);
  in(sub.add_flag("--edge-transfers", s.edge_transfers, kEdgeTransfersHelp));
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
    const llm::CostModel model = eval::make_cost_model(o.cost);
    const llm::ModelReport report = llm::build_model_report(shapes, model, context);
    fmt::print("{}", llm::format_model_report(report, format));
    return;
  }
  std::vector<llm::SchemeReport> reports;
  for (const std::string& scheme : schemes) {
    eval::Settings settings = o.cost;
    settings.quant = scheme;
    const llm::CostModel model = eval::make_cost_model(settings);
    reports.push_back({scheme, llm::build_model_report(shapes, model, context)});
  }
  fmt::print("{}", llm::format_comparison(reports, format));
}

}  // namespace tenet::cli
