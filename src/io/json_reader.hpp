// The one strict JSON reader of every input format (spec, architecture, quantization, sweep spec,
// model config, JSON Lines logs, sweep tables).
//
// Reading is parse -> validate -> build. parse_json rejects what nlohmann/json would accept
// silently or turn into an internal error: syntax errors (at "line L, column C"), invalid UTF-8,
// nesting deeper than kMaxJsonDepth, duplicate keys, integers beyond 64 bits and numbers beyond
// the range of a double (each at its JSON pointer). Validation goes through JsonFields, which
// records every problem in a JsonProblems list; the list throws one InputError naming the first
// problem and listing all the others, each with its JSON pointer.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tenet/error.hpp"

namespace tenet::io {

// Deeper documents are rejected (error code `range`) before anything recursive touches them.
inline constexpr std::size_t kMaxJsonDepth = 256;

// Parses JSON text strictly. `file` names the text in errors; `where_prefix` (e.g. "line 7" for a
// JSON Lines record) goes in front of every location. Throws one InputError listing every
// duplicate key and out-of-range number (the parse stops at the first syntax error, the first
// number beyond a double, or the first value nested too deep).
nlohmann::json parse_json(const std::string& text, const std::string& file,
                          const std::string& where_prefix = "");
// The same, keeping the keys in the order of the text.
nlohmann::ordered_json parse_ordered_json(const std::string& text, const std::string& file,
                                          const std::string& where_prefix = "");
// Reads and parses a whole file (InputError(io) when it cannot be read).
nlohmann::json read_json_file(const std::string& path);

// A Hugging Face config.json: as parse_json, and also the non-standard value tokens NaN,
// Infinity and -Infinity that Python's json module writes and the HF loader reads (read as the
// double NaN / ±infinity; outside strings only, never as a key). Only model configs take them:
// every other format stays strict JSON.
nlohmann::json parse_config_json(const std::string& text, const std::string& file);
nlohmann::json read_config_json_file(const std::string& path);

// RFC 6901: "~" -> "~0", "/" -> "~1".
std::string escape_pointer_token(const std::string& token);
std::string pointer_join(const std::string& pointer, const std::string& key);
std::string pointer_join(const std::string& pointer, std::size_t index);

// "an integer", "a string", ... for messages.
const char* json_type_name(const nlohmann::json& value);

// The problems found in one input, each with its location.
class JsonProblems {
 public:
  explicit JsonProblems(std::string file, std::string where_prefix = "");

  // `pointer` is a JSON pointer inside the document ("" for the document itself).
  void add(const std::string& code, const std::string& pointer, const std::string& message);
  // An error thrown by a helper: its code and message, placed at `pointer` when it names no
  // location of its own in this file.
  void add(const InputError& e, const std::string& pointer);
  void append(const JsonProblems& other);
  // Runs `read`, a helper that throws InputError (a name parser, a cross-field check); what it
  // throws is recorded as add(e, pointer) and reading goes on. True when it threw nothing.
  template <class F>
  bool attempt(const std::string& pointer, F&& read) {
    try {
      read();
      return true;
    } catch (const InputError& e) {
      add(e, pointer);
      return false;
    }
  }

  bool empty() const { return list_.empty(); }
  std::size_t size() const { return list_.size(); }
  const std::vector<InputError>& list() const { return list_; }
  const std::string& file() const { return file_; }
  // The location written in errors for `pointer` (the prefix, then the pointer).
  std::string where(const std::string& pointer) const;

  // Throws the first problem; its message goes on with "; and N more error(s): " and every other
  // problem as "WHERE: MESSAGE (CODE)". Does nothing when there is none.
  void throw_if_any() const;

