// The cost of one product of a GEMM on an accelerator, quantized or not: the hardware model
// (tenet::hw) run on the operands as stored — packed words, scale and zero tensors with their own
// widths — plus the quantization's own work: the dequant unit (which can bound the latency in
// decode), epilogue and rescaling, activation quantization, and energy at each precision
// (docs/quantization.md). An unquantized GEMM is the identity scheme: no scale or zero tensors, no
// quantization work, a dequant unit that is never busy.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/hw/result.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/mapping/tiling.hpp"
#include "tenet/quant/quant_costs.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::quant {

// The dequant unit's throughput: elements or ALU ops per cycle (the pipeline resolves which:
// eval/defaults.hpp). Both 0 = not given.
struct DequantRate {
  long long elements_per_cycle = 0;
  long long ops_per_cycle = 0;
  bool given() const { return elements_per_cycle > 0 || ops_per_cycle > 0; }
  friend bool operator==(const DequantRate& a, const DequantRate& b) {
    return a.elements_per_cycle == b.elements_per_cycle && a.ops_per_cycle == b.ops_per_cycle;
  }
};

// Bytes one tensor moves at each level, in bytes of its storage format (packed words for
// packed operands). waste_* is the part of those bytes that packing leaves unused.
struct TensorTraffic {
  std::string name;  // "A", "B", "C", "B.scale", "B.zero", "A.scale", ...
  workload::OperandRole role = workload::OperandRole::kOther;
  int bits = 16;          // bits per value
  int storage_bits = 16;  // bits per element as moved: the word width for packed operands
  long long dram_bytes = 0, sram_bytes = 0, register_file_bytes = 0;
  long long dram_waste_bytes = 0, sram_waste_bytes = 0;
};

struct QuantEnergy {  // pJ
  double mac = 0, register_file = 0, sram = 0, dram = 0;
  double dequant = 0, epilogue = 0, rescale = 0, zero_sums = 0, quantize = 0;
  double total() const {
    return mac + register_file + sram + dram + dequant + epilogue + rescale + zero_sums + quantize;
  }
};

// One of a GEMM's products on the hardware model, with a scheme or without (the identity scheme).
struct ProductResult {
  std::string scheme;       // the scheme's name; empty: the identity scheme (an unquantized GEMM)
  hw::GemmProblem problem;  // what the hardware model evaluated (operands as stored)
  hw::Result hw;            // its result (cycles, accesses per tensor, energy)
  // The exact quantization counts (dequant elements from the mapping); none: the identity scheme.
  std::optional<QuantCosts> costs;
  DequantPlacement placement = DequantPlacement::kNone;  // where B is dequantized (none if not)
  long long dequant_cycles = 0;  // busy cycles of the dequant unit (0: nothing to dequantize)
  long long total_cycles = 0;    // max(hw.cycles.total, dequant_cycles): clock cycles (a count)
  // The bound over compute, SRAM, DRAM and the dequant unit (hw::bounding_resource): the one
  // bound every report of the product names.
  hw::Bound bound = hw::Bound::kCompute;
  // Bytes per tensor in storage format, in problem operand order (a scheme only: the identity
  // scheme stores every tensor as the hardware model counts it, hw.tensors).
  std::vector<TensorTraffic> traffic;
  Integer dram_bytes, sram_bytes, register_file_bytes;  // sums over tensors
  QuantEnergy energy;

  const TensorTraffic& tensor(const std::string& name) const;  // InternalError if absent
  const QuantCosts& counts() const;  // InternalError for the identity scheme (no counts)
};

// A GEMM whose MACs are not of its own precision: `requested` is the scheme's multiplier type
// (MacPrecision::multiplier), `used` the accelerator's precision that ran it
// (arch::Accelerator::mac_precision_for: a wider one of the same kind, or float operands on the
// integer MACs the file allows with pe.float_on_integer).
struct PrecisionFallback {
  DataType requested, used;
  friend bool operator==(const PrecisionFallback& a, const PrecisionFallback& b) {
    return a.requested == b.requested && a.used == b.used;
  }
};
// Nothing when the GEMM ran at its multiplier type (always nothing for the identity scheme).
std::optional<PrecisionFallback> precision_fallback(const ProductResult& r);
// "fp16 operands on int16 MACs".
std::string to_string(const PrecisionFallback& f);

// Bits per element of B as the array reads it (its register files, its array-side SRAM reads):
// the dequantized format when the scheme dequantizes B, else B's own type.
int array_view_bits(const QuantSpec& spec, const ApplyOptions& apply);

// The hw::GemmProblem of a quantized GEMM: A, B, C with the widths they are stored at in the
// global buffer (packed operands as words: bits = word width, indexed by floor(index / values
// per word) along the packing axis; for dram_to_sram the weights are held dequantized), one
// operand per scale/zero tensor (grouped by its granularity), and the MAC precision (the wider
// multiplier input: the precision name if the accelerator has it, else its select_precision).
hw::GemmProblem make_quant_problem(const arch::Accelerator& acc, const mapping::GemmShape& shape,
                                   const QuantSpec& spec, const ApplyOptions& apply = {});

// ---- The product stage ----------------------------------------------------------------------
// eval/pipeline.cpp applies the scheme, builds the problem as stored (make_quant_problem, or
// hw::make_gemm_problem for the identity scheme) and chooses the tiling; evaluate_product does the
// rest of one product: hardware timing and traffic, quantization counts, dequant unit, bound,
// bytes per tensor and energy.

// What the product stage takes from the stages before it.
struct ProductInputs {
  const arch::Accelerator& accelerator;
  const hw::GemmProblem& problem;  // operands as stored
  mapping::Dataflow dataflow;
  const mapping::Tiling& tiling;  // the chosen tiling (0 = whole dimension)
  const hw::Options& options;
  const QuantSpec* spec;     // the scheme as applied; nullptr: the identity scheme
  ApplyOptions apply;        // how B is bound to the scheme (ignored for the identity scheme)
  DequantRate dequant_rate;  // the resolved dequant-unit throughput (eval/defaults.hpp)
  // hw::evaluate_gemm of the problem as stored with this tiling when known (the tiling search's
  // Result of the tiling it chose: hw::TilingSearchOptions::result), else computed here.
  const hw::Result* stored = nullptr;
};

// One product, in this order (docs/quantization.md#on-an-accelerator):
//  1. the hardware model on the problem as stored (`stored`, or hw::evaluate_gemm) and, for a
//     scheme, on B as the array sees it (the dequantized values, one per element: B's
//     register-file traffic and the elements sram_to_array dequantizes are counted on its
//     tensors, hw::evaluate_gemm_tensors);
//  2. the exact quantization counts (a QuantAnalyzer built once per thread and scheme), with the
//     dequantized elements from the hardware model: B's DRAM reads (dram_to_sram) or its
//     array-side SRAM reads;
//  3. the dequant unit's busy cycles: InputError(missing-field, "/dequant/throughput") when the
//     scheme dequantizes and the rate is not given;
//  4. the bound over compute / SRAM / DRAM / dequant unit, bytes per tensor and level in storage
//     format, energy per component.
// The identity scheme has no array view, no counts and a dequant unit that is never busy. Throws
// InputError as hw::evaluate_gemm does.
ProductResult evaluate_product(const ProductInputs& in);

}  // namespace tenet::quant
