// Settings (text) -> Request template and the cost model of model / log reports.
#include "tenet/eval/settings.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "arch/plausibility.hpp"
#include "mapping/shape_text.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/quant/quant_json.hpp"

namespace tenet::eval {
namespace {

Timing resolve_timing(const std::string& timing) {
  if (timing.empty() || timing == "systolic") return Timing::kSystolic;
  if (timing == "tenet") return Timing::kTenet;
  throw InputError(error_code::kUnknownName, "", "timing",
                   "expected systolic or tenet, got \"" + timing + "\"");
}

quant::DequantRate resolve_dequant_rate(const Settings& s) {
  if (s.dequant_rate < 0 || s.dequant_ops_rate < 0)
    throw InputError(error_code::kRange, "",
                     s.dequant_rate < 0 ? "dequant_rate" : "dequant_ops_rate",
                     fmt::format("expected a throughput > 0, got {}",
                                 s.dequant_rate < 0 ? s.dequant_rate : s.dequant_ops_rate));
  if (s.dequant_rate > 0 && s.dequant_ops_rate > 0)
    throw InputError(
        error_code::kUsage, "", "dequant_ops_rate",
        "give the dequant unit's throughput in elements or in ops per cycle, not both");
  return {s.dequant_rate, s.dequant_ops_rate};
}

// The schemes of a cost model: the forced one, else a log row's (loaded once), else the default.
class SchemeSource {
 public:
  SchemeSource(std::shared_ptr<const quant::QuantSpec> forced,
               std::map<std::string, std::shared_ptr<const quant::QuantSpec>> named)
      : forced_(std::move(forced)), logged_(std::move(named)) {
    if (!forced_)
      fallback_ = std::make_shared<quant::QuantSpec>(quant::load_quant(defaults::kScheme));
  }

