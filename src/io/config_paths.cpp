#include "io/config_paths.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace tenet::io {
namespace {

namespace fs = std::filesystem;

void add_if_directory(std::vector<std::string>& dirs, const std::string& dir) {
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return;
  if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
}

// Letters, digits, '_', '-', '.', and no "..": never a path.
bool plain_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  }) && name.find("..") == std::string::npos;
}

// Stems of the *.json files in `dirs`, sorted, unique.
std::vector<std::string> json_stems(const std::vector<std::string>& dirs) {
  std::vector<std::string> names;
  for (const auto& dir : dirs) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".json") names.push_back(it->path().stem().string());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// The first DIR/NAME.json of `dirs` for a plain name.
std::optional<std::string> find_json(const std::vector<std::string>& dirs,
                                     const std::string& name) {
  if (!plain_name(name)) return std::nullopt;
  for (const auto& dir : dirs) {
    const fs::path file = fs::path(dir) / (name + ".json");
    std::error_code ec;
    if (fs::is_regular_file(file, ec)) return file.string();
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> config_search_path() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("TENET_CONFIG_DIR")) add_if_directory(dirs, env);
#ifdef TENET_SOURCE_CONFIG_DIR
  add_if_directory(dirs, TENET_SOURCE_CONFIG_DIR);
#endif
#ifdef TENET_INSTALL_CONFIG_DIR
  add_if_directory(dirs, TENET_INSTALL_CONFIG_DIR);
#endif
  return dirs;
}

std::vector<std::string> config_names(const std::string& area) {
  std::vector<std::string> dirs;
  for (const auto& dir : config_search_path()) dirs.push_back((fs::path(dir) / area).string());
  return json_stems(dirs);
}

std::optional<std::string> find_config(const std::string& area, const std::string& name) {
  std::vector<std::string> dirs;
  for (const auto& dir : config_search_path()) dirs.push_back((fs::path(dir) / area).string());
  return find_json(dirs, name);
}

std::vector<std::string> model_search_path() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("TENET_MODEL_DIR")) add_if_directory(dirs, env);
#ifdef TENET_SOURCE_MODEL_DIR
  add_if_directory(dirs, TENET_SOURCE_MODEL_DIR);
#endif
#ifdef TENET_INSTALL_MODEL_DIR
  add_if_directory(dirs, TENET_INSTALL_MODEL_DIR);
#endif
  return dirs;
}

std::vector<std::string> model_names() { return json_stems(model_search_path()); }

std::optional<std::string> find_model(const std::string& name) {
  return find_json(model_search_path(), name);
}

std::string config_names_text(const std::string& area) {
  std::string text;
  for (const auto& name : config_names(area)) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace tenet::io
