// Timing of a non-matmul operator on the accelerator's vector unit (arch/serving.hpp): the
// slowest of its operations at the lanes' rate for its kind, its element traffic through the
// unit's SRAM port and its DRAM traffic at the DRAM bandwidth (plus one DRAM latency when it
// touches DRAM). No time below any of those links. docs/generate.md#vector-unit.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tenet/arch/accelerator.hpp"

namespace tenet::hw {

struct VectorCycles {
  double cycles = 0;
  std::string bound;  // "compute" | "sram" | "dram"
};

// The vector unit an accelerator runs its non-matmul operators on: the file's, else
// arch::default_vector_unit of its PE columns.
arch::VectorUnit vector_unit_of(const arch::Accelerator& acc);

// `ops` elementary operations of `kind`, `sram_bytes` through the unit's port, `dram_bytes`
// between DRAM and the chip. InputError(unknown-name) for a kind the unit does not rate.
VectorCycles vector_op_cycles(const arch::Accelerator& acc, const arch::VectorUnit& unit,
                              const std::string& kind, std::int64_t ops, std::int64_t sram_bytes,
                              std::int64_t dram_bytes);
// One operator whose operations are of several kinds (a fused kernel's online softmax: the
// softmax's and the elementwise rescale of its accumulator): the lanes' cycles are the sum over
// the kinds of ops / (lanes · rate of the kind); the port and DRAM as above.
VectorCycles vector_op_cycles(const arch::Accelerator& acc, const arch::VectorUnit& unit,
                              const std::vector<std::pair<std::string, std::int64_t>>& ops,
                              std::int64_t sram_bytes, std::int64_t dram_bytes);

}  // namespace tenet::hw
