// The dequantize chain of a matmul's B operand: how the weight is stored, packed, scaled and
// offset, read from the inlined expression or from a BitBLAS extern decode call (internal to
// src/tir; docs/tir.md#recognition).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"

namespace tenet::tir::detail {

// Logical extents of the roles ("k", "n") when constant.
using RoleExtents = std::map<std::string, std::optional<std::int64_t>>;

// The storage of `weight` (B with its producers inlined; a padding guard and casts around it are
// stripped) in the matmul's variables, whose roles `role` gives ("batch", "m", "n", "k");
// nullopt when it reads no integer or narrow-float buffer.
std::optional<WeightStorage> read_storage(const PrimFunc& f, const Expr& weight,
                                          const std::map<std::string, std::string>& role,
                                          const RoleExtents& extents);

// BitBLAS: the storage a block before `index` decodes into `b_buffer` through an extern call.
std::optional<WeightStorage> extern_decode(const PrimFunc& f, const std::string& b_buffer,
                                           std::size_t index, const RoleExtents& extents);

}  // namespace tenet::tir::detail
