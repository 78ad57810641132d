// Producer chains inside one PrimFunc (internal to src/tir).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tenet/tir/script.hpp"

namespace tenet::tir::detail {

// The load with every element-wise producer block before block `before` inlined: the value
// written to the loaded element, expressed in the indices of the load (recursively), so that the
// dequantize chain of a weight reads `(w[n, k // 8] >> ...) & 15 ...` in the matmul's variables.
Expr inline_producers(const PrimFunc& f, const Expr& load, std::size_t before);

// Every load of the expression inlined as by inline_producers.
Expr inline_expr(const PrimFunc& f, const Expr& e, std::size_t before);

// True when the loaded buffer is produced (before block `before`) from an integer buffer.
bool has_producer(const PrimFunc& f, const std::string& buffer, std::size_t before);

// The non-affine indices of the matmul block's accesses (A, the inlined weight's loads, C), as
// "line N: reason" texts. Throws Unsupported for an unknown call or name in an index.
std::vector<std::string> check_accesses(const PrimFunc& f, const Block& b, const Expr& weight,
                                        const Expr& a, const Store& c);

// The copy chain of a staging buffer (`B_local[v0, v1] = B[v0, v1]`) before block `before` back
// to its source. `transposed` flips for each copy whose source reads the destination's last two
// variables in the other order (`W_shared[v0, v1, v2] = W[v2, v1]`).
std::string staged_origin(const PrimFunc& f, const std::string& buffer, std::size_t before,
                          bool* transposed = nullptr);

}  // namespace tenet::tir::detail
