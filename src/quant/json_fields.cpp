#include "json_fields.hpp"

#include <fmt/format.h>

#include <limits>

#include "tenet/error.hpp"

namespace tenet::quant::detail {
namespace {

const char* type_name(const nlohmann::json& v) { return v.type_name(); }

}  // namespace

Fields::Fields(const nlohmann::json& value, io::JsonProblems& problems, std::string pointer)
    : value_(value), problems_(problems), file_(problems.file()), pointer_(std::move(pointer)) {
  if (!value_.is_object())
    throw InputError(error_code::kType, file_, pointer_,
                     fmt::format("expected an object, got {}", type_name(value_)));
}

void Fields::allow_only(std::initializer_list<const char*> known) const {
  for (const auto& item : value_.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || item.key() == k;
    if (ok) continue;
    std::string names;
    for (const char* k : known) names += (names.empty() ? "" : ", ") + std::string(k);
    problems_.add(error_code::kUnknownField, pointer_join(pointer_, item.key()),
                  fmt::format("unknown field \"{}\", expected one of {}", item.key(), names));
  }
}

const nlohmann::json& Fields::at(const char* key) const {
  if (!value_.contains(key))
    throw InputError(error_code::kMissingField, file_, where(key),
                     fmt::format("missing required field \"{}\"", key));
  return value_.at(key);
}

long long Fields::as_integer(const nlohmann::json& v, const std::string& where) const {
  if (v.is_number_unsigned()) {
    const auto u = v.get<nlohmann::json::number_unsigned_t>();
    if (u > static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
      throw InputError(error_code::kOverflow, file_, where,
                       fmt::format("{} does not fit a 64-bit signed integer", u));
    return static_cast<long long>(u);
  }
  if (v.is_number_integer()) return v.get<long long>();
  if (v.is_number_float())
    throw InputError(error_code::kType, file_, where,
                     fmt::format("expected an integer, got {} (a float or a number too large "
                                 "for 64 bits)",
                                 v.dump()));
  throw InputError(error_code::kType, file_, where,
                   fmt::format("expected an integer, got {}", type_name(v)));
}

std::string Fields::as_string(const nlohmann::json& v, const std::string& where) const {
  if (!v.is_string())
    throw InputError(error_code::kType, file_, where,
                     fmt::format("expected a string, got {}", type_name(v)));
  return v.get<std::string>();
}

std::string Fields::string(const char* key) const { return as_string(at(key), where(key)); }

std::optional<std::string> Fields::optional_string(const char* key) const {
  if (!has(key)) return std::nullopt;
  return string(key);
}

long long Fields::integer(const char* key) const { return as_integer(at(key), where(key)); }

std::optional<long long> Fields::optional_integer(const char* key) const {
  if (!has(key)) return std::nullopt;
  return integer(key);
}

bool Fields::boolean(const char* key, bool fallback) const {
  if (!has(key)) return fallback;
  const auto& v = at(key);
  if (!v.is_boolean())
    throw InputError(error_code::kType, file_, where(key),
                     fmt::format("expected true or false, got {}", type_name(v)));
  return v.get<bool>();
}

Fields Fields::object(const char* key) const { return Fields(at(key), problems_, where(key)); }

const nlohmann::json& Fields::array(const char* key) const {
  const auto& v = at(key);
  if (!v.is_array())
    throw InputError(error_code::kType, file_, where(key),
                     fmt::format("expected an array, got {}", type_name(v)));
  return v;
}

}  // namespace tenet::quant::detail
