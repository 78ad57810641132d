// tenet._tenet: the Python bindings (docs/python.md). Every command is the CLI's command::
// function (src/command: analyze, compare, model, log, generate, tir, search, bound, calibrate)
// called with the keywords read into its arguments; reports come back as the CLI's text, so a
// Python result equals the CLI's output. tenet.evaluate (Evaluator) and the sweep call
// eval::evaluate and the sweep runner directly. InputError becomes tenet.InputError (code, file,
// pointer); evaluation runs without the GIL; a sweep runs on the library's worker threads.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <pybind11_json/pybind11_json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "command/analyze.hpp"
#include "command/calibrate.hpp"
#include "command/commands.hpp"
#include "command/kernel.hpp"
#include "command/llm_commands.hpp"
#include "io/report_format.hpp"
#include "llm/model_report.hpp"
#include "mapping/shape_text.hpp"
#include "report/generate_report.hpp"
#include "report/llm_report.hpp"
#include "report/tir_report.hpp"
#include "sweep/sweep_plan.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_spec.hpp"
#include "sweep/sweep_table.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/eval/traffic_curve.hpp"
#include "tenet/hw/bounds.hpp"
#include "tenet/input/workload_log.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/mapping/tiling.hpp"
#include "tenet/quant/quant_json.hpp"
#include "tenet/tir/script.hpp"
#include "tir/log_join.hpp"

namespace py = pybind11;
using nlohmann::json;
using namespace tenet;

namespace {

// ---- inputs ----------------------------------------------------------------------------------

// A Python value as JSON (dicts, lists, str, int, float, bool, None); anything else is an
// InputError(type) at `where`.
json to_json(const py::handle& value, const std::string& where) {
  try {
    return value.cast<json>();
  } catch (const std::exception& e) {
    throw InputError(
        error_code::kType, "", where,
        std::string("expected JSON-like data (dict, list, str, number, bool, None): ") + e.what());
  }
}

std::string text_field(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  if (!it->is_string())
    throw InputError(error_code::kType, "", key, "expected a string, got " + it->dump());
  return it->get<std::string>();
}

long long int_field(const json& j, const char* key, long long fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_number_integer())
    throw InputError(error_code::kType, "", key, "expected an integer, got " + it->dump());
  return it->get<long long>();
}

bool bool_field(const json& j, const char* key, bool fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_boolean())
    throw InputError(error_code::kType, "", key, "expected true or false, got " + it->dump());
  return it->get<bool>();
}

// The evaluation settings of a call: {arch, array, dataflow, quant, timing, tile,
// tiling_objective, dequant_rate, dequant_ops_rate, edge_transfers}; `arch` and `quant` may be
// names / paths or the file's content as a dict.
eval::Settings settings_of(const json& j) {
  static const char* const known[] = {"arch",
                                      "array",
                                      "dataflow",
                                      "quant",
                                      "timing",
                                      "tile",
                                      "tiling_objective",
                                      "dequant_rate",
                                      "dequant_ops_rate",
                                      "edge_transfers"};
  if (!j.is_object()) throw InputError(error_code::kType, "", "", "settings must be a dict");
  for (const auto& [key, value] : j.items())
    if (std::find(std::begin(known), std::end(known), key) == std::end(known))
      throw InputError(error_code::kUnknownField, "", key, "not an evaluation setting");
  eval::Settings s;
  if (j.contains("arch") && j["arch"].is_object())
    s.accelerator = std::make_shared<const arch::Accelerator>(arch::parse_accelerator(j["arch"]));
  else
    s.arch = text_field(j, "arch");
  s.array = text_field(j, "array");
  s.dataflow = text_field(j, "dataflow");
  if (j.contains("quant") && j["quant"].is_object())
    s.scheme = std::make_shared<const quant::QuantSpec>(quant::parse_quant_spec(j["quant"]));
  else
    s.quant = text_field(j, "quant");
  s.timing = text_field(j, "timing");
  s.tile = text_field(j, "tile");
  s.tiling_objective = text_field(j, "tiling_objective");
  s.dequant_rate = int_field(j, "dequant_rate", 0);
  s.dequant_ops_rate = int_field(j, "dequant_ops_rate", 0);
  s.edge_transfers = bool_field(j, "edge_transfers", s.edge_transfers);
  return s;
}

