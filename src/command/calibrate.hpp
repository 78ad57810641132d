// `tenet calibrate` as one function: an accelerator file's free constants fitted to measured
// runs (docs/hardware.md#calibration-tenet-calibrate), and its report. The CLI reads its options
// into CalibrateArgs and Python (tenet.calibrate) its keywords. Errors name the measurements
// file and line, the accelerator file, or a field: arch, dataflow, bits_a, bits_b, bits_c.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tenet::command {

struct CalibrateArgs {
  std::string measurements;  // the measured runs, CSV (docs/formats.md#calibration-measurements)
  std::string arch;          // the accelerator file to fit: a preset name or a JSON file
  std::optional<nlohmann::json> arch_json;  // or its content (Python's dict)
  std::string config;                       // only the rows of this config (empty: all)
  std::vector<std::string> free;  // POINTER or POINTER=LO:HI (empty: the default constants)
  std::string dataflow = "os";
  // Bits per element of A, B, C (each 1..64); unset: from the accelerator's MAC precision.
  std::array<std::optional<int>, 3> bits;
  bool edge_transfers = true;  // the measured window includes the first loads and last write-back
  int max_sweeps = 200;        // coordinate-descent sweeps
  bool predict_only = false;   // no fit: the residuals of the file as it is
  bool json = false;           // the report as JSON (else text)
};

struct Calibrated {
  nlohmann::json fitted;  // the fitted accelerator file
  std::string text;       // the report: every row's residual, the fitted file
};

Calibrated calibrate(const CalibrateArgs& args);

}  // namespace tenet::command
