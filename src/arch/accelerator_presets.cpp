#include "tenet/arch/accelerator_presets.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <system_error>

#include "io/config_paths.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/error.hpp"

namespace tenet::arch {
namespace {

namespace fs = std::filesystem;

bool looks_like_path(const std::string& text) {
  return text.find('/') != std::string::npos || fs::path(text).extension() == ".json";
}

}  // namespace

std::vector<std::string> accelerator_preset_names() { return io::config_names("arch"); }

Accelerator load_accelerator_preset(const std::string& name_or_file) {
  std::error_code ec;
  if (fs::is_regular_file(name_or_file, ec)) return load_accelerator(name_or_file);
  if (looks_like_path(name_or_file))
    throw InputError(error_code::kIo, name_or_file, "", "no such architecture file");
  if (const auto file = io::find_config("arch", name_or_file)) return load_accelerator(*file);
  const std::string known = io::config_names_text("arch");
  throw InputError(
      error_code::kUnknownName, "", "arch",
      fmt::format("\"{}\" is neither a file nor an architecture preset (expected one "
                  "of: {})",
                  name_or_file, known.empty() ? "none found; set TENET_CONFIG_DIR" : known));
}

}  // namespace tenet::arch
