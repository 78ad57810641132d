// The one strict JSON reader: nlohmann's DOM parser behind a SAX filter that tracks the JSON
// pointer of every value, so that duplicate keys, numbers out of range and too deep nesting are
// reported where they are; and the field accessors every input format validates with.
#include "io/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "io/text_file.hpp"

namespace tenet::io {
namespace {

std::string excerpt(const std::string& text) {
  if (text.size() <= 40) return utf8_prefix(text, 40);
  return utf8_prefix(text, 37) + "... (" + std::to_string(text.size()) + " characters)";
}

bool is_integer_literal(const std::string& literal) {
  return literal.find_first_of(".eE") == std::string::npos;
}

// "line L, column C" of a byte offset (1-based; nlohmann's byte is one past the bad character).
std::string position_of(const std::string& text, std::size_t byte, const std::string& prefix) {
  std::size_t line = 1, column = 1;
  const std::size_t end = byte == 0 ? 0 : std::min(byte - 1, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  if (!prefix.empty() && line == 1) return prefix + ", column " + std::to_string(column);
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::string parse_error_reason(const std::string& what) {
  const std::string marker = ": ";
  const auto at = what.find("parse error");
  if (at == std::string::npos) return what;
  const auto colon = what.find(marker, at);
  return colon == std::string::npos ? what : what.substr(colon + marker.size());
}

// The non-standard tokens NaN, Infinity and -Infinity that Python's json module writes and the
// Hugging Face config loader reads: replaced outside strings by string literals of the same
// length (so that every later syntax error keeps its line and column), whose ordinal among the
// string tokens of the text says which value each one stands for.
struct NonFinite {
  std::string text;                  // with the tokens replaced
  std::map<std::size_t, double> at;  // string-token ordinal -> the value
};

NonFinite replace_non_finite(const std::string& text) {
  NonFinite out{text, {}};
  std::size_t ordinal = 0;
  const std::pair<const char*, const char*> tokens[] = {
      {"-Infinity", "\"-Infini\""}, {"Infinity", "\"Infini\""}, {"NaN", "\"N\""}};
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '"') {  // skip the string
      ++ordinal;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
      continue;
    }
    if (ch != 'N' && ch != 'I' && ch != '-') continue;
    for (const auto& [token, replacement] : tokens) {
      const std::size_t n = std::char_traits<char>::length(token);
      if (text.compare(i, n, token) != 0) continue;
      out.text.replace(i, n, replacement);
      out.at[ordinal++] = token[0] == 'N'   ? std::numeric_limits<double>::quiet_NaN()
                          : token[0] == '-' ? -std::numeric_limits<double>::infinity()
                                            : std::numeric_limits<double>::infinity();
      i += n - 1;
      break;
    }
  }
  return out;
}

template <class Json>
class StrictSax {
 public:
  using DomParser = nlohmann::detail::json_sax_dom_parser<Json>;

  StrictSax(Json& root, const std::string& text, JsonProblems& problems, std::string prefix,
            const std::map<std::size_t, double>* non_finite = nullptr)
      : dom_(root, true),
        text_(text),
        problems_(problems),
        prefix_(std::move(prefix)),
        non_finite_(non_finite) {}

  bool null() { return value(), dom_.null(); }
  bool boolean(bool v) { return value(), dom_.boolean(v); }
  bool number_integer(typename Json::number_integer_t v) { return value(), dom_.number_integer(v); }
  bool number_unsigned(typename Json::number_unsigned_t v) {
    return value(), dom_.number_unsigned(v);  // beyond int64: the field's reader says so
  }
  bool number_float(typename Json::number_float_t v, const std::string& literal) {
    value();
    if (!is_integer_literal(literal)) return dom_.number_float(v, literal);
    too_large(literal);
    return dom_.null();
  }
  bool string(std::string& v) {
    value();
    if (const double* x = non_finite_value()) return dom_.number_float(*x, v);
    return dom_.string(v);
  }
  bool binary(typename Json::binary_t& v) { return value(), dom_.binary(v); }
  bool start_object(std::size_t n) {
    value();
    if (!deeper()) return false;
    frames_.push_back({true, {}, {}, -1});
    return dom_.start_object(n);
  }
  bool key(std::string& k) {
    if (non_finite_value()) {  // NaN or Infinity where a key belongs
      syntax_ = InputError(error_code::kParse, problems_.file(), pointer(),
                           "expected valid JSON: NaN or Infinity where an object key belongs");
      return false;
    }
    Frame& f = frames_.back();
    f.key = k;
    if (!f.keys.insert(k).second)
      problems_.add(error_code::kDuplicate, pointer(),
                    "key \"" + excerpt(k) + "\" appears twice in the same object");
    return dom_.key(k);
  }
  bool end_object() { return frames_.pop_back(), dom_.end_object(); }
  bool start_array(std::size_t n) {
    value();
    if (!deeper()) return false;
    frames_.push_back({false, {}, {}, -1});
    return dom_.start_array(n);
  }
  bool end_array() { return frames_.pop_back(), dom_.end_array(); }

