// Sizes written on a command line: "M,N,K" for a GEMM and "RxC" for a PE array.
#pragma once

#include <string>

#include "tenet/mapping/systolic.hpp"

namespace tenet::mapping {

struct ArrayShape {
  long long rows = 1, cols = 1;
  friend bool operator==(const ArrayShape& a, const ArrayShape& b) {
    return a.rows == b.rows && a.cols == b.cols;
  }
};

// "37,1024,1024" -> {37, 1024, 1024}. Throws InputError (empty file and where): parse when the
// text is not three comma-separated integers, overflow when one does not fit 64 bits. Values
// <= 0 are accepted here and rejected by the generator (InputError range naming m, n or k).
GemmShape parse_gemm_shape(const std::string& text);
// "16x16" (also "16X16", "16*16", "16,16") -> {16, 16}; same errors, and InputError(range) for a
// size <= 0. The one parser of array shapes (--array, the sweep spec's "array").
ArrayShape parse_array_shape(const std::string& text);

}  // namespace tenet::mapping
