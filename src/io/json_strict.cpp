// Strict JSON parsing: nlohmann's DOM parser behind a SAX filter that tracks the JSON pointer of
// every value, so that duplicate keys and integers beyond 64 bits are reported where they are.
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "io/json_errors.hpp"
#include "tenet/error.hpp"
#include "tenet/io/json_strict.hpp"

namespace tenet::io {
namespace {

using json = nlohmann::json;
using DomParser = nlohmann::detail::json_sax_dom_parser<json>;

bool is_integer_literal(const std::string& literal) {
  return literal.find_first_of(".eE") == std::string::npos;
}

class StrictSax {
 public:
  StrictSax(json& root, std::string file) : dom_(root, true), file_(std::move(file)) {}

  bool null() { return value(), dom_.null(); }
  bool boolean(bool v) { return value(), dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return value(), dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return value(), dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const std::string& literal) {
    value();
    if (!is_integer_literal(literal)) return dom_.number_float(v, literal);
    errors_.add(InputError(error_code::kOverflow, file_, pointer(),
                           "expected an integer that fits 64 bits, got " + literal));
    return dom_.null();
  }
  bool string(std::string& v) { return value(), dom_.string(v); }
  bool binary(json::binary_t& v) { return value(), dom_.binary(v); }
  bool start_object(std::size_t n) {
    value();
    frames_.push_back({true, {}, {}, -1});
    return dom_.start_object(n);
  }
  bool key(std::string& k) {
    Frame& f = frames_.back();
    f.key = k;
    if (!f.keys.insert(k).second)
      errors_.add(InputError(error_code::kDuplicate, file_, pointer(),
                             "key \"" + k + "\" appears twice in the same object"));
    return dom_.key(k);
  }
  bool end_object() { return frames_.pop_back(), dom_.end_object(); }
  bool start_array(std::size_t n) {
    value();
    frames_.push_back({false, {}, {}, -1});
    return dom_.start_array(n);
  }
  bool end_array() { return frames_.pop_back(), dom_.end_array(); }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    return dom_.parse_error(position, token, e);
  }

  const detail::ErrorList& errors() const { return errors_; }

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

  std::string pointer() const {
    std::string p;
    for (const auto& f : frames_)
      p += "/" + (f.object ? detail::escape_pointer_token(f.key) : std::to_string(f.index));
    return p;
  }

  DomParser dom_;
  std::string file_;
  std::vector<Frame> frames_;
  detail::ErrorList errors_;
};

// "line L, column C" of a byte offset (1-based; nlohmann's byte is one past the bad character).
std::string position_of(const std::string& text, std::size_t byte) {
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
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::string parse_error_reason(const std::string& what) {
  const std::string marker = ": ";
  const auto at = what.find("parse error");
  if (at == std::string::npos) return what;
  const auto colon = what.find(marker, at);
  return colon == std::string::npos ? what : what.substr(colon + marker.size());
}

}  // namespace

nlohmann::json parse_json_strict(const std::string& text, const std::string& file) {
  json root;
  StrictSax sax(root, file);
  try {
    json::sax_parse(text, &sax);
  } catch (const json::parse_error& e) {
    throw InputError(error_code::kParse, file, position_of(text, e.byte),
                     "expected valid JSON: " + parse_error_reason(e.what()));
  }
  sax.errors().throw_if_any();
  return root;
}

}  // namespace tenet::io
