// The families the config reader knows (internal to src/llm: model_config.cpp and its parts).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tenet/llm/model_config.hpp"

namespace tenet::llm::config_detail {

// What a family's config does not state and its class has no key for: MLP kind, biases, norms,
// fused checkpoint matrices and the names of its weights (the defaults of keys its class has,
// tie_word_embeddings among them: class_defaults.hpp).
struct Dialect {
  const char* model_type;
  MlpKind mlp;
  bool layer_norm;  // LayerNorm (weight + bias) or RMSNorm (weight)
  int norms_per_layer;
  bool qkv_bias, o_bias, mlp_bias;
  bool fused_qkv, fused_gate_up;  // the checkpoint stores these fused
  bool mlp_4h;                    // MLP width defaults to 4·h
  LayerNames names;
};

// Every family's conventions, one entry per canonical model_type.
const std::vector<Dialect>& dialects();

// The generic reading of an unknown model_type: Llama's conventions.
const Dialect& generic_dialect();

// The model_type whose conventions apply ("RefinedWeb" → "falcon", wrappers' types → their
// language model's).
std::string canonical_type(const std::string& type);

// The family of `type` (canonicalised), or nullptr.
const Dialect* find_dialect(const std::string& type);

// architectures[0] → model_type, for configs without model_type.
std::optional<std::string> type_of_architecture(const std::string& arch);

// InputError(unknown-name, file, where) for an encoder, encoder-decoder or unmodelled family.
void refuse_non_decoder(const std::string& name, const std::string& file, const char* where);

}  // namespace tenet::llm::config_detail
