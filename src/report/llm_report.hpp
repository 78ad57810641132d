// What `tenet model` and `tenet log` do once their inputs are read: the generation settings of a
// model pass, the facts a report echoes, and the one rendering of a matmul list (shapes only, one
// scheme's cost, or several schemes side by side). The CLI and the Python package both call these,
// so the same model gives the same report from either door.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/report_format.hpp"
#include "llm/model_report.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/input/workload_log.hpp"
#include "tenet/llm/matmul_shape.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"

namespace tenet::report {

// A model pass as text, as `tenet model`'s options give it (docs/llm.md#cli). Errors name these
// fields: phase, batch, prompt, context, qkv, gate_up, lm_head, attention, mla, routing,
// attention_kernel.
struct ModelPass {
  std::string phase = "prefill";  // prefill | decode
  std::int64_t batch = 1;
  std::int64_t prompt = 0;           // prefill: prompt tokens per sequence
  std::int64_t context = 0;          // decode: tokens in the KV cache
  std::string qkv = "fused";         // fused | separate
  std::string gate_up = "fused";     // fused | separate
  std::string lm_head = "last";      // last | all
  std::string attention = "causal";  // causal | dense
  std::string mla;  // naive | absorbed (empty: naive in prefill, absorbed in decode)
  std::string routing = "uniform";         // uniform or a routing JSON file
  std::string attention_kernel = "fused";  // fused | unfused (docs/llm.md#fused-attention)
};

llm::GenerationOptions generation_options(const ModelPass& pass);
// The `inputs`, `summary`, `assumptions` and tokens of a model report; `source` names the config.
llm::ReportContext model_context(const std::string& source, const ModelPass& pass,
                                 const llm::ModelConfig& model, const llm::GenerationOptions& g);
// The `inputs` of a log report: lines, records, calls, distinct, skipped...
nlohmann::ordered_json log_facts(const input::WorkloadLog& log);

struct LlmReportOptions {
  bool shapes_only = false;   // the matmul list without costs
  bool merge_shapes = false;  // merge entries with identical calls
  // The cost model; `quant` may list several schemes ("a,b,c"): a side-by-side comparison.
  eval::Settings cost;
  // A log's non-matmul kernels (input::WorkloadLog::vector_kernels), costed on the vector unit
  // beside the matmuls (docs/logs.md#non-matmul-kernels); table and JSON of one scheme.
  std::vector<input::VectorKernelCall> vector_kernels;
};

// The report of a matmul list in `format` (docs/llm.md#report).
std::string render_llm_report(std::vector<llm::MatmulShape> shapes,
                              const llm::ReportContext& context, const LlmReportOptions& options,
                              io::ReportFormat format);
// The model report of one scheme (cost.quant names at most one).
llm::ModelReport build_llm_report(const std::vector<llm::MatmulShape>& shapes,
                                  const llm::ReportContext& context, const eval::Settings& cost);

// A workload log made ready to cost, as `tenet log` and tenet.log do it (docs/logs.md#schemes):
// the entries, joined with the TVMScript dump `tir` when given (each call takes its kernel's
// structure and own scheme; `options.cost.named_schemes` receives the kernels' schemes no preset
// expresses), then, unless `options.cost` forces a scheme, each entry without one takes the
// header's `quantization` (a relative scheme-file path is read from the log's directory). An
// entry whose kernel dequantizes its weights and still has no scheme is
// InputError(missing-field) naming the log, the kernel and the three ways to give one (unless
// only shapes are asked). `warnings`: distinct, in order.
struct LogWorkload {
  std::vector<llm::MatmulShape> shapes;
  llm::ReportContext context;
  std::vector<std::string> warnings;
};
LogWorkload prepare_log(const input::WorkloadLog& log, const std::string& tir,
                        LlmReportOptions& options);

// "a,b,c" -> {a, b, c}; an empty item is InputError(parse, where "quant").
std::vector<std::string> split_scheme_list(const std::string& text);

}  // namespace tenet::report