// {hops, same_time, prev_time, compute_delay}: the analysis settings given.
command::AnalysisFlags analysis_flags(const json& j) {
  command::AnalysisFlags f;
  if (j.contains("hops") && !j["hops"].is_null())
    f.hops = static_cast<int>(int_field(j, "hops", 1));
  if (j.contains("same_time") && !j["same_time"].is_null())
    f.same_time = bool_field(j, "same_time", true);
  if (j.contains("prev_time") && !j["prev_time"].is_null())
    f.prev_time = bool_field(j, "prev_time", true);
  f.compute_delay = text_field(j, "compute_delay");
  return f;
}

io::ReportFormat format_of(const std::string& name) {
  return io::parse_report_format(name.empty() ? "json" : name);
}

// Runs f without the GIL (evaluation is pure C++ and thread-safe).
template <typename F>
auto released(F&& f) -> decltype(f()) {
  py::gil_scoped_release release;
  return f();
}

// ---- commands ----------------------------------------------------------------------------------

// tenet analyze --gemm M,N,K ...
std::string analyze_gemm(long long m, long long n, long long k, const py::object& settings,
                         const std::vector<int>& bits, long long bandwidth, long long latency,
                         const std::string& loop_order, const py::object& analysis, bool accumulate,
                         const std::string& format) {
  command::AnalyzeArgs args;
  args.settings = settings_of(to_json(settings, "settings"));
  if (bits.size() != 3)
    throw InputError(error_code::kType, "", "bits", "expected three widths (A, B, C)");
  args.gemm = {m, n, k};
  args.bits = {bits[0], bits[1], bits[2]};
  args.bandwidth = bandwidth;
  args.latency = latency;
  args.loop_order = loop_order;
  args.accumulate = accumulate;
  args.analysis = analysis_flags(to_json(analysis, "analysis"));
  args.format = format_of(format);
  return released([&] { return command::analyze(args); });
}

// tenet analyze --spec FILE | --tenet-stmt/--tenet-pe/--tenet-map; `spec` a path or a dict.
std::string analyze_problem(const py::object& spec, const std::vector<std::string>& tenet_files,
                            const py::object& analysis, const std::string& format) {
  command::AnalyzeArgs args;
  if (!tenet_files.empty()) {
    if (tenet_files.size() != 3)
      throw InputError(error_code::kType, "", "tenet_files",
                       "expected three paths: statement (.s), PE array (.p), mapping (.m)");
    args.tenet_stmt = tenet_files[0], args.tenet_pe = tenet_files[1];
    args.tenet_map = tenet_files[2];
  } else if (py::isinstance<py::str>(spec)) {
    args.spec = spec.cast<std::string>();
  } else {
    args.spec_json = to_json(spec, "spec");
  }
  args.analysis = analysis_flags(to_json(analysis, "analysis"));
  args.format = format_of(format);
  return released([&] { return command::analyze(args); });
}

// A JSON value as Python objects (dict, list, int, float, str, bool, None), without text.
py::object to_python(const nlohmann::ordered_json& j) {
  switch (j.type()) {
    case json::value_t::object: {
      py::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[py::str(it.key())] = to_python(it.value());
      return std::move(d);
    }
    case json::value_t::array: {
      py::list l;
      for (const auto& v : j) l.append(to_python(v));
      return std::move(l);
    }
    case json::value_t::string:
      return py::str(j.get_ref<const std::string&>());
    case json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case json::value_t::number_float:
      return py::float_(j.get<double>());
    default:
      return py::none();
  }
}

// The settings of a call resolved once (presets read, scheme parsed): tenet.Evaluator. Each
// evaluate() is then one eval::evaluate of a matmul; its LayerCost as the reports render it
// (llm::layer_cost_json: the per-call fields of a model report) plus the tiling and dataflow.
class Evaluator {
 public:
  explicit Evaluator(const py::object& settings)
      : request_(eval::make_request(settings_of(to_json(settings, "settings")))) {
    if (request_.timing != eval::Timing::kSystolic)
      throw InputError(error_code::kUsage, "", "timing",
                       "evaluate uses the systolic timing model (tenet.analyze has the TENET "
                       "delay)");
  }

  py::dict evaluate(long long m, long long n, long long k, long long batch, const std::string& name,
                    bool accumulate) const {
    eval::Request r = request_;
    r.matmul.name = name;
    r.matmul.accumulate = accumulate;
    r.matmul.m = m, r.matmul.n = n, r.matmul.k = k, r.matmul.batch = batch;
    const eval::Evaluation e = released([&] { return eval::evaluate(r); });
    py::dict d = to_python(llm::layer_cost_json(e.call_cost()));
    d["tiling"] = mapping::to_string(e.tiling());
    d["dataflow"] = mapping::to_string(r.dataflow);
    if (e.scheme) d["scheme"] = e.scheme->spec.name;
    return d;
  }

