// `tenet log`: the matmul calls captured while a model ran (tenet_hook JSONL or the seed's text
// lines), aggregated, with their cost on an accelerator (or only their shapes with --shapes-only):
// command::log.
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "command/llm_commands.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::log_command {
namespace {

struct LogOptions {
  command::LogArgs args;
  std::string format = "table";
};

void setup_log(CLI::App& sub) {
  auto o = std::make_shared<LogOptions>();
  command::LogArgs& a = o->args;
  sub.add_option("--input", a.input,
                 "Workload log: JSON Lines (tenet_hook) or `kernel: b, M, N, K` lines")
      ->required();
  sub.add_option("--log-format", a.log_format, "auto (default: per line), text or jsonl")
      ->check(CLI::IsMember({"auto", "text", "jsonl"}));
  sub.add_option("--tir", a.tir,
                 "TVMScript dump of the same model (debug-phase3.py): each call takes its "
                 "kernel's structure");
  sub.add_flag("--lenient", a.lenient,
               "Skip malformed lines (counted and reported) instead of failing");
  sub.add_option("--tokens", a.tokens, "Tokens the logged run produced, for tokens/s")
      ->check(CLI::PositiveNumber);
  add_listing_options(sub, a.listing, o->format);
  sub.callback([o] {
    command::LogArgs args = o->args;
    args.listing.format = format_of(o->format);
    if (!args.listing.shapes_only) warn_implausible_arch(args.listing.cost.arch);
    const command::Report r = command::log(args);
    print_warnings(r.warnings);
    fmt::print("{}", r.text);
  });
}

}  // namespace

TENET_REGISTER_COMMAND("log", "Matmul calls of a workload log (aggregated), and their cost",
                       setup_log, 41);

}  // namespace tenet::cli::log_command
