// `tenet compare --quant q0f16,q4f16_1,...`: one GEMM on one accelerator under several
// quantization schemes, side by side (docs/quantization.md#tenet-compare).
#include <fmt/core.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include "cli/llm_options.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/mapping/shape_text.hpp"
#include "tenet/mapping/tiling.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/quant/quant_hw_format.hpp"
#include "tenet/quant/quant_json.hpp"
#include "tenet/report/evaluation_report.hpp"

namespace tenet::cli {
namespace {

struct CompareOptions {
  std::string gemm, format = "table", output;
  eval::Settings settings;
  bool kv = false;
  std::string kv_token_axis = "n";
};

void write(const std::string& text, const std::string& path) {
  if (path.empty()) {
    std::cout << text << std::flush;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw InputError(error_code::kIo, path, "--output", "cannot write the comparison");
}

// The GEMM as a matmul entry: B is the weights, or with --kv the K cache (Q·Kᵀ, tokens along N:
// NT) or the V cache (P·V, tokens along K: NN).
llm::MatmulShape compared_matmul(const CompareOptions& o) {
  const mapping::GemmShape shape =
      with_location("--gemm", [&] { return mapping::parse_gemm_shape(o.gemm); });
  if (shape.m <= 0 || shape.n <= 0 || shape.k <= 0)
    throw InputError(error_code::kRange, "", "--gemm",
                     "expected M, N, K > 0, got \"" + o.gemm + "\"");
  llm::MatmulShape m;
  m.name = "gemm";
  m.m = shape.m, m.n = shape.n, m.k = shape.k;
  if (!o.kv) return m;
  if (o.kv_token_axis != "n" && o.kv_token_axis != "k")
    throw InputError(
        error_code::kUnknownName, "", "--kv-token-axis",
        "expected n (K cache in Q·Kᵀ) or k (V cache in P·V), got \"" + o.kv_token_axis + "\"");
  m.b_operand = workload::OperandRole::kKvCache;
  m.layout = o.kv_token_axis == "n" ? llm::Layout::kNT : llm::Layout::kNN;
  return m;
}

void run_compare(const CompareOptions& o) {
  const io::ReportFormat format =
      with_location("--format", [&] { return io::parse_report_format(o.format); });
  if (format == io::ReportFormat::kCsv)
    throw InputError(error_code::kUnknownName, "", "--format",
                     "expected table or json, got \"" + o.format + "\"");
  eval::Settings settings = o.settings;
  settings.quant.clear();  // one request per scheme below
  eval::Request request = eval::make_request(settings);
  request.matmul = compared_matmul(o);
  if (request.timing != eval::Timing::kSystolic)
    throw InputError(error_code::kUsage, "", "--timing",
                     "compare uses the systolic timing model (the TENET delay: tenet analyze)");
  std::vector<eval::Evaluation> evaluations;
  for (const std::string& scheme : split_scheme_list(o.settings.quant)) {
    request.scheme = std::make_shared<const quant::QuantSpec>(eval::resolve_scheme(scheme));
    evaluations.push_back(eval::evaluate(request));
  }
  write(report::render_comparison(evaluations, format), o.output);
}

void setup_compare(CLI::App& sub) {
  auto o = std::make_shared<CompareOptions>();
  sub.add_option("--gemm", o->gemm, "GEMM M,N,K (A is MxK activations, B is KxN weights)")
      ->required();
  add_settings_options(sub, o->settings, "");
  sub.get_option("--quant")->required()->description(
      "comma-separated schemes: preset names or JSON files");
  sub.add_flag("--kv", o->kv, "B is a KV-cache tensor (uses the scheme's kv_cache operand)");
  sub.add_option("--kv-token-axis", o->kv_token_axis,
                 "with --kv: n (K cache in Q·Kᵀ, default) or k (V cache in P·V)");
  sub.add_option("--format", o->format, "table (default) or json");
  sub.add_option("--output", o->output, "write to this file instead of standard output");
  sub.callback([o] { run_compare(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("compare",
                       "One GEMM under several quantization schemes side by side (cycles, bound, "
                       "bytes per level, energy, speed-up)",
                       setup_compare, 20);

}  // namespace tenet::cli
