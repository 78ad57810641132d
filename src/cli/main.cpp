// The tenet command-line tool: a thin layer over the library.
// Exit codes: 0 success, 1 bad command line, 2 bad input (InputError), 3 internal error.
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include "cli/command.hpp"
#include "command/fields.hpp"
#include "tenet/error.hpp"

namespace tenet::cli {

std::string option_for_field(const std::string& field) {
  // The fields the library and the commands name (command/fields.hpp) -> the options that set
  // them: "tiling_objective" -> "--tiling-objective".
  if (!command::is_field(field)) return "";
  std::string option = "--" + field;
  std::replace(option.begin(), option.end(), '_', '-');
  return option;
}

InputError with_option_names(const InputError& e) {
  // A field keeps its file (an output the option names, a module --func searched).
  const std::string option = option_for_field(e.where());
  return option.empty() ? e : InputError(e.code(), e.file(), option, e.message());
}

std::vector<CommandInfo>& command_registry() {
  static std::vector<CommandInfo> registry;
  return registry;
}

}  // namespace tenet::cli

int main(int argc, char** argv) {
  using namespace tenet::cli;
  CLI::App app{
      "tenet: exact relation-centric cost model of (quantized) LLM matmuls on spatial "
      "accelerators"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tenet 0.1.0");
  auto& commands = command_registry();
  std::sort(commands.begin(), commands.end(),
            [](const CommandInfo& a, const CommandInfo& b) { return a.order < b.order; });
  for (auto& c : commands) c.setup(*app.add_subcommand(c.name, c.description));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 1;
  } catch (const tenet::InputError& e) {
    fmt::print(stderr, "tenet: error: {}\n", with_option_names(e).what());
    return 2;
  } catch (const tenet::InternalError& e) {
    fmt::print(stderr, "tenet: {}\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tenet: internal error: {}\n", e.what());
    return 3;
  }
  return 0;
}
