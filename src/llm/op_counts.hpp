// Elementary operations per element of the vector operators (docs/generate.md#operators): one
// table for the generator's operator list (vector_ops.cpp) and the operators named by logged
// kernels (kernel_name.cpp). Internal to src/llm.
#pragma once

#include <cstdint>

namespace tenet::llm::detail {

constexpr std::int64_t kRmsNormOps = 4;    // square, accumulate, scale by 1/rms, by weight
constexpr std::int64_t kLayerNormOps = 7;  // + mean, subtract, bias
constexpr std::int64_t kRotaryOps = 3;     // x·cos + rot(x)·sin
constexpr std::int64_t kSoftmaxOps = 5;    // mask/max, subtract, exp, sum, scale
constexpr std::int64_t kSiluOps = 4;       // negate, exp, add, divide
constexpr std::int64_t kSiluGateOps = kSiluOps + 1;  // SiLU × gate
constexpr std::int64_t kGeluOps = 8;                 // tanh approximation
constexpr std::int64_t kSamplingOps = 5;             // softmax over the vocabulary + top-p compare

}  // namespace tenet::llm::detail
