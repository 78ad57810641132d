// 64-bit arithmetic that reports overflow as an InputError instead of wrapping (internal).
#pragma once

#include <cstdint>
#include <string>

#include "tenet/error.hpp"

namespace tenet::llm::detail {

// a·b, or InputError(overflow, file, where, "<what> = a·b does not fit 64 bits").
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string& file,
                                const std::string& where, const std::string& what) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) {
    throw InputError(
        error_code::kOverflow, file, where,
        what + " = " + std::to_string(a) + "·" + std::to_string(b) + " does not fit in 64 bits");
  }
  return r;
}

inline std::int64_t checked_add(std::int64_t a, std::int64_t b, const std::string& file,
                                const std::string& where, const std::string& what) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) {
    throw InputError(
        error_code::kOverflow, file, where,
        what + " = " + std::to_string(a) + "+" + std::to_string(b) + " does not fit in 64 bits");
  }
  return r;
}

}  // namespace tenet::llm::detail
