// model, log, generate and tir as one function each (command/llm_commands.hpp).
#include "command/llm_commands.hpp"

#include "tenet/eval/settings.hpp"
#include "tenet/input/workload_log.hpp"
#include "tenet/llm/model_matmuls.hpp"

namespace tenet::command {
namespace {

report::LlmReportOptions listing_options(const ListingArgs& a) {
  report::LlmReportOptions o;
  o.shapes_only = a.shapes_only;
  o.merge_shapes = a.merge_shapes;
  o.cost = a.cost;
  return o;
}

// "skipped N malformed line(s) of FILE (lines 3, 7, ...); first: REASON"
std::string skipped_lines(const input::WorkloadLog& log) {
  std::string lines;
  for (std::int64_t n : log.skipped_lines) lines += (lines.empty() ? "" : ", ") + std::to_string(n);
  if (log.skipped > static_cast<std::int64_t>(log.skipped_lines.size())) lines += ", ...";
  return "skipped " + std::to_string(log.skipped) + " malformed line(s) of " + log.file +
         " (lines " + lines + "); first: " + log.first_skip_reason;
}

}  // namespace

std::string model(const ModelArgs& args) {
  const llm::ModelConfig config = args.config ? *args.config : llm::load_model_config(args.model);
  llm::GenerationOptions g = report::generation_options(args.pass);
  // The MLP fused where the accelerator's compiler fuses it (docs/llm.md#fused-mlp).
  const eval::Settings& cost = args.listing.cost;
  g.fused_mlp = cost.accelerator ? cost.accelerator->spec().chip.fuse_mlp
                                 : eval::resolve_accelerator(cost.arch, "").spec().chip.fuse_mlp;
  const std::vector<llm::MatmulShape> shapes = llm::generate_matmuls(config, g);
  return report::render_llm_report(shapes, report::model_context(args.model, args.pass, config, g),
                                   listing_options(args.listing), args.listing.format);
}

Report log(const LogArgs& args) {
  input::LogReadOptions read;
  read.format = input::parse_log_format(args.log_format);
  read.lenient = args.lenient;
  const input::WorkloadLog log = input::read_workload_log_file(args.input, read);
  Report out;
  if (log.skipped > 0) out.warnings.push_back(skipped_lines(log));
  report::LlmReportOptions options = listing_options(args.listing);
  report::LogWorkload w = report::prepare_log(log, args.tir, options);
  out.warnings.insert(out.warnings.end(), w.warnings.begin(), w.warnings.end());
  if (args.tokens > 0) w.context.tokens = args.tokens;
  options.vector_kernels = log.vector_kernels;
  out.text = report::render_llm_report(w.shapes, w.context, options, args.listing.format);
  return out;
}

std::string generate(const GenerateArgs& args) {
  return report::render_generate(args.request, args.format);
}

report::TirReport tir(const TirArgs& args) {
  return report::render_tir_report(args.run, args.format);
}

}  // namespace tenet::command
