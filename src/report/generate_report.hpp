// What `tenet generate` (and Python's tenet.generate) does once its options are read: a whole
// generation request of a model config on an accelerator, evaluated and rendered
// (docs/generate.md).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "io/report_format.hpp"
#include "report/llm_report.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/llm/generation.hpp"

namespace tenet::report {

struct GenerateRequest {
  std::string model;                       // config.json path (or a name for `config`)
  std::optional<llm::ModelConfig> config;  // already parsed (Python's dict); else read `model`
  llm::RequestOptions options;
  ModelPass conventions;  // qkv, gate_up, attention, mla, routing (phase/batch/lengths unused)
  eval::Settings cost;    // arch, quant (one scheme), dataflow, ...
};

// The request's report as JSON (docs/generate.md#output).
nlohmann::ordered_json generate_json(const GenerateRequest& request);
// Table (summary line, time per op kind, memory, parallelism) or JSON; csv: the steps.
std::string render_generate(const GenerateRequest& request, io::ReportFormat format);

}  // namespace tenet::report
