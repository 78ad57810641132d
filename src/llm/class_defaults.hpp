// What a config.json leaves out means its config class's default (internal to src/llm).
//
// transformers writes a config with `to_diff_dict`: a key that is one of PretrainedConfig's own
// attributes (tie_word_embeddings, is_encoder_decoder, ...) is left out when its value equals
// PretrainedConfig's default and the config class's; every other key is always written. Loading
// (`from_pretrained`) gives an absent key the class's `__init__` default. So an absent key is read
// as the class's default: a known family's class (LlamaConfig: tie_word_embeddings false;
// GemmaConfig: true; ...), an unknown family's PretrainedConfig (tie_word_embeddings true). Each
// default taken is listed among the config's assumptions with the class it comes from.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tenet::llm::config_detail {

// One key of a config class and its default.
struct ClassDefault {
  const char* key;
  nlohmann::json value;
};

struct ConfigClass {
  const char* model_type;  // canonical model_type ("" for PretrainedConfig)
  const char* name;        // "LlamaConfig", ...
  std::vector<ClassDefault> defaults;
};

// The config class of a canonical model_type; PretrainedConfig for a family the table lacks.
const ConfigClass& config_class(const std::string& canonical_type);

// Every config class in the table (PretrainedConfig last).
const std::vector<ConfigClass>& config_classes();

// Sets each key of the class's defaults that `doc` does not state — under none of the keys the
// reader looks for the same quantity (a GPT-2 config's `hidden_size` stands for `n_embd`; a
// `layer_types` list for `sliding_window_pattern`) — and appends one note per key taken to
// `notes`: "KEY = VALUE (CLASS's default; the config states none)". A key written as null is
// stated ("not set") and keeps its meaning.
void fill_class_defaults(nlohmann::json& doc, const std::string& canonical_type,
                         std::vector<std::string>& notes);

}  // namespace tenet::llm::config_detail
