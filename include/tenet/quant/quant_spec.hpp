// A quantization scheme for one matmul: per operand the stored number format, its scale and
// zero-point tensors (one entry per scale level), its packing, and where weights are dequantized.
//
// GEMM notation (docs/quantization.md): C[M×N] = A[M×K] · B[K×N]; A = activations (i, k),
// B = weights (k, j) or a KV-cache tensor, C = output (i, j). A scale level's granularity says
// which indices its tensor carries:
//   per_tensor        []                 any operand
//   per_channel       [j] (n)            weights, output, KV cache (its channel axis)
//   per_token         [i] (m)            activations, output, KV cache (its token axis)
//   per_input_channel [k]                activations
//   group(g)          [row, floor(k/g)]  activations (row i), weights (row j), KV cache
//                                        (token row, groups along the channel axis)
//   block(bn×bk)      [floor(j/bn), floor(k/bk)]   weights
// Zero points (asymmetric levels) have the same shape as their scales.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tenet/workload/data_type.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::quant {

using workload::DataType;
using workload::NumberFormat;
using workload::parse_data_type;
using workload::to_string;

enum class Granularity { kPerTensor, kPerChannel, kPerToken, kPerInputChannel, kGroup, kBlock };
const char* to_string(Granularity g);  // "per_tensor", ..., "group", "block"

// How the zero point enters (BitBLAS zeros_type): original (q - z)·s, rescale q·s - z,
// quantized: z stored at the weight's width, (q - z)·s.
enum class ZeroMode { kOriginal, kRescale, kQuantized };
const char* to_string(ZeroMode m);  // "original", "rescale", "quantized"

// Where a scale level is applied. kAuto: inside the dequantization when the operand is
// dequantized and either the dequantized type is a float or the scale is an integer; otherwise
// in the epilogue (scale indexed by i/j only) or by rescaling partial sums (scale indexed by k).
enum class ScaleApply { kAuto, kDequant, kEpilogue };
const char* to_string(ScaleApply a);  // "auto", "dequant", "epilogue"

struct ScaleLevel {
  Granularity granularity = Granularity::kPerTensor;
  long long group_size = 0;            // kGroup: elements per group along k (or the KV channel)
  long long block_n = 0, block_k = 0;  // kBlock
  DataType dtype = DataType::fp16();   // scale type
  std::optional<DataType> zero;        // zero-point type; present = asymmetric
  ZeroMode zero_mode = ZeroMode::kOriginal;
  bool dynamic = false;  // computed at run time from the data (activations, KV)
  ScaleApply apply = ScaleApply::kAuto;

  bool symmetric() const { return !zero.has_value(); }
  friend bool operator==(const ScaleLevel& a, const ScaleLevel& b);
  friend bool operator!=(const ScaleLevel& a, const ScaleLevel& b) { return !(a == b); }
};

// The tensor axis values are packed along: a GEMM index (m, n, k) for activations, weights and
// output; the KV cache's own axes (token, channel) for the KV cache.
enum class PackAxis { kM, kN, kK, kToken, kChannel };
const char* to_string(PackAxis a);  // "m", "n", "k", "token", "channel"

// Several narrow values per storage word (int4: 8 per uint32; int3: 10 per uint32, 2 bits unused).
struct Packing {
  int storage_bits = 32;
  int values_per_word = 8;
  PackAxis axis = PackAxis::kK;
  // Each scale group starts a new word (MLC: ⌈g / values_per_word⌉ words per group).
  bool group_aligned = false;

  int waste_bits_per_word(int value_bits) const {
    return storage_bits - values_per_word * value_bits;
  }
  friend bool operator==(const Packing& a, const Packing& b) {
    return a.storage_bits == b.storage_bits && a.values_per_word == b.values_per_word &&
           a.axis == b.axis && a.group_aligned == b.group_aligned;
  }
  friend bool operator!=(const Packing& a, const Packing& b) { return !(a == b); }
};

struct OperandSpec {
  DataType dtype = DataType::fp16();
  std::vector<ScaleLevel> scales;  // level 0 is "<T>.scale", level 1 "<T>.scale2", ...
  std::optional<Packing> packing;  // absent: one value per element, no waste

  // Narrower than a model float, or scaled: the operand holds quantized values.
  bool quantized() const { return !dtype.is_model_float() || !scales.empty(); }
  friend bool operator==(const OperandSpec& a, const OperandSpec& b) {
    return a.dtype == b.dtype && a.scales == b.scales && a.packing == b.packing;
  }
  friend bool operator!=(const OperandSpec& a, const OperandSpec& b) { return !(a == b); }
};

