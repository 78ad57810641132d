// Matmul recognition inside one PrimFunc, shared by the scalar, tensorized and epilogue parts
// (internal to src/tir; docs/tir.md#recognition).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"

namespace tenet::tir::detail {

// The operands of a block's update C = C + X * Y.
struct Update {
  const Expr* x = nullptr;      // A's load
  const Expr* y = nullptr;      // B: a load, or the dequantize expression it is multiplied by
  std::shared_ptr<Expr> owned;  // y when it had to be rebuilt from the factors
  bool guarded = false;         // an operand is read through T.if_then_else (padding)
};

// The kernel of matmul block `index` (`b`, possibly a synthetic copy) with update `u`. `tile`
// multiplies block variables' extents (a tensorized region's width); `role_tile` each role's
// (an MMA shape string). Throws Unsupported.
MatmulKernel recognize(const PrimFunc& f, std::size_t index, Block b, const Update& u,
                       const std::map<std::string, std::int64_t>& tile = {},
                       const std::map<std::string, std::int64_t>& role_tile = {});

// A tensorized block (an intrinsic call with T.reads / T.writes regions) as a kernel.
std::optional<MatmulKernel> recognize_intrinsic(const PrimFunc& f, std::size_t index);

// Follows the accumulator from block `matmul_index` to the function's output, adding epilogue
// ops to `k` and setting its output buffer and dtype.
void trace_epilogue(const PrimFunc& f, std::size_t matmul_index, MatmulKernel& k);

}  // namespace tenet::tir::detail
