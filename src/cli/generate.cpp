// `tenet generate`: a whole generation request (prefill + decode steps) of a Hugging Face model
// config: time to first token, time per output token, memory, parallelism (docs/generate.md).
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/llm_options.hpp"
#include "cli/option_rules.hpp"
#include "report/generate_report.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::generate_command {
namespace {

struct GenerateOptions {
  report::GenerateRequest request;
  double link_gbps = 0;
  double link_latency_us = -1;
  std::string format = "table";
};

void run_generate(GenerateOptions o) {
  if (o.link_gbps != 0) o.request.options.link_gbps = o.link_gbps;
  if (o.link_latency_us >= 0) o.request.options.link_latency_us = o.link_latency_us;
  warn_implausible_arch(o.request.cost.arch);
  fmt::print("{}", report::render_generate(o.request, io::parse_report_format(o.format)));
}

void setup_generate(CLI::App& sub) {
  auto o = std::make_shared<GenerateOptions>();
  report::GenerateRequest& r = o->request;
  sub.add_option("--model", r.model,
                 "Hugging Face config.json, or a bundled model's name (workloads/models: e.g. "
                 "llama-3-8b)")
      ->required();
  with_rule(
      sub.add_option("--prompt", r.options.prompt, "P: prompt tokens per sequence")->required(),
      OptionRule::kPositive);
  with_rule(sub.add_option("--tokens", r.options.tokens,
                           "G: tokens generated per sequence (the first by the prefill)")
                ->required(),
            OptionRule::kPositive);
  with_rule(sub.add_option("--batch", r.options.batch, "B: sequences (default 1)"),
            OptionRule::kPositive);
  with_rule(sub.add_option("--tp", r.options.tp, "Tensor-parallel chips (default 1)"),
            OptionRule::kPositive);
  with_rule(sub.add_option("--pp", r.options.pp, "Pipeline stages (default 1)"),
            OptionRule::kPositive);
  with_rule(sub.add_option("--micro-batches", r.options.micro_batches,
                           "Pipeline micro-batches (default min(batch, pp))"),
            OptionRule::kPositive);
  sub.add_option("--link-gbps", o->link_gbps,
                 "Chip-to-chip link bandwidth, gigabits per second per direction (default: the "
                 "accelerator file's link)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--link-latency-us", o->link_latency_us,
                 "Latency of one link message, microseconds (default: the file's, else 1)")
      ->check(CLI::NonNegativeNumber);
  sub.add_option("--qkv", r.conventions.qkv, "fused (default) or separate Q, K, V projections")
      ->check(CLI::IsMember({"fused", "separate"}));
  sub.add_option("--gate-up", r.conventions.gate_up,
                 "fused (default) or separate gate and up projections")
      ->check(CLI::IsMember({"fused", "separate"}));
  sub.add_option("--attention", r.conventions.attention,
                 "Prefill attention: causal (default) or dense")
      ->check(CLI::IsMember({"causal", "dense"}));
  sub.add_option("--format", o->format, "Output: table (default), json, or csv (the steps)")
      ->check(CLI::IsMember({"table", "json", "csv"}));
  add_settings_options(sub, r.cost, "");
  sub.callback([o] { run_generate(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("generate",
                       "A whole generation request of an LLM: TTFT, TPOT, tokens/s, memory, "
                       "tensor and pipeline parallelism",
                       setup_generate, 45);

}  // namespace tenet::cli::generate_command
