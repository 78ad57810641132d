// `tenet calibrate`: fits an accelerator file's free constants to measured runs and prints the
// fitted file and every row's residual (docs/hardware.md, "Calibration").
#include "sweep/calibrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>

#include "cli/command.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::calibrate_command {
namespace {

using nlohmann::json;

struct CalibrateOptions {
  std::string measurements, arch, config, output, format = "text", dataflow = "os";
  std::vector<std::string> free;
  int bits_a = 0, bits_b = 0, bits_c = 0;  // 0: from the accelerator (sweep::calibration_bits)
  std::string edge_transfers = "on";
  int max_sweeps = 200;
  bool predict_only = false;
};

// The kernel form (times in ns, kinds, rows not yet costed).
void print_kernel_text(const sweep::Calibration& c) {
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
  std::fputs(out.c_str(), stdout);
}

void print_text(const sweep::Calibration& c, const sweep::CalibrationOptions& options) {
  if (!c.after.empty() && c.after.front().time_ns) return print_kernel_text(c);
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
  std::fputs(out.c_str(), stdout);
}

void setup(CLI::App& sub) {
  auto o = std::make_shared<CalibrateOptions>();
  sub.add_option("--measurements", o->measurements,
                 "measured runs, CSV (M,N,K,w_til,k_til,c_til,total_core_cycles[,loop_order|order,"
                 "a_aligned,dram_rd_bytes,dram_wr_bytes,name,config]); w_til, k_til and c_til are "
                 "the M, N and K tiles (SAURIA's names; docs/formats.md#calibration-measurements); "
                 "or kernel times (workload,dtype,latency_ns: gemm_MxKxN, ffn_gated_SxHxI, ...; "
                 "docs/formats.md#kernel-times)")
      ->required();
  sub.add_option("--arch", o->arch,
                 "the accelerator file to fit: preset name (configs/arch) or JSON file")
      ->required();
  sub.add_option("--config", o->config,
                 "use only the rows whose config column is this (default: all rows)");
  sub.add_option(
         "--free", o->free,
         "free constants as JSON pointers into the accelerator file, each POINTER or "
         "POINTER=LO:HI (default: the microarchitecture cycle terms, DMA command cost, DRAM "
         "latency and bandwidth, unaligned factor)")
      ->delimiter(',');
  sub.add_option("--dataflow", o->dataflow, "dataflow of every row: os (default), ws or is");
  sub.add_option("--bits-a", o->bits_a,
                 "bits per element of A (default: the width of the accelerator's MAC precision, "
                 "when it declares one)");
  sub.add_option("--bits-b", o->bits_b, "bits per element of B (default: as A)");
  sub.add_option("--bits-c", o->bits_c,
                 "bits per element of C (default: 32 for an integer MAC precision, its width for "
                 "a float one)");
  sub.add_option("--edge-transfers", o->edge_transfers,
                 "on (default: the measured window includes the first loads and the last "
                 "write-back) or off");
  sub.add_option("--max-sweeps", o->max_sweeps, "coordinate-descent sweeps (default 200)");
  sub.add_flag("--predict-only", o->predict_only, "no fit: the residuals of the file as it is");
  sub.add_option("--output", o->output, "also write the fitted accelerator file here");
  sub.add_option("--format", o->format, "text (default) or json");
  sub.callback([o, &sub] {
    if (o->format != "text" && o->format != "json")
      throw InputError(error_code::kUsage, "", "--format",
                       "expected text or json, got \"" + o->format + "\"");
    if (o->edge_transfers != "on" && o->edge_transfers != "off")
      throw InputError(error_code::kUsage, "", "--edge-transfers",
                       "expected on or off, got \"" + o->edge_transfers + "\"");
    for (const auto& [bits, option] :
         {std::pair{o->bits_a, "--bits-a"}, std::pair{o->bits_b, "--bits-b"},
          std::pair{o->bits_c, "--bits-c"}})
      if (sub.count(option) > 0 && (bits < 1 || bits > 64))
        throw InputError(error_code::kRange, "", option,
                         fmt::format("expected bits per element in 1..64, got {}", bits));
    const arch::Accelerator accelerator = arch::load_accelerator_preset(o->arch);
    warn_implausible(accelerator);
    const json arch_json = arch::to_json(accelerator);
    sweep::CalibrationOptions options;
    options.dataflow =
        with_location("--dataflow", [&] { return mapping::parse_dataflow(o->dataflow); });
    const std::vector<sweep::Measurement> rows =
        sweep::read_measurements(o->measurements, o->config);
    const sweep::CalibrationBits bits = with_location("--bits-a", [&] {
      return sweep::calibration_bits(arch_json, {o->bits_a, o->bits_b, o->bits_c}, rows);
    });
    options.bits = bits.bits;
    options.bits_source = bits.source;
    options.edge_transfers = o->edge_transfers == "on";
    options.max_sweeps = o->max_sweeps;
    if (!o->predict_only) {
      if (o->free.empty())
        options.free = sweep::default_free_parameters(arch_json);
      else
        for (const std::string& f : o->free)
          options.free.push_back(sweep::parse_free_parameter(f, arch_json));
    }
    const sweep::Calibration c = sweep::calibrate(arch_json, o->arch, rows, options);
    if (!o->output.empty()) {
      std::ofstream out(o->output);
      out << c.arch.dump(2) << "\n";
      if (!out) throw InputError(error_code::kIo, o->output, "", "cannot write the fitted file");
    }
    if (o->format == "json") {
      std::fputs((sweep::calibration_json(c, options).dump(2) + "\n").c_str(), stdout);
    } else {
      print_text(c, options);
    }
  });
}

}  // namespace

TENET_REGISTER_COMMAND("calibrate",
                       "Fit an accelerator file's free constants to measured runs (CSV); print "
                       "the fitted file and every row's residual",
                       setup, 72);

}  // namespace tenet::cli::calibrate_command
