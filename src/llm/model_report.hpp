// Per-layer costs of a matmul list and their totals, and the table / JSON / CSV renderings used
// by `tenet model` and `tenet log`. Units in docs/llm.md#report.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "io/report_format.hpp"
#include "tenet/llm/layer_cost.hpp"
#include "tenet/llm/matmul_shape.hpp"

namespace tenet::llm {

struct LayerReport {
  MatmulShape shape;
  LayerCost per_call;  // one call
  LayerCost total;     // per_call × shape.count (utilization and bound unchanged)
};

// The totals of the rows costed with one scheme (a log whose kernels use several).
struct SchemeTotals {
  std::string scheme;
  Integer calls, macs, cycles, dram_bytes, sram_bytes;
  double energy_pj = 0;
  double seconds = 0;  // cycles / clock_hz
};

struct ReportTotals {
  Integer calls;   // Σ count
  Integer macs;    // Σ count·batch·M·N·K
  Integer cycles;  // Σ count·cycles (calls run one after another) − prefetch_hidden_cycles
  // With prefetch across matmuls (CostModel::prefetch_across_matmuls): first fills of calls
  // loaded in the previous call's idle DRAM-link cycles (0 otherwise).
  Integer prefetch_hidden_cycles;
  Integer dram_bytes;
  Integer sram_bytes;
  double energy_pj = 0;
  std::optional<hw::BoundsSum> bounds;      // Σ count·bounds (when every layer has them)
  double utilization = 0;                   // cycle-weighted mean of the layers' utilization
  double seconds = 0;                       // cycles / clock_hz
  std::optional<std::int64_t> tokens;       // tokens produced (decode) or processed (prefill)
  std::optional<double> tokens_per_second;  // tokens / seconds
  std::vector<SchemeTotals> by_scheme;      // per scheme, in order of first appearance
};

struct ModelReport {
  std::string source;                                                // model or log file
  nlohmann::ordered_json inputs = nlohmann::ordered_json::object();  // ReportContext::inputs
  std::string description;                                           // cost model description
  double clock_hz = 0;
  std::vector<LayerReport> layers;
  ReportTotals totals;
  nlohmann::ordered_json summary = nlohmann::ordered_json::object();  // ReportContext::summary
  std::vector<std::string> assumptions;                               // ReportContext::assumptions
  std::vector<std::string> warnings;  // CostModel::warnings: implausible accelerator values
};

// Header facts printed above the table and carried in the JSON (phase, batch, lengths, ...).
struct ReportContext {
  std::string source;
  std::optional<std::int64_t> tokens;  // see ReportTotals::tokens
  // Facts about the inputs (model, phase, batch, lengths, log line counts...): an object,
  // printed as "key: value" lines above the table and as "inputs" in the JSON; not in CSV.
  nlohmann::ordered_json inputs = nlohmann::ordered_json::object();
  // The model's summary (model_summary.hpp: parameters, KV-cache bytes per token...): printed
  // as "key: value" lines and as "summary" in the JSON when not empty; not in CSV.
  nlohmann::ordered_json summary = nlohmann::ordered_json::object();
  // Conventions the config reader assumed: "warning: assumed ..." lines in the table and an
  // "assumptions" array in the JSON (present whenever `summary` is).
  std::vector<std::string> assumptions;
};

// Calls `model.evaluate` once per entry. Throws InternalError if the evaluator returns a
// negative count or a utilization outside [0, 1], InputError(range) if clock_hz <= 0.
ModelReport build_model_report(const std::vector<MatmulShape>& shapes, const CostModel& model,
                               const ReportContext& context);

using io::parse_report_format;
using io::ReportFormat;

std::string format_model_report(const ModelReport& report, ReportFormat format);

// One LayerCost as the reports' JSON renders it: cycles, bound, utilization, dram_bytes,
// sram_bytes, energy_pj and bounds (docs/llm.md#report).
nlohmann::ordered_json layer_cost_json(const LayerCost& c);

// "note: ..." lines for the rows whose bound is the mapping's under-use of the array
// (LayerCost::array_note), one per distinct note (with the scheme when the row has one), naming
// the rows; "" when none.
std::string array_notes(const std::vector<LayerReport>& layers);

// The matmul list without costs (`--shapes-only`): name, phase, batch, M, N, K, count, layout,
// B operand, MACs, and totals {calls, macs}.
std::string format_shapes(const std::vector<MatmulShape>& shapes, const ReportContext& context,
                          ReportFormat format);

}  // namespace tenet::llm
