// The one rule set for the values of command-line options. Each rule checks the text the user
// typed (before CLI11 converts it: CLI11 turns an empty string into 0) and throws an InputError
// at the option (exit 2) when it is broken.
#pragma once

#include <CLI/CLI.hpp>

namespace tenet::cli {

enum class OptionRule {
  kPositive,     // an integer >= 1 (sizes, token counts, rates)
  kNonNegative,  // an integer >= 0 (0 = the documented default)
  kNonEmpty,     // any text, but not empty (names, files, i/n)
};

// Attaches `rule` to `option` and returns it (for chaining after add_option).
CLI::Option* with_rule(CLI::Option* option, OptionRule rule);

// Throws InputError(code, "", option_name, ...) when `text` breaks `rule`.
void check_option_value(const std::string& option_name, const std::string& text, OptionRule rule);

}  // namespace tenet::cli
