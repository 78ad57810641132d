#include "report/generate_report.hpp"

#include <fmt/format.h>

#include "detail/exact.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/defaults.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/quant/quant_json.hpp"

namespace tenet::report {
namespace {

using nlohmann::ordered_json;

template <class T>
ordered_json optional_json(const std::optional<T>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}

struct Evaluated {
  llm::ModelConfig model;
  std::string description;
  llm::RequestReport report;
  std::string scheme;
  std::vector<std::string> warnings;  // llm::CostModel::warnings
};

Evaluated evaluate(const GenerateRequest& g) {
  if (g.cost.quant.find(',') != std::string::npos)
    throw InputError(error_code::kUsage, "", "quant",
                     "a request is evaluated with one scheme, got \"" + g.cost.quant + "\"");
  Evaluated e;
  eval::Settings settings = g.cost;  // one scheme for every matmul: the default when none given
  if (settings.quant.empty() && !settings.scheme) settings.quant = eval::defaults::kScheme;
  e.model = g.config ? *g.config : llm::load_model_config(g.model);
  const eval::Request base = eval::make_request(settings);
  const quant::QuantSpec& scheme = *base.scheme;
  const llm::CostModel cost = eval::make_cost_model(settings);
  llm::RequestOptions o = g.options;
  ModelPass pass = g.conventions;
  pass.phase = "prefill";
  pass.batch = o.batch;
  pass.prompt = o.prompt;
  pass.context = 0;
  o.pass = generation_options(pass);
  o.pass.fused_mlp = base.accelerator->spec().chip.fuse_mlp;  // docs/llm.md#fused-mlp
  e.report = llm::evaluate_request(e.model, o, cost, *base.accelerator, scheme);
  e.description = cost.description;
  e.scheme = scheme.name;
  e.warnings = cost.warnings;
  return e;
}

ordered_json to_json(const GenerateRequest& g, const Evaluated& e) {
  const llm::RequestReport& r = e.report;
  ordered_json steps = ordered_json::array();
  for (const llm::RequestStep& s : r.steps)
    steps.push_back({{"context", s.context}, {"seconds", s.seconds}});
  ordered_json ops = ordered_json::object();
  for (const auto& [kind, t] : r.ops)
    ops[kind] = {{"seconds", t.seconds}, {"dram_bytes", ::tenet::detail::exact_json(t.dram_bytes)}};
  const llm::RequestMemory& m = r.memory;
  const llm::RequestParallel& p = r.parallel;
  return {
      {"source", g.model},
      {"inputs",
       {{"model", e.model.name},
        {"model_type", e.model.model_type},
        {"prompt", g.options.prompt},
        {"tokens", g.options.tokens},
        {"batch", g.options.batch},
        {"quant", e.scheme}}},
      {"assumptions", e.model.assumptions},
      {"cost_model", e.description},
      {"warnings", e.warnings},
      {"timeline",
       {{"ttft_seconds", r.ttft_seconds},
        {"tpot_seconds", optional_json(r.tpot_seconds)},
        {"e2e_seconds", r.e2e_seconds},
        {"tokens_per_second", r.tokens_per_second},
        {"steps", steps}}},
      {"memory",
       {{"weights_bytes", ::tenet::detail::exact_json(m.weights_bytes)},
        {"kv_cache_bytes", ::tenet::detail::exact_json(m.kv_cache_bytes)},
        {"state_bytes", ::tenet::detail::exact_json(m.state_bytes)},
        {"activation_bytes", ::tenet::detail::exact_json(m.activation_bytes)},
        {"total_bytes", ::tenet::detail::exact_json(m.total_bytes)},
        {"per_chip_bytes", ::tenet::detail::exact_json(m.per_chip_bytes)},
        {"per_chip_weights_bytes", ::tenet::detail::exact_json(m.per_chip_weights_bytes)},
        {"per_chip_kv_cache_bytes", ::tenet::detail::exact_json(m.per_chip_kv_cache_bytes)},
        {"capacity_bytes", optional_json(m.capacity_bytes)},
        {"fits", optional_json(m.fits)},
        {"max_batch", optional_json(m.max_batch)}}},
      {"ops", ops},
      {"parallel",
       {{"tp", p.tp},
        {"pp", p.pp},
        {"micro_batches", p.micro_batches},
        {"bubble_fraction", p.bubble_fraction},
        {"layer_collective_bytes", ::tenet::detail::exact_json(p.layer_collective_bytes)},
        {"embedding_collective_bytes", ::tenet::detail::exact_json(p.embedding_collective_bytes)},
        {"logits_collective_bytes", ::tenet::detail::exact_json(p.logits_collective_bytes)},
        {"pipeline_bytes", ::tenet::detail::exact_json(p.pipeline_bytes)},
        {"collective_seconds", p.collective_seconds},
        {"link_gbps", optional_json(p.link_gbps)},
        {"link_latency_us", optional_json(p.link_latency_us)}}}};
}

std::string seconds_text(double s) {
  if (s >= 1) return fmt::format("{:.3f} s", s);
  if (s >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  return fmt::format("{:.3f} us", s * 1e6);
}

std::string gib(const llm::Integer& bytes) {
  return fmt::format("{:.2f} GiB", bytes.get_d() / (1 << 30));
}

std::string table(const GenerateRequest& g, const Evaluated& e) {
  const llm::RequestReport& r = e.report;
  const llm::RequestMemory& m = r.memory;
  std::string out =
      fmt::format("model: {} ({})\ncost model: {}\n", e.model.name, g.model, e.description);
  for (const std::string& a : e.model.assumptions) out += "warning: " + a + "\n";
  out += fmt::format("request: batch {}, prompt {}, tokens {}, tp {}, pp {}\n", g.options.batch,
                     g.options.prompt, g.options.tokens, r.parallel.tp, r.parallel.pp);
  std::string fits = "unknown (no dram.capacity_bytes)";
  if (m.fits)
    fits = fmt::format("{} ({} per chip of {}; max batch {})", *m.fits ? "yes" : "NO",
                       gib(m.per_chip_bytes),
                       gib(llm::Integer(static_cast<long>(*m.capacity_bytes))), *m.max_batch);
  out += fmt::format("TTFT {}, TPOT {}, {:.1f} tokens/s, fits: {}\n", seconds_text(r.ttft_seconds),
                     r.tpot_seconds ? seconds_text(*r.tpot_seconds) : std::string("-"),
                     r.tokens_per_second, fits);
  out += fmt::format("end to end {}; memory: weights {}, KV cache {}, {}activations {}\n",
                     seconds_text(r.e2e_seconds), gib(m.weights_bytes), gib(m.kv_cache_bytes),
                     m.state_bytes > 0 ? "recurrent state " + gib(m.state_bytes) + ", " : "",
                     gib(m.activation_bytes));
  if (r.parallel.tp > 1 || r.parallel.pp > 1)
    out += fmt::format("per chip: {} (weights {}, KV cache {})\n", gib(m.per_chip_bytes),
                       gib(m.per_chip_weights_bytes), gib(m.per_chip_kv_cache_bytes));
  if (r.parallel.tp > 1 || r.parallel.pp > 1)
    out += fmt::format(
        "collectives {} ({} bytes per chip in the layers' all-reduces), pipeline "
        "bubble {:.1f}%\n",
        seconds_text(r.parallel.collective_seconds), r.parallel.layer_collective_bytes.get_str(),
        100 * r.parallel.bubble_fraction);
  double busy = 0;
  for (const auto& kv : r.ops) busy += kv.second.seconds;
  out += fmt::format("\n{:<12} {:>14} {:>7} {:>18}\n", "op", "seconds", "share", "DRAM bytes");
  for (const auto& [kind, t] : r.ops)
    out += fmt::format("{:<12} {:>14.6f} {:>6.1f}% {:>18}\n", kind, t.seconds,
                       busy > 0 ? 100 * t.seconds / busy : 0.0, t.dram_bytes.get_str());
  return out;
}

// The prefill (step 0, context = the prompt) and every decode step.
std::string csv(const GenerateRequest& g, const Evaluated& e) {
  std::string out = "step,context,seconds\n";
  out += fmt::format("0,{},{}\n", g.options.prompt, e.report.ttft_seconds);
  std::int64_t i = 1;
  for (const llm::RequestStep& s : e.report.steps)
    out += fmt::format("{},{},{}\n", i++, s.context, s.seconds);
  return out;
}

}  // namespace

nlohmann::ordered_json generate_json(const GenerateRequest& request) {
  return to_json(request, evaluate(request));
}

std::string render_generate(const GenerateRequest& request, io::ReportFormat format) {
  const Evaluated e = evaluate(request);
  switch (format) {
    case io::ReportFormat::kJson:
      return to_json(request, e).dump(2) + "\n";
    case io::ReportFormat::kCsv:
      return csv(request, e);
    default:
      return table(request, e);
  }
}

}  // namespace tenet::report
