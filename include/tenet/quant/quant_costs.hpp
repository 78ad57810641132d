// What a quantization scheme costs on a matmul, before any hardware model: exact storage per
// tensor (packing waste included), weight bytes, effective bits per weight, the precision of the
// MACs, dequantization work, epilogue and partial-sum rescaling work, quantization of
// activations/outputs, and the compute energy at each precision. All counts are exact integer
// point counts of the quantized workload's relations (docs/quantization.md gives every formula).
#pragma once

#include <gmpxx.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tenet/poly/count.hpp"
#include "tenet/poly/parameters.hpp"
#include "tenet/quant/apply.hpp"
#include "tenet/quant/op_energy.hpp"
#include "tenet/quant/quant_spec.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::quant {

using poly::Integer;

struct CostOptions {
  ApplyOptions apply;
  // Rows of A per tile that goes through the dequant unit (placement sram_to_array): every
  // M-tile dequantizes the weights it uses again. 0 = all of M in one tile.
  long long tile_m = 0;
  // B elements dequantized, when a hardware model knows better (e.g. array-side SRAM reads of B
  // under a tiled mapping, or DRAM loads of B for dram_to_sram); overrides tile_m.
  std::optional<Integer> dequant_elements;
  OpEnergyTable energy = OpEnergyTable::defaults_45nm();
  poly::CountOptions count;
};

struct TensorStorage {
  std::string name;  // report name: "A", "B", "C", "B.scale", "B.zero", "A.scale", ...
  workload::OperandRole role = workload::OperandRole::kOther;
  int bits = 16;       // bits per value
  int word_bits = 16;  // storage word (= bits when not packed)
  Integer elements;    // distinct elements the matmul touches
  Integer words;       // storage words holding them (= elements when not packed)

  Integer value_bits() const { return elements * bits; }
  Integer storage_bits() const { return words * word_bits; }
  Integer waste_bits() const { return storage_bits() - value_bits(); }
  Integer bytes() const;  // ⌈storage_bits / 8⌉
  friend bool operator==(const TensorStorage& a, const TensorStorage& b);
};

// Extra ALU work of the scheme, in operations (one multiply, add, shift, compare... = one op).
struct QuantOps {
  Integer dequant_elements;  // B elements dequantized (re-dequantization included)
  int dequant_ops_per_element = 0;
  Integer dequant;           // dequant_elements × dequant_ops_per_element
  Integer epilogue;          // scales/zeros indexed by i, j only: |C| per factor
  Integer rescale;           // k-indexed scales/zeros not in the dequant: per (output, group)
  Integer zero_sums;         // row/column sums the zero-point corrections need
  Integer activation_quant;  // quantizing A: 3/elem dynamic, 1 + levels static, 1 cast only
  Integer output_quant;      // quantizing C, same rule
  Integer total() const {
    return dequant + epilogue + rescale + zero_sums + activation_quant + output_quant;
  }
};

// Compute energy in pJ; total() is the sum of the parts.
struct ComputeEnergy {
  double mac = 0, dequant = 0, epilogue = 0, rescale = 0, zero_sums = 0, quantize = 0;
  double total() const { return mac + dequant + epilogue + rescale + zero_sums + quantize; }
};

// The quantized workload itself (bits, scale/zero accesses) is apply(gemm, spec) or
// QuantAnalyzer::quantized().
struct QuantCosts {
  std::vector<TensorStorage> tensors;  // in the quantized workload's access order
  Integer macs;
  MacPrecision mac;
  double mac_energy_pj = 0;             // one MAC at that precision
  Integer weight_storage_bits;          // B and its scale/zero tensors
  Integer weight_bytes;                 // Σ bytes() of those tensors
  mpq_class effective_bits_per_weight;  // weight_storage_bits / elements of B
  QuantOps ops;
  std::optional<Integer> dequant_cycles;  // ⌈work / dequant throughput⌉ if the spec gives one
  ComputeEnergy energy;

  const TensorStorage& tensor(const std::string& name) const;  // InternalError if absent
};

// `gemm` is the plain matmul (operands by role, as apply() needs). Pure; throws InputError for
// a spec that does not fit the workload. = QuantAnalyzer(gemm, spec, options).evaluate().
QuantCosts analyze_quant(const workload::Workload& gemm, const QuantSpec& spec,
                         const CostOptions& options = {});

// analyze_quant split in two, like analysis::Analyzer: the set algebra (applying the scheme,
// scale and packing maps, ranges, pair sets) once per (workload structure, scheme, apply
// options, tile_m), the exact counting per problem size. `gemm` may carry isl parameters (e.g.
// mapping::make_parametric_gemm_workload()); evaluate() fixes them and counts. Results are
// identical to analyze_quant on the workload with those sizes.
//
// Holds isl objects of the thread that built it (poly/context.hpp): use it on that thread only.
class QuantAnalyzer {
 public:
  // Throws InputError as analyze_quant. options.apply and options.tile_m shape the sets;
  // options.dequant_elements, energy and count are defaults for evaluate().
  QuantAnalyzer(const workload::Workload& gemm, const QuantSpec& spec,
                const CostOptions& options = {});
  ~QuantAnalyzer();
  QuantAnalyzer(const QuantAnalyzer&);
  QuantAnalyzer& operator=(const QuantAnalyzer&);
  QuantAnalyzer(QuantAnalyzer&&) noexcept;
  QuantAnalyzer& operator=(QuantAnalyzer&&) noexcept;

  const QuantSpec& spec() const;
  const CostOptions& options() const;
  const workload::Workload& quantized() const;  // parametric if `gemm` was
  std::vector<std::string> parameters() const;  // sorted isl parameter names

  // Throws InputError: missing-field / unknown-name (parameter values, see poly::ParameterFix),
  // range (no instance for these values).
  QuantCosts evaluate(const poly::ParameterValues& values = {}) const;
  // The same with other per-evaluation options (energy table, count options, dequant_elements);
  // options.apply and options.tile_m must be the constructor's (InternalError otherwise).
  QuantCosts evaluate(const poly::ParameterValues& values, const CostOptions& options) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tenet::quant
