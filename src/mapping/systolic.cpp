#include "tenet/mapping/systolic.hpp"

#include <fmt/format.h>

#include "detail/exact.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

namespace tenet::mapping {
namespace {

void require_positive(long long value, const char* field, const char* what) {
  if (value <= 0)
    throw InputError(error_code::kRange, "", std::string("/") + field,
                     fmt::format("expected {} ({}) > 0, got {}", field, what, value));
}

isl::set make_set(const std::string& text) { return isl::set(poly::thread_context().get(), text); }
using ::tenet::detail::make_map;

// "{ S[i,j,k] -> PE[<row>, <col>] }" and "{ S[i,j,k] -> T[<outer0>, <outer1>, <wave>] }".
Mapping systolic(const char* name, const std::string& row, const std::string& col,
                 const std::string& outer0, const std::string& outer1, const std::string& wave) {
  return Mapping(name, make_map(fmt::format("{{ S[i,j,k] -> PE[{}, {}] }}", row, col)),
                 make_map(fmt::format("{{ S[i,j,k] -> T[{}, {}, {}] }}", outer0, outer1, wave)));
}

}  // namespace

const char* to_string(Dataflow d) {
  switch (d) {
    case Dataflow::kOutputStationary:
      return "os";
    case Dataflow::kWeightStationary:
      return "ws";
    case Dataflow::kInputStationary:
      return "is";
  }
  return "?";
}

Dataflow parse_dataflow(const std::string& name) {
  for (Dataflow d :
       {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary})
    if (name == to_string(d)) return d;
  throw InputError(error_code::kUnknownName, "", "",
                   "unknown dataflow \"" + name + "\", expected one of os, ws, is");
}

namespace {

std::vector<workload::Access> gemm_accesses(const GemmBits& bits, bool accumulate = false) {
  using workload::AccessKind;
  using workload::OperandRole;
  std::vector<workload::Access> out = {
      {"A", AccessKind::kRead, make_map("{ S[i,j,k] -> A[i,k] }"), bits.a,
       OperandRole::kActivation},
      {"B", AccessKind::kRead, make_map("{ S[i,j,k] -> B[k,j] }"), bits.b, OperandRole::kWeight}};
  if (accumulate)  // C = C + A·B: C's values are read as well
    out.push_back(
        {"C", AccessKind::kRead, make_map("{ S[i,j,k] -> C[i,j] }"), bits.c, OperandRole::kOutput});
  out.push_back(
      {"C", AccessKind::kWrite, make_map("{ S[i,j,k] -> C[i,j] }"), bits.c, OperandRole::kOutput});
  return out;
}

}  // namespace

void check_gemm_shape(const GemmShape& shape) {
  require_positive(shape.m, "m", "rows of A and C");
  require_positive(shape.n, "n", "columns of B and C");
  require_positive(shape.k, "k", "reduction length");
}

workload::Workload make_gemm_workload(const GemmShape& shape, const GemmBits& bits,
                                      bool accumulate) {
  check_gemm_shape(shape);
  isl::set domain = make_set(fmt::format(
      "{{ S[i,j,k] : 0 <= i < {} and 0 <= j < {} and 0 <= k < {} }}", shape.m, shape.n, shape.k));
  return workload::Workload(
      fmt::format("gemm {}x{}x{}{}", shape.m, shape.n, shape.k, accumulate ? " (C += A·B)" : ""),
      std::move(domain), gemm_accesses(bits, accumulate));
}

workload::Workload make_parametric_gemm_workload(const GemmBits& bits) {
  isl::set domain = make_set(
      "[M, N, K] -> { S[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K and "
      "1 <= M <= 1000000000 and 1 <= N <= 1000000000 and 1 <= K <= 1000000000 }");
  return workload::Workload("gemm MxNxK", std::move(domain), gemm_accesses(bits));
}

Mapping make_systolic_mapping(Dataflow dataflow, long long rows, long long cols) {
  require_positive(rows, "rows", "PE array rows");
  require_positive(cols, "cols", "PE array columns");
  const long long r = rows, c = cols;
  switch (dataflow) {
    case Dataflow::kOutputStationary:
      return systolic("os", fmt::format("i mod {}", r), fmt::format("j mod {}", c),
                      fmt::format("floor(i/{})", r), fmt::format("floor(j/{})", c),
                      fmt::format("(i mod {}) + (j mod {}) + k", r, c));
    case Dataflow::kWeightStationary:
      return systolic("ws", fmt::format("k mod {}", r), fmt::format("j mod {}", c),
                      fmt::format("floor(j/{})", c), fmt::format("floor(k/{})", r),
                      fmt::format("i + (j mod {}) + (k mod {})", c, r));
    case Dataflow::kInputStationary:
      return systolic("is", fmt::format("k mod {}", r), fmt::format("i mod {}", c),
                      fmt::format("floor(i/{})", c), fmt::format("floor(k/{})", r),
                      fmt::format("j + (i mod {}) + (k mod {})", c, r));
  }
  throw InternalError("make_systolic_mapping: unknown dataflow");
}

arch::Architecture make_systolic_array(long long rows, long long cols,
                                       long long bandwidth_bits_per_cycle,
                                       long long avg_latency_cycles) {
  require_positive(rows, "rows", "PE array rows");
  require_positive(cols, "cols", "PE array columns");
  return arch::Architecture(
      fmt::format("systolic {}x{}", rows, cols),
      make_set(fmt::format("{{ PE[x,y] : 0 <= x < {} and 0 <= y < {} }}", rows, cols)),
      make_map("{ PE[x,y] -> PE[x+1,y]; PE[x,y] -> PE[x,y+1] }"), bandwidth_bits_per_cycle,
      avg_latency_cycles);
}

}  // namespace tenet::mapping
