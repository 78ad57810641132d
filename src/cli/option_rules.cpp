#include "cli/option_rules.hpp"

#include <charconv>
#include <cstdint>

#include "tenet/error.hpp"

namespace tenet::cli {
namespace {

const char* expected(OptionRule rule) {
  switch (rule) {
    case OptionRule::kPositive:
      return "a positive integer";
    case OptionRule::kNonNegative:
      return "an integer >= 0";
    case OptionRule::kNonEmpty:
      return "a non-empty value";
  }
  return "a value";
}

}  // namespace

void check_option_value(const std::string& option_name, const std::string& text, OptionRule rule) {
  if (text.empty())
    throw InputError(error_code::kRange, "", option_name,
                     std::string("expected ") + expected(rule) + ", got an empty value");
  if (rule == OptionRule::kNonEmpty) return;
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range)
    throw InputError(error_code::kOverflow, "", option_name,
                     std::string("expected ") + expected(rule) + ", got \"" + text +
                         "\", which does not fit 64 bits");
  if (ec != std::errc() || ptr != end)
    throw InputError(error_code::kParse, "", option_name,
                     std::string("expected ") + expected(rule) + ", got \"" + text + "\"");
  if (value < (rule == OptionRule::kPositive ? 1 : 0))
    throw InputError(error_code::kRange, "", option_name,
                     std::string("expected ") + expected(rule) + ", got " + text);
}

CLI::Option* with_rule(CLI::Option* option, OptionRule rule) {
  const std::string name = option->get_name();
  option->check(CLI::Validator(
      [name, rule](std::string& text) {
        check_option_value(name, text, rule);
        return std::string();
      },
      "", "tenet rule"));
  return option;
}

}  // namespace tenet::cli
