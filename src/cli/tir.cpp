// `tenet tir`: the matmul kernels of a TVMScript dump (MLC-LLM debug-phase*.py, mod.script()),
// recognised by structure, bound to sizes, and costed like `tenet model` / `tenet log` rows
// (docs/tir.md#cli).
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "io/report_format.hpp"
#include "report/tir_report.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::tir_command {
namespace {

struct TirOptions {
  report::TirRun run;
  std::string format = "table";
};

void run_tir(const TirOptions& o) {
  if (!o.run.arch.empty()) warn_implausible_arch(o.run.arch);
  const report::TirReport r = report::render_tir_report(o.run, io::parse_report_format(o.format));
  fmt::print("{}", r.text);
  if (!r.notes.empty()) fmt::print(stderr, "{}", r.notes);
}

void setup_tir(CLI::App& sub) {
  auto o = std::make_shared<TirOptions>();
  sub.add_option("--input", o->run.input,
                 "TVMScript: a printed IRModule (MLC-LLM debug-phase3.py) or one PrimFunc")
      ->required();
  sub.add_option("--func", o->run.func, "Only this PrimFunc");
  sub.add_option("--bind", o->run.bind,
                 "Values of the symbolic sizes, NAME=VALUE,... (e.g. seq_len=512,n=128)");
  sub.add_option("--arch", o->run.arch,
                 "Accelerator: preset name or architecture JSON file (default scalable-32x32)");
  sub.add_option("--dataflow", o->run.dataflow,
                 "Dataflow: os, ws or is (default: the accelerator's, else os)");
  sub.add_option("--quant", o->run.quant,
                 "auto (default: each kernel's own dequantize chain) or a preset name / JSON "
                 "file forced on every kernel");
  add_edge_transfers(sub, o->run.edge_transfers);
  sub.add_flag("--shapes-only", o->run.shapes_only,
               "List the recognised matmuls without evaluating their cost");
  sub.add_option("--format", o->format, "Output: table (default), json or csv")
      ->check(CLI::IsMember({"table", "json", "csv"}));
  sub.callback([o] { run_tir(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("tir",
                       "Matmul kernels of a TVM TensorIR dump (TVMScript), recognised and costed",
                       setup_tir, 42);

}  // namespace tenet::cli::tir_command
