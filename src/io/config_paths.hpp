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

// Directories of bundled model configs (NAME.json, Hugging Face config.json files), in search
// order: $TENET_MODEL_DIR, the source tree's workloads/models (compile-time), the installed
// share/tenet/workloads/models. Directories that do not exist are left out.
std::vector<std::string> model_search_path();
// Names of every bundled model (file stems), sorted, unique.
std::vector<std::string> model_names();
// The first NAME.json on the model search path; nullopt if none or `name` is not a plain name.
std::optional<std::string> find_model(const std::string& name);

}  // namespace tenet::io
