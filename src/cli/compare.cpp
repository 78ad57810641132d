// `tenet compare --quant q0f16,q4f16_1,...`: one GEMM on one accelerator under several
// quantization schemes, side by side (docs/quantization.md#tenet-compare).
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "command/commands.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/settings.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::compare_command {
namespace {

struct CompareOptions {
  std::string gemm, format = "table", output;
  eval::Settings settings;
  bool kv = false;
  std::string kv_token_axis = "n";
  bool accumulate = false;
};

void run_compare(const CompareOptions& o) {
  command::CompareArgs args;
  args.gemm = gemm_of(o.gemm);
  for (const std::string& scheme : split_scheme_list(o.settings.quant))
    args.schemes.push_back(std::make_shared<const quant::QuantSpec>(eval::resolve_scheme(scheme)));
  args.settings = o.settings;
  warn_implausible_arch(o.settings.arch);
  args.kv = o.kv;
  args.kv_token_axis = o.kv_token_axis;
  args.accumulate = o.accumulate;
  args.format = format_of(o.format);
  write_output(command::compare(args), o.output, "the comparison");
}

void setup_compare(CLI::App& sub) {
  auto o = std::make_shared<CompareOptions>();
  add_gemm_option(sub, o->gemm)
      ->description("GEMM M,N,K (A is MxK activations, B is KxN weights)")
      ->required();
  add_settings(sub, o->settings, kAllSettings);
  sub.get_option("--quant")->required()->description(
      "comma-separated schemes: preset names or JSON files");
  sub.add_flag("--kv", o->kv, "B is a KV-cache tensor (uses the scheme's kv_cache operand)");
  sub.add_option("--kv-token-axis", o->kv_token_axis,
                 "with --kv: n (K cache in Q·Kᵀ, default) or k (V cache in P·V)");
  add_accumulate_flag(sub, o->accumulate);
  add_format_option(sub, o->format, "table (default) or json", {});
  add_output_option(sub, o->output);
  sub.callback([o] { run_compare(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("compare",
                       "One GEMM under several quantization schemes side by side (cycles, bound, "
                       "bytes per level, energy, speed-up)",
                       setup_compare, 20);

}  // namespace tenet::cli::compare_command
