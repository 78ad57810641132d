// Calibration: fit an accelerator file's free constants to measured runs (docs/hardware.md,
// "Calibration"; docs/validation.md). Every prediction goes through eval::evaluate.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/fused/kernel.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/mapping/tiling.hpp"

namespace tenet::sweep {

// One measured run: a GEMM (logical sizes), its tiling and what was measured; or, in the kernel
// form (parse_kernel_measurements), one kernel call of a kind and its measured time.
struct Measurement {
  std::string name;
  // The kernel form: the kind ("gemm", "ffn_gated", "ffn_erf", "attn_enc", "attn_dec"), its
  // sizes as the workload name gives them, the operands' type and the tiling left to the search
  // (no tiling given: `has_tiling` false); `cycles` then holds the measured nanoseconds.
  std::string kind = "gemm";
  std::vector<long long> dims;
  bool time_ns = false;
  bool has_tiling = true;
  std::optional<mapping::GemmBits> bits;  // the row's operand widths (the dtype column)
  std::string config;                     // the hardware configuration column, if any
  long long m = 1, n = 1, k = 1;
  mapping::Tiling tiling;
  bool aligned = true;      // false: the stream dimension was left unpadded (a_aligned = 0)
  bool accumulate = false;  // C = C + A·B (the accumulate column)
  long long cycles = 0;
  // The array's busy cycles summed over the tiles (core_busy_cycles), if given: the per-tile law
  // alone, without the per-tile and per-run overheads (docs/hardware.md §3b).
  std::optional<long long> busy_cycles;
  std::optional<long long> dram_bytes;  // dram_rd_bytes + dram_wr_bytes, if given
  std::string source;                   // the CSV file
  int line = 0;                         // line in it
};

// Reads a measurement CSV (header line, comma-separated). Columns: M, N, K, w_til (M tile),
// k_til (N tile), c_til (K tile), total_core_cycles; optional: name, config, loop_order (SAURIA's
// 0 keep-B = knm, 1 keep-C = nmk, 2 keep-A = kmn) or order (a permutation of mnk, outermost
// first), a_aligned, accumulate (1: C = C + A·B), core_busy_cycles, dram_rd_bytes and
// dram_wr_bytes. Rows whose config column differs from
// `config` (when not empty) are skipped. InputError names the file, line and column.
// The cells of one measurements CSV line (both forms), spaces and a CR trimmed; a trailing comma
// is one more empty cell.
std::vector<std::string> split_measurement_cells(const std::string& line);
std::vector<Measurement> read_measurements(const std::string& path, const std::string& config);
std::vector<Measurement> parse_measurements(const std::string& text, const std::string& file,
                                            const std::string& config);

// The kernel form (docs/formats.md#kernel-times): columns workload, dtype, latency_ns (others
// ignored: source, n_units); workload one of gemm_MxKxN (A[M,K]·W[K,N]), ffn_gated_SxHxI,
// ffn_erf_SxHxI, attn_enc_HqxSxD, attn_dec_HqxHkvxQxKVxD; dtype bfloat16, float16, float32, int8.
// parse_measurements reads it when the header has a "workload" column.
bool is_kernel_form(const std::vector<std::string>& header);
std::vector<Measurement> parse_kernel_measurements(const std::string& text,
                                                   const std::string& file);

// The seconds one call of a non-GEMM kernel row takes on an accelerator (a fused MLP, an
// attention kernel), or none when its kind cannot be costed. Registered per kind by the layer
// that builds those kernels (register_kernel_cost); a kind without one is reported "not yet
// costed" and left out of the fit and the shares.
using KernelCost = std::function<std::optional<double>(
    const Measurement&, const std::shared_ptr<const arch::Accelerator>&)>;
void register_kernel_cost(const std::string& kind, KernelCost cost);
const KernelCost* find_kernel_cost(const std::string& kind);
// The fused kernel of a non-GEMM row (calibrate_fused.cpp): ffn_gated_SxHxI a gated SiLU MLP,
// ffn_erf_SxHxI a GELU MLP with biases, attn_enc_HqxSxD non-causal attention with Hq KV heads and
// the scores on chip, attn_dec_HqxHkvxQxKVxD causal attention of the last Q positions, the
// scores on chip. InternalError for another kind.
fused::Kernel kernel_of_row(const Measurement& m);
// The costs registered from the start: those four kinds through eval::evaluate_kernel.
std::map<std::string, KernelCost> builtin_kernel_costs();

// A free constant: a JSON pointer into the accelerator file and its bounds.
struct FreeParameter {
  std::string pointer;
  double lo = 0, hi = 0;
  bool integer = true;
};

// The free constants of an accelerator file (its to_json form) by default: the microarchitecture
// cycle terms, the DMA command cost, the DRAM latency and bandwidth, the unaligned factor; each
// bounded around its value.
std::vector<FreeParameter> default_free_parameters(const nlohmann::json& arch);
// "pointer" or "pointer=lo:hi" -> the parameter (bounds default as above).
FreeParameter parse_free_parameter(const std::string& text, const nlohmann::json& arch);

// The operand widths of the measured GEMMs (A, B, C bits per element): each given one (> 0) as
// given; the others from the accelerator's MAC precision when it declares exactly one — A and B
// its width, C 32 bits for an integer precision (int32 partial sums, as SAURIA's int8 versions
// write them) and its own width for a float one (SAURIA FP16 writes FP16 partial sums). An
// accelerator with several MAC precisions and a width not given: InputError(usage, "arch")
// naming its precisions. `source` says where the widths came from (for the report).
struct CalibrationBits {
  mapping::GemmBits bits;
  std::string source;
};
CalibrationBits calibration_bits(const nlohmann::json& arch, const std::array<int, 3>& given);
// The same for these rows: when every row carries its own widths (the kernel form's dtype
// column), those ("the dtype column of each row"; the accelerator is not asked); else as above.
CalibrationBits calibration_bits(const nlohmann::json& arch, const std::array<int, 3>& given,
                                 const std::vector<Measurement>& rows);

struct CalibrationOptions {
  mapping::Dataflow dataflow = mapping::Dataflow::kOutputStationary;
  mapping::GemmBits bits{8, 8, 32};  // calibration_bits
  std::string bits_source;           // where they came from (calibration_json's bits.source)
  bool edge_transfers = true;        // the measurement window includes the first and last transfers
  std::vector<FreeParameter> free;
  int max_sweeps = 200;  // coordinate-descent sweeps
};

struct Residual {
  std::string name;
  std::string kind = "gemm";
  bool time_ns = false;  // measured / predicted are nanoseconds (the kernel form), else cycles
  bool costed = true;    // false: a kind with no kernel cost yet (`note` says so); not fitted
  std::string note;
  int line = 0;
  long long measured = 0, predicted = 0;
  double error = 0;  // predicted / measured - 1
  std::optional<long long> measured_bytes;
  long long predicted_bytes = 0;
  // busy cycles (Measurement::busy_cycles): measured, and predicted as Σ over tiles of the
  // per-tile law (cycles.compute less the run overhead and the per-tile overheads); 0 if the
  // row has none or the file no microarchitecture
  std::optional<long long> measured_busy;
  long long predicted_busy = 0;
};

struct Calibration {
  nlohmann::json arch;  // the fitted accelerator file
  std::vector<Residual> before, after;
  double objective_before = 0, objective_after = 0;  // sum of squared log errors
  int evaluations = 0;
};

// Predicts every measurement with the accelerator file `arch` (named `file` in errors).
std::vector<Residual> predict(const nlohmann::json& arch, const std::string& file,
                              const std::vector<Measurement>& rows,
                              const CalibrationOptions& options);

// Minimises the sum over rows of log(predicted / measured)^2 of the total cycles, plus that of
// the busy cycles on rows that give them (the per-tile law's constants are measured there), by
// bounded coordinate descent (integer steps for integer constants, step halving; deterministic).
Calibration calibrate(const nlohmann::json& arch, const std::string& file,
                      const std::vector<Measurement>& rows, const CalibrationOptions& options);

// {"arch", "objective_before", "objective_after", "within_5_percent", "within_10_percent",
//  "evaluations", "bits": {a, b, c, source}, "free": [{pointer, lo, hi}], "rows": [{name, line,
//  measured_cycles, predicted_cycles, error, error_before, predicted_dram_bytes[,
//  measured_dram_bytes, dram_bytes_error][, measured_busy_cycles, predicted_busy_cycles,
//  busy_error]}]}: what `tenet calibrate --format json` prints and tenet.calibrate returns.
nlohmann::json calibration_json(const Calibration& c, const CalibrationOptions& options);

// Share of the costed residuals with |error| <= tolerance (of those of `kind` when not empty).
double share_within(const std::vector<Residual>& r, double tolerance, const std::string& kind = "");

}  // namespace tenet::sweep
