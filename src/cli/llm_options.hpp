// Options shared by `tenet model` and `tenet log`: output format and the cost model (internal).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "tenet/llm/matmul_shape.hpp"
#include "tenet/llm/model_report.hpp"

namespace tenet::cli {

struct ReportOptions {
  std::string format = "table";
  bool shapes_only = false;
  bool merge_shapes = false;
  llm::EvaluatorSpec cost;
};

void add_report_options(CLI::App& sub, ReportOptions& o);

// Prints the shapes (--shapes-only) or builds the cost model and prints the report.
void print_llm_report(std::vector<llm::MatmulShape> shapes, const llm::ReportContext& context,
                      const ReportOptions& o);

}  // namespace tenet::cli
