// Helpers over tir::Expr shared by recognition and relations (internal to src/tir).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"

namespace tenet::tir::detail {

// The function cannot be analysed (becomes a skip reason with this line).
struct Unsupported {
  int line;
  std::string reason;
};

// An index that is not quasi-affine (becomes a flagged over-approximation).
struct NonAffine {
  int line;
  std::string reason;
};

// The expression without T.Cast / T.reinterpret wrappers.
const Expr& strip_cast(const Expr& e);

// The value of an integer constant expression (literals, T.int64(c), casts, + - * // % and the
// symbols `values` gives); nullopt when it depends on anything else or overflows.
std::optional<std::int64_t> constant(const Expr& e, const SymbolValues* values = nullptr);

// Names used by the expression (inside load indices too).
void names_in(const Expr& e, std::set<std::string>& out);

// Loads in the expression. With `indices`, also loads nested inside other loads' indices.
void loads_in(const Expr& e, std::vector<const Expr*>& out, bool indices = false);

// Replaces names by expressions.
Expr substitute(const Expr& e, const std::map<std::string, Expr>& by);

// A name isl accepts for a TIR identifier (isl keywords get a trailing '_').
std::string isl_name(const std::string& name);

// isl text of a quasi-affine index or extent. `name_of` maps a TIR name to its isl text (a
// block variable or a parameter) or nullopt (unknown name: Unsupported). Symbols with a value in
// `values` are replaced by it. Throws NonAffine (products of variables, indirect loads,
// T.if_then_else, T.min/T.max, true division) or Unsupported (an unknown T. call).
std::string affine_text(
    const Expr& e, const std::function<std::optional<std::string>(const std::string&)>& name_of,
    const SymbolValues* values);

// Bits of a TVM dtype ("float16" → 16, "uint32" → 32, "bool" → 8); 0 if unknown.
int dtype_bits(const std::string& dtype);
bool is_integer_dtype(const std::string& dtype);
// A float of 8 bits or fewer: "float8_e4m3fn", "float8_e5m2", "float4_e2m1fn", "e4m3_float8".
bool is_narrow_float(const std::string& dtype);
// A dtype weights are stored in to be dequantized: an integer or a narrow float.
bool is_stored_quantized(const std::string& dtype);

// Whether the expression loads `buffer`.
bool reads_buffer(const Expr& e, const std::string& buffer);

// `T.if_then_else(cond, x, 0)` (padding of a scheduled kernel) → x; casts stripped.
const Expr& strip_guard(const Expr& e);

// The function's buffer `name`; Unsupported (at `line`) when it is not declared.
const Buffer& buffer_of(const PrimFunc& f, const std::string& name, int line);

}  // namespace tenet::tir::detail
