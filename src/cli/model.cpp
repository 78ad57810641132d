// `tenet model`: the matmuls of a Hugging Face model config for one prefill or decode pass,
// with their cost on an accelerator (or only their shapes with --shapes-only): command::model.
#include <fmt/core.h>

#include <memory>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "command/llm_commands.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::model_command {
namespace {

struct ModelOptions {
  command::ModelArgs args;
  std::string format = "table";
};

void setup_model(CLI::App& sub) {
  auto o = std::make_shared<ModelOptions>();
  add_model_option(sub, o->args.model)->required();
  add_pass_options(sub, o->args.pass, kAllPassOptions);
  add_listing_options(sub, o->args.listing, o->format);
  sub.callback([o] {
    command::ModelArgs args = o->args;
    args.listing.format = format_of(o->format);
    if (!args.listing.shapes_only) warn_implausible_arch(args.listing.cost.arch);
    fmt::print("{}", command::model(args));
  });
}

}  // namespace

TENET_REGISTER_COMMAND("model",
                       "Matmuls of an LLM (HF config.json) in prefill or decode, and their cost",
                       setup_model, 40);

}  // namespace tenet::cli::model_command
