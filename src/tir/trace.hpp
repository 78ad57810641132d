// Producer chains inside one PrimFunc (internal to src/tir).
#pragma once

#include <cstddef>
#include <map>
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

// The loads whose values an expression uses: not those in indices nor in the condition of a
// `T.if_then_else` / `T.Select` (a padding guard `m_offset + i < row[1]` reads no data).
void value_loads(const Expr& e, std::vector<const Expr*>& out);

// True when the loaded buffer is produced (before block `before`) from an integer buffer.
bool has_producer(const PrimFunc& f, const std::string& buffer, std::size_t before);

// Lets of the function and of every block by name (the first of a name): values known only at
// run time (`e: T.int32 = cur_e[0]`, `m_offset = ...` of a persistent kernel).
using Lets = std::map<std::string, const Expr*>;
Lets lets_of(const PrimFunc& f);

// The non-affine indices of the matmul block's accesses (A, the inlined weight's loads, C), as
// "line N: reason" texts; a let in an index is such a run-time value. Throws Unsupported for an
// unknown call or name in an index.
std::vector<std::string> check_accesses(const PrimFunc& f, const Block& b, const Expr& weight,
                                        const Expr& a, const Store& c, const Lets& lets);

// The copy chain of a staging buffer (`B_local[v0, v1] = B[v0, v1]`) before block `before` back
// to its source. `transposed` flips for each copy whose source reads the destination's last two
// variables in the other order (`W_shared[v0, v1, v2] = W[v2, v1]`).
std::string staged_origin(const PrimFunc& f, const std::string& buffer, std::size_t before,
                          bool* transposed = nullptr);

}  // namespace tenet::tir::detail