  // Syntax errors and numbers beyond a double: recorded, and the parse stops.
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    if constexpr (std::is_same_v<Exception, nlohmann::detail::out_of_range>) {
      value();  // the number being read is the next value
      if (is_integer_literal(token))
        too_large(token);
      else
        problems_.add(
            error_code::kOverflow, pointer(),
            "expected a number within the range of a 64-bit float, got " + excerpt(token));
    } else {
      syntax_ =
          InputError(error_code::kParse, problems_.file(), position_of(text_, position, prefix_),
                     "expected valid JSON: " + parse_error_reason(e.what()));
    }
    return false;
  }

  const std::optional<InputError>& syntax_error() const { return syntax_; }

 private:
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;
    long index;
  };

  void value() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }

  // The value a replaced NaN / Infinity token stands for, when the string token just read is one.
  const double* non_finite_value() {
    const std::size_t ordinal = strings_++;
    if (!non_finite_) return nullptr;
    auto it = non_finite_->find(ordinal);
    return it == non_finite_->end() ? nullptr : &it->second;
  }

  bool deeper() {
    if (frames_.size() < kMaxJsonDepth) return true;
    problems_.add(error_code::kRange, pointer(),
                  "expected at most " + std::to_string(kMaxJsonDepth) +
                      " levels of nested arrays and objects");
    return false;
  }

  void too_large(const std::string& literal) {
    problems_.add(error_code::kOverflow, pointer(),
                  "expected an integer that fits 64 bits, got " + excerpt(literal));
  }

  std::string pointer() const {
    std::string p;
    for (const auto& f : frames_)
      p += "/" + (f.object ? escape_pointer_token(f.key) : std::to_string(f.index));
    return p;
  }

  DomParser dom_;
  const std::string& text_;
  JsonProblems& problems_;
  std::string prefix_;
  std::vector<Frame> frames_;
  std::optional<InputError> syntax_;
  const std::map<std::size_t, double>* non_finite_;
  std::size_t strings_ = 0;  // string tokens (keys and values) read so far
};

template <class Json>
Json parse_strict(const std::string& text, const std::string& file, const std::string& prefix,
                  const std::map<std::size_t, double>* non_finite = nullptr) {
  Json root;
  JsonProblems problems(file, prefix);
  StrictSax<Json> sax(root, text, problems, prefix, non_finite);
  const bool complete = Json::sax_parse(text, &sax);
  if (sax.syntax_error()) throw *sax.syntax_error();
  problems.throw_if_any();
  if (!complete) throw InternalError("JSON parse stopped without a reason");
  return root;
}

std::string expected(const std::string& what, const char* kind) {
  if (what.empty() || what == kind) return kind;
  return what + " (" + kind + ")";
}

void type_problem(const nlohmann::json& v, const std::string& pointer, JsonProblems& problems,
                  const std::string& what, const char* kind) {
  std::string got = json_type_name(v);
  if (!v.is_object() && !v.is_array()) got += " " + excerpt(v.dump());
  problems.add(error_code::kType, pointer, "expected " + expected(what, kind) + ", got " + got);
}

}  // namespace

nlohmann::json parse_json(const std::string& text, const std::string& file,
                          const std::string& where_prefix) {
  return parse_strict<nlohmann::json>(text, file, where_prefix);
}

nlohmann::ordered_json parse_ordered_json(const std::string& text, const std::string& file,
                                          const std::string& where_prefix) {
  return parse_strict<nlohmann::ordered_json>(text, file, where_prefix);
}

