// `tenet kernel` (command/kernel.hpp): the kernel from its arguments, eval::evaluate_kernel, the
// report.
#include "command/kernel.hpp"

#include "report/kernel_report.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/defaults.hpp"
#include "tenet/eval/kernel.hpp"

namespace tenet::command {
namespace {

[[noreturn]] void usage(const char* field, const std::string& message) {
  throw InputError(error_code::kUsage, "", field, message);
}

fused::Kernel kernel_of(const KernelArgs& a, nlohmann::ordered_json& inputs) {
  if (a.ffn.has_value() == a.attention.has_value())
    usage("attention", "give exactly one of attention (HQ,HKV,Q,KV,D) or ffn (S,H,I)");
  if (a.attention) {
    if (!a.activation.empty()) usage("activation", "an activation is for ffn kernels");
    if (a.bias) usage("bias", "a bias is for ffn kernels");
    const auto [hq, hkv, q, kv, d] = *a.attention;
    fused::AttentionKernel k{hq, hkv, q, kv, d, a.causal, fused::ScoresPlace::kChip};
    if (!a.scores.empty()) k.scores = fused::parse_scores_place(a.scores);
    if (a.window) {
      if (!a.causal)
        usage("window",
              "a sliding window applies to causal attention (query i sees the W keys "
              "up to KV - Q + i)");
      if (*a.window < 1)
        throw InputError(error_code::kRange, "", "window",
                         "expected a window of W >= 1 keys, got " + std::to_string(*a.window));
      k.window = *a.window;
    }
    inputs["attention"] = {{"hq", hq}, {"hkv", hkv}, {"q", q}, {"kv", kv}, {"d", d}};
    inputs["causal"] = a.causal;
    if (a.window) inputs["window"] = *a.window;
    return k;
  }
  if (a.causal) usage("causal", "causal masking is for attention kernels");
  if (a.window) usage("window", "a sliding window is for attention kernels");
  if (!a.scores.empty()) usage("scores", "scores are for attention kernels");
  if (a.activation.empty())
    throw InputError(error_code::kMissingField, "", "activation",
                     "an ffn kernel needs its activation: silu_gated or gelu");
  const auto [s, h, i] = *a.ffn;
  fused::FfnKernel k{s, h, i, fused::parse_activation(a.activation), a.bias};
  inputs["ffn"] = {{"s", s}, {"h", h}, {"i", i}};
  inputs["activation"] = fused::to_string(k.activation);
  inputs["bias"] = a.bias;
  return k;
}

}  // namespace

KernelRun run_kernel(const KernelArgs& args) {
  KernelRun run;
  run.inputs = nlohmann::ordered_json::object();
  eval::KernelRequest request;
  request.kernel = kernel_of(args, run.inputs);
  fused::validate(request.kernel);
  eval::Settings settings = args.settings;
  if (settings.quant.empty() && !settings.scheme) settings.quant = eval::defaults::kScheme;
  request.base = eval::make_request(settings);
  run.inputs["arch"] = request.base.accelerator->name();
  run.inputs["quant"] = request.base.scheme ? request.base.scheme->name : std::string("none");
  run.inputs["dataflow"] = mapping::to_string(request.base.dataflow);
  request.relation_centric = args.relation_centric;
  run.result = eval::evaluate_kernel(request);
  // The scores' place as evaluated (the chip's own resolved, eval::evaluate_kernel).
  if (const auto* a = std::get_if<fused::AttentionKernel>(&run.result.kernel))
    run.inputs["scores"] = fused::to_string(a->scores);
  return run;
}

std::string kernel(const KernelArgs& args) {
  const KernelRun run = run_kernel(args);
  return report::render_kernel(run.result, run.inputs, args.format);
}

}  // namespace tenet::command
