// A BitBLAS-style matmul config (MatmulConfig / MatmulWeightOnlyDequantizeConfig fields) read as
// a quantization spec plus the GEMM shapes it describes.
//
// Fields: M (int or list of ints: dynamic shapes), N, K, in_dtype, out_dtype, accum_dtype,
// layout ("nt": B stored N×K, or "nn": B stored K×N), and for quantized weights bit,
// storage_dtype, source_format ("uint", "int", "fp", "nf"), with_scaling, with_zeros, group_size
// (-1 = one group per output channel), zeros_type ("original", "rescale", "quantized").
// Accepted with no effect on the cost: with_bias, fast_decoding, propagate_a, propagate_b,
// name, source.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tenet/mapping/systolic.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::quant {

struct BitblasMatmul {
  QuantSpec spec;
  std::vector<long long> m;  // one entry per M of a dynamic-shape config
  long long n = 0, k = 0;

  std::vector<mapping::GemmShape> shapes() const;  // one GEMM per M
  friend bool operator==(const BitblasMatmul& a, const BitblasMatmul& b) {
    return a.spec == b.spec && a.m == b.m && a.n == b.n && a.k == b.k;
  }
};

// A document is read as BitBLAS when it has the keys "N" and "K".
bool is_bitblas_config(const nlohmann::json& json);
BitblasMatmul parse_bitblas(const nlohmann::json& json, const std::string& file = "");

}  // namespace tenet::quant
