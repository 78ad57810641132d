// `tenet tir`: the matmul kernels of a TVMScript dump (MLC-LLM debug-phase*.py, mod.script()),
// recognised by structure, bound to sizes, and costed like `tenet model` / `tenet log` rows
// (docs/tir.md#cli): command::tir.
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "command/llm_commands.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::tir_command {
namespace {

struct TirOptions {
  command::TirArgs args;
  eval::Settings settings;  // arch, dataflow, quant, edge_transfers
  std::string format = "table";
};

void setup_tir(CLI::App& sub) {
  auto o = std::make_shared<TirOptions>();
  report::TirRun& run = o->args.run;
  sub.add_option("--input", run.input,
                 "TVMScript: a printed IRModule (MLC-LLM debug-phase3.py) or one PrimFunc")
      ->required();
  sub.add_option("--func", run.func, "Only this PrimFunc");
  sub.add_option("--bind", run.bind,
                 "Values of the symbolic sizes, NAME=VALUE,... (e.g. seq_len=512,n=128)");
  add_settings(sub, o->settings, {Setting::kArch, Setting::kDataflow});
  add_setting(sub, o->settings, Setting::kQuant)
      ->description(
          "auto (default: each kernel's own dequantize chain) or a preset name / JSON file "
          "forced on every kernel");
  add_setting(sub, o->settings, Setting::kEdgeTransfers);
  sub.add_flag("--shapes-only", run.shapes_only,
               "List the recognised matmuls without evaluating their cost");
  add_format_option(sub, o->format, "Output: table (default), json or csv",
                    {"table", "json", "csv"});
  sub.callback([o] {
    command::TirArgs args = o->args;
    args.run.arch = o->settings.arch;
    args.run.dataflow = o->settings.dataflow;
    if (!o->settings.quant.empty()) args.run.quant = o->settings.quant;
    args.run.edge_transfers = o->settings.edge_transfers;
    args.format = format_of(o->format);
    if (!args.run.arch.empty()) warn_implausible_arch(args.run.arch);
    const report::TirReport r = command::tir(args);
    fmt::print("{}", r.text);
    if (!r.notes.empty()) fmt::print(stderr, "{}", r.notes);
  });
}

}  // namespace

TENET_REGISTER_COMMAND("tir",
                       "Matmul kernels of a TVM TensorIR dump (TVMScript), recognised and costed",
                       setup_tir, 42);

}  // namespace tenet::cli::tir_command
