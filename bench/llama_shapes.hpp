// The distinct matmuls of Llama-2-7B prefill (prompt 2048) and decode (context 2048), each with
// its phase ("prefill", "decode"): the problems of BM_layer (bench/sweep.cpp) and of
// bench_search_probe (bench/search_probe.cpp). Attention as its two matmuls (qk, pv), as these
// benchmarks measured it before fused attention: they time matmul layers and the tiling search;
// the fused kernels have bench_kernel (bench/kernel.cpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"

namespace tenet_bench {

inline std::vector<std::pair<std::string, tenet::llm::MatmulShape>> llama_shapes() {
  using namespace tenet;
  const llm::ModelConfig model =
      llm::load_model_config(std::string(TENET_SOURCE_DIR) + "/workloads/models/llama-2-7b.json");
  llm::GenerationOptions prefill;
  prefill.prompt = 2048;
  prefill.fused_attention = false;
  llm::GenerationOptions decode;
  decode.phase = llm::Phase::kDecode;
  decode.context = 2048;
  decode.fused_attention = false;
  std::vector<std::pair<std::string, llm::MatmulShape>> shapes;
  for (const auto& s : llm::generate_matmuls(model, prefill)) shapes.push_back({"prefill", s});
  for (const auto& s : llm::generate_matmuls(model, decode)) shapes.push_back({"decode", s});
  return shapes;
}

}  // namespace tenet_bench
