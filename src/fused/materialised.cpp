// Materialised attention scores: padded rows, the whole-tensor footprint and the back-to-back
// matmul stage (fused/materialised.hpp; docs/model.md#fused-kernels).
#include "fused/materialised.hpp"

#include <algorithm>
#include <cmath>

namespace tenet::fused {
namespace {

constexpr std::int64_t kScoreBytes = 4;  // S in fp32, as the array's accumulators produce it

}  // namespace

std::int64_t padded_row(const arch::Accelerator& acc, std::int64_t elements) {
  const std::int64_t row = std::max<long long>(1, acc.spec().global_buffer.row_elements);
  return (elements + row - 1) / row * row;
}

std::int64_t padded_row_bytes(const arch::Accelerator& acc, std::int64_t bytes, std::int64_t row) {
  if (row <= 0) return bytes;
  const __int128 padded = static_cast<__int128>(bytes) * padded_row(acc, row);
  return static_cast<std::int64_t>((padded + row - 1) / row);
}

std::int64_t materialised_scores_bytes(const AttentionKernel& a, const arch::Accelerator& acc,
                                       int activation_bits) {
  const std::int64_t elements = a.hq * a.q * padded_row(acc, a.kv);
  const std::int64_t p_bits = elements * activation_bits;
  return elements * kScoreBytes + p_bits / 8 + (p_bits % 8 != 0);
}

}  // namespace tenet::fused
