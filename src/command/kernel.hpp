// `tenet kernel`: one fused kernel (attention or MLP) on one accelerator, as one library function
// that the CLI (src/cli/kernel.cpp) and Python's tenet.kernel call (docs/cli.md#tenet-kernel).
// Errors name the fields ffn, attention, activation, bias, causal, scores, window, format and the
// settings' (arch, quant, ...); the CLI maps them to its options.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "io/report_format.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/fused/result.hpp"

namespace tenet::command {

struct KernelArgs {
  std::optional<std::array<std::int64_t, 3>> ffn;        // S, H, I
  std::string activation;                                // silu_gated | gelu (with ffn)
  bool bias = false;                                     // with ffn
  std::optional<std::array<std::int64_t, 5>> attention;  // HQ, HKV, Q, KV, D
  bool causal = false;                                   // with attention
  std::string scores;                                    // on_chip (default) | dram
  std::optional<std::int64_t> window;  // with attention and causal: a sliding window of W keys
  bool relation_centric = false;       // also count the chosen blocking from the isl relations
  eval::Settings settings;  // accelerator, scheme (empty: eval::defaults::kScheme), dataflow...
  io::ReportFormat format = io::ReportFormat::kTable;
};

// The evaluation and the `inputs` object its report names.
struct KernelRun {
  fused::KernelResult result;
  nlohmann::ordered_json inputs;
};
KernelRun run_kernel(const KernelArgs& args);
// run_kernel rendered (report::render_kernel) in args.format.
std::string kernel(const KernelArgs& args);

}  // namespace tenet::command