// Where the weight (or KV-cache) operand is turned into the MAC's input type.
enum class DequantPlacement {
  kNone,         // the PE multiplies the stored format directly (W8A8, FP8) or nothing is quantized
  kDramToSram,   // once, when loaded into the global buffer (SRAM holds the dequantized type)
  kSramToArray,  // in a dequant unit between SRAM and the array, once per fetch of a tile
  kInPe,         // inside the PE: a mixed-precision multiplier takes the stored format
  kLut,          // no dequantization: lookup-table GEMM (LUT-GEMM, T-MAC)
};
const char* to_string(
    DequantPlacement p);  // "none", "dram_to_sram", "sram_to_array", "in_pe", "lut"

struct DequantSpec {
  DequantPlacement placement = DequantPlacement::kNone;
  std::optional<DataType> to;          // dequantized type; default: the activations' type
  std::optional<int> ops_per_element;  // default: derived (see dequant_ops_per_element)
  long long elements_per_cycle = 0;    // throughput of the dequant unit (0 = not given)
  long long ops_per_cycle = 0;         // alternative throughput in ALU ops (0 = not given)

  friend bool operator==(const DequantSpec& a, const DequantSpec& b) {
    return a.placement == b.placement && a.to == b.to && a.ops_per_element == b.ops_per_element &&
           a.elements_per_cycle == b.elements_per_cycle && a.ops_per_cycle == b.ops_per_cycle;
  }
  friend bool operator!=(const DequantSpec& a, const DequantSpec& b) { return !(a == b); }
};

// Which operand of the QuantSpec a matmul operand is.
// workload::OperandRole's kActivation, kWeight, kOutput, kKvCache; spec_key gives the scheme
// file's key of each: "activations", "weights", "output", "kv_cache".
using workload::OperandRole;
const char* spec_key(OperandRole role);

struct QuantSpec {
  std::string name;
  std::string source;  // where the scheme comes from (free text)
  OperandSpec activations;
  OperandSpec weights;
  OperandSpec output;
  DataType accumulator = DataType::fp32();
  std::optional<OperandSpec> kv_cache;
  DequantSpec dequant;

  const OperandSpec& operand(OperandRole k) const;  // kKvCache: throws InputError if absent
  friend bool operator==(const QuantSpec& a, const QuantSpec& b);
  friend bool operator!=(const QuantSpec& a, const QuantSpec& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const QuantSpec& s);
};

// Checks every rule of docs/quantization.md (granularity fits the operand, sizes > 0, packing
// fits the word, ...). Throws InputError(file, JSON pointer of the offending field).
void validate(const QuantSpec& spec, const std::string& file = "");

// --- Derived properties -------------------------------------------------------------------

// True when the scheme dequantizes its B operand (weights, or the KV cache) before the MAC:
// placement dram_to_sram or sram_to_array. With the operand: and that operand is quantized.
bool dequantizes(const QuantSpec& spec);
bool dequantizes(const QuantSpec& spec, const OperandSpec& b);
// The type the B operand is dequantized to (dequant.to, else the activations' type).
DataType dequant_target(const QuantSpec& spec);
// Whether a scale level of the dequantized operand is consumed inside the dequantization.
bool applied_in_dequant(const QuantSpec& spec, const ScaleLevel& level);
// Scale indexed by k (group, block, per-input-channel): cannot factor out of the K-sum.
bool indexed_by_k(Granularity g);

// ALU ops to dequantize one element of `b` (weights or KV cache): unpack (shift, and) when
// packed, convert when the format family changes (int→float, nf lookup), restore the offset
// (signed packed int) or subtract the zero point, one multiply per scale level applied in the
// dequantization. MLC q4f16_1: 2 + 1 + 1 + 1 = 5. dequant.ops_per_element overrides.
struct DequantOps {
  int unpack = 0, convert = 0, offset = 0, scale = 0;
  int total() const { return unpack + convert + offset + scale; }
};
DequantOps dequant_op_breakdown(const QuantSpec& spec, const OperandSpec& b);
int dequant_ops_per_element(const QuantSpec& spec, const OperandSpec& b);

// The precision the PE multiplies and accumulates at.
struct MacPrecision {
  DataType a;  // activations as they enter the multiplier
  DataType b;  // B operand as it enters the multiplier (after any dequantization)
  DataType accumulate;
  bool mixed() const { return a != b; }
  DataType multiplier() const;  // the wider input; a float (or nf) input wins over an integer
  friend bool operator==(const MacPrecision& x, const MacPrecision& y) {
    return x.a == y.a && x.b == y.b && x.accumulate == y.accumulate;
  }
};
MacPrecision mac_precision(const QuantSpec& spec, const OperandSpec& b);

}  // namespace tenet::quant
