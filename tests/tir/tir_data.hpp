// The TVMScript fixtures of the tir tests.
#pragma once

#include <string>

namespace tenet_test {

// The path of tests/data/tir/NAME.
inline std::string tir_data(const std::string& name) {
  return std::string(TENET_TEST_DATA_DIR) + "/tir/" + name;
}

}  // namespace tenet_test
