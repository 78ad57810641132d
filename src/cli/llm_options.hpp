// Options shared by `tenet model` and `tenet log`: output format and the cost model (internal).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "command/commands.hpp"
#include "llm/model_report.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/llm/matmul_shape.hpp"

namespace tenet::cli {

struct ReportOptions {
  std::string format = "table";
  bool shapes_only = false;
  bool merge_shapes = false;
  eval::Settings cost;
};

void add_report_options(CLI::App& sub, ReportOptions& o);

// The evaluation settings as options (--arch, --array, --dataflow, --quant, --timing, --tile,
// --tiling-objective, --dequant-rate, --dequant-ops-rate, --edge-transfers), in `group` if not
// empty. Every command that costs matmuls uses these.
void add_settings_options(CLI::App& sub, eval::Settings& s, const std::string& group);

// Prints the shapes (--shapes-only) or builds the cost model and prints the report.
void print_llm_report(std::vector<llm::MatmulShape> shapes, const llm::ReportContext& context,
                      const ReportOptions& o);

// --gemm M,N,K, --model FILE or --log FILE (one of them not empty) and the model pass: the
// matmuls a command (search, bound) costs. A malformed --gemm is an InputError at --gemm.
command::MatmulSource matmul_source(const std::string& gemm, const std::string& model,
                                    const std::string& log, const report::ModelPass& pass);

}  // namespace tenet::cli
