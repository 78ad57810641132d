// Values of an accelerator description outside what real hardware has — most likely a unit slip
// (a clock in GHz where MHz is meant, a capacity in GB where bytes are): the commands warn about
// them on stderr and in their JSON's `warnings` list, and run all the same (docs/hardware.md#
// plausible-values lists the ranges).
#pragma once

#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"

namespace tenet::arch {

// One range per quantity; a value outside it is a warning naming the file, the JSON pointer, the
// value with its unit and the range.
struct PlausibleRange {
  const char* quantity;  // "clock", "DRAM bandwidth", ...
  const char* unit;      // "MHz", "GB/s", ...
  double lo, hi;         // in `unit`, both included
  const char* text;      // "10 to 10000 MHz"
};
const std::vector<PlausibleRange>& plausible_ranges();

// The warnings of `acc` (empty when every value is plausible), e.g. "x.json: /clock_mhz: 1 MHz is
// outside the plausible clock of 10 to 10000 MHz (clock_mhz is in MHz: 1 GHz is 1000); ...".
// Unlimited bandwidths, the ideal array's unlimited buffer (2^62 bytes) and values the file does
// not state are not checked. The file is the spec's `file`, else its name.
std::vector<std::string> implausible_values(const Accelerator& acc);

}  // namespace tenet::arch
