#include "command/fields.hpp"

#include <set>

namespace tenet::command {

bool is_field(const std::string& name) {
  static const std::set<std::string> fields{
      // eval::Settings (eval/settings.hpp)
      "arch", "array", "dataflow", "quant", "timing", "tile", "loop_order", "tiling_objective",
      "dequant_rate", "dequant_ops_rate",
      // report formats, search and sweep settings
      "format", "objective", "dataflows", "threads", "shard", "resume", "out", "buffers",
      // matmul sources and the model pass (report::ModelPass)
      "gemm", "model", "batch", "prompt", "context", "phase", "attention", "routing", "mla", "qkv",
      "gate_up", "lm_head", "kv_token_axis",
      // tir
      "bind", "func",
      // generate (llm::RequestOptions)
      "tokens", "tp", "pp", "micro_batches", "link_gbps", "link_latency_us",
      // analyze: the GEMM generator and the analysis
      "bits_a", "bits_b", "bits_c", "bandwidth", "latency", "hops", "compute_delay",
      // kernel (command/kernel.hpp)
      "ffn", "activation", "bias", "causal", "scores", "window"};
  return fields.count(name) > 0;
}

}  // namespace tenet::command
