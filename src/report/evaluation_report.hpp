// One evaluation rendered as `tenet analyze` and `tenet compare` print it (docs/output.md): the
// relation-centric report and, for a GEMM, the keys of the hardware model, the quantization and
// the physical limits. The CLI and the Python package call these; nothing else renders them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "quant/quant_hw_format.hpp"
#include "report/tenet_report.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/eval/evaluation.hpp"
#include "tenet/eval/request.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::report {

// The report of `tenet analyze`: the relation-centric metrics (the evaluation must have them:
// Request::relation_centric or a problem source) and, for a matmul source, the hardware keys;
// with an accelerator, JSON `warnings` (its implausible values, arch/plausibility.hpp).
std::string render_evaluation(const eval::Evaluation& e, const eval::Request& request,
                              ReportFormat format);

// `tenet compare`: one evaluation per scheme (systolic timing, each with a scheme). JSON:
// quant::comparison_json + each scheme's `bounds`; table: the comparison table + bounds lines;
// CSV is not offered (InputError(unknown-name, "format")).
// `uncosted`: schemes the accelerator could not run, shown as rows with their reason
// (quant::comparison_json).
nlohmann::json comparison_json(const std::vector<eval::Evaluation>& schemes,
                               const std::vector<quant::UncostedScheme>& uncosted = {});
// `warnings`: the accelerator's implausible values (arch/plausibility.hpp), JSON `warnings`.
std::string render_comparison(const std::vector<eval::Evaluation>& schemes, ReportFormat format,
                              const std::vector<quant::UncostedScheme>& uncosted = {},
                              const std::vector<std::string>& warnings = {});

// The parts, for callers that assemble their own report (`tenet tir`).
void rename_quant_tensors(analysis::Report& report, const workload::Workload& workload);
struct HardwareReport {
  nlohmann::json keys = nlohmann::json::object();
  std::string table;
};
HardwareReport hardware_report(const eval::Evaluation& e, const eval::Request& request);
void merge_keys(nlohmann::ordered_json& report, const nlohmann::json& extra);
std::string keys_to_csv_rows(const nlohmann::json& extra);

}  // namespace tenet::report
