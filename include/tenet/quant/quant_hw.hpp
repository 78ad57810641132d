// The cost of a quantized GEMM on an accelerator: the hardware model (tenet::hw) run on the
// operands as stored — packed words, scale and zero tensors with their own widths — plus the
// quantization's own work: the dequant unit (which can bound the latency in decode), epilogue and
// rescaling, activation quantization, and energy at each precision (docs/quantization.md).
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

struct QuantHwResult {
  std::string scheme;
  hw::GemmProblem problem;  // what the hardware model evaluated
  hw::Result hw;            // its result (cycles, accesses per tensor, energy)
  QuantCosts costs;         // exact quantities; dequant elements from the mapping
  DequantPlacement placement = DequantPlacement::kNone;  // where B is dequantized (none if not)
  long long dequant_cycles = 0;  // busy cycles of the dequant unit (0: nothing to dequantize)
  long long total_cycles = 0;    // max(hw.cycles.total, dequant_cycles): clock cycles (a count)
  hw::Bound bound = hw::Bound::kCompute;  // over compute, SRAM, DRAM and the dequant unit
  std::vector<TensorTraffic> traffic;     // in problem operand order
  long long dram_bytes = 0, sram_bytes = 0, register_file_bytes = 0;  // sums over tensors
  QuantEnergy energy;

  const TensorTraffic& tensor(const std::string& name) const;  // InternalError if absent
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
// Nothing when the GEMM ran at its multiplier type.
std::optional<PrecisionFallback> precision_fallback(const QuantHwResult& r);
// "fp16 operands on int16 MACs".
std::string to_string(const PrecisionFallback& f);

// The hw::GemmProblem of a quantized GEMM: A, B, C with the widths they are stored at in the
// global buffer (packed operands as words: bits = word width, indexed by floor(index / values
// per word) along the packing axis; for dram_to_sram the weights are held dequantized), one
// operand per scale/zero tensor (grouped by its granularity), and the MAC precision (the wider
// multiplier input: the precision name if the accelerator has it, else its select_precision).
hw::GemmProblem make_quant_problem(const arch::Accelerator& acc, const mapping::GemmShape& shape,
                                   const QuantSpec& spec, const ApplyOptions& apply = {});

// ---- The stages of a quantized GEMM ---------------------------------------------------------
// eval/pipeline.cpp runs them in order (apply -> problem -> tiling -> hardware -> counts ->
// dequant unit -> traffic and energy); nothing else composes them.

// B as the array sees it: the dequantized (or stored) values, one per element (the register-file
// traffic of B and the dequant elements of sram_to_array are counted on this problem).
hw::GemmProblem make_array_view_problem(const hw::GemmProblem& stored, const QuantSpec& spec,
                                        const ApplyOptions& apply = {});

// The exact quantization counts of the GEMM (QuantAnalyzer, built once per thread and scheme):
// tensors, ops, energy of the quantization work; the dequantized elements are taken from the
// hardware model (`stored`: B's DRAM reads for dram_to_sram; `array_view`: its array-side SRAM
// reads otherwise).
QuantCosts count_quant_costs(const mapping::GemmShape& shape, const QuantSpec& spec,
                             const ApplyOptions& apply, const hw::Result& stored,
                             const hw::Result& array_view, const OpEnergyTable& energy,
                             const poly::CountOptions& count = {});

// Busy cycles of the dequant unit (0 when nothing is dequantized). Throws
// InputError(missing-field, "/dequant/throughput") when something is but no rate is given.
long long dequant_unit_cycles(const QuantSpec& spec, const DequantRate& rate, const QuantCosts& c);

// The quantized product assembled from the stages: the bound over compute / SRAM / DRAM /
// dequant unit, bytes per tensor and level in storage format, energy per component.
QuantHwResult make_quant_result(const arch::Accelerator& acc, const QuantSpec& spec,
                                const ApplyOptions& apply, hw::GemmProblem problem,
                                hw::Result stored, const hw::Result& array_view, QuantCosts costs,
                                long long dequant_cycles);

}  // namespace tenet::quant
