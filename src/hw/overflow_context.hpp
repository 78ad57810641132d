// Internal: the hardware model counts cycles, accesses and bytes in 64 bits; an overflow there
// comes from the user's sizes, so it is reported as an InputError naming the GEMM.
#pragma once

#include <string>

#include "tenet/error.hpp"
#include "tenet/hw/gemm_problem.hpp"

namespace tenet::hw::detail {

// Runs f(); an overflow error without a location is rethrown naming the GEMM's sizes.
template <typename F>
auto naming_gemm_on_overflow(const GemmProblem& problem, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    if (e.code() != error_code::kOverflow || !e.where().empty() || !e.file().empty()) throw;
    const mapping::GemmShape& s = problem.shape;
    throw InputError(e.code(), "", "",
                     "the GEMM M = " + std::to_string(s.m) + ", N = " + std::to_string(s.n) +
                         ", K = " + std::to_string(s.k) + " is too large for the hardware model: " +
                         e.message() + " (its tile, cycle and access counts are 64-bit)");
  }
}

}  // namespace tenet::hw::detail
