// Subcommand registry of the tenet CLI. Each subcommand lives in its own file and registers
// itself with a static TENET_REGISTER_COMMAND(...), so adding one never touches main.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "report/llm_report.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/error.hpp"
#include "tenet/mapping/systolic.hpp"

namespace tenet::cli {

// Adds the subcommand's options to `sub` and sets its callback (sub->callback(...)).
using CommandSetup = std::function<void(CLI::App& sub)>;

struct CommandInfo {
  std::string name;
  std::string description;
  CommandSetup setup;
  int order;  // position in --help
};

std::vector<CommandInfo>& command_registry();

// The library names the fields of a request (arch, tile, tiling_objective, ...: eval/settings.hpp);
// an error at one of them, with no file, is reported at the option that sets it (--arch, --tile,
// --tiling-objective, ...). main() applies it to every InputError; tests may call it.
InputError with_option_names(const InputError& e);
// The option of a request field, or "" if `field` is not one.
std::string option_for_field(const std::string& field);

struct CommandRegistration {
  CommandRegistration(std::string name, std::string description, CommandSetup setup, int order) {
    command_registry().push_back(
        {std::move(name), std::move(description), std::move(setup), order});
  }
};

// "tenet: warning: ..." lines on stderr (src/cli/warnings.cpp).
void print_warnings(const std::vector<std::string>& warnings);
// The accelerator's implausible values (arch::implausible_values, docs/hardware.md#plausible-
// values) as warnings; the reports' JSON lists the same as `warnings`.
void warn_implausible(const arch::Accelerator& acc);
// The same for --arch (a preset or file; "" the default); an --arch that does not load is left to
// the command, which reports it.
void warn_implausible_arch(const std::string& arch);

// --quant "a,b,c" -> {a, b, c} (report::split_scheme_list; an empty item: InputError at quant).
using report::split_scheme_list;

// --dataflows "os,ws,is" -> the dataflows (tenet search, tenet bound); an unknown one is an
// InputError at --dataflows.
inline std::vector<mapping::Dataflow> dataflows_of(const std::string& list) {
  std::vector<mapping::Dataflow> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    out.push_back(with_location(
        "--dataflows", [&] { return mapping::parse_dataflow(list.substr(start, comma - start)); }));
    start = comma + 1;
  }
  return out;
}

}  // namespace tenet::cli

#define TENET_CLI_CONCAT2(a, b) a##b
#define TENET_CLI_CONCAT(a, b) TENET_CLI_CONCAT2(a, b)
#define TENET_REGISTER_COMMAND(name, description, setup, order)                        \
  static ::tenet::cli::CommandRegistration TENET_CLI_CONCAT(tenet_cli_reg_, __LINE__)( \
      name, description, setup, order)
