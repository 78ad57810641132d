#include "tenet/hw/gemm_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "tenet/error.hpp"

namespace tenet::hw {

const char* role_key(workload::OperandRole role) {
  using workload::OperandRole;
  switch (role) {
    case OperandRole::kActivation:
      return "activation";
    case OperandRole::kWeight:
      return "weight";
    case OperandRole::kOutput:
      return "output";
    case OperandRole::kScale:
      return "scale";
    case OperandRole::kZero:
      return "zero";
    case OperandRole::kOther:
      return "other";
    case OperandRole::kKvCache:
      return "weight";  // a KV cache is held where the weights are
  }
  return "other";
}

GemmProblem make_gemm_problem(const mapping::GemmShape& shape, const mapping::GemmBits& bits) {
  using workload::OperandRole;
  GemmProblem p;
  p.shape = shape;
  p.operands = {{"A", OperandRole::kActivation, bits.a, false, {1, 0, 1}},
                {"B", OperandRole::kWeight, bits.b, false, {0, 1, 1}},
                {"C", OperandRole::kOutput, bits.c, true, {1, 1, 0}}};
  validate(p);
  return p;
}

void validate(const GemmProblem& p) {
  const long long sizes[] = {p.shape.m, p.shape.n, p.shape.k};
  const char* names[] = {"m", "n", "k"};
  for (int d = 0; d < 3; ++d)
    if (sizes[d] <= 0)
      throw InputError(error_code::kRange, "", "gemm",
                       fmt::format("expected {} > 0, got {}", names[d], sizes[d]));
  if (p.operands.empty())
    throw InputError(error_code::kUsage, "", "operands", "a GEMM needs at least one operand");
  // Names compared pairwise (a problem has a handful of operands; no allocation per call).
  for (auto it = p.operands.begin(); it != p.operands.end(); ++it) {
    const Operand& op = *it;
    const auto same_name = [&](const Operand& earlier) { return earlier.name == op.name; };
    if (std::any_of(p.operands.begin(), it, same_name))
      throw InputError(error_code::kDuplicate, "", "operands/" + op.name,
                       "operand \"" + op.name + "\" is given twice");
    if (op.bits < 1 || op.bits > 64)
      throw InputError(error_code::kRange, "", "operands/" + op.name + "/bits",
                       fmt::format("expected 1..64 bits per element, got {}", op.bits));
    for (long long g : op.group)
      if (g < 0)
        throw InputError(error_code::kRange, "", "operands/" + op.name + "/group",
                         fmt::format("expected index groups >= 0, got {}", g));
  }
}

std::ostream& operator<<(std::ostream& os, const GemmProblem& p) {
  os << "gemm " << p.shape.m << "x" << p.shape.n << "x" << p.shape.k;
  if (p.precision) os << " at " << *p.precision;
  if (p.accumulate) os << ", C += A·B";
  for (const Operand& op : p.operands)
    os << "\n  " << op.name << " (" << role_key(op.role) << ", " << op.bits << " bits"
       << (op.output ? ", output" : "") << ") group i:" << op.group[0] << " j:" << op.group[1]
       << " k:" << op.group[2];
  return os;
}

}  // namespace tenet::hw
