// Reading the fields of a config.json: one field converted and recorded once, the first of a
// quantity's keys, a required quantity's error naming every key (config_fields.hpp).
#include "llm/config_fields.hpp"

#include <algorithm>

namespace tenet::llm::config_detail {

const std::vector<Keys>& same_quantity() {
  static const std::vector<Keys> groups = {
      keys::hidden(),
      keys::layers(),
      keys::heads(),
      keys::vocab(),
      keys::context(),
      keys::intermediate(),
      {"num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num"},
      keys::head_dim(),
      keys::experts(),
      {"sliding_window_pattern", "layer_types"},
  };
  return groups;
}

std::string key_list(const Keys& keys) {
  std::string out;
  for (const char* k : keys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

std::optional<std::int64_t> Fields::integer(const json& object, const std::string& at,
                                            const std::string& key, std::int64_t minimum) {
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

std::optional<bool> Fields::boolean(const json& object, const std::string& at,
                                    const std::string& key) {
  const json* v = member(object, key);
  const std::string p = io::pointer_join(at, key);
  if (!v || bad(p)) return std::nullopt;
  return convert(p,
                 [&] { return io::JsonFields(object, at, problems).boolean(key.c_str(), false); });
}

bool ConfigFields::any_bad(const Keys& keys) const {
  return std::any_of(keys.begin(), keys.end(), [&](const char* k) { return bad(k); });
}

std::optional<Field> ConfigFields::first_int(const Keys& keys) {
  for (const char* key : keys) {
    if (auto v = optional_int(key)) return Field{*v, key};
    if (bad(key)) break;
  }
  return std::nullopt;
}

std::optional<Field> ConfigFields::required_int(const Keys& keys, const std::string& meaning) {
  if (auto found = first_int(keys)) return found;
  if (any_bad(keys)) return std::nullopt;
  for (const char* key : keys) {
    if (doc.contains(key)) {  // present but null
      f.add(error_code::kType, pointer(key),
            "expected a positive integer (" + meaning + "), got null");
      return std::nullopt;
    }
  }
  const char* first = keys.front();
  f.add(error_code::kMissingField, pointer(first),
        "no " + meaning + ": looked for " + key_list(keys) + " (expected a positive integer)");
  return std::nullopt;
}

const json* ConfigFields::array_of(const char* key, std::int64_t size) {
  const json* v = member(doc, key);
  if (!v) return nullptr;
  if (v->is_array() && (size < 0 || static_cast<std::int64_t>(v->size()) == size)) return v;
  f.add(error_code::kType, pointer(key),
        (size < 0 ? std::string("expected an array")
                  : "expected an array of " + std::to_string(size) + " entries (one per layer)") +
            ", got " + describe(*v));
  return nullptr;
}

bool ConfigFields::check_divides(std::int64_t divisor, const std::string& divisor_key,
                                 std::int64_t value, const std::string& value_key) {
  if (value % divisor == 0) return true;
  f.add(error_code::kRange, pointer(divisor_key),
        divisor_key + " (" + std::to_string(divisor) + ") must divide " + value_key + " (" +
            std::to_string(value) + ")");
  return false;
}

}  // namespace tenet::llm::config_detail
