// `tenet tir` once its options are read (docs/tir.md#cli): the CLI and the Python package call
// render_tir_report, so a TIR dump gives the same report from either door.
#pragma once

#include <string>

#include "io/report_format.hpp"
#include "tenet/eval/defaults.hpp"

namespace tenet::report {

// A TIR import as text, as `tenet tir`'s options give it. Errors name these fields (bind, arch,
// dataflow, quant) or the TVMScript file and line.
struct TirRun {
  std::string input;           // TVMScript: a printed IRModule or one PrimFunc
  std::string func;            // only this PrimFunc (empty: all)
  std::string bind;            // NAME=VALUE,... for the symbolic sizes
  std::string arch;            // accelerator preset or file (empty: the default)
  std::string dataflow;        // empty: the accelerator's, else os
  std::string quant = "auto";  // auto: each kernel's own dequantize chain; else forced
  bool shapes_only = false;
  bool edge_transfers = eval::defaults::kEdgeTransfers;  // hw::Options::edge_transfers
};

struct TirReport {
  std::string text;   // the report in the format asked
  std::string notes;  // CSV only: the skipped kernels (the table and JSON carry them)
};

TirReport render_tir_report(const TirRun& run, io::ReportFormat format);

}  // namespace tenet::report
