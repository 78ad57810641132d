// Template definitions for json_fields.hpp.
#pragma once

#include "tenet/error.hpp"

namespace tenet::quant::detail {

template <typename Enum>
Enum parse_enum(const std::string& text, std::initializer_list<Enum> values, const char* what,
                const std::string& file, const std::string& where) {
  std::string names;
  for (Enum v : values) {
    if (text == to_string(v)) return v;
    names += (names.empty() ? "" : ", ") + std::string(to_string(v));
  }
  throw InputError(error_code::kUnknownName, file, where,
                   std::string("unknown ") + what + " \"" + text + "\", expected one of " + names);
}

}  // namespace tenet::quant::detail
