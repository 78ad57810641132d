// Accelerator presets (configs/arch/NAME.json) by name, or an architecture file by path; the
// default accelerator of the LLM commands.
#pragma once

#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"

namespace tenet::arch {

// The accelerator `tenet model` / `tenet log` use without --arch: a 32x32 systolic array of
// precision-scalable PEs (1 fp16, 2 int8 or 4 int4 MACs per PE per cycle), 2 MiB shared buffer,
// 64 bytes/cycle DRAM, 1 GHz, 45 nm energies (configs/arch/scalable-32x32.json).
inline constexpr const char* kDefaultAccelerator = "scalable-32x32";

// Names of the presets found on the config search path (io/config_paths.hpp), sorted.
std::vector<std::string> accelerator_preset_names();

// A path to an existing file is loaded as an architecture file (arch::load_accelerator);
// otherwise the name of a preset in configs/arch/. A name that is neither throws
// InputError(unknown-name, "", "arch") listing the presets; a path-like name (containing '/'
// or ending in .json) that does not exist throws InputError(io, name).
Accelerator load_accelerator_preset(const std::string& name_or_file);

}  // namespace tenet::arch
