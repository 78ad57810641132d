// Bundled models by name: `--model llama-3-8b` finds workloads/models/llama-3-8b.json as `--arch`
// finds presets (io/config_paths.hpp).
#include <fmt/core.h>

#include <filesystem>
#include <system_error>

#include "io/config_paths.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/model_config.hpp"

namespace tenet::llm {

std::vector<std::string> bundled_model_names() { return io::model_names(); }

std::string model_file(const std::string& name_or_file) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_regular_file(name_or_file, ec)) return name_or_file;
  const bool path_like =
      name_or_file.find('/') != std::string::npos || fs::path(name_or_file).extension() == ".json";
  if (path_like) {
    // "llama-3-8b.json" in a directory that has no such file: say that the name alone finds it.
    const std::string stem = fs::path(name_or_file).stem().string();
    if (!fs::exists(name_or_file, ec) && io::find_model(stem))
      throw InputError(error_code::kIo, name_or_file, "",
                       fmt::format("cannot open the file; a bundled model of that name exists: "
                                   "give its name alone, \"{}\"",
                                   stem));
    return name_or_file;  // reading it names the file that is not there
  }
  if (const auto file = io::find_model(name_or_file)) return *file;
  std::string known;
  for (const std::string& name : bundled_model_names()) known += (known.empty() ? "" : ", ") + name;
  throw InputError(
      error_code::kUnknownName, "", "model",
      fmt::format("\"{}\" is neither a config.json file nor a bundled model (expected a file or "
                  "one of: {})",
                  name_or_file, known.empty() ? "none found; set TENET_MODEL_DIR" : known));
}

}  // namespace tenet::llm
