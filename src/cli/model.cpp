// `tenet model`: the matmuls of a Hugging Face model config for one prefill or decode pass,
// with their cost on an accelerator (or only their shapes with --shapes-only).
#include <memory>

#include "cli/command.hpp"
#include "cli/llm_options.hpp"
#include "cli/option_rules.hpp"
#include "report/llm_report.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::model_command {
namespace {

struct ModelOptions {
  std::string model;
  std::string phase = "prefill";
  std::int64_t batch = 1;
  std::int64_t prompt = 0;
  std::int64_t context = 0;
  std::string qkv = "fused";
  std::string gate_up = "fused";
  std::string lm_head = "last";
  std::string attention = "causal";
  std::string mla;  // empty: naive in prefill, absorbed in decode
  std::string routing = "uniform";
  ReportOptions report;
};

report::ModelPass model_pass(const ModelOptions& o) {
  report::ModelPass p;
  p.phase = o.phase;
  p.batch = o.batch;
  p.prompt = o.prompt;
  p.context = o.context;
  p.qkv = o.qkv;
  p.gate_up = o.gate_up;
  p.lm_head = o.lm_head;
  p.attention = o.attention;
  p.mla = o.mla;
  p.routing = o.routing;
  return p;
}

void run_model(const ModelOptions& o) {
  const llm::ModelConfig model = llm::load_model_config(o.model);
  if (!o.report.shapes_only) warn_implausible_arch(o.report.cost.arch);
  const report::ModelPass pass = model_pass(o);
  const llm::GenerationOptions g = report::generation_options(pass);
  const std::vector<llm::MatmulShape> shapes = llm::generate_matmuls(model, g);
  print_llm_report(shapes, report::model_context(o.model, pass, model, g), o.report);
}

void setup_model(CLI::App& sub) {
  auto o = std::make_shared<ModelOptions>();
  sub.add_option("--model", o->model,
                 "Hugging Face config.json, or a bundled model's name (workloads/models: e.g. "
                 "llama-2-7b)")
      ->required();
  sub.add_option("--phase", o->phase, "prefill (default) or decode")
      ->check(CLI::IsMember({"prefill", "decode"}));
  with_rule(sub.add_option("--batch", o->batch, "Sequences processed together (default 1)"),
            OptionRule::kPositive);
  with_rule(sub.add_option("--prompt", o->prompt, "Prompt tokens per sequence (prefill)"),
            OptionRule::kPositive);
  with_rule(sub.add_option("--context", o->context,
                           "Tokens in the KV cache attended by the new token (decode)"),
            OptionRule::kPositive);
  sub.add_option("--qkv", o->qkv, "fused (default) or separate Q, K, V projections")
      ->check(CLI::IsMember({"fused", "separate"}));
  sub.add_option("--gate-up", o->gate_up, "fused (default) or separate gate and up projections")
      ->check(CLI::IsMember({"fused", "separate"}));
  sub.add_option("--lm-head", o->lm_head, "Prefill logits of the last token (default) or of all")
      ->check(CLI::IsMember({"last", "all"}));
  sub.add_option("--attention", o->attention,
                 "Prefill attention: causal (default; the tiles of a blocked kernel) or dense")
      ->check(CLI::IsMember({"causal", "dense"}));
  sub.add_option("--mla", o->mla,
                 "Multi-head latent attention path: naive or absorbed (default: naive in "
                 "prefill, absorbed in decode)")
      ->check(CLI::IsMember({"naive", "absorbed"}));
  sub.add_option("--routing", o->routing,
                 "MoE routing: uniform (default) or a JSON file {\"tokens_per_expert\": [...]}");
  add_report_options(sub, o->report);
  sub.callback([o] { run_model(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("model",
                       "Matmuls of an LLM (HF config.json) in prefill or decode, and their cost",
                       setup_model, 40);

}  // namespace tenet::cli::model_command
