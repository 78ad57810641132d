// Small conversions shared by the reports and the cost code (internal): exact integers from
// 64-bit counts and as JSON, CSV fields and JSON values as text, isl maps of the library's own
// text.
#pragma once

#include <isl/cpp.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tenet/poly/context.hpp"
#include "tenet/poly/count.hpp"

namespace tenet::detail {

// An exact integer of a 64-bit count.
inline poly::Integer big(long long v) { return poly::Integer(static_cast<long>(v)); }

// An exact integer in JSON: a number when it fits 64 bits, else its decimal digits as a string
// (docs/output.md).
template <typename Json = nlohmann::ordered_json>
Json exact_json(const poly::Integer& v) {
  if (poly::fits_int64(v)) return Json(poly::to_int64(v));
  return Json(v.get_str());
}

// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled.
inline std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// A JSON value as a table cell: a string without its quotes, anything else as JSON text.
template <typename Json>
std::string cell_text(const Json& v) {
  return v.is_string() ? v.template get<std::string>() : v.dump();
}

// An isl map of text the library wrote (not user input: poly/parse.hpp reads that), in the
// calling thread's context.
inline isl::map make_map(const std::string& text) {
  return isl::map(poly::thread_context().get(), text);
}

}  // namespace tenet::detail
