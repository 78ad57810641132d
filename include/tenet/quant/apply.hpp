// Quantizing a matmul workload: operand bit widths, and one more read access relation per scale
// or zero-point tensor, so that their volumes and reuse come out of the same exact analysis.
//
// Group(32) scales of the weights B[k, j] become
//   { S[i,j,k] -> B_scale[j, floor(k/32)] }   (role kScale, bits = the scale type's width)
// isl tensor ids cannot contain dots: the id is B_scale, the report name (report_name) B.scale.
// Level 0 of an operand's scales is <T>_scale / <T>_zero, level 1 <T>_scale2 / <T>_zero2, ...
#pragma once

#include <isl/cpp.h>

#include <string>

#include "tenet/quant/quant_spec.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::quant {

// For B = KV cache: which GEMM index runs over tokens. K cache in Q·Kᵀ: B[k = channel, j = token]
// (kN); V cache in P·V: B[k = token, j = channel] (kK).
enum class KvTokenAxis { kN, kK };

struct ApplyOptions {
  OperandRole b = OperandRole::kWeight;
  KvTokenAxis kv_token_axis = KvTokenAxis::kN;
  // How B's access relation indexes it: NN = B[k, j] (the GEMM generator), NT = B[j, k].
  workload::Layout b_layout = workload::Layout::kNN;
  friend bool operator==(const ApplyOptions& x, const ApplyOptions& y) {
    return x.b == y.b && x.kv_token_axis == y.kv_token_axis && x.b_layout == y.b_layout;
  }
  friend bool operator!=(const ApplyOptions& x, const ApplyOptions& y) { return !(x == y); }
};

// The operands are found by role (kActivation = A[i,k], kWeight = B, kOutput = C[i,j]); each must
// have a two-dimensional tensor. Sets each operand's bits to its stored type's width and appends
// the scale/zero reads (A's levels, then B's, then C's). Throws InputError(usage) if the spec
// quantizes an operand the workload lacks, InputError(space) if an operand is not 2-D.
workload::Workload apply(const workload::Workload& gemm, const QuantSpec& spec,
                         const ApplyOptions& options = {});

std::string scale_tensor_id(const std::string& tensor, std::size_t level);  // "B_scale", "B_scale2"
std::string zero_tensor_id(const std::string& tensor, std::size_t level);   // "B_zero", "B_zero2"
// "B.scale" for a scale/zero access named like scale_tensor_id/zero_tensor_id, else the tensor id.
std::string report_name(const workload::Access& access);

// { T[..] -> <id>[..] }: the scale (or zero) element each operand element uses.
isl::map scale_map(const workload::Access& operand, OperandRole kind, const ScaleLevel& level,
                   const ApplyOptions& options, const std::string& id);
// { T[..] -> T_word[..] }: the storage word each operand element lives in.
isl::map packing_map(const workload::Access& operand, OperandRole kind, const OperandSpec& spec,
                     const ApplyOptions& options);

}  // namespace tenet::quant
