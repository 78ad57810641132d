// The config reader's parts (internal to src/llm): reading one field of a config.json, and
// `Reader`, which reads one language model's config — its sizes and conventions
// (model_config.cpp), its per-layer stack (config_layers.cpp), its experts, latent attention
// and hybrid mixers (config_mixers.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/json_reader.hpp"
#include "llm/checked_int.hpp"
#include "llm/model_families.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/model_config.hpp"

namespace tenet::llm::config_detail {

using nlohmann::json;
using Keys = std::initializer_list<const char*>;

constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

inline std::string pointer(const std::string& key) { return io::pointer_join("", key); }

inline std::string describe(const json& v) { return excerpt(v.dump(), 40); }

inline std::string key_list(Keys keys) {
  std::string out;
  for (const char* k : keys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

// The member `key` of `object`, or nullptr when it is absent or null (HF writes null for "not
// set").
inline const json* member(const json& object, const std::string& key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

// A dimension and the key it was found under.
struct Field {
  std::int64_t value = 0;
  std::string key;
};

// The fields of one config, read through io::JsonFields into one problem list (the config's
// every problem is thrown together at the end), with what a Hugging Face config needs on top:
// null means "not set", a float beyond 64 bits is an overflow, and a field is converted once — a
// wrong value is recorded the first time it is read and reads as unset afterwards (bad() says
// so, and the derivations that need it are skipped).
struct Fields {
  io::JsonProblems& problems;
  std::set<std::string> failed;  // JSON pointers of the fields recorded as wrong

  bool bad(const std::string& at) const { return failed.count(at) != 0; }
  void add(const std::string& code, const std::string& at, const std::string& message) {
    problems.add(code, at, message);
    failed.insert(at);
  }
  // Runs `read` (a conversion recording into `problems`); the field at `at` is bad when it
  // recorded anything.
  template <class Read>
  auto convert(const std::string& at, Read read) -> decltype(read()) {
    const std::size_t before = problems.size();
    auto value = read();
    if (problems.size() != before) failed.insert(at);
    return value;
  }

  // The integer member `key` of `object` (at `at`) >= `minimum` (a size: >= 1), or nothing when
  // it is absent, null or wrong.
  std::optional<std::int64_t> integer(const json& object, const std::string& at,
                                      const std::string& key, std::int64_t minimum = 1) {
    const json* v = member(object, key);
    const std::string p = io::pointer_join(at, key);
    if (!v || bad(p)) return std::nullopt;
    if (v->is_number_float() && std::abs(v->get<double>()) >= 9.2e18) {
      add(error_code::kOverflow, p, "value " + describe(*v) + " does not fit in 64 bits");
      return std::nullopt;
    }
    return convert(p, [&]() -> std::optional<std::int64_t> {
      return io::JsonFields(object, at, problems).integer(key.c_str(), false, "", {minimum});
    });
  }

  std::optional<bool> boolean(const json& object, const std::string& at, const std::string& key) {
    const json* v = member(object, key);
    const std::string p = io::pointer_join(at, key);
    if (!v || bad(p)) return std::nullopt;
    return convert(
        p, [&] { return io::JsonFields(object, at, problems).boolean(key.c_str(), false); });
  }
};

// Reads one language model's config. Every problem is recorded in `f` and reading goes on; a
// quantity whose fields were wrong is not known (the *_ok flags), and what is derived from it is
// skipped rather than reported again. Checked arithmetic still throws: the caller runs each step
// through JsonProblems::attempt.
struct Reader {
  const json& doc;
  const std::string& file;
  const Dialect& dialect;
  std::string type;  // canonical model_type ("" when unknown)
  ModelConfig& c;
  Fields& f;
  std::string heads_key, kv_key, hidden_key;
  // Quantities read (or derived) without a problem.
  bool hidden_ok = false, layers_ok = false, heads_ok = false, kv_ok = false, head_dim_ok = false;
  bool context_ok = false, intermediate_ok = false;
  bool moe_failed = false;  // the config has experts, but their fields were wrong
  bool mla_failed = false;

  Reader(const json& document, const std::string& file_name, const Dialect& family,
         std::string canonical_type, ModelConfig& config, Fields& fields)
      : doc(document),
        file(file_name),
        dialect(family),
        type(std::move(canonical_type)),
        c(config),
        f(fields) {}

  void assume(const std::string& text) { c.assumptions.push_back(text); }

  bool gpt2_keys() const { return type == "gpt2" || type == "gpt_bigcode" || type == "gptj"; }

  // ---- reading fields of the document --------------------------------------------------------

  std::optional<std::int64_t> optional_int(const std::string& key, std::int64_t minimum = 1) {
    return f.integer(doc, "", key, minimum);
  }
  bool bad(const std::string& key) const { return f.bad(pointer(key)); }
  bool any_bad(Keys keys) const {
    return std::any_of(keys.begin(), keys.end(), [&](const char* k) { return bad(k); });
  }
  bool has(const char* key) const { return member(doc, key) != nullptr; }

  // The first of `keys` that holds a value; nothing when none does or that one is wrong (then
  // any_bad(keys)).
  std::optional<Field> first_int(Keys keys) {
    for (const char* key : keys) {
      if (auto v = optional_int(key)) return Field{*v, key};
      if (bad(key)) break;
    }
    return std::nullopt;
  }

  // A dimension that must be found under one of `keys`; the error lists them all.
  std::optional<Field> required_int(Keys keys, const std::string& meaning) {
    if (auto found = first_int(keys)) return found;
    if (any_bad(keys)) return std::nullopt;
    for (const char* key : keys) {
      if (doc.contains(key)) {  // present but null
        f.add(error_code::kType, pointer(key),
              "expected a positive integer (" + meaning + "), got null");
        return std::nullopt;
      }
    }
    const char* first = *keys.begin();
    f.add(error_code::kMissingField, pointer(first),
          "no " + meaning + ": looked for " + key_list(keys) + " (expected a positive integer)");
    return std::nullopt;
  }

  bool flag(const char* key, bool otherwise) { return f.boolean(doc, "", key).value_or(otherwise); }

  // Records that `divisor` does not divide `value`; true when it does.
  bool check_divides(std::int64_t divisor, const std::string& divisor_key, std::int64_t value,
                     const std::string& value_key) {
    if (value % divisor == 0) return true;
    f.add(error_code::kRange, pointer(divisor_key),
          divisor_key + " (" + std::to_string(divisor) + ") must divide " + value_key + " (" +
              std::to_string(value) + ")");
    return false;
  }

  std::int64_t mul(std::int64_t a, std::int64_t b, const std::string& where, const char* what) {
    return detail::checked_mul(a, b, file, where, what);
  }
  std::int64_t add(std::int64_t a, std::int64_t b, const std::string& where, const char* what) {
    return detail::checked_add(a, b, file, where, what);
  }

  // ---- sizes and conventions (model_config.cpp) ---------------------------------------------
  void read_sizes();
  void read_context();
  void read_kv_heads();
  void check_kv_heads();
  bool falcon_new_architecture();
  void read_falcon_kv_heads();
  void read_head_dim();
  void read_intermediate();
  bool halve_qwen_intermediate(const Field& found);
  void read_window();
  void read_biases();
  void read_embeddings();
  void read_structure();
  std::int64_t norms_per_layer();
  void count_norms();
  void note_generic();

  // ---- the per-layer stack (config_layers.cpp) -----------------------------------------------
  std::vector<LayerSpec> specs;                     // one per layer, filled by read_stack
  std::optional<std::vector<bool>> moe_layer_mask;  // moe_mask(), read once by read_moe
  // What one part (attention or ffn) of a DeciLM block is: skipped (no_op), one h×h linear
  // (replace_with_linear) or sized by its own fields; kBad when a flag is wrong (recorded).
  enum class BlockPart { kNoOp, kLinear, kSized, kBad };
  const json* array_of(const char* key, std::int64_t size);
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

  // ---- experts, latent attention, hybrid mixers (config_mixers.cpp) --------------------------
  void read_moe();
  void read_mla();
  void other(MixerKind k, std::int64_t per_layer, const char* where);
  void read_mamba2();
  void read_mamba1();
  void read_deltanet();
  void read_attention_extras();
  void read_indexer();
};

}  // namespace tenet::llm::config_detail
