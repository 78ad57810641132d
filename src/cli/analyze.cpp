// `tenet analyze`: load one problem (JSON spec, TENET files, TENET experiment or the GEMM
// generator), run the TENET-compatible analysis and print the report (docs/cli.md).
//
// Option groups are small structs with an add_* function each; a new group (hardware, timing,
// quantization) adds a struct, an add_* call in setup_analyze and a use in run_analyze.
#include <fmt/core.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/analyze_hw.hpp"
#include "cli/command.hpp"
#include "mapping/shape_text.hpp"
#include "report/evaluation_report.hpp"
#include "report/tenet_report.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/input/problem.hpp"
#include "tenet/input/spec.hpp"
#include "tenet/input/tenet_files.hpp"
#include "tenet/mapping/systolic.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::analyze_command {
namespace {

struct InputOptions {
  std::string spec;
  std::string tenet_stmt, tenet_pe, tenet_map;
  std::string tenet_experiment, tenet_data_dir;
  std::string gemm, array, dataflow;
  int bits_a = 16, bits_b = 16, bits_c = 16;
  long long bandwidth = 64, latency = 1;
  bool accumulate = false;  // C = C + A·B
};

struct AnalysisFlags {
  int hops = 1;
  bool no_same_time = false, no_prev_time = false;
  std::string compute_delay;
  CLI::Option* hops_option = nullptr;
};

struct OutputOptions {
  std::string format = "table";
  std::string path;
};

struct AnalyzeOptions {
  InputOptions input;
  AnalysisFlags analysis;
  HardwareOptions hardware;
  OutputOptions output;
};

// ---- options ------------------------------------------------------------------------------

// Returns the --gemm option (the hardware options depend on it).
CLI::Option* add_input_options(CLI::App& app, InputOptions& o) {
  const char* group =
      "Input (exactly one of: --spec, the three --tenet-* files, --tenet-experiment, --gemm)";
  auto* spec = app.add_option("--spec", o.spec, "JSON spec (docs/formats.md)")->group(group);
  auto* stmt =
      app.add_option("--tenet-stmt", o.tenet_stmt, "TENET statement file (.s)")->group(group);
  auto* pe = app.add_option("--tenet-pe", o.tenet_pe, "TENET PE array file (.p)")->group(group);
  auto* map = app.add_option("--tenet-map", o.tenet_map, "TENET mapping file (.m)")->group(group);
  auto* exp = app.add_option("--tenet-experiment", o.tenet_experiment,
                             "TENET experiment file (paths of mapping, PE array, statement)")
                  ->group(group);
  auto* data =
      app.add_option("--tenet-data-dir", o.tenet_data_dir,
                     "directory the experiment's relative paths start from "
                     "(default: the experiment's directory or its nearest ancestor holding them)")
          ->group(group);
  auto* gemm =
      app.add_option("--gemm", o.gemm, "GEMM generator: M,N,K (A is MxK, B is KxN, C is MxN)")
          ->group(group);
  auto* array =
      app.add_option("--array", o.array,
                     "GEMM generator: PE array RxC, e.g. 16x16 (with --arch: overrides its shape)")
          ->group(group);
  auto* flow = app.add_option("--dataflow", o.dataflow, "GEMM generator: os (default), ws or is")
                   ->group(group);
  const char* gen = "GEMM generator settings";
  CLI::Option* settings[] = {
      app.add_option("--bits-a", o.bits_a, "bits per element of A (default 16)")->group(gen),
      app.add_option("--bits-b", o.bits_b, "bits per element of B (default 16)")->group(gen),
      app.add_option("--bits-c", o.bits_c, "bits per element of C (default 16)")->group(gen),
      app.add_option("--bandwidth", o.bandwidth, "scratchpad bandwidth, bits/cycle (default 64)")
          ->group(gen),
      app.add_option("--latency", o.latency, "average scratchpad latency, cycles (default 1)")
          ->group(gen),
      app.add_flag("--accumulate", o.accumulate,
                   "C = C + A·B: C is read (from DRAM, before its first update) as well as "
                   "written")
          ->group(gen)};
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
  // --gemm needs --array or --arch: checked in analyze_request
  array->needs(gemm);
  flow->needs(gemm);
  for (auto* setting : settings) setting->needs(gemm);
  return gemm;
}

void add_analysis_options(CLI::App& app, AnalysisFlags& o) {
  const char* group = "Analysis";
  o.hops_option =
      app.add_option("--hops", o.hops,
                     "interconnect hops in the reuse neighbourhood (default 1; 0 = same PE only)")
          ->check(CLI::NonNegativeNumber)
          ->group(group);
  app.add_flag("--no-same-time", o.no_same_time, "no reuse from neighbours at the same time stamp")
      ->group(group);
  app.add_flag("--no-prev-time", o.no_prev_time, "no reuse from the previous time stamp")
      ->group(group);
  app.add_option(
         "--compute-delay", o.compute_delay,
         "compute delay over active PEs (active, TENET master) or floor(average active PEs) (avg)")
      ->group(group);
}

void add_output_options(CLI::App& app, OutputOptions& o) {
  const char* group = "Output";
  app.add_option("--format", o.format, "table (default), json or csv (docs/output.md)")
      ->group(group);
  app.add_option("--output", o.path, "write the report to this file instead of standard output")
      ->group(group);
}

// ---- loading ------------------------------------------------------------------------------

// A value error of the GEMM generator, placed on the command-line option it came from.
InputError on_option(const InputError& e) {
  std::string option = "--gemm";
  const std::string& w = e.where();
  if (w == "/rows" || w == "/cols")
    option = "--array";
  else if (w == "/accesses/0/bits")
    option = "--bits-a";
  else if (w == "/accesses/1/bits")
    option = "--bits-b";
  else if (w == "/accesses/2/bits")
    option = "--bits-c";
  else if (w == "/bandwidth_bits_per_cycle")
    option = "--bandwidth";
  else if (w == "/avg_latency_cycles")
    option = "--latency";
  return InputError(e.code(), "", option, e.message());
}

template <typename F>
auto for_option(const char* option, F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    throw InputError(e.code(), "", option, e.message());
  }
}

