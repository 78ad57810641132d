// Helpers shared by the io tests.
#pragma once

#include <isl/cpp.h>

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

#include "input_error_of.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

namespace io_test {

inline std::string data(const std::string& relative) {
  return std::string(TENET_TEST_DATA_DIR) + "/io/" + relative;
}

inline isl::set set_of(const std::string& text) {
  return isl::set(tenet::poly::thread_context().get(), text);
}
inline isl::map map_of(const std::string& text) {
  return isl::map(tenet::poly::thread_context().get(), text);
}

using tenet::test::error_of;

}  // namespace io_test
