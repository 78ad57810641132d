#include "tenet/llm/model_config.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "io/text_file.hpp"
#include "llm/checked_int.hpp"
#include "tenet/error.hpp"

namespace tenet::llm {
namespace {

using nlohmann::json;

// The config.json keys of each quantity, per family.
struct FieldNames {
  const char* hidden;
  const char* layers;
  const char* heads;
  const char* kv_heads;  // nullptr: the family has no GQA field
  const char* intermediate;
  const char* max_positions;
};

constexpr FieldNames kGpt2Names{"n_embd", "n_layer", "n_head", nullptr, "n_inner", "n_positions"};
constexpr FieldNames kLlamaNames{"hidden_size",         "num_hidden_layers",
                                 "num_attention_heads", "num_key_value_heads",
                                 "intermediate_size",   "max_position_embeddings"};

std::string pointer(const std::string& key) { return "/" + key; }

std::string describe(const json& v) {
  std::string text = v.dump();
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

// The value of an integer field, or nothing when it is absent or null.
std::optional<std::int64_t> optional_int(const json& doc, const std::string& key,
                                         const std::string& file) {
  auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return std::nullopt;
  const json& v = *it;
  if (v.is_number_unsigned() &&
      v.get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    throw InputError(error_code::kOverflow, file, pointer(key),
                     "value " + describe(v) + " does not fit in 64 bits");
  }
  if (v.is_number_float() && std::abs(v.get<double>()) >= 9.2e18) {
    throw InputError(error_code::kOverflow, file, pointer(key),
                     "value " + describe(v) + " does not fit in 64 bits");
  }
  if (!v.is_number_integer()) {
    throw InputError(error_code::kType, file, pointer(key),
                     "expected a positive integer, got " + describe(v));
  }
  const std::int64_t value = v.get<std::int64_t>();
  if (value <= 0) {
    throw InputError(error_code::kRange, file, pointer(key),
                     "expected a positive integer, got " + std::to_string(value));
  }
  return value;
}

std::int64_t required_int(const json& doc, const std::string& key, const std::string& file,
                          const std::string& meaning) {
  if (!doc.contains(key)) {
    throw InputError(error_code::kMissingField, file, pointer(key),
                     "missing '" + key + "': expected a positive integer (" + meaning + ")");
  }
  if (doc.at(key).is_null()) {
    throw InputError(error_code::kType, file, pointer(key),
                     "expected a positive integer (" + meaning + "), got null");
  }
  return *optional_int(doc, key, file);
}

std::optional<ModelFamily> family_of_model_type(const std::string& type) {
  if (type == "gpt2") return ModelFamily::kGpt2;
  if (type == "llama" || type == "mistral" || type == "qwen2") return ModelFamily::kLlama;
  return std::nullopt;
}

std::optional<ModelFamily> family_of_architecture(const std::string& arch) {
  if (arch == "GPT2LMHeadModel" || arch == "GPT2Model") return ModelFamily::kGpt2;
  if (arch == "LlamaForCausalLM" || arch == "MistralForCausalLM" || arch == "Qwen2ForCausalLM") {
    return ModelFamily::kLlama;
  }
  return std::nullopt;
}

const char* kSupportedTypes = "gpt2, llama, mistral or qwen2";

ModelFamily family_from_model_type(const json& doc, const std::string& file) {
  const json& v = doc.at("model_type");
  if (!v.is_string()) {
    throw InputError(error_code::kType, file, "/model_type",
                     "expected a string, got " + describe(v));
  }
  if (auto family = family_of_model_type(v.get<std::string>())) return *family;
  throw InputError(error_code::kUnknownName, file, "/model_type",
                   "unsupported model_type '" + v.get<std::string>() + "' (expected " +
                       kSupportedTypes + ": a decoder-only GPT-2 or Llama-style model)");
}

ModelFamily family_from_architectures(const json& doc, const std::string& file) {
  const json& v = doc.at("architectures");
  if (!v.is_array() || v.empty() || !v.front().is_string()) {
    throw InputError(error_code::kType, file, "/architectures",
                     "expected a non-empty array of class names, got " + describe(v));
  }
  if (auto family = family_of_architecture(v.front().get<std::string>())) return *family;
  throw InputError(error_code::kUnknownName, file, "/architectures/0",
                   "unsupported architecture '" + v.front().get<std::string>() +
                       "' (expected GPT2LMHeadModel, LlamaForCausalLM, MistralForCausalLM or "
                       "Qwen2ForCausalLM)");
}

// model_type first, then architectures, then the naming scheme of the sizes.
ModelFamily detect_family(const json& doc, const std::string& file) {
  if (doc.contains("model_type")) return family_from_model_type(doc, file);
  if (doc.contains("architectures")) return family_from_architectures(doc, file);
  if (doc.contains("n_embd")) return ModelFamily::kGpt2;
  if (doc.contains("hidden_size")) return ModelFamily::kLlama;
  throw InputError(error_code::kMissingField, file, "/hidden_size",
                   "missing 'hidden_size' (or 'n_embd' for GPT-2): expected a positive integer "
                   "(the model width)");
}

std::string name_of(const json& doc, const std::string& file) {
  auto it = doc.find("_name_or_path");
  if (it != doc.end() && it->is_string() && !it->get<std::string>().empty()) return *it;
  std::string base = file.substr(file.find_last_of('/') + 1);
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0)
    base.resize(base.size() - 5);
  return base;
}

std::optional<std::int64_t> sliding_window_of(const json& doc, const std::string& file) {
  auto use = doc.find("use_sliding_window");
  if (use != doc.end() && use->is_boolean() && !use->get<bool>()) return std::nullopt;
  return optional_int(doc, "sliding_window", file);
}

void check_divides(std::int64_t divisor, const std::string& divisor_key, std::int64_t value,
                   const std::string& value_key, const std::string& file) {
  if (value % divisor != 0) {
    throw InputError(error_code::kRange, file, pointer(divisor_key),
                     divisor_key + " (" + std::to_string(divisor) + ") must divide " + value_key +
                         " (" + std::to_string(value) + ")");
  }
}

void read_sizes(const json& doc, const std::string& file, const FieldNames& f, ModelConfig& c) {
  c.hidden = required_int(doc, f.hidden, file, "the model width");
  c.layers = required_int(doc, f.layers, file, "the number of decoder layers");
  c.heads = required_int(doc, f.heads, file, "the number of attention heads");
  c.kv_heads = f.kv_heads ? optional_int(doc, f.kv_heads, file).value_or(c.heads) : c.heads;
  c.vocab = required_int(doc, "vocab_size", file, "the vocabulary size");
  c.max_positions = required_int(doc, f.max_positions, file, "the longest context");
  if (c.family == ModelFamily::kGpt2) {
    auto inner = optional_int(doc, f.intermediate, file);
    c.intermediate =
        inner ? *inner : detail::checked_mul(4, c.hidden, file, pointer(f.hidden), "4·n_embd");
  } else {
    c.intermediate = required_int(doc, f.intermediate, file, "the MLP width");
    c.sliding_window = sliding_window_of(doc, file);
  }
}

void derive_head_dim(const json& doc, const std::string& file, const FieldNames& f,
                     ModelConfig& c) {
  auto head_dim =
      c.family == ModelFamily::kLlama ? optional_int(doc, "head_dim", file) : std::nullopt;
  if (head_dim) {
    c.head_dim = *head_dim;
  } else {
    check_divides(c.heads, f.heads, c.hidden, f.hidden, file);
    c.head_dim = c.hidden / c.heads;
  }
  if (f.kv_heads) check_divides(c.kv_heads, f.kv_heads, c.heads, f.heads, file);
}

// The widest per-layer sizes the generator forms must fit in 64 bits.
void check_derived_sizes(const std::string& file, const FieldNames& f, const ModelConfig& c) {
  const std::int64_t q = detail::checked_mul(c.heads, c.head_dim, file, pointer(f.heads), "n_h·d");
  const std::int64_t kv2 = detail::checked_mul(
      2 * c.kv_heads, c.head_dim, file, pointer(f.kv_heads ? f.kv_heads : f.heads), "2·n_kv·d");
  detail::checked_add(q, kv2, file, pointer(f.heads), "fused QKV width");
  detail::checked_mul(2, c.intermediate, file, pointer(f.intermediate), "2·intermediate");
}

}  // namespace

const char* to_string(ModelFamily f) { return f == ModelFamily::kGpt2 ? "gpt2" : "llama"; }

ModelConfig parse_model_config(const json& doc, const std::string& file) {
  if (!doc.is_object()) {
    throw InputError(error_code::kType, file, "",
                     "expected a JSON object (a Hugging Face config.json), got " + describe(doc));
  }
  ModelConfig c;
  c.family = detect_family(doc, file);
  const FieldNames& f = c.family == ModelFamily::kGpt2 ? kGpt2Names : kLlamaNames;
  c.name = name_of(doc, file);
  c.model_type = doc.contains("model_type") && doc.at("model_type").is_string()
                     ? doc.at("model_type").get<std::string>()
                     : to_string(c.family);
  read_sizes(doc, file, f, c);
  derive_head_dim(doc, file, f, c);
  check_derived_sizes(file, f, c);
  return c;
}

ModelConfig load_model_config(const std::string& path) {
  // read_text_file: a directory or a read error is InputError(io), not a stream exception.
  const std::string text = io::detail::read_text_file(path);
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError(error_code::kParse, path, "byte " + std::to_string(e.byte),
                     std::string("not valid JSON: ") + e.what());
  }
  return parse_model_config(doc, path);
}

bool operator==(const ModelConfig& a, const ModelConfig& b) {
  return a.name == b.name && a.model_type == b.model_type && a.family == b.family &&
         a.hidden == b.hidden && a.layers == b.layers && a.heads == b.heads &&
         a.kv_heads == b.kv_heads && a.head_dim == b.head_dim && a.intermediate == b.intermediate &&
         a.vocab == b.vocab && a.max_positions == b.max_positions &&
         a.sliding_window == b.sliding_window;
}

std::ostream& operator<<(std::ostream& os, const ModelConfig& c) {
  os << c.name << " (" << c.model_type << "): h " << c.hidden << ", layers " << c.layers
     << ", heads " << c.heads << "/" << c.kv_heads << ", d " << c.head_dim << ", I "
     << c.intermediate << ", V " << c.vocab << ", context " << c.max_positions;
  if (c.sliding_window) os << ", window " << *c.sliding_window;
  return os;
}

}  // namespace tenet::llm