// Where the problem came from, to place errors the analysis reports on the right file.
struct InputFiles {
  std::string spec, statement, pe, mapping;  // empty when not from files
  bool gemm = false;
};

InputFiles input_files(const InputOptions& o) {
  if (!o.spec.empty()) return {o.spec, "", "", "", false};
  if (!o.tenet_stmt.empty()) return {"", o.tenet_stmt, o.tenet_pe, o.tenet_map, false};
  if (!o.tenet_experiment.empty()) {
    const auto e = input::read_tenet_experiment(o.tenet_experiment, o.tenet_data_dir);
    return {"", e.statement, e.pe, e.mapping, false};
  }
  if (!o.gemm.empty()) return {"", "", "", "", true};
  throw CLI::ValidationError("input",
                             "give one input: --spec, --tenet-stmt/--tenet-pe/--tenet-map, "
                             "--tenet-experiment or --gemm/--array/--dataflow");
}

input::Problem load_problem(const InputFiles& files) {
  if (!files.spec.empty()) return input::load_spec(files.spec);
  return input::load_tenet_files(files.statement, files.pe, files.mapping);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// An error of the analysis (JSON-pointer `where`, no file) placed on the input it came from.
InputError locate_analysis_error(const InputError& e, const InputFiles& files,
                                 const AnalysisFlags& flags) {
  const std::string& w = e.where();
  if (!e.file().empty()) return e;
  if (starts_with(w, "/neighbourhood") && flags.hops_option && flags.hops_option->count() > 0)
    return InputError(e.code(), "", "--hops", e.message());
  if (!files.spec.empty()) return e.located(files.spec, "");
  if (files.gemm) {
    if (starts_with(w, "--") || !option_for_field(w).empty()) return e;  // already placed
    if (starts_with(w, "/mapping")) return InputError(e.code(), "", "--dataflow", e.message());
    if (starts_with(w, "/architecture")) return InputError(e.code(), "", "--array", e.message());
    return on_option(e);
  }
  if (starts_with(w, "/mapping/space"))
    return InputError(e.code(), files.mapping, "line 1", e.message());
  if (starts_with(w, "/mapping/time"))
    return InputError(e.code(), files.mapping, "line 2", e.message());
  if (starts_with(w, "/mapping")) return InputError(e.code(), files.mapping, "", e.message());
  if (starts_with(w, "/workload")) return InputError(e.code(), files.statement, "", e.message());
  if (starts_with(w, "/architecture")) return InputError(e.code(), files.pe, "", e.message());
  return e;
}

// Spec settings, overridden by the flags given on the command line.
analysis::Options analysis_options(const AnalysisFlags& f, const input::Problem* problem) {
  analysis::Options options = problem ? input::analysis_options(*problem) : analysis::Options{};
  if (f.hops_option && f.hops_option->count() > 0) options.neighbourhood.hops = f.hops;
  if (f.no_same_time) options.neighbourhood.same_time = false;
  if (f.no_prev_time) options.neighbourhood.prev_time = false;
  if (!f.compute_delay.empty())
    options.compute_delay =
        for_option("--compute-delay", [&] { return input::parse_compute_delay(f.compute_delay); });
  return options;
}

// ---- output -------------------------------------------------------------------------------

void write_output(const std::string& text, const OutputOptions& o) {
  if (o.path.empty()) {
    std::cout << text << std::flush;
    return;
  }
  std::ofstream out(o.path, std::ios::binary);
  out << text;
  out.close();
  if (!out)
    throw InputError(error_code::kIo, o.path, "--output", "cannot write the report to this file");
}

// The request: the GEMM generator's (--gemm, with the hardware options) or a loaded problem.
eval::Request analyze_request(const AnalyzeOptions& o, const InputFiles& files) {
  eval::Request r;
  if (files.gemm) {
    if (o.input.array.empty() && o.hardware.arch.empty())
      throw CLI::ValidationError("--gemm", "needs --array RxC or --arch NAME|FILE");
    r = gemm_request(o.input.gemm, o.input.array, o.input.dataflow, o.hardware,
                     {o.input.bits_a, o.input.bits_b, o.input.bits_c}, o.input.bandwidth,
                     o.input.latency);
    r.matmul.accumulate = o.input.accumulate;
  } else {
    r.problem = load_problem(files);
  }
  r.analysis = analysis_options(o.analysis, r.problem ? &*r.problem : nullptr);
  return r;
}

void run_analyze(const AnalyzeOptions& o) {
  const auto format =
      for_option("--format", [&] { return report::parse_report_format(o.output.format); });
  const InputFiles files = input_files(o.input);
  const eval::Request request = analyze_request(o, files);
  if (!o.hardware.arch.empty() && request.accelerator) warn_implausible(*request.accelerator);
  const eval::Evaluation e = [&] {
    try {
      return eval::evaluate(request);
    } catch (const InputError& err) {
      throw locate_analysis_error(err, files, o.analysis);
    }
  }();
  write_output(report::render_evaluation(e, request, format), o.output);
}

void setup_analyze(CLI::App& sub) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::Option* gemm = add_input_options(sub, options->input);
  add_analysis_options(sub, options->analysis);
  add_hardware_options(sub, options->hardware, gemm);
  for (const char* generator : {"--bandwidth", "--latency"})
    sub.get_option(generator)->excludes("--arch");
  for (const char* bits : {"--bits-a", "--bits-b", "--bits-c"})
    sub.get_option(bits)->excludes("--quant");
  add_output_options(sub, options->output);
  sub.callback([options] { run_analyze(*options); });
}

}  // namespace

TENET_REGISTER_COMMAND(
    "analyze",
    "TENET-compatible metrics (volumes, reuse, PE activity, delay, energy) of one "
    "workload, architecture and mapping",
    setup_analyze, 10);

}  // namespace tenet::cli::analyze_command
