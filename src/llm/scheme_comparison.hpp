// One model (or log) evaluated under several quantization schemes, side by side: the README's
// main job (`tenet model --quant q0f16,q4f16_1,...`). Units in docs/llm.md#comparing-schemes.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "llm/model_report.hpp"

namespace tenet::llm {

struct SchemeReport {
  std::string scheme;  // the scheme's name (a file's `name`)
  ModelReport report;
  // Why the scheme could not be costed on this accelerator (the error's message; `report` is
  // empty); empty when it was. The comparison shows it as a row with this reason.
  std::string unsupported;
};

// The bound that accounts for the largest share of the total cycles (Σ cycles of the layers with
// that bound; ties go to the first in layer order), and that share (0..1).
struct DominantBound {
  std::string bound;
  double share = 0;
};
DominantBound dominant_bound(const ModelReport& report);

struct SchemeSummary {
  std::string scheme;
  Integer cycles;
  double seconds = 0;
  std::optional<double> tokens_per_second;
  Integer dram_bytes;
  double energy_pj = 0;
  double utilization = 0;
  double speedup = 0;       // seconds of the first scheme / seconds of this one
  double energy_ratio = 0;  // energy of this scheme / energy of the first
  DominantBound bound;
  // The share of the cycles (0..1) in rows whose bound is the mapping's under-use of the array
  // (LayerCost::array_note set).
  double array_underused_share = 0;
};
// That share of one report.
double array_underused_share(const ModelReport& report);
// One summary per scheme, in the given order (the first is the baseline); every scheme must have
// been costed. Throws InputError (usage) for an empty list.
std::vector<SchemeSummary> summarize(const std::vector<SchemeReport>& schemes);

// table: the inputs, a summary row per scheme, then per layer the time and bound under each
// costed scheme. json: {source, inputs, schemes: [{scheme, unsupported, cost_model, summary
// {...}, layers, totals}]}. csv: the per-layer CSV of format_model_report with a first column
// `scheme` and a last column `unsupported`. The baseline of speed-ups is the first costed scheme;
// a scheme that was not costed (`unsupported` set) is a row with its reason. At least one scheme
// must have been costed (InternalError).
std::string format_comparison(const std::vector<SchemeReport>& schemes, ReportFormat format);

}  // namespace tenet::llm