nlohmann::json read_json_file(const std::string& path) {
  return parse_json(detail::read_text_file(path), path);
}

nlohmann::json parse_config_json(const std::string& text, const std::string& file) {
  const NonFinite replaced = replace_non_finite(text);
  return parse_strict<nlohmann::json>(replaced.text, file, "", &replaced.at);
}

nlohmann::json read_config_json_file(const std::string& path) {
  return parse_config_json(detail::read_text_file(path), path);
}

std::string escape_pointer_token(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string pointer_join(const std::string& pointer, const std::string& key) {
  return pointer + "/" + escape_pointer_token(key);
}

std::string pointer_join(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

const char* json_type_name(const nlohmann::json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_null()) return "null";
  if (value.is_number_integer()) return "an integer";
  return "a number";
}

// ---- JsonProblems ------------------------------------------------------------------------------

JsonProblems::JsonProblems(std::string file, std::string where_prefix)
    : file_(std::move(file)), prefix_(std::move(where_prefix)) {}

std::string JsonProblems::where(const std::string& pointer) const {
  if (prefix_.empty()) return pointer;
  return pointer.empty() ? prefix_ : prefix_ + ", " + pointer;
}

void JsonProblems::add(const std::string& code, const std::string& pointer,
                       const std::string& message) {
  list_.emplace_back(code, file_, where(pointer), message);
}

void JsonProblems::add(const InputError& e, const std::string& pointer) {
  const bool placed = !e.where().empty() && (e.file().empty() || e.file() == file_);
  list_.emplace_back(e.code(), file_, placed ? e.where() : where(pointer), e.message());
}

void JsonProblems::append(const JsonProblems& other) {
  list_.insert(list_.end(), other.list_.begin(), other.list_.end());
}

void JsonProblems::throw_if_any() const {
  if (list_.empty()) return;
  const InputError& first = list_.front();
  if (list_.size() == 1) throw first;
  std::string message = first.message();
  message += "; and " + std::to_string(list_.size() - 1) + " more error(s):";
  for (std::size_t i = 1; i < list_.size(); ++i) {
    const InputError& e = list_[i];
    message += (i > 1 ? "; " : " ") + e.where() + ": " + e.message() + " (" + e.code() + ")";
  }
  throw InputError(first.code(), first.file(), first.where(), message);
}

// ---- conversions -------------------------------------------------------------------------------

std::optional<long long> json_integer(const nlohmann::json& v, const std::string& pointer,
                                      JsonProblems& problems, const std::string& what,
                                      IntRange range) {
  if (v.is_number_unsigned() &&
      v.get<unsigned long long>() >
          static_cast<unsigned long long>(std::numeric_limits<long long>::max())) {
    problems.add(error_code::kOverflow, pointer,
                 "expected " + expected(what, "an integer") + ", got " + v.dump() +
                     ", which does not fit 64 bits");
    return std::nullopt;
  }
  if (!v.is_number_integer()) {
    type_problem(v, pointer, problems, what, "an integer");
    return std::nullopt;
  }
  const long long value = v.get<long long>();
  if (value < range.min || value > range.max) {
    const bool no_max = range.max == std::numeric_limits<long long>::max();
    const bool no_min = range.min == std::numeric_limits<long long>::min();
    std::string bounds =
        no_max   ? ">= " + std::to_string(range.min)
        : no_min ? "<= " + std::to_string(range.max)
                 : "in [" + std::to_string(range.min) + ", " + std::to_string(range.max) + "]";
    problems.add(error_code::kRange, pointer,
                 "expected " + expected(what, "an integer") + " " + bounds + ", got " +
                     std::to_string(value));
    return std::nullopt;
  }
  return value;
}

std::optional<double> json_number(const nlohmann::json& v, const std::string& pointer,
                                  JsonProblems& problems, const std::string& what) {
  if (!v.is_number()) {
    type_problem(v, pointer, problems, what, "a number");
    return std::nullopt;
  }
  return v.get<double>();  // finite: the reader rejects numbers beyond a double
}

std::optional<std::string> json_string(const nlohmann::json& v, const std::string& pointer,
                                       JsonProblems& problems, const std::string& what) {
  if (!v.is_string()) {
    type_problem(v, pointer, problems, what, "a string");
    return std::nullopt;
  }
  return v.get<std::string>();
}

std::optional<bool> json_boolean(const nlohmann::json& v, const std::string& pointer,
                                 JsonProblems& problems) {
  if (!v.is_boolean()) {
    type_problem(v, pointer, problems, "", "true or false");
    return std::nullopt;
  }
  return v.get<bool>();
}

std::optional<std::size_t> json_pick(const nlohmann::json& v, const std::string& pointer,
                                     JsonProblems& problems, const std::string& what,
                                     const std::vector<std::string>& names) {
  const auto text = json_string(v, pointer, problems, what);
  if (!text) return std::nullopt;
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (*text == names[i]) return i;
    list += (i ? ", " : "") + names[i];
  }
  problems.add(error_code::kUnknownName, pointer,
               "unknown " + what + " \"" + excerpt(*text) + "\", expected one of " + list);
  return std::nullopt;
}

