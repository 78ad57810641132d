// error_of(f): runs f, which must throw tenet::InputError, and returns that error so a test can
// check its code, file and field. Fails the test if f returns normally.
#pragma once

#include <catch2/catch.hpp>
#include <stdexcept>

#include "tenet/error.hpp"

namespace tenet::test {

template <typename F>
InputError error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  throw std::logic_error("unreachable");
}

}  // namespace tenet::test
