// Reading the fields of a config.json (internal to src/llm): the keys each quantity is found
// under (its aliases), a field converted once and recorded when wrong (its JSON pointer), and
// `ConfigFields`, the document-level reading the config reader's parts share: the first of a
// quantity's keys that holds a value, a required one (its error lists every key), flags,
// divisibility, checked arithmetic.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/json_reader.hpp"
#include "llm/checked_int.hpp"
#include "tenet/error.hpp"

namespace tenet::llm::config_detail {

using nlohmann::json;
// The keys one quantity is looked up under, first match wins.
using Keys = std::vector<const char*>;

constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();

// ---- the keys of each quantity (docs/llm.md, "Fields read") -----------------------------------

namespace keys {
inline const Keys& hidden() {
  static const Keys k = {"hidden_size", "n_embd", "n_embed", "d_model"};
  return k;
}
inline const Keys& layers() {
  static const Keys k = {"num_hidden_layers", "n_layer", "num_layers"};
  return k;
}
inline const Keys& heads() {
  static const Keys k = {"num_attention_heads", "n_head"};
  return k;
}
inline const Keys& vocab() {
  static const Keys k = {"padded_vocab_size", "vocab_size"};
  return k;
}
inline const Keys& context() {
  static const Keys k = {"max_position_embeddings", "n_positions", "max_sequence_length",
                         "seq_length", "n_ctx"};
  return k;
}
inline const Keys& intermediate() {
  static const Keys k = {"intermediate_size", "ffn_dim", "n_inner", "ffn_hidden_size"};
  return k;
}
inline const Keys& head_dim() {
  static const Keys k = {"head_dim", "kv_channels", "attention_head_dim"};
  return k;
}
inline const Keys& experts() {
  static const Keys k = {"num_local_experts", "n_routed_experts", "num_experts"};
  return k;
}
}  // namespace keys

// The order a family looks its three main sizes up in (GPT-2's dialects: n_embd, n_layer, n_head
// first).
struct SizeKeys {
  Keys hidden = keys::hidden(), layers = keys::layers(), heads = keys::heads();
};

// The keys that give one quantity, in any order: a config states the quantity when it has any of
// them (a GPT-2 config's `hidden_size` stands for `n_embd`; a `layer_types` list for
// `sliding_window_pattern`). The class defaults (model_families.hpp) fill a key only when its
// quantity is not stated.
const std::vector<Keys>& same_quantity();

// ---- one field --------------------------------------------------------------------------------

inline std::string pointer(const std::string& key) { return io::pointer_join("", key); }

inline std::string describe(const json& v) { return excerpt(v.dump(), 40); }

std::string key_list(const Keys& keys);

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
                                      const std::string& key, std::int64_t minimum = 1);
  std::optional<bool> boolean(const json& object, const std::string& at, const std::string& key);
};

// ---- the document -----------------------------------------------------------------------------

// The fields of one config document, each problem recorded in `f` (reading goes on). Checked
// arithmetic throws: the caller runs each step through JsonProblems::attempt.
struct ConfigFields {
  const json& doc;
  const std::string& file;
  Fields& f;

  std::optional<std::int64_t> optional_int(const std::string& key, std::int64_t minimum = 1) {
    return f.integer(doc, "", key, minimum);
  }
  bool bad(const std::string& key) const { return f.bad(pointer(key)); }
  bool any_bad(const Keys& keys) const;
  bool has(const char* key) const { return member(doc, key) != nullptr; }

  // The first of `keys` that holds a value; nothing when none does or that one is wrong (then
  // any_bad(keys)).
  std::optional<Field> first_int(const Keys& keys);
  // A dimension that must be found under one of `keys`; the error lists them all.
  std::optional<Field> required_int(const Keys& keys, const std::string& meaning);
  bool flag(const char* key, bool otherwise) { return f.boolean(doc, "", key).value_or(otherwise); }
  // The array `key` of `size` entries (size < 0: any), or nullptr when it is absent or null, or
  // wrong (recorded).
  const json* array_of(const char* key, std::int64_t size);

  // Records that `divisor` does not divide `value`; true when it does.
  bool check_divides(std::int64_t divisor, const std::string& divisor_key, std::int64_t value,
                     const std::string& value_key);

  std::int64_t mul(std::int64_t a, std::int64_t b, const std::string& where,
                   const std::string& what) {
    return detail::checked_mul(a, b, file, where, what);
  }
  std::int64_t add(std::int64_t a, std::int64_t b, const std::string& where,
                   const std::string& what) {
    return detail::checked_add(a, b, file, where, what);
  }
};

}  // namespace tenet::llm::config_detail
