// Presenting a hardware Result: JSON (keys documented in docs/hardware.md) and a table.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tenet/hw/result.hpp"

namespace tenet::hw {

// {"cycles": {"total", "compute", "stall", "stall_sram", "stall_dram"}, "utilization",
//  "mapping_efficiency", "bound", "busy_cycles", "seconds", "macs", "folds", "tiles", "tiling",
//  "precision", "dram_bytes", "energy_pj": {"total", "mac", "register_file", "sram", "dram"},
//  "tensors": {NAME: {"role", "bits", "sram_reads", "sram_writes", "dram_reads", "dram_writes",
//                     "dram_bytes", ...}}}
nlohmann::json to_json(const Result& result);
// Adds the keys of to_json to an existing report; per-tensor fields are merged into
// report["tensors"][NAME] (so they sit beside the relation-centric metrics).
void merge_into(nlohmann::json& report, const Result& result);
// A human-readable table with units.
std::string format_table(const Result& result);

// "array_use" as every report writes it (docs/output.md#array-use): {"rows", "cols" (PEs),
// "rows_used", "cols_used", "row_dim", "col_dim", "stream_dim", "row_share", "col_share",
// "compute_share", "pipeline_share", "stream_cycles", "fold_overhead_cycles", "note"}; `note`:
// array_use_note under the reported bound, null when empty.
nlohmann::ordered_json array_use_json(const ArrayUse& use, long long rows, long long cols,
                                      const std::string& note);
// "1 of 32 rows (M), 32 of 32 columns (N) busy, K streams": the table line.
std::string array_use_text(const ArrayUse& use, long long rows, long long cols);

}  // namespace tenet::hw
