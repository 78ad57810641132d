// `tenet analyze`: load one problem (JSON spec, TENET files, TENET experiment or the GEMM
// generator), run the TENET-compatible analysis and print the report (docs/cli.md):
// command::analyze. This file reads the options into command::AnalyzeArgs.
#include "command/analyze.hpp"

#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "tenet/error.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::analyze_command {
namespace {

struct AnalyzeOptions {
  command::AnalyzeArgs args;
  std::string gemm;
  bool no_same_time = false, no_prev_time = false;
  int hops = 1;
  std::string format = "table", output;
};

// ---- options ------------------------------------------------------------------------------

// Returns the --gemm option (the hardware options depend on it).
CLI::Option* add_input_options(CLI::App& app, AnalyzeOptions& o) {
  command::AnalyzeArgs& a = o.args;
  const char* group =
      "Input (exactly one of: --spec, the three --tenet-* files, --tenet-experiment, --gemm)";
  auto* spec = app.add_option("--spec", a.spec, "JSON spec (docs/formats.md)")->group(group);
  auto* stmt =
      app.add_option("--tenet-stmt", a.tenet_stmt, "TENET statement file (.s)")->group(group);
  auto* pe = app.add_option("--tenet-pe", a.tenet_pe, "TENET PE array file (.p)")->group(group);
  auto* map = app.add_option("--tenet-map", a.tenet_map, "TENET mapping file (.m)")->group(group);
  auto* exp = app.add_option("--tenet-experiment", a.tenet_experiment,
                             "TENET experiment file (paths of mapping, PE array, statement)")
                  ->group(group);
  auto* data =
      app.add_option("--tenet-data-dir", a.tenet_data_dir,
                     "directory the experiment's relative paths start from "
                     "(default: the experiment's directory or its nearest ancestor holding them)")
          ->group(group);
  auto* gemm = add_gemm_option(app, o.gemm)
                   ->description("GEMM generator: M,N,K (A is MxK, B is KxN, C is MxN)")
                   ->group(group);
  auto* array = add_setting(app, a.settings, Setting::kArray)
                    ->description(
                        "GEMM generator: PE array RxC, e.g. 16x16 (with --arch: overrides its "
                        "shape)")
                    ->group(group);
  auto* flow = add_setting(app, a.settings, Setting::kDataflow)
                   ->description("GEMM generator: os (default), ws or is")
                   ->group(group);
  for (auto* other : {stmt, pe, map, exp, data, gemm, array, flow}) spec->excludes(other);
  for (auto* other : {exp, data, gemm, array, flow}) {
    stmt->excludes(other);
    pe->excludes(other);
    map->excludes(other);
  }
  for (auto* other : {gemm, array, flow}) exp->excludes(other);
  stmt->needs(pe)->needs(map);
  pe->needs(stmt);
  map->needs(stmt);
  data->needs(exp);
  // --gemm needs --array or --arch: checked in run_analyze
  array->needs(gemm);
  flow->needs(gemm);
  return gemm;
}

void add_generator_options(CLI::App& app, command::AnalyzeArgs& a, CLI::Option* gemm) {
  const char* gen = "GEMM generator settings";
  CLI::Option* settings[] = {
      app.add_option("--bits-a", a.bits.a, "bits per element of A (default 16)")->group(gen),
      app.add_option("--bits-b", a.bits.b, "bits per element of B (default 16)")->group(gen),
      app.add_option("--bits-c", a.bits.c, "bits per element of C (default 16)")->group(gen),
      app.add_option("--bandwidth", a.bandwidth, "scratchpad bandwidth, bits/cycle (default 64)")
          ->group(gen),
      app.add_option("--latency", a.latency, "average scratchpad latency, cycles (default 1)")
          ->group(gen),
      add_accumulate_flag(app, a.accumulate)->group(gen)};
  for (auto* setting : settings) setting->needs(gemm);
}

void add_analysis_options(CLI::App& app, AnalyzeOptions& o) {
  const char* group = "Analysis";
  app.add_option("--hops", o.hops,
                 "interconnect hops in the reuse neighbourhood (default 1; 0 = same PE only)")
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  app.add_flag("--no-same-time", o.no_same_time, "no reuse from neighbours at the same time stamp")
      ->group(group);
  app.add_flag("--no-prev-time", o.no_prev_time, "no reuse from the previous time stamp")
      ->group(group);
  app.add_option(
         "--compute-delay", o.args.analysis.compute_delay,
         "compute delay over active PEs (active, TENET master) or floor(average active PEs) (avg)")
      ->group(group);
}

// The hardware, timing and quantization options of the GEMM generator, each needing --gemm.
void add_hardware_options(CLI::App& app, command::AnalyzeArgs& a, CLI::Option* gemm) {
  const char* group = "Hardware, timing and quantization (with --gemm)";
  eval::Settings& s = a.settings;
  add_setting(app, s, Setting::kArch)
      ->description(
          "accelerator: preset name (configs/arch) or architecture JSON file; --array overrides "
          "its "
          "shape");
  add_setting(app, s, Setting::kTiming)
      ->description(
          "systolic (hardware model: cycles, accesses, energy; default with --arch) or tenet (the "
          "TENET delay only; default without --arch)");
  add_setting(app, s, Setting::kQuant)
      ->description(
          "quantization scheme: preset name (configs/quant) or JSON file; B is the weight "
          "operand");
  add_settings(app, s, {Setting::kTile, Setting::kTilingObjective});
  app.add_option("--loop-order", a.loop_order,
                 "systolic timing: tile loop order, a permutation of mnk (outermost first); needs "
                 "--tile MxNxK");
  add_settings(app, s, {Setting::kDequantRate, Setting::kEdgeTransfers});
  for (const char* name : {"--arch", "--timing", "--quant", "--tile", "--tiling-objective",
                           "--loop-order", "--dequant-rate", "--edge-transfers"})
    app.get_option(name)->group(group)->needs(gemm);
}

void add_output_options(CLI::App& app, AnalyzeOptions& o) {
  const char* group = "Output";
  add_format_option(app, o.format, "table (default), json or csv (docs/output.md)", {})
      ->group(group);
  add_output_option(app, o.output)->group(group);
}

// ---- running ------------------------------------------------------------------------------

void run_analyze(const AnalyzeOptions& o, const CLI::App& sub) {
  command::AnalyzeArgs a = o.args;
  a.format = format_of(o.format);
  if (a.spec.empty() && a.tenet_stmt.empty() && a.tenet_experiment.empty() && o.gemm.empty())
    throw CLI::ValidationError("input",
                               "give one input: --spec, --tenet-stmt/--tenet-pe/--tenet-map, "
                               "--tenet-experiment or --gemm/--array/--dataflow");
  if (!o.gemm.empty()) {
    if (a.settings.array.empty() && a.settings.arch.empty())
      throw CLI::ValidationError("--gemm", "needs --array RxC or --arch NAME|FILE");
    a.gemm = gemm_of(o.gemm);
  }
  if (sub.count("--hops") > 0) a.analysis.hops = o.hops;
  if (o.no_same_time) a.analysis.same_time = false;
  if (o.no_prev_time) a.analysis.prev_time = false;
  if (!a.settings.arch.empty()) warn_implausible_arch(a.settings.arch);
  write_output(command::analyze(a), o.output, "the report to this file");
}

void setup_analyze(CLI::App& sub) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::Option* gemm = add_input_options(sub, *options);
  add_generator_options(sub, options->args, gemm);
  add_analysis_options(sub, *options);
  add_hardware_options(sub, options->args, gemm);
  for (const char* generator : {"--bandwidth", "--latency"})
    sub.get_option(generator)->excludes("--arch");
  for (const char* bits : {"--bits-a", "--bits-b", "--bits-c"})
    sub.get_option(bits)->excludes("--quant");
  add_output_options(sub, *options);
  sub.callback([options, &sub] { run_analyze(*options, sub); });
}

}  // namespace

TENET_REGISTER_COMMAND(
    "analyze",
    "TENET-compatible metrics (volumes, reuse, PE activity, delay, energy) of one "
    "workload, architecture and mapping",
    setup_analyze, 10);

}  // namespace tenet::cli::analyze_command