// ---- JsonFields --------------------------------------------------------------------------------

JsonFields::JsonFields(const nlohmann::json& value, std::string pointer, JsonProblems& problems)
    : value_(value), pointer_(std::move(pointer)), problems_(problems) {
  if (!value_.is_object()) type_problem(value_, pointer_, problems_, "", "an object");
}

void JsonFields::allow_only(std::initializer_list<const char*> known) const {
  if (!ok()) return;
  for (auto it = value_.begin(); it != value_.end(); ++it) {
    bool found = false;
    for (const char* k : known) found = found || it.key() == k;
    if (found) continue;
    std::string names;
    for (const char* k : known) names += (names.empty() ? "" : ", ") + std::string(k);
    problems_.add(error_code::kUnknownField, pointer_of(it.key()),
                  "unknown field \"" + excerpt(it.key()) + "\", expected one of " + names);
  }
}

bool JsonFields::has(const char* key) const { return ok() && value_.contains(key); }

const nlohmann::json* JsonFields::find(const char* key, bool required,
                                       const std::string& what) const {
  if (!ok()) return nullptr;
  auto it = value_.find(key);
  if (it != value_.end()) return &*it;
  if (required)
    problems_.add(error_code::kMissingField, pointer_of(key),
                  std::string("missing required field \"") + key + "\"" +
                      (what.empty() ? "" : " (" + what + ")"));
  return nullptr;
}

std::optional<std::string> JsonFields::string(const char* key, bool required,
                                              const std::string& what) const {
  const nlohmann::json* v = find(key, required, what);
  if (!v) return std::nullopt;
  return json_string(*v, pointer_of(key), problems_, what);
}

std::optional<long long> JsonFields::integer(const char* key, bool required,
                                             const std::string& what, IntRange range) const {
  const nlohmann::json* v = find(key, required, what);
  if (!v) return std::nullopt;
  return json_integer(*v, pointer_of(key), problems_, what, range);
}

std::optional<double> JsonFields::number(const char* key, bool required,
                                         const std::string& what) const {
  const nlohmann::json* v = find(key, required, what);
  if (!v) return std::nullopt;
  return json_number(*v, pointer_of(key), problems_, what);
}

std::optional<bool> JsonFields::boolean(const char* key, bool required) const {
  const nlohmann::json* v = find(key, required);
  if (!v) return std::nullopt;
  return json_boolean(*v, pointer_of(key), problems_);
}

std::optional<std::size_t> JsonFields::pick(const char* key, bool required, const std::string& what,
                                            const std::vector<std::string>& names) const {
  const nlohmann::json* v = find(key, required);
  if (!v) return std::nullopt;
  return json_pick(*v, pointer_of(key), problems_, what, names);
}

std::optional<JsonFields> JsonFields::object(const char* key, bool required,
                                             const std::string& what) const {
  const nlohmann::json* v = find(key, required, what);
  if (!v) return std::nullopt;
  if (!v->is_object()) {
    type_problem(*v, pointer_of(key), problems_, what, "an object");
    return std::nullopt;
  }
  return JsonFields(*v, pointer_of(key), problems_);
}

const nlohmann::json* JsonFields::array(const char* key, bool required,
                                        const std::string& what) const {
  const nlohmann::json* v = find(key, required, what);
  if (!v) return nullptr;
  if (!v->is_array()) {
    type_problem(*v, pointer_of(key), problems_, what, "an array");
    return nullptr;
  }
  return v;
}

}  // namespace tenet::io
