// A workload log joined with the TVMScript dump of the same model (`tenet log --tir`): each
// logged call finds its PrimFunc by kernel name, the logged extents bind the kernel's symbolic
// sizes, and the call takes the kernel's real structure (docs/tir.md#joined-with-run-logs).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tenet/llm/matmul_shape.hpp"
#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"

namespace tenet::tir {

// The symbol values under which the kernel has the logged batch, M, N and K. Each symbol is
// solved from a role (batch, M, N, K) whose extents are that symbol times constants. Throws
// InputError(range) when no value fits (the log and the dump disagree) and
// InputError(missing-field) when a symbol cannot be solved (an extent such as (n + 1) // 2).
SymbolValues solve_symbols(const MatmulKernel& kernel, const llm::MatmulShape& logged);

struct LogJoin {
  std::vector<llm::MatmulShape> shapes;  // the log's entries, in order
  std::vector<std::string> warnings;  // distinct: kernels not in the dump, chains without a preset
  // The kernels' own schemes that no preset expresses, by the name their entries' `quant` holds
  // ("auto:<func>"; the spec's name is the same).
  std::map<std::string, std::shared_ptr<const quant::QuantSpec>> schemes;
};

// Each entry whose kernel name is a PrimFunc with exactly one matmul takes that kernel's layout,
// B operand, dequantization flag, epilogue op count and dtypes; keeps its name, count, phase
// and sizes. When the entry names no scheme, `quant` becomes the preset equal to the kernel's
// "auto" scheme (matching_preset), else "auto:<func>", the kernel's own scheme (in `schemes`).
// Other entries pass unchanged. One warning per kernel, however many entries call it.
LogJoin join_log(const std::vector<llm::MatmulShape>& entries, const Module& module);

}  // namespace tenet::tir
