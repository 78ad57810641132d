// `tenet bound`: least DRAM traffic against global-buffer size (the ski slope) for one GEMM or a
// whole model pass: the physical lower bound of any mapping and tenet's least-traffic mapping per
// size (docs/cli.md#tenet-bound). The work is eval::traffic_curve; this file reads options.
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/llm_options.hpp"
#include "cli/option_rules.hpp"
#include "command/commands.hpp"
#include "mapping/shape_text.hpp"
#include "report/curve_report.hpp"
#include "report/llm_report.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/settings.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::bound_command {
namespace {

struct BoundOptions {
  std::string gemm, model, buffers, dataflows, format = "table";  // dataflows: "" = default
  report::ModelPass pass;
  eval::Settings settings;
  int bits_a = 16, bits_b = 16, bits_c = 16;
  bool bound_only = false;
};

void run_bound(const BoundOptions& o) {
  command::BoundArgs args;
  args.source = matmul_source(o.gemm, o.model, "", o.pass);
  args.settings = o.settings;
  warn_implausible_arch(o.settings.arch);
  if (o.settings.quant.empty()) args.bits = {o.bits_a, o.bits_b, o.bits_c};
  args.buffers = report::parse_buffer_sizes(o.buffers);
  if (!o.dataflows.empty()) args.dataflows = dataflows_of(o.dataflows);
  args.bound_only = o.bound_only;
  args.format = io::parse_report_format(o.format);
  fmt::print("{}", command::bound(args));
}

void setup_bound(CLI::App& sub) {
  auto o = std::make_shared<BoundOptions>();
  sub.add_option("--gemm", o->gemm, "One GEMM M,N,K");
  sub.add_option(
      "--model", o->model,
      "Or a Hugging Face config.json (or a bundled model's name, e.g. llama-3-8b): the sum "
      "over its matmuls");
  sub.add_option("--phase", o->pass.phase, "prefill (default) or decode (with --model)")
      ->check(CLI::IsMember({"prefill", "decode"}));
  with_rule(sub.add_option("--batch", o->pass.batch, "Sequences (default 1)"),
            OptionRule::kPositive);
  with_rule(sub.add_option("--prompt", o->pass.prompt, "Prompt tokens (prefill)"),
            OptionRule::kPositive);
  with_rule(sub.add_option("--context", o->pass.context, "KV-cache tokens (decode)"),
            OptionRule::kPositive);
  sub.add_option("--buffers", o->buffers,
                 "Global-buffer sizes: FROM..TO[:POINTS] (geometric, default 16 points) or a "
                 "list, units B/KiB/MiB/GiB (e.g. 64KiB..64MiB:32)")
      ->required();
  for (auto [name, member] :
       {std::pair{"--bits-a", &BoundOptions::bits_a}, std::pair{"--bits-b", &BoundOptions::bits_b},
        std::pair{"--bits-c", &BoundOptions::bits_c}})
    sub.add_option(name, (*o).*member, "Operand width in bits (unquantized; default 16)")
        ->check(CLI::Range(1, 64));
  sub.add_option("--arch", o->settings.arch,
                 "Accelerator: preset name or architecture JSON file (default scalable-32x32)");
  sub.add_option("--array", o->settings.array, "Override the accelerator's PE array, RxC");
  sub.add_option("--quant", o->settings.quant, "Quantization scheme: preset name or JSON file")
      ->excludes("--bits-a")
      ->excludes("--bits-b")
      ->excludes("--bits-c");
  with_rule(sub.add_option("--dequant-rate", o->settings.dequant_rate,
                           "Dequant unit elements/cycle (default: the scheme's)"),
            OptionRule::kNonNegative);
  add_edge_transfers(sub, o->settings.edge_transfers);
  sub.add_option("--dataflows", o->dataflows,
                 "Dataflows searched (default: the accelerator's declared dataflow, else "
                 "os,ws,is)");
  sub.add_flag("--bound-only", o->bound_only,
               "Only the analytic lower bound (no mapping search): microseconds per point");
  sub.add_option("--format", o->format, "table (default), json or csv")
      ->check(CLI::IsMember({"table", "json", "csv"}));
  sub.callback([o] { run_bound(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("bound",
                       "Least DRAM traffic against buffer size (ski slope): the lower bound of "
                       "any mapping and tenet's least-traffic mapping",
                       setup_bound, 73);

}  // namespace tenet::cli::bound_command
