// `tenet bound`: least DRAM traffic against global-buffer size (the ski slope) for one GEMM or a
// whole model pass: the physical lower bound of any mapping and tenet's least-traffic mapping per
// size (docs/cli.md#tenet-bound). The work is eval::traffic_curve; this file reads options.
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "command/commands.hpp"
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
  args.format = format_of(o.format);
  fmt::print("{}", command::bound(args));
}

void setup_bound(CLI::App& sub) {
  auto o = std::make_shared<BoundOptions>();
  add_gemm_option(sub, o->gemm);
  add_model_option(sub, o->model)
      ->description(
          "Or a Hugging Face config.json (or a bundled model's name, e.g. llama-3-8b): the sum "
          "over its matmuls");
  add_pass_options(sub, o->pass, kPassLengths);
  sub.add_option("--buffers", o->buffers,
                 "Global-buffer sizes: FROM..TO[:POINTS] (geometric, default 16 points) or a "
                 "list, units B/KiB/MiB/GiB (e.g. 64KiB..64MiB:32)")
      ->required();
  for (auto [name, member] :
       {std::pair{"--bits-a", &BoundOptions::bits_a}, std::pair{"--bits-b", &BoundOptions::bits_b},
        std::pair{"--bits-c", &BoundOptions::bits_c}})
    sub.add_option(name, (*o).*member, "Operand width in bits (unquantized; default 16)")
        ->check(CLI::Range(1, 64));
  add_settings(sub, o->settings, {Setting::kArch, Setting::kArray});
  add_setting(sub, o->settings, Setting::kQuant)
      ->description("Quantization scheme: preset name (configs/quant) or JSON file")
      ->excludes("--bits-a")
      ->excludes("--bits-b")
      ->excludes("--bits-c");
  add_settings(sub, o->settings, {Setting::kDequantRate, Setting::kEdgeTransfers});
  add_dataflows_option(sub, o->dataflows);
  sub.add_flag("--bound-only", o->bound_only,
               "Only the analytic lower bound (no mapping search): microseconds per point");
  add_format_option(sub, o->format, "table (default), json or csv", {"table", "json", "csv"});
  sub.callback([o] { run_bound(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("bound",
                       "Least DRAM traffic against buffer size (ski slope): the lower bound of "
                       "any mapping and tenet's least-traffic mapping",
                       setup_bound, 73);

}  // namespace tenet::cli::bound_command
