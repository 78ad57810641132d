// The config reader's parts (internal to src/llm). Reading one language model's config is done in
// three parts: the fields (config_fields.hpp: keys, aliases, one problem per wrong field), the
// family (model_families.hpp: the row whose conventions and rules apply), and two readers over
// them that fill one ModelConfig — `SizeReader` (sizes and conventions: config_sizes.cpp) and
// `StackReader` (the per-layer stack: layer kinds, windows, chunks, which layers are MoE in
// config_layers.cpp; the experts, latent attention and hybrid mixers in config_mixers.cpp).
// model_config.cpp runs their steps in order.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "llm/config_fields.hpp"
#include "llm/model_families.hpp"
#include "tenet/llm/model_config.hpp"

namespace tenet::llm::config_detail {

// The most decoder layers a config may state (one LayerSpec each is allocated).
constexpr std::int64_t kMaxLayers = 100000;

// What both readers know of the config so far: the quantities read (or derived) without a
// problem, and the keys they came from. A quantity whose fields were wrong is not known, and
// what is derived from it is skipped rather than reported again.
struct Known {
  bool hidden = false, layers = false, heads = false, kv = false, head_dim = false;
  bool context = false, intermediate = false;
  bool moe_failed = false;  // the config has experts, but their fields were wrong
  bool mla_failed = false;
  std::string heads_key, kv_key, hidden_key;
};

// The state one reading shares: the document's fields, its family's row, the config being filled
// and what is known of it.
struct ReaderBase : ConfigFields {
  const Family& family;
  ModelConfig& c;
  Known& known;

  ReaderBase(const ConfigFields& fields, const Family& row, ModelConfig& config, Known& k)
      : ConfigFields(fields), family(row), c(config), known(k) {}

  void assume(const std::string& text) { c.assumptions.push_back(text); }
  // The family's switch: its key when it has one (absent: the family's value), else the value.
  bool family_flag(const KeyedFlag& k) { return k.key ? flag(k.key, k.otherwise) : k.otherwise; }
};

// Sizes and conventions (config_sizes.cpp).
struct SizeReader : ReaderBase {
  std::string type;  // the model_type the reading names ("" when unknown)
  bool known_family = false;

  SizeReader(const ConfigFields& fields, const Family& row, ModelConfig& config, Known& k,
             std::string canonical_type, bool known_row)
      : ReaderBase(fields, row, config, k),
        type(std::move(canonical_type)),
        known_family(known_row) {}

  void note_generic();
  void read_sizes();
  void read_context();
  void read_kv_heads();
  void check_kv_heads();
  bool new_architecture();
  void read_architecture_kv_heads();
  void read_head_dim();
  void read_intermediate();
  bool halve_intermediate(const Field& found);
  void read_window();
  void read_biases();
  void read_embeddings();
  void read_structure();
  std::int64_t norms_per_layer();
  void count_norms();
};

// The per-layer stack (config_layers.cpp) and its experts, latent attention and hybrid mixers
// (config_mixers.cpp).
struct StackReader : ReaderBase {
  using ReaderBase::ReaderBase;

  std::vector<LayerSpec> specs;                     // one per layer, filled by read_stack
  std::optional<std::vector<bool>> moe_layer_mask;  // moe_mask(), read once by read_moe

  // ---- layer kinds, windows, chunks, MoE layers (config_layers.cpp)
  // What one part (attention or ffn) of a DeciLM block is: skipped (no_op), one h×h linear
  // (replace_with_linear) or sized by its own fields; kBad when a flag is wrong (recorded).
  enum class BlockPart { kNoOp, kLinear, kSized, kBad };
  void unmodelled(const std::string& where, const std::string& kind);
  void read_layer_types(const json& list);
  void read_pattern(const std::string& key);
  void read_block_configs(const json& list);
  BlockPart block_part(const json& part, const std::string& at);
  void read_heads_in_group(const json& a, const std::string& at, LayerSpec& l);
  void read_ffn_mult(const json& ffn, const std::string& at, LayerSpec& l);
  void assign_windows();
  void assign_chunks();
  std::optional<std::vector<bool>> moe_mask();
  std::vector<bool> moe_mask_of_fields();
  std::set<std::int64_t> mlp_only_layers();
  void read_stack();

  // ---- experts, latent attention, hybrid mixers (config_mixers.cpp)
  void read_moe();
  void read_mla();
  void other(MixerKind k, std::int64_t per_layer, const char* where);
  void read_mamba2();
  void read_mamba1();
  void read_deltanet();
  void read_attention_extras();
  void read_expert_biases();
  void read_indexer();
};

}  // namespace tenet::llm::config_detail
