// An MLP run as its matmuls one after another (docs/model.md#fused-kernels, "an MLP too large to
// fuse"): when the accelerator's compiler keeps an MLP's weights on chip only up to
// arch::Chip::mlp_resident_bytes ("fusion": {"mlp_resident_bytes"}) and the MLP's weights exceed
// it, the one call runs the up matmul (the activation applied by the vector unit on its output),
// the intermediate goes through DRAM, then the down matmul. Each matmul is a whole GEMM costed by
// eval::evaluate (the chip's auto tiling, every hardware term), the call's launch paid once.
#pragma once

#include <cstdint>
#include <string>

#include "tenet/eval/kernel.hpp"
#include "tenet/fused/result.hpp"
#include "tenet/quant/quant_hw.hpp"

namespace tenet::eval::detail {

// Bytes of the tensors of one product named A..., B... or C... ("B", "B.scale", "B.zero") as it
// moves them, in storage format.
std::int64_t operand_bytes(const quant::ProductResult& p, char operand);

// The activations' format: the scheme's, else the width of an unquantized GEMM's A.
int activation_bits(const Request& r);

// Bytes of the MLP's weights in storage format (scale and zero tensors included): W1 and W2 as
// eval::evaluate stores them, and the biases at the activations' format.
std::int64_t ffn_weight_bytes(const KernelRequest& request, const fused::FfnKernel& k);

// Whether `request` (an MLP) runs as its matmuls: the accelerator sets mlp_resident_bytes and the
// weights exceed it. False for attention and for every accelerator without the key.
bool runs_as_matmuls(const KernelRequest& request);

// The request eval::evaluate costs one matmul of the sequence with: "up" (S x w1_cols x H, B = W1)
// or "down" (S x H x I, B = W2); the base request's scheme, dataflow, tiling objective and
// hardware options, the tiling searched, no kernel launch (the call pays it once).
Request ffn_matmul_request(const KernelRequest& request, const std::string& stage);

// The MLP as its matmuls (runs_as_matmuls): cycles = up + down (+ the activation when it does not
// overlap the up matmul) + the biases' link time + one launch; placement "matmuls".
fused::KernelResult evaluate_ffn_sequence(const KernelRequest& request);

}  // namespace tenet::eval::detail
