// The kernel costs of the fused kinds of the kernel form (docs/formats.md#kernel-times): each row
// is one fused::Kernel evaluated by eval::evaluate_kernel, the one evaluation of `tenet kernel`.
//   ffn_gated_SxHxI   --ffn S,H,I --activation silu_gated
//   ffn_erf_SxHxI     --ffn S,H,I --activation gelu --bias
//   attn_enc_HqxSxD   --attention Hq,Hq,S,S,D (the chip's own non-causal attention,
//                     fusion.non_causal_attention: tpu-v6e's compiler materialises the scores, S
//                     and P whole, on chip while every head's fit, spilled when not)
//   attn_dec_HqxHkvxQxKVxD  --attention Hq,Hkv,Q,KV,D --causal (the last Q positions; scores on
//                     chip: the chip's causal attention kernel, fusion.attention)
#include "sweep/calibrate.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/kernel.hpp"

namespace tenet::sweep {
namespace {

eval::Request base_request(const Measurement& m,
                           const std::shared_ptr<const arch::Accelerator>& acc) {
  eval::Request r;
  r.bits = m.bits ? *m.bits : mapping::GemmBits{16, 16, 16};
  r.dataflow = acc->spec().dataflow.empty() ? mapping::Dataflow::kWeightStationary
                                            : mapping::parse_dataflow(acc->spec().dataflow);
  r.accelerator = acc;
  return r;
}

double seconds_of(const Measurement& m, const std::shared_ptr<const arch::Accelerator>& acc,
                  const fused::Kernel& kernel) {
  eval::KernelRequest request;
  request.kernel = kernel;
  request.base = base_request(m, acc);
  return eval::evaluate_kernel(request).seconds;
}

}  // namespace

fused::Kernel kernel_of_row(const Measurement& m) {
  const std::vector<long long>& d = m.dims;
  if (m.kind == "ffn_gated" || m.kind == "ffn_erf") {
    const bool gated = m.kind == "ffn_gated";
    return fused::FfnKernel{d.at(0), d.at(1), d.at(2),
                            gated ? fused::Activation::kSiluGated : fused::Activation::kGelu,
                            !gated};
  }
  if (m.kind == "attn_enc")
    return fused::AttentionKernel{
        d.at(0), d.at(0), d.at(1), d.at(1), d.at(2), false, fused::ScoresPlace::kChip};
  if (m.kind == "attn_dec")
    return fused::AttentionKernel{
        d.at(0), d.at(1), d.at(2), d.at(3), d.at(4), true, fused::ScoresPlace::kChip};
  throw InternalError("sweep::kernel_of_row: no fused kernel of kind " + m.kind);
}

std::map<std::string, KernelCost> builtin_kernel_costs() {
  std::map<std::string, KernelCost> out;
  for (const char* kind : {"ffn_gated", "ffn_erf", "attn_enc", "attn_dec"})
    out[kind] = [](const Measurement& m,
                   const std::shared_ptr<const arch::Accelerator>& acc) -> std::optional<double> {
      return seconds_of(m, acc, kernel_of_row(m));
    };
  return out;
}

}  // namespace tenet::sweep
