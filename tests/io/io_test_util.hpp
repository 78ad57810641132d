// Helpers shared by the io tests.
#pragma once

#include <isl/cpp.h>

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

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

template <typename F>
tenet::InputError error_of(F&& f) {
  try {
    f();
  } catch (const tenet::InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  throw std::logic_error("unreachable");
}

}  // namespace io_test
