// Rendering an analysis report as JSON, CSV or a table for people (docs/output.md lists every
// field with its unit). Pure: the caller writes the text where it wants.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "io/report_format.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/input/problem.hpp"

namespace tenet::report {

using io::parse_report_format;
using io::ReportFormat;

// An exact count as JSON: an integer when it fits int64 or uint64, else its decimal string.
nlohmann::ordered_json count_to_json(const poly::Integer& value);

// The key of each tensor entry: its name, except that a tensor both read and written is keyed
// "NAME" for the read and "NAME.write" for the write.
std::vector<std::string> tensor_keys(const analysis::Report& report);

// What was analysed, echoed in the output (optional).
struct AnalysisEcho {
  const input::Problem* problem = nullptr;
  const analysis::Options* options = nullptr;
};

nlohmann::ordered_json report_to_json(const analysis::Report& report,
                                      const AnalysisEcho& context = {});
std::string report_to_csv(const analysis::Report& report);
std::string report_to_table(const analysis::Report& report, const AnalysisEcho& context = {});
std::string format_report(const analysis::Report& report, ReportFormat format,
                          const AnalysisEcho& context = {});

}  // namespace tenet::report
