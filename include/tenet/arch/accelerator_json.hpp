// Reading and writing architecture files (format: docs/hardware.md, schema:
// docs/schema/arch.schema.json).
//
// parse -> validate (every problem collected; the first is thrown with a count of the others)
// -> defaults (energy table from the 45 nm figures) -> Accelerator. Unknown keys, wrong types,
// sizes <= 0, numbers beyond 64 bits, unknown interconnect kinds, precisions without a MAC rate
// and MAC energies with neither a value nor a default are InputErrors naming the JSON pointer.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tenet/arch/accelerator.hpp"

namespace tenet::arch {

// `file` is only used in error messages.
Accelerator parse_accelerator(const nlohmann::json& json, const std::string& file = "");
Accelerator parse_accelerator_text(const std::string& text, const std::string& file = "");
// Throws InputError(io) if the file cannot be read.
Accelerator load_accelerator(const std::string& path);

// The full description, defaults included; parse_accelerator(to_json(a)) == a.
nlohmann::json to_json(const Accelerator& acc);

}  // namespace tenet::arch
