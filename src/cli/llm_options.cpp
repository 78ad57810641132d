#include "cli/llm_options.hpp"

#include <fmt/core.h>

#include "cli/command.hpp"
#include "cli/option_rules.hpp"
#include "mapping/shape_text.hpp"
#include "report/llm_report.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/model_matmuls.hpp"

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
  in(sub.add_option("--dataflow", s.dataflow,
                    "Dataflow: os, ws or is (default: the accelerator's, else os)"));
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
                              "else one that keeps up with the array at the scheme's MAC rate: "
                              "an element per array column (is: row) per MAC a PE does per "
                              "cycle)")),
            OptionRule::kNonNegative);
  with_rule(in(sub.add_option("--dequant-ops-rate", s.dequant_ops_rate,
                              "Dequant unit throughput, ALU ops/cycle (instead of --dequant-rate)"))
                ->excludes("--dequant-rate"),
            OptionRule::kNonNegative);
  in(add_edge_transfers(sub, s.edge_transfers));
}

void print_llm_report(std::vector<llm::MatmulShape> shapes, const llm::ReportContext& context,
                      const ReportOptions& o) {
  report::LlmReportOptions options;
  options.shapes_only = o.shapes_only;
  options.merge_shapes = o.merge_shapes;
  options.cost = o.cost;
  fmt::print("{}", report::render_llm_report(std::move(shapes), context, options,
                                             io::parse_report_format(o.format)));
}

command::MatmulSource matmul_source(const std::string& gemm, const std::string& model,
                                    const std::string& log, const report::ModelPass& pass) {
  command::MatmulSource source;
  if (!gemm.empty()) {
    const mapping::GemmShape g =
        with_location("--gemm", [&] { return mapping::parse_gemm_shape(gemm); });
    source.gemm = {g.m, g.n, g.k};
  }
  source.model = model;
  source.log = log;
  source.pass = pass;
  return source;
}

}  // namespace tenet::cli
