// Strict JSON reading (the bottom of every JSON input format).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tenet::io {

// Parses JSON text strictly: duplicate keys -> InputError(duplicate), integers beyond 64 bits ->
// InputError(overflow), syntax -> InputError(parse) at "line L, column C".
nlohmann::json parse_json_strict(const std::string& text, const std::string& file);

}  // namespace tenet::io
