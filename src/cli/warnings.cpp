// Warnings on stderr: an accelerator's implausible values (arch/plausibility.hpp), which the
// reports' JSON also lists as `warnings`.
#include <fmt/core.h>

#include <cstdio>

#include "arch/plausibility.hpp"
#include "cli/command.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/defaults.hpp"

namespace tenet::cli {

void print_warnings(const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) fmt::print(stderr, "tenet: warning: {}\n", w);
}

void warn_implausible(const arch::Accelerator& acc) {
  print_warnings(arch::implausible_values(acc));
}

void warn_implausible_arch(const std::string& arch) {
  try {
    warn_implausible(
        arch::load_accelerator_preset(arch.empty() ? eval::defaults::kAccelerator : arch));
  } catch (const InputError&) {  // the command reports what is wrong with it
  }
}

}  // namespace tenet::cli
