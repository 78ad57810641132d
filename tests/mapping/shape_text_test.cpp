#include "mapping/shape_text.hpp"

#include <catch2/catch.hpp>

#include "io_test_util.hpp"

using namespace tenet;
using io_test::error_of;

TEST_CASE("GEMM and array shapes from the command line", "[io][cli-values]") {
  CHECK(mapping::parse_gemm_shape("37,1024,1024") == mapping::GemmShape{37, 1024, 1024});
  CHECK(mapping::parse_gemm_shape(" 1, 2 ,3") == mapping::GemmShape{1, 2, 3});
  CHECK(mapping::parse_gemm_shape("0,-4,5") ==
        mapping::GemmShape{0, -4, 5});  // rejected by the generator
  CHECK(mapping::parse_array_shape("16x16") == mapping::ArrayShape{16, 16});
  CHECK(mapping::parse_array_shape("4X8") == mapping::ArrayShape{4, 8});
  CHECK(mapping::parse_array_shape("2*3") == mapping::ArrayShape{2, 3});
  for (const char* bad : {"", "1,2", "1,2,3,4", "1,,3", "a,2,3", "1.5,2,3", "1,2,3x"})
    CHECK(error_of([&] { mapping::parse_gemm_shape(bad); }).code() == error_code::kParse);
  CHECK(error_of([] { mapping::parse_gemm_shape("1,99999999999999999999,3"); }).code() ==
        error_code::kOverflow);
  for (const char* bad : {"16", "16x", "x16", "16x16x2", "sixteen"})
    CHECK(error_of([&] { mapping::parse_array_shape(bad); }).code() == error_code::kParse);
}
