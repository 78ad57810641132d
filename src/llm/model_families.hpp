// The families the config reader knows (internal to src/llm), one row of one table each
// (model_families.cpp): which configs are the family (model_type, other spellings, architecture
// classes), its config class and that class's defaults, the conventions its config does not
// state (MLP, norms, biases, fused checkpoint matrices, weight names, key names) and the rules
// of its family the reader applies (parallel blocks, KV heads, learned positions, sliding-window
// layers, experts, extra weights). The reader reads these; it tests no model_type. Adding a family
// is adding a row (docs/llm.md, "Adding a family").
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "llm/config_fields.hpp"
#include "tenet/llm/model_config.hpp"

namespace tenet::llm::config_detail {

// One key of a config class and its default.
struct ClassDefault {
  const char* key;
  nlohmann::json value;
};

// A switch a family reads from one key of its config, with the family's value when the key is
// absent; without a key, the family's value always.
struct KeyedFlag {
  const char* key = nullptr;
  bool otherwise = false;
};

enum class NormKind { kRms, kLayer, kLayerNoBias };  // RMSNorm (weight), LayerNorm (weight, bias)

// Where n_kv comes from when `num_key_value_heads` is absent (then: n_h).
enum class KvHeadsRule {
  kMultiQuery,    // `multi_query` (the family's default) → 1
  kArchitecture,  // Falcon: the new architecture's num_kv_heads | n_head_kv; else multi_query → 1
  kGroups,        // ChatGLM: multi_query_group_num when multi_query_attention; else as kMultiQuery
};

// Which layers a sliding window applies to when neither layer_types nor sliding_window_pattern
// says.
enum class WindowLayers {
  kAll,
  kEveryOther,  // Gemma-2: layers 0, 2, 4, ...
  kFrom,        // Qwen2: the layers from max_window_layers on
};

struct Family {
  // ---- which configs are this family
  std::string model_type;                  // canonical (what its rows and rules are keyed by)
  std::string display;                     // as messages name it ("GPT-2", "Qwen", ...)
  std::vector<std::string> architectures;  // architectures[0] → model_type
  std::vector<std::string> other_types;    // other model_type values of this family
  // A multimodal wrapper whose language model (text_config) is this family: its model_type and
  // architecture classes (architectures[0] → the wrapper's type).
  std::string wrapper_type;
  std::vector<std::string> wrapper_architectures;
  std::string implied_by_key;  // no model_type nor architectures but this key: this family

  // ---- its config class: what an absent key means
  std::string config_class;
  std::vector<ClassDefault> defaults;

  // ---- conventions its config does not state
  SizeKeys size_keys;  // the key names its sizes are looked up under first
  MlpKind mlp = MlpKind::kGated;
  bool mlp_4h = false;  // the MLP width defaults to 4·h
  NormKind norm = NormKind::kRms;
  int norms_per_layer = 2;
  bool qkv_bias = false, o_bias = false, mlp_bias = false, lm_head_bias = false;
  bool fused_qkv = false, fused_gate_up = false;  // the checkpoint stores these fused
  LayerNames names;

  // ---- rules of the family
  KeyedFlag parallel_blocks;  // attention and MLP read the same input
  // The family's newer architecture (Falcon's new_decoder_architecture); `new_architecture_type`
  // is a model_type that always means it.
  KeyedFlag new_architecture;
  std::string new_architecture_type;
  bool one_norm_when_parallel = false;  // parallel blocks of the original architecture share one
  KvHeadsRule kv_heads = KvHeadsRule::kMultiQuery;
  bool multi_query = false;          // `multi_query` absent or null: one KV head
  std::string dense_width_key;       // the dense MLP's width, before the intermediate keys
  bool intermediate_is_sum = false;  // intermediate_size is the sum of the gated pair: halved
  KeyedFlag no_bias;                 // true: no o / MLP biases (Qwen v1)
  std::string embed_width_key;       // the token embedding's width when it differs from h
  std::optional<int> position_rows;  // learned positions: context + this many rows
  bool embedding_norm = false;       // a LayerNorm on the token embeddings (BLOOM)
  bool rotary = true;                // RoPE (false: learned positions, ALiBi or none)
  WindowLayers window_layers = WindowLayers::kAll;
  bool shared_expert = false;  // one shared expert of the experts' width (Llama-4)
  MlpKind expert_mlp = MlpKind::kGated;
  bool mamba_inner_norms = false;  // Mamba-1 dt, B, C layernorms (Jamba)
  bool gated_attention = false;    // attn_output_gate's default
  bool qk_norm = false;            // a q and a k norm of one head each per attention layer
  bool attention_sinks = false;    // one learned logit per head and attention layer
  bool expert_biases = false;      // a router bias per expert and biases on every expert
};

// Every family, one row each (model_families.cpp).
const std::vector<Family>& families();

// The reading of a config whose family is unknown: Llama's conventions and PretrainedConfig's
// defaults.
const Family& generic_family();

// The family whose model_type (or other spelling, or wrapper's type) is `type`, or nullptr.
const Family* find_family(const std::string& type);

// The family whose text_config a wrapper of model_type `type` holds, or nullptr.
const Family* family_of_wrapper(const std::string& type);

// architectures[0] → the model_type it implies, for configs without model_type.
std::optional<std::string> type_of_architecture(const std::string& arch);

// For a config with neither model_type nor architectures: the family its keys imply ("" none).
std::string type_of_keys(const nlohmann::json& doc);

// InputError(unknown-name, file, where) for an encoder, encoder-decoder or unmodelled family.
void refuse_non_decoder(const std::string& name, const std::string& file, const char* where);

// transformers writes a config with `to_diff_dict`: a key that is one of PretrainedConfig's own
// attributes (tie_word_embeddings, is_encoder_decoder, ...) is left out when its value equals
// PretrainedConfig's default and the config class's; every other key is always written. Loading
// gives an absent key the class's `__init__` default. So this sets each key of the family's class
// defaults whose quantity `doc` does not state (same_quantity()) and appends one note per key
// taken to `notes`: "KEY = VALUE (CLASS's default; the config states none)". A key written as null
// is stated ("not set") and keeps its meaning.
void fill_class_defaults(nlohmann::json& doc, const Family& family,
                         std::vector<std::string>& notes);

}  // namespace tenet::llm::config_detail
