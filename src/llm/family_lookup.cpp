// Finding a config's family in the table (model_families.hpp): by model_type, by architecture
// class, by its keys; the names refused (encoders, families of unmodelled layer kinds); and an
// absent key read as the family's config-class default.
#include <algorithm>

#include "llm/model_families.hpp"
#include "tenet/error.hpp"

namespace tenet::llm::config_detail {

namespace {

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

const Family* find_family(const std::string& type) {
  for (const Family& f : families()) {
    if (type == f.model_type || listed(f.other_types, type) ||
        (!f.wrapper_type.empty() && type == f.wrapper_type))
      return &f;
  }
  return nullptr;
}

const Family* family_of_wrapper(const std::string& type) {
  for (const Family& f : families()) {
    if (!f.wrapper_type.empty() && type == f.wrapper_type) return &f;
  }
  return nullptr;
}

std::optional<std::string> type_of_architecture(const std::string& arch) {
  for (const Family& f : families()) {
    if (listed(f.architectures, arch)) return f.model_type;
    if (listed(f.wrapper_architectures, arch)) return f.wrapper_type;
  }
  return std::nullopt;
}

std::string type_of_keys(const nlohmann::json& doc) {
  for (const Family& f : families()) {
    if (!f.implied_by_key.empty() && doc.contains(f.implied_by_key)) return f.model_type;
  }
  return "";
}

namespace {

bool is_not_decoder_only(const std::string& name) {
  static const char* types[] = {"bert",    "roberta",        "t5", "mt5", "bart",
                                "whisper", "encoder-decoder"};
  static const char* class_parts[] = {"Bert",        "Roberta",       "T5", "Bart", "Whisper",
                                      "ForMaskedLM", "EncoderDecoder"};
  for (const char* t : types) {
    if (name == t) return true;
  }
  for (const char* part : class_parts) {
    if (name.find(part) != std::string::npos) return true;
  }
  return false;
}

// Families whose layers are state-space, recurrent or parallel hybrids of a kind not modelled
// here: refused by name rather than read as attention.
void refuse_unmodelled_family(const std::string& name, const std::string& file, const char* where) {
  static const std::pair<const char*, const char*> refused[] = {
      {"mamba", "Mamba-1 blocks only"},
      {"mamba2", "Mamba-2 blocks only"},
      {"falcon_mamba", "Mamba-1 blocks only"},
      {"falcon_h1", "attention and Mamba-2 in parallel in every block"},
      {"rwkv", "RWKV time-mix recurrence"},
      {"recurrent_gemma", "RG-LRU recurrent blocks"},
      {"zamba", "Mamba blocks with a shared attention block"},
      {"zamba2", "Mamba-2 blocks with shared attention blocks"},
      {"lfm2", "short-convolution blocks"},
      {"bamba", "Mamba-2 / attention layers by attn_layer_indices"},
      {"granitemoehybrid", "Mamba-2 / attention layers with MoE on every layer"},
      {"minimax", "lightning (linear) attention"},
      {"minimax_m1", "lightning (linear) attention on 7 of every 8 layers"},
      {"plamo2", "Mamba and attention layers"},
  };
  for (const auto& [type, what] : refused) {
    if (name == type) {
      throw InputError(error_code::kUnknownName, file, where,
                       "layer kind of '" + name + "' (" + what + ") is not modelled");
    }
  }
}

// Whether the config states the quantity `key` stands for (under it or one of its aliases).
bool states(const nlohmann::json& doc, const char* key) {
  if (doc.contains(key)) return true;
  for (const Keys& group : same_quantity()) {
    if (std::none_of(group.begin(), group.end(),
                     [&](const char* k) { return std::string(k) == key; }))
      continue;
    return std::any_of(group.begin(), group.end(), [&](const char* k) { return doc.contains(k); });
  }
  return false;
}

}  // namespace

void refuse_non_decoder(const std::string& name, const std::string& file, const char* where) {
  refuse_unmodelled_family(name, file, where);
  if (!is_not_decoder_only(name)) return;
  throw InputError(error_code::kUnknownName, file, where,
                   "'" + name +
                       "' is not a decoder-only language model (expected a causal LM "
                       "such as llama, gpt2, falcon, mixtral, deepseek_v2)");
}

void fill_class_defaults(nlohmann::json& doc, const Family& family,
                         std::vector<std::string>& notes) {
  for (const ClassDefault& d : family.defaults) {
    if (states(doc, d.key)) continue;
    doc[d.key] = d.value;
    notes.push_back(std::string(d.key) + " = " + d.value.dump() + " (" + family.config_class +
                    "'s default; the config states none)");
  }
}

}  // namespace tenet::llm::config_detail
