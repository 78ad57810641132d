// The config.json reader's entry: which family a config is (model_type, architectures[0], its
// keys), its class defaults filled in, the steps of the two readers run in order
// (config_reader.hpp), the derived sizes checked; wrappers' nested language models.
#include "tenet/llm/model_config.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>

#include "io/json_reader.hpp"
#include "io/text_file.hpp"
#include "llm/checked_int.hpp"
#include "llm/config_reader.hpp"
#include "tenet/error.hpp"

namespace tenet::llm {
namespace config_detail {

using detail::checked_add;
using detail::checked_mul;

// model_type, else architectures[0], else the naming scheme of the sizes; nothing (the problem
// recorded) when the family cannot be told or is not a decoder-only model of a modelled kind:
// every later reading depends on it.
std::optional<std::string> model_type_of(const json& doc, Fields& f) {
  const std::size_t before = f.problems.size();
  if (f.boolean(doc, "", "is_encoder_decoder").value_or(false)) {
    f.add(error_code::kUnknownName, "/is_encoder_decoder",
          "an encoder-decoder model is not a decoder-only language model");
  }
  std::optional<std::string> type;
  if (doc.contains("model_type")) {
    const json& v = doc.at("model_type");
    if (!v.is_string()) {
      f.add(error_code::kType, "/model_type", "expected a string, got " + describe(v));
    } else if (f.problems.attempt("/model_type", [&] {
                 refuse_non_decoder(v.get<std::string>(), f.problems.file(), "/model_type");
               })) {
      type = v.get<std::string>();
    }
  } else if (doc.contains("architectures")) {
    const json& v = doc.at("architectures");
    if (!v.is_array() || v.empty() || !v.front().is_string()) {
      f.add(error_code::kType, "/architectures",
            "expected a non-empty array of class names, got " + describe(v));
    } else {
      const std::string arch = v.front().get<std::string>();
      if (f.problems.attempt("/architectures/0", [&] {
            refuse_non_decoder(arch, f.problems.file(), "/architectures/0");
          }))
        type = type_of_architecture(arch).value_or("");
    }
  } else {
    type = type_of_keys(doc);
  }
  if (f.problems.size() != before) return std::nullopt;
  return type;
}

std::string name_of(const json& doc, const std::string& file) {
  auto it = doc.find("_name_or_path");
  if (it != doc.end() && it->is_string() && !it->get<std::string>().empty()) return *it;
  std::string base = file.substr(file.find_last_of('/') + 1);
  if (base.size() > 5 && base.compare(base.size() - 5, 5, ".json") == 0)
    base.resize(base.size() - 5);
  return base;
}

// The widest per-layer sizes the generator forms must fit in 64 bits.
void check_derived_sizes(const std::string& file, const ModelConfig& c) {
  const std::int64_t q = checked_mul(c.heads, c.head_dim, file, "/num_attention_heads", "n_h·d");
  const std::int64_t kv2 =
      checked_mul(2 * c.kv_heads, c.head_dim, file, "/num_key_value_heads", "2·n_kv·d");
  checked_add(q, kv2, file, "/num_attention_heads", "fused QKV width");
  checked_mul(2, c.intermediate, file, "/intermediate_size", "2·intermediate");
  checked_mul(c.vocab, c.embed_dim, file, "/vocab_size", "V·h");
  if (c.mla) {
    const MlaConfig& m = *c.mla;
    const std::int64_t qk = checked_add(m.qk_nope_head_dim, m.qk_rope_head_dim, file,
                                        "/qk_nope_head_dim", "MLA query head size");
    checked_mul(c.heads, checked_add(qk, m.v_head_dim, file, "/v_head_dim", "MLA head sizes"), file,
                "/num_attention_heads", "n_h·(d_nope + d_rope + d_v)");
    checked_add(m.kv_lora_rank, m.qk_rope_head_dim, file, "/kv_lora_rank", "latent + rope");
  }
  if (c.moe) {
    checked_mul(2 * c.moe->experts, c.moe->expert_intermediate, file, "/moe_intermediate_size",
                "2·E·expert width");
    checked_mul(2, c.moe->shared_intermediate, file, "/n_shared_experts", "2·shared width");
  }
}

// Reads one language model's config into `problems` (nothing thrown for a bad field: the caller
// throws them all). A step that throws (checked arithmetic on sizes read without a problem) is
// recorded, the field it names counts as wrong (what is derived from it later is skipped), and
// the next step runs.
ModelConfig parse_language_model(const json& doc, const std::string& file,
                                 io::JsonProblems& problems) {
  ModelConfig c;
  Fields fields{problems, {}};
  const std::optional<std::string> written = model_type_of(doc, fields);
  if (!written) return c;  // the family decides which keys are read
  const Family* known = find_family(*written);
  const Family& family = known ? *known : generic_family();
  c.name = name_of(doc, file);
  c.model_type = written->empty() ? "unknown" : *written;
  c.mlp = family.mlp;
  c.names = family.names;
  // An absent key means the config class's default (the family's row).
  json filled = doc;
  std::vector<std::string> defaults;
  fill_class_defaults(filled, family, defaults);
  const ConfigFields in{filled, file, fields};
  Known k;
  SizeReader sizes(in, family, c, k, known ? family.model_type : *written, known != nullptr);
  StackReader stack(in, family, c, k);
  const auto run = [&](auto& reader, auto step) {
    try {
      (reader.*step)();
    } catch (const InputError& e) {
      problems.add(e, "");
      fields.failed.insert(e.where());
    }
  };
  for (auto step : {&SizeReader::note_generic, &SizeReader::read_sizes, &SizeReader::read_kv_heads,
                    &SizeReader::read_head_dim, &SizeReader::check_kv_heads})
    run(sizes, step);
  run(stack, &StackReader::read_moe);
  for (auto step :
       {&SizeReader::read_intermediate, &SizeReader::read_window, &SizeReader::read_biases,
        &SizeReader::read_embeddings, &SizeReader::read_structure})
    run(sizes, step);
  for (auto step : {&StackReader::read_mla, &StackReader::read_stack}) run(stack, step);
  if (member(doc, "block_configs")) {  // the widest per-layer MLP stands for `intermediate`
    for (const LayerSpec& l : c.stack) c.intermediate = std::max(c.intermediate, l.ffn_width);
  }
  for (auto step : {&StackReader::read_mamba2, &StackReader::read_mamba1,
                    &StackReader::read_deltanet, &StackReader::read_attention_extras})
    run(stack, step);
  run(sizes, &SizeReader::count_norms);
  // The derived sizes need every size: checked only when all were read.
  if (problems.empty()) problems.attempt("", [&] { check_derived_sizes(file, c); });
  c.assumptions.insert(c.assumptions.end(), defaults.begin(), defaults.end());
  return c;
}

// A wrapper's language model (`key`: text_config, ...), its problems placed under /key.
ModelConfig parse_nested(const json& doc, const std::string& key, const std::string& file,
                         io::JsonProblems& problems) {
  json inner = doc.at(key);
  std::vector<std::string> from_wrapper;  // keys taken from the wrapper: problems stay there
  const auto take = [&](const char* k) {
    inner[k] = doc.at(k);
    from_wrapper.push_back(pointer(k));
  };
  // The wrapper's type names the family when the inner config does not.
  if (!inner.contains("model_type") && !inner.contains("architectures")) {
    if (doc.contains("model_type"))
      take("model_type");
    else if (doc.contains("architectures"))
      take("architectures");
  }
  if (inner.contains("model_type") && inner.at("model_type").is_string()) {
    // A wrapper's type names its text family.
    if (const Family* text = family_of_wrapper(inner.at("model_type").get<std::string>()))
      inner["model_type"] = text->model_type;
  }
  for (const char* shared : {"_name_or_path", "tie_word_embeddings"}) {
    if (!inner.contains(shared) && doc.contains(shared)) take(shared);
  }
  io::JsonProblems found(file);
  ModelConfig c = parse_language_model(inner, file, found);
  for (const InputError& e : found.list()) {
    const bool wrapper = std::any_of(from_wrapper.begin(), from_wrapper.end(), [&](auto& p) {
      return e.where() == p || e.where().rfind(p + "/", 0) == 0;
    });
    problems.add(wrapper ? e : e.located(file, pointer(key)), "");
  }
  std::string ignored;
  for (const auto& [k, v] : doc.items()) {
    if (k == key || k == "_name_or_path" || k == "tie_word_embeddings") continue;
    ignored += (ignored.empty() ? "" : ", ") + k;
  }
  c.nested = key;
  std::vector<std::string> said = {"the language model is read from /" + key +
                                   "; the wrapper's own keys are ignored (" +
                                   excerpt(ignored, 300) + ")"};
  c.assumptions.insert(c.assumptions.begin(), said.begin(), said.end());
  return c;
}

}  // namespace config_detail

ModelConfig parse_model_config(const nlohmann::json& doc, const std::string& file) {
  using namespace config_detail;
  io::JsonProblems problems(file);
  if (!doc.is_object()) {
    problems.add(error_code::kType, "",
                 "expected a JSON object (a Hugging Face config.json), got " + describe(doc));
    problems.throw_if_any();
  }
  ModelConfig c;
  const char* nested = nullptr;
  for (const char* key : {"text_config", "language_config", "llm_config"}) {
    if (member(doc, key)) {
      nested = key;
      break;
    }
  }
  if (!nested) {
    c = parse_language_model(doc, file, problems);
  } else if (!doc.at(nested).is_object()) {
    problems.add(
        error_code::kType, pointer(nested),
        "expected the language model's config (an object), got " + describe(doc.at(nested)));
  } else {
    c = parse_nested(doc, nested, file, problems);
  }
  problems.throw_if_any();
  return c;
}

ModelConfig load_model_config(const std::string& path) {
  const std::string file = model_file(path);
  return parse_model_config(io::read_config_json_file(file), file);
}

}  // namespace tenet::llm
