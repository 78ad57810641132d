// A decoder-only transformer as described by a Hugging Face config.json.
//
// Both naming schemes are read: GPT-2's (n_embd, n_layer, n_head, n_positions, n_inner) and the
// Llama family's (hidden_size, num_hidden_layers, num_attention_heads, num_key_value_heads,
// intermediate_size, vocab_size, max_position_embeddings, head_dim). `model_type` (or
// `architectures`) picks the MLP: GPT-2's fc/proj or the gated gate/up/down of Llama-style models.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

namespace tenet::llm {

// kGpt2: fused c_attn, MLP c_fc (N = intermediate) + c_proj, multi-head attention.
// kLlama: q/k/v (GQA), o_proj, gated MLP gate/up (N = intermediate each) + down.
enum class ModelFamily { kGpt2, kLlama };
const char* to_string(ModelFamily f);  // "gpt2", "llama"

struct ModelConfig {
  std::string name;        // "_name_or_path", else the file name without .json
  std::string model_type;  // as written ("gpt2", "llama", "mistral", "qwen2")
  ModelFamily family = ModelFamily::kLlama;
  std::int64_t hidden = 0;         // h
  std::int64_t layers = 0;         // decoder layers
  std::int64_t heads = 0;          // n_h
  std::int64_t kv_heads = 0;       // n_kv (= n_h without GQA)
  std::int64_t head_dim = 0;       // d (h / n_h unless the config gives head_dim)
  std::int64_t intermediate = 0;   // I (MLP width)
  std::int64_t vocab = 0;          // V
  std::int64_t max_positions = 0;  // longest context the model was trained for
  // Sliding-window attention (Mistral): a token attends to at most this many earlier tokens.
  std::optional<std::int64_t> sliding_window;

  std::int64_t group_size() const { return heads / kv_heads; }  // r = n_h / n_kv

  friend bool operator==(const ModelConfig& a, const ModelConfig& b);
  friend bool operator!=(const ModelConfig& a, const ModelConfig& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const ModelConfig& c);
};

// Parses and validates a config.json document. `file` names it in errors. Throws InputError
// with the JSON pointer of the bad field: missing-field (no hidden_size / n_embd ...), type,
// range (sizes <= 0, heads not dividing hidden, kv heads not dividing heads), overflow (a value
// or a derived size beyond 64 bits), unknown-name (a model_type that is not decoder-only GPT-2
// or Llama-style).
ModelConfig parse_model_config(const nlohmann::json& document, const std::string& file);

// Reads and parses a config.json file (InputError io / parse when it cannot be read or is not
// JSON).
ModelConfig load_model_config(const std::string& path);

}  // namespace tenet::llm
