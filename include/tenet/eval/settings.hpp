// Evaluation settings as text, as the sweep spec and the command line give them, and their
// resolution into a Request template (everything but the workload) and into the cost model of
// `tenet model` / `tenet log`. Errors name the field (arch, array, dataflow, quant, timing, tile,
// tiling_objective, dequant_rate); the CLI maps fields to its options (--tiling-objective ...).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tenet/eval/request.hpp"
#include "tenet/llm/layer_cost.hpp"

namespace tenet::eval {

struct Settings {
  std::string arch;      // preset name or architecture JSON file (empty: defaults::kAccelerator)
  std::string array;     // "RxC": overrides the accelerator's PE array shape
  std::string dataflow;  // "os" | "ws" | "is" (empty: defaults::kDataflow)
  // Quantization preset name or JSON file. Empty: the scheme a log row names, else
  // defaults::kScheme.
  std::string quant;
  std::string timing;  // "systolic" (empty) | "tenet"
  std::string tile;    // buffer tiling "MxNxK[:order]" or "auto" (empty: auto)
  // What "auto" tilings minimise: latency (empty), energy, dram_bytes or edp.
  std::string tiling_objective;
  long long dequant_rate = 0;      // dequant unit elements/cycle (0: the scheme's, else default)
  long long dequant_ops_rate = 0;  // or ALU ops/cycle (exclusive with dequant_rate)
  bool edge_transfers = defaults::kEdgeTransfers;
  // Already-loaded values (the Python package's dict inputs): when set they are used instead of
  // `arch` / `quant` (`array` still overrides the accelerator's PE array).
  std::shared_ptr<const arch::Accelerator> accelerator;
  std::shared_ptr<const quant::QuantSpec> scheme;
  // Schemes a matmul's `quant` may name besides presets and files: a TIR kernel's own scheme
  // ("auto:<func>", tir::LogJoin::schemes).
  std::map<std::string, std::shared_ptr<const quant::QuantSpec>> named_schemes;
};

// The accelerator of `arch` (default preset when empty) with `array` applied.
arch::Accelerator resolve_accelerator(const std::string& arch, const std::string& array);
// "auto" / "" -> none (the search chooses); else the parsed tiling (where "tile").
std::optional<mapping::Tiling> resolve_tiling(const std::string& tile);
// The objective of an automatic tiling; InputError(usage, "tiling_objective") with an explicit
// tiling, InputError(unknown-name) for another name.
hw::TilingObjective resolve_tiling_objective(const std::string& name, const std::string& tile);
// A scheme by preset name or file (where "quant" for errors without a file).
quant::QuantSpec resolve_scheme(const std::string& name_or_file);

// A request with every setting resolved (accelerator loaded, scheme loaded unless `quant` is
// empty) and an empty matmul.
Request make_request(const Settings& settings);

// The request of `tenet analyze --gemm` (and the Python package's analyze): one GEMM with the
// relation-centric view. Without `arch` the accelerator is the ideal systolic array of `array`
// (its TENET view with `bandwidth` bits/cycle and `latency` cycles) and the timing defaults to
// tenet; with it, to systolic. `bits`: the operand widths of an unquantized GEMM.
Request make_gemm_request(const Settings& settings, const mapping::GemmShape& shape,
                          const mapping::GemmBits& bits, long long bandwidth, long long latency);

// The cost model of a model or log report: each matmul through eval::evaluate with the
// request of `settings`; the scheme is `quant`, else the one a log row names (named_schemes,
// else a preset or file, loaded once), else defaults::kScheme — except for a row whose kernel
// dequantizes its weights (weights_quantized): never costed as unquantized, it is
// InputError(missing-field, where = the kernel). Systolic timing only (InputError(usage,
// "timing") for tenet). `shapes`: the rows it will cost, for the description to name the schemes
// they use (none: the forced scheme, else the default).
llm::CostModel make_cost_model(const Settings& settings,
                               const std::vector<llm::MatmulShape>& shapes = {});

}  // namespace tenet::eval