  // C++ time of eval::evaluate of this matmul, seconds per call, in a C++ loop: the baseline of
  // bench/python_overhead.py.
  double time(long long m, long long n, long long k, int repeats) const {
    eval::Request r = request_;
    r.matmul.name = "gemm";
    r.matmul.m = m, r.matmul.n = n, r.matmul.k = k;
    return released([&] {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < repeats; ++i) eval::evaluate(r);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
             std::max(repeats, 1);
    });
  }

 private:
  eval::Request request_;
};

// tenet compare --gemm M,N,K --quant a,b,c
std::string run_compare(long long m, long long n, long long k, const py::list& schemes,
                        const py::object& settings, bool kv, const std::string& kv_token_axis,
                        bool accumulate, const std::string& format) {
  json s = to_json(settings, "settings");
  s.erase("quant");
  command::CompareArgs args;
  args.gemm = {m, n, k};
  args.settings = settings_of(s);
  for (std::size_t i = 0; i < schemes.size(); ++i) {
    const py::handle item = schemes[i];
    const std::string where = "quant/" + std::to_string(i);
    args.schemes.push_back(std::make_shared<const quant::QuantSpec>(
        py::isinstance<py::str>(item) ? eval::resolve_scheme(item.cast<std::string>())
                                      : quant::parse_quant_spec(to_json(item, where), "")));
  }
  args.kv = kv;
  args.kv_token_axis = kv_token_axis;
  args.accumulate = accumulate;
  args.format = format_of(format);
  return released([&] { return command::compare(args); });
}

// tenet kernel --ffn S,H,I | --attention HQ,HKV,Q,KV,D (sizes: 3 or 5 integers)
std::string run_kernel(const std::vector<std::int64_t>& ffn,
                       const std::vector<std::int64_t>& attention, const std::string& activation,
                       bool bias, bool causal, const std::string& scores, bool relation_centric,
                       const py::object& settings, const std::string& format,
                       std::optional<std::int64_t> window) {
  command::KernelArgs args;
  if (!ffn.empty()) {
    if (ffn.size() != 3) throw InputError(error_code::kRange, "", "ffn", "expected 3 sizes S,H,I");
    args.ffn = std::array<std::int64_t, 3>{ffn[0], ffn[1], ffn[2]};
  }
  if (!attention.empty()) {
    if (attention.size() != 5)
      throw InputError(error_code::kRange, "", "attention", "expected 5 sizes HQ,HKV,Q,KV,D");
    args.attention = std::array<std::int64_t, 5>{attention[0], attention[1], attention[2],
                                                 attention[3], attention[4]};
  }
  args.activation = activation;
  args.bias = bias;
  args.causal = causal;
  args.scores = scores;
  args.window = window;
  args.relation_centric = relation_centric;
  args.settings = settings_of(to_json(settings, "settings"));
  args.format = format_of(format);
  return released([&] { return command::kernel(args); });
}

// The model pass of a call: the keys given over report::ModelPass's defaults.
report::ModelPass pass_of(const json& j) {
  report::ModelPass p;
  for (auto [key, field] :
       {std::pair{"phase", &report::ModelPass::phase}, std::pair{"qkv", &report::ModelPass::qkv},
        std::pair{"gate_up", &report::ModelPass::gate_up},
        std::pair{"lm_head", &report::ModelPass::lm_head},
        std::pair{"attention", &report::ModelPass::attention},
        std::pair{"mla", &report::ModelPass::mla},
        std::pair{"attention_kernel", &report::ModelPass::attention_kernel},
        std::pair{"routing", &report::ModelPass::routing}})
    if (!text_field(j, key).empty()) p.*field = text_field(j, key);
  p.batch = int_field(j, "batch", p.batch);
  p.prompt = int_field(j, "prompt", p.prompt);
  p.context = int_field(j, "context", p.context);
  return p;
}

command::ListingArgs listing_of(const py::object& settings, bool shapes_only, bool merge_shapes,
                                const std::string& format) {
  command::ListingArgs o;
  o.shapes_only = shapes_only;
  o.merge_shapes = merge_shapes;
  o.cost = settings_of(to_json(settings, "settings"));
  o.format = format_of(format);
  return o;
}

