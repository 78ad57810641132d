// The GEMM generator: statement S[i,j,k] with A[i,k] (activations, M×K), B[k,j] (weights, K×N),
// C[i,j] (output, M×N), and the classic systolic dataflows on an R×C array.
//
//   os (output stationary): rows take i (M), columns take j (N), k streams.
//       PE[i mod R, j mod C], T[floor(i/R), floor(j/C), (i mod R) + (j mod C) + k]
//   ws (weight stationary): rows take k (K), columns take j (N), i streams.
//       PE[k mod R, j mod C], T[floor(j/C), floor(k/R), i + (j mod C) + (k mod R)]
//   is (input stationary): rows take k (K), columns take i (M), j streams.
//       PE[k mod R, i mod C], T[floor(i/C), floor(k/R), j + (i mod C) + (k mod R)]
#pragma once

#include <string>

#include "tenet/arch/architecture.hpp"
#include "tenet/mapping/mapping.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::mapping {

enum class Dataflow { kOutputStationary, kWeightStationary, kInputStationary };
const char* to_string(Dataflow d);                 // "os", "ws", "is"
Dataflow parse_dataflow(const std::string& name);  // throws InputError(unknown-name)

struct GemmShape {
  long long m = 1, n = 1, k = 1;
  friend bool operator==(const GemmShape& a, const GemmShape& b) {
    return a.m == b.m && a.n == b.n && a.k == b.k;
  }
};

struct GemmBits {
  int a = 16, b = 16, c = 16;
};

// Throws InputError(range, "", "/m" | "/n" | "/k") if a size is <= 0.
void check_gemm_shape(const GemmShape& shape);

// Throws InputError(range) if a size is <= 0. `accumulate`: C = C + A·B, so C is also read
// (`{ S[i,j,k] -> C[i,j] }`, role output): its initial values before the first update.
workload::Workload make_gemm_workload(const GemmShape& shape, const GemmBits& bits = {},
                                      bool accumulate = false);
// The same matmul with its sizes as isl parameters [M, N, K] (each bounded to 1..10^9), for the
// analyzers that build their sets once and count them per size (analysis::Analyzer,
// quant::QuantAnalyzer).
workload::Workload make_parametric_gemm_workload(const GemmBits& bits = {});
Mapping make_systolic_mapping(Dataflow dataflow, long long rows, long long cols);
// An R×C array with systolic links between horizontal and vertical neighbours, data flowing
// towards increasing row and column indices (PE[x,y] -> PE[x+1,y] and PE[x,y] -> PE[x,y+1]).
arch::Architecture make_systolic_array(long long rows, long long cols,
                                       long long bandwidth_bits_per_cycle = 64,
                                       long long avg_latency_cycles = 1);

}  // namespace tenet::mapping
