// `tenet calibrate`: fits an accelerator file's free constants to measured runs and prints the
// fitted file and every row's residual (docs/hardware.md, "Calibration"): command::calibrate.
#include "command/calibrate.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <memory>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "tenet/error.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::calibrate_command {
namespace {

struct CalibrateOptions {
  command::CalibrateArgs args;
  eval::Settings settings;  // arch, dataflow, edge_transfers
  std::array<int, 3> bits{0, 0, 0};
  std::string output, format = "text";
};

void add_options(CLI::App& sub, CalibrateOptions& o) {
  command::CalibrateArgs& a = o.args;
  sub.add_option("--measurements", a.measurements,
                 "measured runs, CSV (M,N,K,w_til,k_til,c_til,total_core_cycles[,loop_order|order,"
                 "a_aligned,dram_rd_bytes,dram_wr_bytes,name,config]); w_til, k_til and c_til are "
                 "the M, N and K tiles (SAURIA's names; docs/formats.md#calibration-measurements); "
                 "or kernel times (workload,dtype,latency_ns: gemm_MxKxN, ffn_gated_SxHxI, ...; "
                 "docs/formats.md#kernel-times)")
      ->required();
  add_setting(sub, o.settings, Setting::kArch)
      ->description("the accelerator file to fit: preset name (configs/arch) or JSON file")
      ->required();
  sub.add_option("--config", a.config,
                 "use only the rows whose config column is this (default: all rows)");
  sub.add_option(
         "--free", a.free,
         "free constants as JSON pointers into the accelerator file, each POINTER or "
         "POINTER=LO:HI (default: the microarchitecture cycle terms, DMA command cost, DRAM "
         "latency and bandwidth, unaligned factor)")
      ->delimiter(',');
  add_setting(sub, o.settings, Setting::kDataflow)
      ->description("dataflow of every row: os (default), ws or is");
  sub.add_option("--bits-a", o.bits[0],
                 "bits per element of A (default: the width of the accelerator's MAC precision, "
                 "when it declares one)");
  sub.add_option("--bits-b", o.bits[1], "bits per element of B (default: as A)");
  sub.add_option("--bits-c", o.bits[2],
                 "bits per element of C (default: 32 for an integer MAC precision, its width for "
                 "a float one)");
  add_setting(sub, o.settings, Setting::kEdgeTransfers)
      ->description(
          "on (default: the measured window includes the first loads and the last write-back) "
          "or off");
  sub.add_option("--max-sweeps", a.max_sweeps, "coordinate-descent sweeps (default 200)");
  sub.add_flag("--predict-only", a.predict_only, "no fit: the residuals of the file as it is");
  sub.add_option("--output", o.output, "also write the fitted accelerator file here");
  add_format_option(sub, o.format, "text (default) or json", {});
}

void run(const CalibrateOptions& o, const CLI::App& sub) {
  if (o.format != "text" && o.format != "json")
    throw InputError(error_code::kUsage, "", "--format",
                     "expected text or json, got \"" + o.format + "\"");
  command::CalibrateArgs args = o.args;
  args.arch = o.settings.arch;
  if (!o.settings.dataflow.empty()) args.dataflow = o.settings.dataflow;
  args.edge_transfers = o.settings.edge_transfers;
  args.json = o.format == "json";
  static const char* const options[] = {"--bits-a", "--bits-b", "--bits-c"};
  for (int i = 0; i < 3; ++i)
    if (sub.count(options[i]) > 0) args.bits[i] = o.bits[i];
  warn_implausible_arch(args.arch);
  const command::Calibrated c = command::calibrate(args);
  if (!o.output.empty()) {
    std::ofstream out(o.output);
    out << c.fitted.dump(2) << "\n";
    if (!out) throw InputError(error_code::kIo, o.output, "", "cannot write the fitted file");
  }
  std::fputs(c.text.c_str(), stdout);
}

void setup(CLI::App& sub) {
  auto o = std::make_shared<CalibrateOptions>();
  add_options(sub, *o);
  sub.callback([o, &sub] { run(*o, sub); });
}

}  // namespace

TENET_REGISTER_COMMAND("calibrate",
                       "Fit an accelerator file's free constants to measured runs (CSV); print "
                       "the fitted file and every row's residual",
                       setup, 72);

}  // namespace tenet::cli::calibrate_command