// A config.json path (or bundled name), or its content as a dict ("<dict>" in reports).
void config_of(const py::object& config, std::string& model,
               std::optional<llm::ModelConfig>& parsed) {
  const bool from_file = py::isinstance<py::str>(config);
  model = from_file ? config.cast<std::string>() : std::string("<dict>");
  if (!from_file) parsed = llm::parse_model_config(to_json(config, "config"), "");
}

// tenet model --model CONFIG ...; `config` a path or the config.json content as a dict.
std::string run_model(const py::object& config, const py::object& pass, const py::object& settings,
                      bool shapes_only, bool merge_shapes, const std::string& format) {
  command::ModelArgs args;
  config_of(config, args.model, args.config);
  args.pass = pass_of(to_json(pass, "pass"));
  args.listing = listing_of(settings, shapes_only, merge_shapes, format);
  return released([&] { return command::model(args); });
}

// tenet generate --model CONFIG --prompt P --tokens G ...: the request's report (JSON or table).
std::string run_generate(const py::object& config, const py::object& request,
                         const py::object& pass, const py::object& settings,
                         const std::string& format) {
  command::GenerateArgs args;
  report::GenerateRequest& g = args.request;
  config_of(config, g.model, g.config);
  const json r = to_json(request, "request");
  static const char* const known[] = {"prompt", "tokens",        "batch",     "tp",
                                      "pp",     "micro_batches", "link_gbps", "link_latency_us"};
  for (const auto& [key, value] : r.items())
    if (std::find(std::begin(known), std::end(known), key) == std::end(known))
      throw InputError(error_code::kUnknownField, "", key, "not a request setting");
  g.options.prompt = int_field(r, "prompt", g.options.prompt);
  g.options.tokens = int_field(r, "tokens", g.options.tokens);
  g.options.batch = int_field(r, "batch", g.options.batch);
  g.options.tp = int_field(r, "tp", g.options.tp);
  g.options.pp = int_field(r, "pp", g.options.pp);
  g.options.micro_batches = int_field(r, "micro_batches", g.options.micro_batches);
  for (const char* key : {"link_gbps", "link_latency_us"}) {
    const auto it = r.find(key);
    if (it == r.end() || it->is_null()) continue;
    if (!it->is_number())
      throw InputError(error_code::kType, "", key, "expected a number, got " + it->dump());
    (std::string(key) == "link_gbps" ? g.options.link_gbps : g.options.link_latency_us) =
        it->get<double>();
  }
  g.conventions = pass_of(to_json(pass, "pass"));
  g.cost = settings_of(to_json(settings, "settings"));
  args.format = format_of(format);
  return released([&] { return command::generate(args); });
}

// tenet log --input FILE ...: (report text, warnings).
std::pair<std::string, std::vector<std::string>> run_log(
    const std::string& path, const std::string& log_format, bool lenient, long long tokens,
    const std::string& tir_path, const py::object& settings, bool shapes_only, bool merge_shapes,
    const std::string& format) {
  command::LogArgs args;
  args.input = path;
  if (!log_format.empty()) args.log_format = log_format;
  args.lenient = lenient;
  args.tokens = tokens;
  args.tir = tir_path;
  args.listing = listing_of(settings, shapes_only, merge_shapes, format);
  const command::Report r = released([&] { return command::log(args); });
  return {r.text, r.warnings};
}

