// What a user checks first about a model: its parameter count (from the matmul list plus
// embeddings, biases and norms) and the KV-cache bytes each token adds. Definitions in
// docs/llm.md#summary.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tenet/llm/matmul_shape.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"

namespace tenet::llm {

struct ModelSummary {
  Integer parameters;            // every weight: matmuls (all experts), embeddings, biases, norms
  Integer active_parameters;     // per token: the routed experts it does not use left out
  Integer embedding_parameters;  // token (when not tied to lm_head) and position embeddings
  Integer matmul_parameters;     // weights of the matmul list, every expert counted once
  // KV-cache elements and bytes (16-bit elements) one token adds over all layers, on the
  // attention path `options` selects for decode (MLA: latent + rope key when absorbed).
  Integer kv_cache_elements_per_token;
  Integer kv_cache_bytes_per_token;
  std::optional<double> expected_active_experts;  // decode, MoE: E·(1 − (1 − k/E)^B)
  std::vector<NonMatmulOp> non_matmul_ops;        // hybrid layers' scans: reported, not costed
};

// One weight matrix of the matmul list: `batch` matrices of N×K, `copies` of them in the model
// (layers; routed experts: E per MoE layer, or top_k when only the active ones are asked).
struct WeightMatrix {
  std::string name;
  std::int64_t batch = 1, n = 0, k = 0;
  std::int64_t copies = 1;
};
// The matrices of one decode step's matmul list (the options' qkv / gate_up / MLA conventions).
std::vector<WeightMatrix> weight_matrices(const ModelConfig& model,
                                          const GenerationOptions& options,
                                          bool active_only = false);

// `options` gives the batch (expected experts) and the MLA path; lengths are not used.
ModelSummary summarize_model(const ModelConfig& model, const GenerationOptions& options);

// {"parameters", "active_parameters", "embedding_parameters", "kv_cache_bytes_per_token",
//  "expected_active_experts" (MoE decode), "not_costed" (hybrid layers: [{"name", "kind",
//  "layers"}])}: exact integers as numbers.
nlohmann::ordered_json summary_json(const ModelSummary& s);

}  // namespace tenet::llm
