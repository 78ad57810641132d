#include "tenet/workload/data_type.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "tenet/error.hpp"

using namespace tenet;
using namespace tenet::workload;

TEST_CASE("data types: canonical names round-trip", "[quant][dtype]") {
  for (const char* name : {"int1", "int3", "int4", "int8", "int32", "uint4", "uint8", "fp32",
                           "fp16", "bf16", "fp8_e4m3", "fp8_e5m2", "fp4_e2m1", "fp6_e3m2", "nf4"}) {
    const DataType t = parse_data_type(name);
    CHECK(to_string(t) == name);
    CHECK(parse_data_type(to_string(t)) == t);
  }
}

TEST_CASE("data types: widths and families", "[quant][dtype]") {
  CHECK(parse_data_type("int3").bits() == 3);
  CHECK(parse_data_type("int3").format() == NumberFormat::kInt);
  CHECK(parse_data_type("uint4").format() == NumberFormat::kUint);
  CHECK(parse_data_type("bf16").exponent_bits() == 8);
  CHECK(parse_data_type("bf16").mantissa_bits() == 7);
  CHECK(parse_data_type("fp8_e4m3").mantissa_bits() == 3);
  CHECK(parse_data_type("nf4").bits() == 4);
  CHECK(parse_data_type("fp16").is_model_float());
  CHECK_FALSE(parse_data_type("fp8_e5m2").is_model_float());
  CHECK(DataType::fp16() != DataType::bf16());  // same width, different format
  std::ostringstream os;
  os << DataType::fp8_e4m3();
  CHECK(os.str() == "fp8_e4m3");
}

TEST_CASE("data types: aliases used by MLC, BitBLAS and PyTorch", "[quant][dtype]") {
  CHECK(parse_data_type("float16") == DataType::fp16());
  CHECK(parse_data_type("half") == DataType::fp16());
  CHECK(parse_data_type("bfloat16") == DataType::bf16());
  CHECK(parse_data_type("float32") == DataType::fp32());
  CHECK(parse_data_type("float8_e4m3fn") == DataType::fp8_e4m3());
  CHECK(parse_data_type("e4m3_float8") == DataType::fp8_e4m3());
  CHECK(parse_data_type("e5m2") == DataType::fp8_e5m2());
  CHECK(parse_data_type("float4_e2m1fn") == DataType::floating(2, 1));
}

TEST_CASE("data types: bad names and widths", "[quant][dtype][errors]") {
  auto code_of = [](const std::string& text) {
    try {
      parse_data_type(text, "f.json", "/weights/dtype");
    } catch (const InputError& e) {
      CHECK(e.file() == "f.json");
      CHECK(e.where() == "/weights/dtype");
      return e.code();
    }
    FAIL("no error for " << text);
    return std::string();
  };
  CHECK(code_of("int0") == error_code::kRange);
  CHECK(code_of("int33") == error_code::kRange);
  CHECK(code_of("uint99999999") == error_code::kRange);
  CHECK(code_of("fp8") == error_code::kUnknownName);
  CHECK(code_of("fp8_e4m4") == error_code::kRange);  // 1 + 4 + 4 != 8
  CHECK(code_of("float") == error_code::kUnknownName);
  CHECK(code_of("") == error_code::kUnknownName);
  try {
    parse_data_type("int");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.message(), Catch::Contains("fp8_e4m3"));  // lists the accepted forms
  }
}