// tenet sweep: the rows as JSON Lines (exactly the CLI's --out x.jsonl lines) and a summary.
std::pair<std::string, json> run_sweep(const py::object& spec, unsigned threads,
                                       const std::string& shard, bool memo,
                                       const py::object& progress) {
  const sweep::SweepSpec parsed = py::isinstance<py::str>(spec)
                                      ? sweep::load_sweep_spec(spec.cast<std::string>())
                                      : sweep::parse_sweep_spec(to_json(spec, "spec"), "");
  const sweep::SweepPlan plan = sweep::make_sweep_plan(parsed);
  sweep::RunOptions run;
  if (threads < 1) throw InputError(error_code::kRange, "", "threads", "expected >= 1");
  run.threads = threads;
  run.memo = memo;
  if (!shard.empty()) run.shard = sweep::parse_shard(shard, "shard");
  if (!progress.is_none()) {
    py::function callback = progress;
    run.progress = [callback](const sweep::Progress& p) {
      py::gil_scoped_acquire acquire;
      callback(p.done, p.total, p.elapsed_seconds);
    };
  }
  const bool relation_centric = plan.spec().relation_centric;
  const bool requests = plan.has_requests();
  const std::vector<std::string> columns = sweep::sweep_columns(relation_centric, requests);
  std::string lines;
  const sweep::RunSummary s = released([&] {
    return sweep::run_sweep(plan, run, [&](const sweep::SweepRow& row) {
      lines +=
          sweep::format_row(sweep::make_row(row.point, row.metrics, relation_centric, requests),
                            columns, sweep::TableFormat::kJsonl);
    });
  });
  json summary = {{"points", s.points},
                  {"in_shard", s.in_shard},
                  {"written", s.written},
                  {"errors", s.errors},
                  {"layer_requests", s.layer_requests},
                  {"layer_evaluations", s.layer_evaluations},
                  {"seconds", s.seconds},
                  {"columns", columns}};
  return {lines, summary};
}

// The matmuls of a call: a GEMM (M, N, K), or a model config (a path or the config.json content as
// a dict) with its pass; as command::MatmulSource.
command::MatmulSource source_of(const py::object& gemm, const py::object& config,
                                const py::object& pass) {
  command::MatmulSource source;
  source.pass = pass_of(to_json(pass, "pass"));
  if (!gemm.is_none()) {
    const auto g = gemm.cast<std::vector<long long>>();
    if (g.size() != 3) throw InputError(error_code::kParse, "", "gemm", "expected (M, N, K)");
    source.gemm = {g[0], g[1], g[2]};
  }
  if (py::isinstance<py::str>(config))
    source.model = config.cast<std::string>();
  else if (!config.is_none())
    source.config = llm::parse_model_config(to_json(config, "config"), "");
  return source;
}

// tenet search: the best mapping of each matmul (a GEMM or a model pass) under an objective, with
// the Pareto front; the CLI's JSON.
std::string run_search(const py::object& gemm, const py::object& config, const py::object& pass,
                       const py::object& settings, const std::string& objective,
                       const std::vector<std::string>& dataflows, bool exact_front) {
  command::SearchArgs args;
  args.source = source_of(gemm, config, pass);
  args.settings.eval = settings_of(to_json(settings, "settings"));
  args.settings.objective = objective;
  args.settings.dataflows = dataflows;
  args.settings.exact_front = exact_front;
  args.format = io::ReportFormat::kJson;
  return released([&] { return command::search(args); });
}

// tenet tir --input FILE ...: (report text, notes).
std::pair<std::string, std::string> run_tir(const std::string& input, const std::string& func,
                                            const std::string& bind, const std::string& arch,
                                            const std::string& dataflow, const std::string& quant,
                                            bool shapes_only, const std::string& format) {
  command::TirArgs args;
  args.run.input = input;
  args.run.func = func;
  args.run.bind = bind;
  args.run.arch = arch;
  args.run.dataflow = dataflow;
  if (!quant.empty()) args.run.quant = quant;
  args.run.shapes_only = shapes_only;
  args.format = format_of(format);
  const report::TirReport r = released([&] { return command::tir(args); });
  return {r.text, r.notes};
}

// tenet bound: the traffic curve of a GEMM or a model pass with each buffer size (the CLI's JSON).
std::string run_bound(const py::object& gemm, const py::object& config, const py::object& pass,
                      const py::object& settings, const std::vector<long long>& buffers,
                      const std::vector<std::string>& dataflows, bool bound_only) {
  command::BoundArgs args;
  args.source = source_of(gemm, config, pass);
  args.settings = settings_of(to_json(settings, "settings"));
  args.buffers = buffers;
  for (const std::string& d : dataflows)
    args.dataflows.push_back(
        with_location("dataflows", [&] { return mapping::parse_dataflow(d); }));
  args.bound_only = bound_only;
  args.format = io::ReportFormat::kJson;
  return released([&] { return command::bound(args); });
}

// The matmuls of a model pass (name, m, n, k, batch, count...), for search and for the plots.
json model_matmuls(const py::object& config, const py::object& pass) {
  const llm::ModelConfig m = py::isinstance<py::str>(config)
                                 ? llm::load_model_config(config.cast<std::string>())
                                 : llm::parse_model_config(to_json(config, "config"), "");
  const llm::GenerationOptions g = report::generation_options(pass_of(to_json(pass, "pass")));
  json out = json::array();
  for (const llm::MatmulShape& s : llm::generate_matmuls(m, g))
    out.push_back({{"name", s.name},
                   {"m", s.m},
                   {"n", s.n},
                   {"k", s.k},
                   {"batch", s.batch},
                   {"count", s.count}});
  return out;
}

