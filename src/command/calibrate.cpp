// `tenet calibrate` (command/calibrate.hpp): the fit's options from the arguments, the fit, and
// its text and JSON reports.
#include "command/calibrate.hpp"

#include <fmt/format.h>

#include <map>

#include "sweep/calibrate.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/mapping/systolic.hpp"

namespace tenet::command {
namespace {

// The kernel form (times in ns, kinds, rows not yet costed).
std::string kernel_calibration_text(const sweep::Calibration& c) {
  std::string out = "operand widths: the dtype column of each row\n";
  out += fmt::format("{:<34} {:>6} {:>12} {:>12} {:>8} {:>8}\n", "row", "line", "measured_ns",
                     "predicted_ns", "error", "before");
  std::map<std::string, std::pair<int, int>> kinds;  // kind -> rows, costed
  for (size_t i = 0; i < c.after.size(); ++i) {
    const sweep::Residual& r = c.after[i];
    auto& k = kinds[r.kind];
    ++k.first;
    k.second += r.costed ? 1 : 0;
    if (!r.costed) {
      out +=
          fmt::format("{:<34} {:>6} {:>12} {:>12}  {}\n", r.name, r.line, r.measured, "-", r.note);
      continue;
    }
    out += fmt::format("{:<34} {:>6} {:>12} {:>12} {:>+7.2f}% {:>+7.2f}%\n", r.name, r.line,
                       r.measured, r.predicted, 100 * r.error, 100 * c.before[i].error);
  }
  for (const auto& [kind, n] : kinds) {
    if (n.second == 0) {
      out += fmt::format("{}: {} rows, not yet costed\n", kind, n.first);
      continue;
    }
    out += fmt::format("{}: {} rows, {} costed: within 10 %: {:.1f} %, within 15 %: {:.1f} %\n",
                       kind, n.first, n.second, 100 * sweep::share_within(c.after, 0.10, kind),
                       100 * sweep::share_within(c.after, 0.15, kind));
  }
  out += fmt::format(
      "costed rows within 10 %: {:.1f} % (before {:.1f} %); sum of squared log errors {:.5g} "
      "(before {:.5g}); {} evaluations of the whole set\n",
      100 * sweep::share_within(c.after, 0.10), 100 * sweep::share_within(c.before, 0.10),
      c.objective_after, c.objective_before, c.evaluations);
  out += "fitted accelerator file:\n" + c.arch.dump(2) + "\n";
  return out;
}

std::string calibration_text(const sweep::Calibration& c,
                             const sweep::CalibrationOptions& options) {
  if (!c.after.empty() && c.after.front().time_ns) return kernel_calibration_text(c);
  std::string out = fmt::format("bits per element: A {}, B {}, C {} ({})\n", options.bits.a,
                                options.bits.b, options.bits.c, options.bits_source);
  out += fmt::format("{:<32} {:>6} {:>10} {:>10} {:>8} {:>8} {:>12} {:>12}\n", "row", "line",
                     "measured", "predicted", "error", "before", "dram_meas", "dram_pred");
  for (size_t i = 0; i < c.after.size(); ++i) {
    const sweep::Residual& r = c.after[i];
    out +=
        fmt::format("{:<32} {:>6} {:>10} {:>10} {:>+7.2f}% {:>+7.2f}% {:>12} {:>12}\n", r.name,
                    r.line, r.measured, r.predicted, 100 * r.error, 100 * c.before[i].error,
                    r.measured_bytes ? std::to_string(*r.measured_bytes) : "-", r.predicted_bytes);
  }
  out += fmt::format(
      "rows within 5 %: {:.1f} % (before {:.1f} %), within 10 %: {:.1f} %; sum of squared log "
      "errors {:.5g} (before {:.5g}); {} evaluations of the whole set\n",
      100 * sweep::share_within(c.after, 0.05), 100 * sweep::share_within(c.before, 0.05),
      100 * sweep::share_within(c.after, 0.10), c.objective_after, c.objective_before,
      c.evaluations);
  out += "fitted accelerator file:\n" + c.arch.dump(2) + "\n";
  return out;
}

// The widths given (each 1..64; 0 for one not given) and where they came from.
sweep::CalibrationBits resolve_bits(const CalibrateArgs& a, const nlohmann::json& arch,
                                    const std::vector<sweep::Measurement>& rows) {
  static const char* const fields[] = {"bits_a", "bits_b", "bits_c"};
  std::array<int, 3> given{0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    if (!a.bits[i]) continue;
    if (*a.bits[i] < 1 || *a.bits[i] > 64)
      throw InputError(error_code::kRange, "", fields[i],
                       fmt::format("expected bits per element in 1..64, got {}", *a.bits[i]));
    given[i] = *a.bits[i];
  }
  return with_location("bits_a", [&] { return sweep::calibration_bits(arch, given, rows); });
}

}  // namespace

Calibrated calibrate(const CalibrateArgs& args) {
  const nlohmann::json arch = args.arch_json
                                  ? arch::to_json(arch::parse_accelerator(*args.arch_json))
                                  : arch::to_json(arch::load_accelerator_preset(args.arch));
  sweep::CalibrationOptions options;
  options.dataflow =
      with_location("dataflow", [&] { return mapping::parse_dataflow(args.dataflow); });
  const std::vector<sweep::Measurement> rows =
      sweep::read_measurements(args.measurements, args.config);
  const sweep::CalibrationBits bits = resolve_bits(args, arch, rows);
  options.bits = bits.bits;
  options.bits_source = bits.source;
  options.edge_transfers = args.edge_transfers;
  options.max_sweeps = args.max_sweeps;
  if (!args.predict_only) {
    if (args.free.empty())
      options.free = sweep::default_free_parameters(arch);
    else
      for (const std::string& f : args.free)
        options.free.push_back(sweep::parse_free_parameter(f, arch));
  }
  const sweep::Calibration c =
      sweep::calibrate(arch, args.arch_json ? std::string() : args.arch, rows, options);
  Calibrated out;
  out.fitted = c.arch;
  out.text =
      args.json ? sweep::calibration_json(c, options).dump(2) + "\n" : calibration_text(c, options);
  return out;
}

}  // namespace tenet::command