 private:
  std::string file_, prefix_;
  std::vector<InputError> list_;
};

// Bounds of an integer field (inclusive).
struct IntRange {
  long long min = std::numeric_limits<long long>::min();
  long long max = std::numeric_limits<long long>::max();
};

// Conversions of one JSON value at `pointer`; a wrong value is recorded and gives nothing.
// `what` says what the value means ("bits per element").
std::optional<long long> json_integer(const nlohmann::json& v, const std::string& pointer,
                                      JsonProblems& problems, const std::string& what,
                                      IntRange range = {});
std::optional<double> json_number(const nlohmann::json& v, const std::string& pointer,
                                  JsonProblems& problems, const std::string& what);
std::optional<std::string> json_string(const nlohmann::json& v, const std::string& pointer,
                                       JsonProblems& problems, const std::string& what);
std::optional<bool> json_boolean(const nlohmann::json& v, const std::string& pointer,
                                 JsonProblems& problems);
// A name from a fixed list: the position of the string `v` in `names`. Another string is
// recorded as unknown-name ("unknown WHAT \"S\", expected one of A, B, ..."), a non-string as a
// type problem.
std::optional<std::size_t> json_pick(const nlohmann::json& v, const std::string& pointer,
                                     JsonProblems& problems, const std::string& what,
                                     const std::vector<std::string>& names);

// The fields of one JSON object at `pointer`. Every accessor records what is wrong (missing,
// mistyped, out of range, unknown) in the shared JsonProblems and goes on.
class JsonFields {
 public:
  // A value that is not an object is recorded as a type problem; ok() is then false and every
  // accessor gives nothing.
  JsonFields(const nlohmann::json& value, std::string pointer, JsonProblems& problems);

  bool ok() const { return value_.is_object(); }
  const nlohmann::json& value() const { return value_; }
  const std::string& pointer() const { return pointer_; }
  std::string pointer_of(const std::string& key) const { return pointer_join(pointer_, key); }
  JsonProblems& problems() const { return problems_; }

  // Records every key not in `known` (unknown-field, listing the known ones).
  void allow_only(std::initializer_list<const char*> known) const;
  bool has(const char* key) const;
  // The member, or nullptr; a required absent member is recorded (missing-field; `what` says
  // what it holds).
  const nlohmann::json* find(const char* key, bool required, const std::string& what = "") const;

  std::optional<std::string> string(const char* key, bool required,
                                    const std::string& what = "a string") const;
  std::optional<long long> integer(const char* key, bool required, const std::string& what,
                                   IntRange range = {}) const;
  std::optional<double> number(const char* key, bool required, const std::string& what) const;
  std::optional<bool> boolean(const char* key, bool required) const;
  // A name from a fixed list (json_pick): its position in `names`.
  std::optional<std::size_t> pick(const char* key, bool required, const std::string& what,
                                  const std::vector<std::string>& names) const;
  // The enumerator of `values` whose to_string() is the member's string (json_pick).
  template <class Enum>
  std::optional<Enum> enumerator(const char* key, bool required, const std::string& what,
                                 std::initializer_list<Enum> values) const {
    std::vector<std::string> names;
    for (Enum v : values) names.emplace_back(to_string(v));
    const auto at = pick(key, required, what, names);
    if (!at) return std::nullopt;
    return values.begin()[*at];
  }
  // A string member read by `parse` (a function of the string that throws InputError for a bad
  // one, such as workload::parse_data_type): its value, or nothing with the error recorded at
  // the member's pointer.
  template <class Parse>
  auto parse(const char* key, bool required, const std::string& what, Parse&& parse_text) const
      -> std::optional<decltype(parse_text(std::string()))> {
    const auto text = string(key, required, what);
    std::optional<decltype(parse_text(std::string()))> out;
    if (text) attempt(key, [&] { out = parse_text(*text); });
    return out;
  }
  // Runs a throwing helper for the member `key` (JsonProblems::attempt at its pointer).
  template <class F>
  bool attempt(const char* key, F&& read) const {
    return problems_.attempt(pointer_of(key), std::forward<F>(read));
  }
  std::optional<JsonFields> object(const char* key, bool required,
                                   const std::string& what = "") const;
  // The member if it is an array (else recorded as a type problem).
  const nlohmann::json* array(const char* key, bool required, const std::string& what = "") const;

 private:
  const nlohmann::json& value_;
  std::string pointer_;
  JsonProblems& problems_;
};

}  // namespace tenet::io
