// make_layer_evaluator: where the LLM side meets the hardware and quantization cost model
// (docs/llm.md#the-evaluation-seam). The evaluator of a CostModel is evaluate_layer on one
// accelerator, dataflow and scheme.
#include <fmt/core.h>

#include <map>
#include <memory>
#include <mutex>

#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/llm/evaluate_layer.hpp"
#include "tenet/llm/layer_cost.hpp"
#include "tenet/quant/quant_json.hpp"

namespace tenet::llm {
namespace {

constexpr const char* kDefaultDataflow = "os";
constexpr const char* kDefaultScheme = "q0f16";

arch::Accelerator accelerator_of(const EvaluatorSpec& spec) {
  const std::string name = spec.arch.empty() ? arch::kDefaultAccelerator : spec.arch;
  arch::Accelerator acc = with_location("--arch", [&] { return arch::load_accelerator_preset(name); });
  if (!spec.array.empty()) {
    const auto [rows, cols] = arch::parse_array_shape(spec.array, "--array");
    acc = arch::with_array_shape(acc, rows, cols);
  }
  return acc;
}

LayerOptions layer_options(const EvaluatorSpec& spec) {
  LayerOptions o;
  if (spec.dequant_rate < 0)
    throw InputError(error_code::kRange, "", "--dequant-rate",
                     fmt::format("expected a throughput > 0, got {}", spec.dequant_rate));
  o.dequant_elements_per_cycle = spec.dequant_rate;
  if (!spec.tile.empty() && spec.tile != "auto") {
    o.choose_tiling = false;
    o.tiling = mapping::parse_tiling(spec.tile, "--tile");
  }
  o.tiling_objective = tiling_objective_for(spec.tiling_objective, spec.tile);
  o.hw.edge_transfers = spec.edge_transfers;
  return o;
}

void check_timing(const std::string& timing) {
  if (timing.empty() || timing == "systolic") return;
  if (timing == "tenet")
    throw InputError(error_code::kUsage, "", "--timing",
                     "per-layer costs use the systolic timing model; the TENET delay is "
                     "available for one workload with `tenet analyze --timing tenet`");
  throw InputError(error_code::kUnknownName, "", "--timing",
                   "expected systolic, got \"" + timing + "\"");
}

// The schemes a cost model uses: the --quant scheme for every matmul, or else the scheme a log
// record names (loaded once), or else q0f16. Thread-safe.
class SchemeSource {
 public:
  explicit SchemeSource(const std::string& forced) {
    if (!forced.empty())
      forced_ = std::make_shared<quant::QuantSpec>(
          with_location("--quant", [&] { return quant::load_quant(forced); }));
    else
      fallback_ = std::make_shared<quant::QuantSpec>(quant::load_quant(kDefaultScheme));
  }

  std::shared_ptr<const quant::QuantSpec> for_shape(const MatmulShape& s) const {
    if (forced_) return forced_;
    if (s.quant.empty()) return fallback_;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = logged_.find(s.quant);
    if (it == logged_.end()) {
      auto spec = std::make_shared<quant::QuantSpec>(
          with_location("quant", [&] { return quant::load_quant(s.quant); }));
      it = logged_.emplace(s.quant, std::move(spec)).first;
    }
    return it->second;
  }

  std::string describe() const {
    return forced_ ? forced_->name : std::string(kDefaultScheme) + " (or the log's quant)";
  }

 private:
  std::shared_ptr<const quant::QuantSpec> forced_, fallback_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const quant::QuantSpec>> logged_;
};

}  // namespace

CostModel make_layer_evaluator(const EvaluatorSpec& spec) {
  check_timing(spec.timing);
  auto acc = std::make_shared<const arch::Accelerator>(accelerator_of(spec));
  const std::string flow_name = spec.dataflow.empty() ? kDefaultDataflow : spec.dataflow;
  const mapping::Dataflow dataflow =
      with_location("--dataflow", [&] { return mapping::parse_dataflow(flow_name); });
  const LayerOptions options = layer_options(spec);
  auto schemes = std::make_shared<const SchemeSource>(spec.quant);

  CostModel model;
  model.clock_hz = acc->spec().clock_mhz * 1e6;
  model.description = fmt::format(
      "{} ({}x{} PEs, {:g} MHz), {}, {}, systolic timing, tiling {}", acc->name(), acc->rows(),
      acc->cols(), acc->spec().clock_mhz, flow_name, schemes->describe(),
      options.choose_tiling ? fmt::format("auto ({})", hw::to_string(options.tiling_objective))
                            : spec.tile);
  if (options.hw.edge_transfers) model.description += ", edge transfers";
  model.evaluate = [acc, dataflow, options, schemes](const MatmulShape& shape) {
    return evaluate_layer(*acc, dataflow, *schemes->for_shape(shape), shape, options);
  };
  return model;
}

}  // namespace tenet::llm
