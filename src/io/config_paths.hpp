// Where bundled configuration files (presets) are found: configs/<area>/NAME.json, for the areas
// "arch" (accelerators) and "quant" (quantization schemes). One search path for every area.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tenet::io {

// Directories laid out like configs/, in search order: $TENET_CONFIG_DIR, the source tree's
// configs/ (compile-time), the installed share/tenet/configs. Directories that do not exist are
// left out.
std::vector<std::string> config_search_path();

// Names (file stems) of every configs/<area>/*.json on the search path, sorted, unique.
std::vector<std::string> config_names(const std::string& area);

// The first configs/<area>/NAME.json on the search path; nullopt if none, or if `name` is not a
// plain preset name (letters, digits, '_', '-', '.', no "..").
std::optional<std::string> find_config(const std::string& area, const std::string& name);

// "a, b, c" — for error messages listing the known presets of an area.
std::string config_names_text(const std::string& area);

}  // namespace tenet::io
