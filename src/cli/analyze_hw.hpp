// The hardware, timing and quantization side of `tenet analyze --gemm` (internal to the CLI):
// options, the accelerator / scheme they select, the quantized workload for the relation-centric
// analysis, and the hardware model's keys added to the report (docs/cli.md, docs/output.md).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cli/command.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/eval/defaults.hpp"
#include "tenet/eval/evaluation.hpp"
#include "tenet/eval/request.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/quant/quant_spec.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::cli {

struct HardwareOptions {
  std::string arch;           // --arch NAME|FILE
  std::string timing;         // --timing systolic|tenet (empty: systolic with --arch, else tenet)
  std::string quant;          // --quant NAME|FILE
  std::string tile = "auto";  // --tile MxNxK[:ORDER] | auto
  std::string tiling_objective;  // --tiling-objective NAME (empty: latency), with --tile auto
  std::string loop_order;        // --loop-order ORDER (overrides the order of --tile)
  long long dequant_rate = 0;    // --dequant-rate elements/cycle
  bool edge_transfers = eval::defaults::kEdgeTransfers;  // --edge-transfers [on|off]
};

// Adds the options (group "Hardware, timing and quantization (with --gemm)"); each needs `gemm`.
void add_hardware_options(CLI::App& app, HardwareOptions& o, CLI::Option* gemm);

// The request of `analyze --gemm`: the accelerator of --arch (shape overridden by --array), else
// the ideal systolic array of --array whose TENET view has the generator's --bandwidth and
// --latency; timing systolic by default with --arch, tenet without; the relation-centric
// analysis always. Errors name the option they come from.
eval::Request gemm_request(const std::string& gemm, const std::string& array,
                           const std::string& dataflow, const HardwareOptions& o,
                           const mapping::GemmBits& bits, long long bandwidth, long long latency);

// Scale / zero tensors get their report names ("B_scale" -> "B.scale").
}  // namespace tenet::cli
