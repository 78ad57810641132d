// One point of a sweep: its index in the canonical order, its stable id and its parameters.
//
// The id is a hash of the parameters, not of the index: it stays the same when the spec gains or
// loses other axis values, so it identifies a configuration across runs, shards and resumes.
//   id = FNV-1a 64-bit of the compact JSON of `params` (keys in column order), 16 hex digits.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/sweep_plan.hpp"

namespace tenet::sweep {

struct SweepPoint {
  std::uint64_t index = 0;  // position in the canonical order (sweep_plan.hpp)
  std::string id;           // point_id(params)
  PointCoords coords;
  // The parameter columns (parameter_columns() order); null where a parameter does not apply.
  nlohmann::ordered_json params;
};

// workload, kind, phase, batch, seq_len, layer, m, n, k, quant, arch, rows, cols, buffer_bytes,
// sram_bandwidth, dram_bandwidth, dram_latency, clock_mhz, dequant_rate, edge_transfers,
// dataflow, tiling. With `requests` (SweepPlan::has_requests): tokens, tp, pp after seq_len.
const std::vector<std::string>& parameter_columns(bool requests = false);

// Throws InternalError for an index >= plan.size().
SweepPoint make_point(const SweepPlan& plan, std::uint64_t index);

std::uint64_t fnv1a64(const std::string& bytes);
std::string point_id(const nlohmann::ordered_json& params);

}  // namespace tenet::sweep
