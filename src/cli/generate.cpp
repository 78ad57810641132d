// `tenet generate`: a whole generation request (prefill + decode steps) of a Hugging Face model
// config: time to first token, time per output token, memory, parallelism (docs/generate.md):
// command::generate.
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/option_rules.hpp"
#include "cli/options.hpp"
#include "command/llm_commands.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::generate_command {
namespace {

struct GenerateOptions {
  command::GenerateArgs args;
  double link_gbps = 0;         // 0: not given (the accelerator file's link)
  double link_latency_us = -1;  // < 0: not given
  std::string format = "table";
};

void add_request_options(CLI::App& sub, GenerateOptions& o) {
  llm::RequestOptions& r = o.args.request.options;
  with_rule(sub.add_option("--prompt", r.prompt, "P: prompt tokens per sequence")->required(),
            OptionRule::kPositive);
  with_rule(sub.add_option("--tokens", r.tokens,
                           "G: tokens generated per sequence (the first by the prefill)")
                ->required(),
            OptionRule::kPositive);
  with_rule(sub.add_option("--batch", r.batch, "B: sequences (default 1)"), OptionRule::kPositive);
  with_rule(sub.add_option("--tp", r.tp, "Tensor-parallel chips (default 1)"),
            OptionRule::kPositive);
  with_rule(sub.add_option("--pp", r.pp, "Pipeline stages (default 1)"), OptionRule::kPositive);
  with_rule(sub.add_option("--micro-batches", r.micro_batches,
                           "Pipeline micro-batches (default min(batch, pp))"),
            OptionRule::kPositive);
  sub.add_option("--link-gbps", o.link_gbps,
                 "Chip-to-chip link bandwidth, gigabits per second per direction (default: the "
                 "accelerator file's link)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--link-latency-us", o.link_latency_us,
                 "Latency of one link message, microseconds (default: the file's, else 1)")
      ->check(CLI::NonNegativeNumber);
}

void setup_generate(CLI::App& sub) {
  auto o = std::make_shared<GenerateOptions>();
  report::GenerateRequest& r = o->args.request;
  add_model_option(sub, r.model)->required();
  add_request_options(sub, *o);
  add_pass_options(sub, r.conventions,
                   {PassOption::kQkv, PassOption::kGateUp, PassOption::kAttention,
                    PassOption::kAttentionKernel});
  add_format_option(sub, o->format, "Output: table (default), json, or csv (the steps)",
                    {"table", "json", "csv"});
  add_settings(sub, r.cost, kAllSettings);
  sub.callback([o] {
    command::GenerateArgs args = o->args;
    if (o->link_gbps != 0) args.request.options.link_gbps = o->link_gbps;
    if (o->link_latency_us >= 0) args.request.options.link_latency_us = o->link_latency_us;
    args.format = format_of(o->format);
    warn_implausible_arch(args.request.cost.arch);
    fmt::print("{}", command::generate(args));
  });
}

}  // namespace

TENET_REGISTER_COMMAND("generate",
                       "A whole generation request of an LLM: TTFT, TPOT, tokens/s, memory, "
                       "tensor and pipeline parallelism",
                       setup_generate, 45);

}  // namespace tenet::cli::generate_command
