// Reading a JSON object field by field, with errors that name the file and JSON pointer.
// Internal to src/quant.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tenet/error.hpp"
#include "tenet/io/json_reader.hpp"

namespace tenet::quant::detail {

using io::pointer_join;

// Runs one field's reading; an InputError it throws is recorded in `problems` (at `pointer`
// unless it names its own location) and reading goes on with the next field.
template <typename F>
void collect(io::JsonProblems& problems, const std::string& pointer, F&& read) {
  try {
    read();
  } catch (const InputError& e) {
    problems.add(e, pointer);
  }
}

// The accessors throw on the first wrong field; readers call them inside collect() so that every
// field of a document is checked and all problems are reported together.
class Fields {
 public:
  // Throws InputError(type) if `value` is not an object.
  Fields(const nlohmann::json& value, io::JsonProblems& problems, std::string pointer);

  // Records every key not in `known` (unknown-field, listing them).
  void allow_only(std::initializer_list<const char*> known) const;
  io::JsonProblems& problems() const { return problems_; }
  // Runs read() inside collect(), at this object's pointer.
  template <typename F>
  void collect(F&& read) const {
    detail::collect(problems_, pointer_, std::forward<F>(read));
  }

  bool has(const char* key) const { return value_.contains(key); }
  const nlohmann::json& at(const char* key) const;  // missing-field if absent
  std::string where(const char* key) const { return pointer_join(pointer_, key); }
  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }

  std::string string(const char* key) const;
  std::optional<std::string> optional_string(const char* key) const;
  long long integer(const char* key) const;
  std::optional<long long> optional_integer(const char* key) const;
  bool boolean(const char* key, bool fallback) const;
  Fields object(const char* key) const;
  const nlohmann::json& array(const char* key) const;  // type error unless an array

  // Converts a JSON value at `where` (not necessarily a field of this object).
  long long as_integer(const nlohmann::json& v, const std::string& where) const;
  std::string as_string(const nlohmann::json& v, const std::string& where) const;

 private:
  const nlohmann::json& value_;
  io::JsonProblems& problems_;
  std::string file_, pointer_;
};

// Picks the enumerator whose name is `text`; InputError(unknown-name) listing the names.
template <typename Enum>
Enum parse_enum(const std::string& text, std::initializer_list<Enum> values, const char* what,
                const std::string& file, const std::string& where);

}  // namespace tenet::quant::detail

#include "json_fields_impl.hpp"
