// QuantSpec <-> JSON (docs/schema/quant.schema.json) and the preset library (configs/quant/).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tenet/quant/quant_spec.hpp"

namespace tenet::quant {

// Parses and validates a quantization spec. Errors: InputError naming `file` and the JSON
// pointer (unknown-field, missing-field, type, range, unknown-name, overflow).
QuantSpec parse_quant_spec(const nlohmann::json& json, const std::string& file = "");
// The same document back (parse_quant_spec(to_json(s)) == s).
nlohmann::json to_json(const QuantSpec& spec);

// Directories searched for configs/<area>/NAME.json, in order: $TENET_CONFIG_DIR (a directory
// laid out like configs/), the source tree's configs/ (compile-time), the installed
// share/tenet/configs. Directories that do not exist are left out.
std::vector<std::string> config_search_path();
// Names of every configs/quant/*.json found on the search path (sorted, unique).
std::vector<std::string> preset_names();
// Loads configs/quant/NAME.json from the first directory that has it. Unknown names throw
// InputError(unknown-name) listing the known ones.
QuantSpec load_preset(const std::string& name);
// A path to an existing file (a quantization spec, or a BitBLAS matmul config whose shapes are
// then dropped — see bitblas.hpp), else a preset name.
QuantSpec load_quant(const std::string& name_or_file);
// Reads a JSON file (InputError io / parse on failure).
nlohmann::json read_json_file(const std::string& path);

}  // namespace tenet::quant
