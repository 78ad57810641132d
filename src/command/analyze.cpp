// `tenet analyze` as one function (command/analyze.hpp): the request of a problem source or of
// the GEMM generator, its evaluation, and every error placed on the input it came from.
#include "command/analyze.hpp"

#include "command/fields.hpp"
#include "report/evaluation_report.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/input/problem.hpp"
#include "tenet/input/spec.hpp"
#include "tenet/input/tenet_files.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::command {
namespace {

// Where the problem came from, to place the errors the analysis reports.
struct ProblemFiles {
  std::string spec, statement, pe, mapping;  // empty when not from files
  bool gemm = false, spec_json = false;
};

ProblemFiles problem_files(const AnalyzeArgs& a) {
  const int given = int(!a.spec.empty()) + int(a.spec_json.has_value()) +
                    int(!a.tenet_stmt.empty()) + int(!a.tenet_experiment.empty()) +
                    int(a.gemm.has_value());
  if (given != 1)
    throw InputError(error_code::kUsage, "", "gemm",
                     "give exactly one problem: a spec, the TENET files (statement, PE array, "
                     "mapping), a TENET experiment or a GEMM");
  ProblemFiles f;
  if (!a.spec.empty()) f.spec = a.spec;
  if (!a.tenet_stmt.empty()) f.statement = a.tenet_stmt, f.pe = a.tenet_pe, f.mapping = a.tenet_map;
  if (!a.tenet_experiment.empty()) {
    const input::TenetExperiment e =
        input::read_tenet_experiment(a.tenet_experiment, a.tenet_data_dir);
    f.statement = e.statement, f.pe = e.pe, f.mapping = e.mapping;
  }
  f.gemm = a.gemm.has_value();
  f.spec_json = a.spec_json.has_value();
  return f;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// A value error of the GEMM generator (a JSON pointer of the generated spec), placed on the
// argument it came from.
std::string generator_field(const std::string& w) {
  if (starts_with(w, "/mapping")) return "dataflow";
  if (starts_with(w, "/architecture") || w == "/rows" || w == "/cols") return "array";
  if (w == "/accesses/0/bits") return "bits_a";
  if (w == "/accesses/1/bits") return "bits_b";
  if (w == "/accesses/2/bits") return "bits_c";
  if (w == "/bandwidth_bits_per_cycle") return "bandwidth";
  if (w == "/avg_latency_cycles") return "latency";
  return "gemm";
}

// An error of the analysis (a JSON pointer, no file) placed on the input it came from.
InputError locate(const InputError& e, const ProblemFiles& files, const AnalysisFlags& flags) {
  const std::string& w = e.where();
  if (!e.file().empty()) return e;
  if (starts_with(w, "/neighbourhood") && flags.hops)
    return InputError(e.code(), "", "hops", e.message());
  if (!files.spec.empty()) return e.located(files.spec, "");
  if (files.spec_json) return e;
  if (files.gemm)
    return is_field(w) ? e : InputError(e.code(), "", generator_field(w), e.message());
  if (starts_with(w, "/mapping/space"))
    return InputError(e.code(), files.mapping, "line 1", e.message());
  if (starts_with(w, "/mapping/time"))
    return InputError(e.code(), files.mapping, "line 2", e.message());
  if (starts_with(w, "/mapping")) return InputError(e.code(), files.mapping, "", e.message());
  if (starts_with(w, "/workload")) return InputError(e.code(), files.statement, "", e.message());
  if (starts_with(w, "/architecture")) return InputError(e.code(), files.pe, "", e.message());
  return e;
}

// The problem's analysis settings (or the defaults), overridden by the flags given.
analysis::Options analysis_options(const AnalysisFlags& f, const input::Problem* problem) {
  analysis::Options options = problem ? input::analysis_options(*problem) : analysis::Options{};
  if (f.hops) options.neighbourhood.hops = *f.hops;
  if (f.same_time) options.neighbourhood.same_time = *f.same_time;
  if (f.prev_time) options.neighbourhood.prev_time = *f.prev_time;
  if (!f.compute_delay.empty())
    options.compute_delay =
        with_location("compute_delay", [&] { return input::parse_compute_delay(f.compute_delay); });
  return options;
}

// The GEMM generator's request: the accelerator of `arch` (shape overridden by `array`), else the
// ideal systolic array of `array`; the relation-centric analysis always.
eval::Request gemm_request(const AnalyzeArgs& a) {
  const auto [m, n, k] = *a.gemm;
  eval::Request r = eval::make_gemm_request(a.settings, {m, n, k}, a.bits, a.bandwidth, a.latency);
  if (!a.loop_order.empty()) {
    if (!r.tiling)
      throw InputError(error_code::kUsage, "", "loop_order",
                       "a loop order needs explicit tile sizes (--tile MxNxK); with --tile auto "
                       "the order is chosen with the tiles");
    r.tiling->order = mapping::parse_tiling("0x0x0:" + a.loop_order, "loop_order").order;
  }
  r.matmul.accumulate = a.accumulate;
  return r;
}

eval::Request analyze_request(const AnalyzeArgs& a, const ProblemFiles& files) {
  eval::Request r;
  if (files.gemm)
    r = gemm_request(a);
  else if (!files.spec.empty())
    r.problem = input::load_spec(files.spec);
  else if (files.spec_json)
    r.problem = input::build_problem(input::parse_spec(*a.spec_json, ""), "");
  else
    r.problem = input::load_tenet_files(files.statement, files.pe, files.mapping);
  r.analysis = analysis_options(a.analysis, r.problem ? &*r.problem : nullptr);
  return r;
}

}  // namespace

std::string analyze(const AnalyzeArgs& args) {
  const ProblemFiles files = problem_files(args);
  try {
    const eval::Request request = analyze_request(args, files);
    return report::render_evaluation(eval::evaluate(request), request, args.format);
  } catch (const InputError& e) {
    throw locate(e, files, args.analysis);
  }
}

}  // namespace tenet::command
