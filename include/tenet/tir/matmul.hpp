// Matmul recognition in TensorIR by structure, the dequantize chain traced back to the stored
// weight, the epilogue, and binding the symbolic sizes (docs/tir.md#recognition).
//
// A matmul block has at least one reduction variable and one store `C[..] = C[..] + X * Y`
// (either order, casts allowed around X, Y and the product). Block variables take roles by
// which buffers index them: batch (C, A and B), M (C and A), N (C and B), K (reduction, A and B).
// B is the operand that traces back to a dequantize chain, else the operand whose own variable
// comes later in C's indices.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tenet/llm/matmul_shape.hpp"
#include "tenet/quant/quant_spec.hpp"
#include "tenet/tir/script.hpp"

namespace tenet::tir {

// How the weight is stored, read from the dequantize chain between the stored buffer and B.
struct WeightStorage {
  std::string buffer;         // the stored buffer ("lv397")
  std::string storage_dtype;  // "uint32", "int8", ...
  std::vector<Expr> storage_shape;
  int bits = 0;  // bits per value (from the mask: 15 → 4)
  // The type the stored bits are read as when it is not an integer: a narrow float stored as
  // such ("float8_e4m3fn") or reinterpreted from packed words (`T.reinterpret("float8_e4m3fn",
  // ..)`); "" for integer values.
  std::string value_dtype;
  int elems_per_word = 1;         // values per storage element (from the index `k // 8`)
  std::string pack_axis;          // "k", "n" or "" (not packed)
  std::int64_t group_size = 0;    // from the scale index `k // g`; 0 = no group
  std::string group_axis;         // "k", "n" or "" (the axis of group_size)
  std::int64_t group_size_n = 0;  // groups along N as well as K (`s[n // 128, k // 128]`)
  std::string scale_buffer;       // "" = no scale
  std::string scale_dtype;
  std::vector<Expr> scale_shape;
  std::string zero_buffer;  // a zero-point tensor, "" = none
  std::string zero_dtype;
  std::string zero_mode;           // "original": (q - z)·s, also q·s - z·s; "rescale": q·s - z
  std::optional<double> offset;    // implicit zero point: `q - 7`
  std::string group_index_buffer;  // AutoGPTQ-style g_idx: scale[g_idx[k], n]
  bool group_aligned = false;      // each group starts a new storage word
  std::string decode_function;     // BitBLAS: the extern decode call ("decode_i4s_to_f16")
};

struct MatmulKernel {
  std::string func;
  std::string block;
  int line = 0;                                                 // the matmul block's line
  std::vector<std::string> batch_vars, m_vars, n_vars, k_vars;  // block variables by role
  std::vector<Expr> batch_extents, m_extents, n_extents, k_extents;
  std::string a_buffer, b_buffer, c_buffer;  // the block's own operands
  std::string output_buffer;                 // the epilogue's last output (c_buffer without one)
  llm::Layout layout = llm::Layout::kNT;
  workload::OperandRole b_operand = workload::OperandRole::kWeight;
  std::string a_dtype, b_dtype, accumulate_dtype, output_dtype;  // TVM spellings
  std::optional<WeightStorage> storage;  // present when B is dequantized from storage
  std::vector<std::string> epilogue;     // "add", "multiply", "cast", "silu", ...
  std::vector<std::string> symbols;      // symbolic sizes the kernel's extents use (sorted)
  // Of those, the ones the function never declares (used in a shape without `n = T.int64()`):
  // name → where it is first used ("the shape of buffer 'x' (line 7)").
  std::map<std::string, std::string> undeclared;
  std::vector<std::string> approximations;  // non-affine indices (over-approximated accesses)
  // A tensorized block: the intrinsic call (`T.tvm_mma_sync`, `T.ptx_mma`, ...) whose tile
  // multiplies the block variables' extents; "" for a scalar update.
  std::string intrinsic;
  // A gathered (MoE) weight `w[indptr[e], n, k]`: the index buffer and the extent of the
  // weight's expert dimension (a constant or a symbol to bind).
  std::string expert_index_buffer;
  std::optional<Expr> experts;
  // The block computes one tile at a run-time offset (`X[m_offset + i, k]`, MLC-LLM's group
  // GEMM): its sizes are the buffers' dimensions, not the block variables' extents.
  bool runtime_tile = false;
};

struct Recognition {
  std::vector<MatmulKernel> kernels;
  std::vector<Skipped> skipped;  // the module's unreadable functions and every function without
                                 // a matmul or with an unsupported construct
};

// All matmul kernels of the module (or of the function named `func`; InputError(unknown-name)
// if there is none). Never throws for a function it cannot analyse: it is listed in `skipped`.
Recognition find_matmuls(const Module& module, const std::string& func = "");

using SymbolValues = std::map<std::string, std::int64_t>;

// "seq_len=512,n=128" → values; InputError(parse) at `option` for a malformed item.
SymbolValues parse_bindings(const std::string& text, const std::string& option = "--bind");

// A kernel with every symbolic size given a value.
struct BoundKernel {
  MatmulKernel kernel;
  SymbolValues symbols;    // the values of kernel.symbols
  llm::MatmulShape shape;  // name "func/block"; batch, M, N, K; layout; epilogue; dtypes
  std::optional<quant::QuantSpec> quant;  // "auto": from the dequantize chain (or plain dtypes)
  std::vector<std::int64_t> scale_shape;  // the scale tensor's shape after binding
  std::int64_t experts = 0;               // a gathered MoE weight: its expert count, else 0
};

// Throws InputError(missing-field) naming an unbound symbol, InputError(range) for an extent
// < 1, InputError(overflow) when a product does not fit 64 bits. Values for names the kernel
// does not use are ignored (the CLI checks them against the whole module).
BoundKernel bind(const MatmulKernel& kernel, const SymbolValues& symbols);

// The scheme a bound kernel's structure implies: `quant` "auto" (see docs/tir.md#quant-auto).
quant::QuantSpec auto_quant(const MatmulKernel& kernel);

// The preset (configs/quant) whose operands, accumulator and dequantization equal `spec`'s, or
// "" when none does. When several do (q4f16_0 and q4f16_1 differ only in the weight layout),
// the layout picks MLC-LLM's suffix: _1 for NT (N×K storage), _0 for NN.
std::string matching_preset(const quant::QuantSpec& spec,
                            std::optional<llm::Layout> layout = std::nullopt);

}  // namespace tenet::tir