  std::shared_ptr<const quant::QuantSpec> for_shape(const llm::MatmulShape& s) const {
    if (forced_) return forced_;
    if (s.quant.empty()) {
      if (s.weights_quantized.value_or(false)) throw missing_scheme(s);
      return fallback_;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = logged_.find(s.quant);
    if (it == logged_.end()) {
      auto spec = std::make_shared<quant::QuantSpec>(resolve_scheme(s.quant));
      it = logged_.emplace(s.quant, std::move(spec)).first;
    }
    return it->second;
  }

  // The schemes the rows of `shapes` are costed with: the forced one, else the default where a
  // row names none and the ones rows name (a log's), by their names.
  std::string describe(const std::vector<llm::MatmulShape>& shapes) const {
    if (forced_) return forced_->name;
    std::vector<std::string> named;
    bool defaulted = shapes.empty();
    for (const llm::MatmulShape& s : shapes) {
      if (s.quant.empty()) {
        defaulted = true;
        continue;
      }
      const std::string name = for_shape(s)->name;
      if (std::find(named.begin(), named.end(), name) == named.end()) named.push_back(name);
    }
    std::string list;
    for (const std::string& n : named) list += (list.empty() ? "" : ", ") + n;
    const std::string fallback = std::string(defaults::kScheme) + " (the default)";
    if (named.empty()) return fallback;
    if (!defaulted) return list + " (as the rows name them)";
    return fallback + " and " + list + " (where a row names its scheme)";
  }

  static InputError missing_scheme(const llm::MatmulShape& s) {
    return InputError(error_code::kMissingField, "", s.name,
                      "kernel " + s.name +
                          " dequantizes its weights but no quantization scheme is given for it, "
                          "and it is never costed as unquantized: name the scheme in the log's "
                          "header record, give the model's TIR dump (--tir) or a scheme (--quant)");
  }

 private:
  std::shared_ptr<const quant::QuantSpec> forced_, fallback_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const quant::QuantSpec>> logged_;
};

// The dequant unit's part of a cost-model line: the forced scheme's rate and where it comes
// from; with a log's schemes, the rule (each scheme's own rate, else the default unit).
std::string dequant_description(const Request& base, const Settings& settings) {
  if (base.scheme) {
    const std::string d = defaults::describe_dequant_rate(base.dequant_rate, *base.scheme,
                                                          *base.accelerator, base.dataflow);
    return d.empty() ? "" : ", " + d;
  }
  if (settings.named_schemes.empty()) return "";
  if (base.dequant_rate.given())
    return base.dequant_rate.elements_per_cycle > 0
               ? fmt::format(", dequant unit {} elements/cycle (requested)",
                             base.dequant_rate.elements_per_cycle)
               : fmt::format(", dequant unit {} ops/cycle (requested)",
                             base.dequant_rate.ops_per_cycle);
  return ", dequant unit: each scheme's dequant.throughput, else one that keeps up with the array "
         "at the scheme's MAC rate";
}

}  // namespace

arch::Accelerator resolve_accelerator(const std::string& arch, const std::string& array) {
  const std::string name = arch.empty() ? defaults::kAccelerator : arch;
  arch::Accelerator acc =
      with_location("arch", [&] { return arch::load_accelerator_preset(name); });
  if (array.empty()) return acc;
  const mapping::ArrayShape a =
      with_location("array", [&] { return mapping::parse_array_shape(array); });
  return arch::with_array_shape(acc, a.rows, a.cols);
}

std::optional<mapping::Tiling> resolve_tiling(const std::string& tile) {
  if (tile.empty() || tile == "auto") return std::nullopt;
  return mapping::parse_tiling(tile, "tile");
}

hw::TilingObjective resolve_tiling_objective(const std::string& name, const std::string& tile) {
  if (name.empty()) return defaults::kTilingObjective;
  const hw::TilingObjective objective = hw::parse_tiling_objective(name, "tiling_objective");
  if (!tile.empty() && tile != "auto")
    throw InputError(error_code::kUsage, "", "tiling_objective",
                     "the objective chooses an automatic tiling; with the tiling " + tile +
                         " there is nothing to choose");
  return objective;
}

quant::QuantSpec resolve_scheme(const std::string& name_or_file) {
  return with_location("quant", [&] { return quant::load_quant(name_or_file); });
}

Request make_request(const Settings& s) {
  Request r;
  r.timing = resolve_timing(s.timing);
  if (s.accelerator && s.array.empty()) {
    r.accelerator = s.accelerator;
  } else if (s.accelerator) {
    const mapping::ArrayShape a =
        with_location("array", [&] { return mapping::parse_array_shape(s.array); });
    r.accelerator = std::make_shared<const arch::Accelerator>(
        arch::with_array_shape(*s.accelerator, a.rows, a.cols));
  } else {
    r.accelerator = std::make_shared<const arch::Accelerator>(resolve_accelerator(s.arch, s.array));
  }
  r.dataflow = s.dataflow.empty()
                   ? defaults::default_dataflow(*r.accelerator)
                   : with_location("dataflow", [&] { return mapping::parse_dataflow(s.dataflow); });
  r.tiling = resolve_tiling(s.tile);
  r.tiling_objective = resolve_tiling_objective(s.tiling_objective, s.tile);
  r.dequant_rate = resolve_dequant_rate(s);
  r.hw.edge_transfers = s.edge_transfers;
  if (s.scheme)
    r.scheme = s.scheme;
  else if (!s.quant.empty())
    r.scheme = std::make_shared<const quant::QuantSpec>(resolve_scheme(s.quant));
  return r;
}

Request make_gemm_request(const Settings& settings, const mapping::GemmShape& shape,
                          const mapping::GemmBits& bits, long long bandwidth, long long latency) {
  Settings s = settings;
  const bool ideal = s.arch.empty() && !s.accelerator;
  if (s.timing.empty()) s.timing = ideal ? "tenet" : "systolic";
  Request r;
  if (ideal) {  // the ideal systolic array of `array`
    if (s.array.empty())
      throw InputError(error_code::kUsage, "", "array",
                       "a GEMM needs a PE array (array RxC) or an accelerator (arch)");
    const std::string array = s.array;
    s.array.clear();
    r = make_request(s);
    const mapping::ArrayShape a =
        with_location("array", [&] { return mapping::parse_array_shape(array); });
    r.accelerator =
        std::make_shared<const arch::Accelerator>(arch::make_ideal_systolic(a.rows, a.cols));
    r.architecture = with_location(
        "array", [&] { return mapping::make_systolic_array(a.rows, a.cols, bandwidth, latency); });
  } else {
    r = make_request(s);
  }
  r.matmul.name = "gemm";
  r.matmul.m = shape.m, r.matmul.n = shape.n, r.matmul.k = shape.k;
  r.bits = bits;
  r.relation_centric = true;
  return r;
}

llm::CostModel make_cost_model(const Settings& settings,
                               const std::vector<llm::MatmulShape>& shapes) {
  const Request base = make_request(settings);
  if (base.timing == Timing::kTenet)
    throw InputError(error_code::kUsage, "", "timing",
                     "per-layer costs use the systolic timing model; the TENET delay is "
                     "available for one workload with `tenet analyze --timing tenet`");
  auto schemes = std::make_shared<const SchemeSource>(base.scheme, settings.named_schemes);
  const arch::Accelerator& acc = *base.accelerator;
  llm::CostModel model;
  model.clock_hz = acc.spec().clock_mhz * 1e6;
  model.description = fmt::format(
      "{} ({}{}x{} PEs, {:g} MHz{}), {}, {}, systolic timing, tiling {}", acc.name(),
      acc.spec().chip.matrix_units > 1
          ? fmt::format("{} matrix units of ", acc.spec().chip.matrix_units)
          : std::string(),
      acc.rows(), acc.cols(), acc.spec().clock_mhz,
      acc.spec().chip.kernel_launch_ns > 0
          ? fmt::format(", {:g} ns per call", acc.spec().chip.kernel_launch_ns)
          : std::string(),
      mapping::to_string(base.dataflow), schemes->describe(shapes),
      base.tiling
          ? mapping::to_string(*base.tiling)
          : fmt::format("auto ({})", hw::describe(base.tiling_objective,
                                                  acc.spec().chip.tiling_near_tie_percent)));
  model.description += dequant_description(base, settings);
  model.description += base.hw.edge_transfers ? ", edge transfers charged" : ", edge transfers off";
  model.prefetch_across_matmuls = base.hw.edge_transfers && acc.spec().dram.prefetch_across_matmuls;
  model.warnings = arch::implausible_values(acc);
  if (model.prefetch_across_matmuls) model.description += " (prefetched across matmuls)";
  model.evaluate = [base, schemes](const llm::MatmulShape& shape) {
    Request r = base;
    r.matmul = shape;
    r.scheme = schemes->for_shape(shape);
    return evaluate(r).call_cost();  // a fused row too (Evaluation's fused-kernel mode)
  };
  return model;
}

}  // namespace tenet::eval