// An accelerator's facts (for the roofline): clock, array, MAC rates per precision, DRAM bandwidth.
json accelerator_info(const py::object& arch) {
  const arch::Accelerator acc =
      py::isinstance<py::dict>(arch)
          ? arch::parse_accelerator(to_json(arch, "arch"))
          : with_location("arch", [&] {
              return arch::load_accelerator_preset(arch.is_none()
                                                       ? std::string(eval::defaults::kAccelerator)
                                                       : arch.cast<std::string>());
            });
  return arch::to_json(acc);
}

// tenet.calibrate: the same fit and JSON as `tenet calibrate --format json`.
std::string run_calibrate(const std::string& measurements, const py::object& arch,
                          const std::string& config, const std::vector<std::string>& free,
                          const std::string& dataflow, const std::vector<int>& bits,
                          bool edge_transfers, int max_sweeps, bool predict_only) {
  command::CalibrateArgs args;
  args.measurements = measurements;
  if (py::isinstance<py::str>(arch))
    args.arch = arch.cast<std::string>();
  else  // a dict, or none: the default accelerator
    args.arch_json = accelerator_info(arch);
  args.config = config;
  args.free = free;
  args.dataflow = dataflow;
  if (!bits.empty() && bits.size() != 3)
    throw InputError(error_code::kUsage, "", "bits", "expected three widths (A, B, C) or none");
  for (std::size_t i = 0; i < bits.size(); ++i) args.bits[i] = bits[i];
  args.edge_transfers = edge_transfers;
  args.max_sweeps = max_sweeps;
  args.predict_only = predict_only;
  args.json = true;
  return released([&] { return command::calibrate(args).text; });
}

}  // namespace

PYBIND11_MODULE(_tenet, m) {
  m.doc() = "tenet's C++ core (the Python API is the tenet package: docs/python.md)";
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      // tenet.InputError(message) with .code, .file, .pointer, .detail
      // Messages are UTF-8 (io::excerpt); decode with replacement all the same, so that a
      // message can never turn into a UnicodeDecodeError.
      auto text = [](const std::string& s) {
        return py::reinterpret_steal<py::str>(
            PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace"));
      };
      py::object err = py::reinterpret_borrow<py::object>(input_error)(text(e.what()));
      err.attr("code") = text(e.code());
      err.attr("file") = text(e.file());
      err.attr("pointer") = text(e.where());
      err.attr("detail") = text(e.message());
      PyErr_SetObject(input_error.ptr(), err.ptr());
    } catch (const InternalError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
  m.def("analyze_gemm", &analyze_gemm);
  m.def("analyze_problem", &analyze_problem);
  py::class_<Evaluator>(m, "Evaluator")
      .def(py::init<const py::object&>())
      .def("evaluate", &Evaluator::evaluate)
      .def("time", &Evaluator::time);
  m.def("compare", &run_compare);
  m.def("kernel", &run_kernel);
  m.def("model", &run_model);
  m.def("log", &run_log);
  m.def("generate", &run_generate);
  m.def("sweep", &run_sweep);
  m.def("search", &run_search);
  m.def("tir", &run_tir);
  m.def("bound", &run_bound);
  m.def("buffer_sizes", &eval::buffer_sizes);
  m.def("model_matmuls", &model_matmuls);
  m.def("accelerator_info", &accelerator_info);
  m.def("calibrate", &run_calibrate);
  m.def("quant_presets", [] { return quant::preset_names(); });
  // eval/defaults.hpp, for the names the package prints (no default typed in Python).
  m.def("defaults", [] {
    json d = {{"accelerator", eval::defaults::kAccelerator},
              {"dataflow", mapping::to_string(eval::defaults::kDataflow)},
              {"scheme", eval::defaults::kScheme},
              {"tiling_objective", hw::to_string(eval::defaults::kTilingObjective)},
              {"edge_transfers", eval::defaults::kEdgeTransfers},
              {"search_dataflows", json::array()}};
    for (mapping::Dataflow f : eval::defaults::kSearchDataflows)
      d["search_dataflows"].push_back(mapping::to_string(f));
    return d;
  });
}
