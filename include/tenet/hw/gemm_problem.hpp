// The GEMM a hardware evaluation runs: shape, operands (as a list, so that quantization can add
// scale / zero-point tensors with their own widths) and the MAC precision.
#pragma once

#include <array>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tenet/mapping/systolic.hpp"
#include "tenet/workload/data_type.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::hw {

// One tensor of the GEMM S[i,j,k] (i < M, j < N, k < K).
struct Operand {
  std::string name;
  workload::OperandRole role = workload::OperandRole::kOther;
  int bits = 16;        // bits per element, 1..64
  bool output = false;  // accumulated by the GEMM (written); otherwise read only
  // For each GEMM index (i, j, k): 0 = the tensor does not depend on it; g >= 1 = it is indexed
  // by floor(index / g) (1 = plainly; e.g. a group-wise weight scale is {0, 1, group}).
  std::array<long long, 3> group{0, 0, 0};

  friend bool operator==(const Operand& a, const Operand& b) {
    return a.name == b.name && a.role == b.role && a.bits == b.bits && a.output == b.output &&
           a.group == b.group;
  }
  friend bool operator!=(const Operand& a, const Operand& b) { return !(a == b); }
};

struct GemmProblem {
  mapping::GemmShape shape;
  std::vector<Operand> operands;
  // MAC precision (int8, fp16, ...). None: Accelerator::select_precision of the widest
  // activation / weight operand.
  std::optional<workload::DataType> precision;
  // C = C + A·B: the outputs hold values in DRAM before the GEMM, read before their first update
  // (docs/hardware.md, "Accumulate"). False: C = A·B, written only.
  bool accumulate = false;

  friend bool operator==(const GemmProblem& a, const GemmProblem& b) {
    return a.shape == b.shape && a.operands == b.operands && a.precision == b.precision &&
           a.accumulate == b.accumulate;
  }
  friend std::ostream& operator<<(std::ostream& os, const GemmProblem& p);
};

// A[i,k] (activation, M×K), B[k,j] (weight, K×N) and the output C[i,j] (M×N).
GemmProblem make_gemm_problem(const mapping::GemmShape& shape, const mapping::GemmBits& bits = {});

// Throws InputError(range | duplicate | usage) for sizes <= 0, bits outside 1..64, negative
// groups, repeated names or no operand.
void validate(const GemmProblem& problem);

// The partition key of a role in the global buffer ("activation", "weight", ...).
const char* role_key(workload::OperandRole role);

}  // namespace tenet::hw
