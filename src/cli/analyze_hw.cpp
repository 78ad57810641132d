#include "cli/analyze_hw.hpp"

#include <fmt/core.h>

#include <map>

#include "cli/option_rules.hpp"
#include "mapping/shape_text.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::cli {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

// The tiling of --tile / --loop-order: none for auto (the search chooses it and its order).
std::optional<mapping::Tiling> tiling_of(const HardwareOptions& o) {
  if (o.tile == "auto") {
    if (!o.loop_order.empty())
      throw InputError(error_code::kUsage, "", "--loop-order",
                       "a loop order needs explicit tile sizes (--tile MxNxK); with --tile auto "
                       "the order is chosen with the tiles");
    return std::nullopt;
  }
  mapping::Tiling t = mapping::parse_tiling(o.tile, "--tile");
  if (!o.loop_order.empty())
    t.order = mapping::parse_tiling("0x0x0:" + o.loop_order, "--loop-order").order;
  return t;
}

}  // namespace

void add_hardware_options(CLI::App& app, HardwareOptions& o, CLI::Option* gemm) {
  struct TextOption {
    const char* name;
    std::string HardwareOptions::*value;
    const char* description;
  };
  static const TextOption text_options[] = {
      {"--arch", &HardwareOptions::arch,
       "accelerator: preset name (configs/arch) or architecture JSON file; --array overrides its "
       "shape"},
      {"--timing", &HardwareOptions::timing,
       "systolic (hardware model: cycles, accesses, energy; default with --arch) or tenet (the "
       "TENET delay only; default without --arch)"},
      {"--quant", &HardwareOptions::quant,
       "quantization scheme: preset name (configs/quant) or JSON file; B is the weight operand"},
      {"--tile", &HardwareOptions::tile,
       "systolic timing: buffer tiling MxNxK[:ORDER] (0 = whole dimension) or auto (default: "
       "chosen to fit the buffer)"},
      {"--tiling-objective", &HardwareOptions::tiling_objective,
       "systolic timing with --tile auto: what the chosen tiling minimises: latency (default), "
       "energy, dram_bytes or edp"},
      {"--loop-order", &HardwareOptions::loop_order,
       "systolic timing: tile loop order, a permutation of mnk (outermost first); needs --tile "
       "MxNxK"}};
  const char* group = "Hardware, timing and quantization (with --gemm)";
  for (const TextOption& t : text_options)
    app.add_option(t.name, o.*t.value, t.description)->group(group)->needs(gemm);
  with_rule(app.add_option("--dequant-rate", o.dequant_rate,
                           "dequant unit throughput, elements/cycle (default: the scheme's, else "
                           "one that keeps up with the array at the scheme's MAC rate: an element "
                           "per array column (is: row) per MAC a PE does per cycle)")
                ->group(group)
                ->needs(gemm),
            OptionRule::kNonNegative);
  add_edge_transfers(app, o.edge_transfers)->group(group)->needs(gemm);
}

eval::Request gemm_request(const std::string& gemm, const std::string& array,
                           const std::string& dataflow, const HardwareOptions& o,
                           const mapping::GemmBits& bits, long long bandwidth, long long latency) {
  eval::Settings settings;
  settings.arch = o.arch;
  settings.array = array;
  settings.dataflow = dataflow;
  settings.quant = o.quant;
  settings.timing = o.timing;
  settings.tiling_objective = o.tiling_objective;
  settings.tile = o.tile;
  settings.dequant_rate = o.dequant_rate;
  settings.edge_transfers = o.edge_transfers;
  const mapping::GemmShape shape =
      with_location("--gemm", [&] { return mapping::parse_gemm_shape(gemm); });
  eval::Request r = eval::make_gemm_request(settings, shape, bits, bandwidth, latency);
  r.tiling = tiling_of(o);
  return r;
}

}  // namespace tenet::cli
