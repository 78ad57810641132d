// 64-bit arithmetic that reports overflow as an InputError instead of wrapping (internal): the
// llm spelling of the one checked-arithmetic helper (detail/checked_int.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "detail/checked_int.hpp"

namespace tenet::llm::detail {

// a·b, or InputError(overflow, file, where, "<what> = a·b does not fit 64 bits").
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string& file,
                                const std::string& where, const std::string& what) {
  return tenet::detail::checked_mul(a, b, {what, file, where});
}

inline std::int64_t checked_add(std::int64_t a, std::int64_t b, const std::string& file,
                                const std::string& where, const std::string& what) {
  return tenet::detail::checked_add(a, b, {what, file, where});
}

// ceil(a / b) for a >= 0, b > 0, without the overflow of (a + b - 1) / b.
inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0); }

}  // namespace tenet::llm::detail
