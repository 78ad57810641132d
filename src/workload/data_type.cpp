#include "tenet/workload/data_type.hpp"

#include <fmt/format.h>

#include <ostream>
#include <regex>
#include <utility>

#include "tenet/error.hpp"

namespace tenet::workload {
namespace {

constexpr int kMaxBits = 32;

const char* const kAcceptedForms =
    "int<b>, uint<b> (b in 1..32), fp32, fp16, bf16, fp8_e4m3, fp8_e5m2, fp<b>_e<E>m<M>, nf4 "
    "(aliases: float32, float16, half, bfloat16, float8_e4m3fn, float8_e4m3, e4m3, float8_e5m2, "
    "e5m2, e4m3_float8, e5m2_float8, float4_e2m1fn)";

void require_width(int bits, const char* what) {  // `what` as a literal: no string per type
  if (bits < 1 || bits > kMaxBits)
    throw InputError(
        error_code::kRange, "", "",
        fmt::format("expected a bit width in [1, {}] for {}, got {}", kMaxBits, what, bits));
}

const std::pair<const char*, DataType (*)()> kAliases[] = {
    {"fp32", DataType::fp32},
    {"float32", DataType::fp32},
    {"fp16", DataType::fp16},
    {"float16", DataType::fp16},
    {"half", DataType::fp16},
    {"bf16", DataType::bf16},
    {"bfloat16", DataType::bf16},
    {"fp8_e4m3", DataType::fp8_e4m3},
    {"float8_e4m3fn", DataType::fp8_e4m3},
    {"float8_e4m3", DataType::fp8_e4m3},
    {"fp8_e4m3fn", DataType::fp8_e4m3},
    {"e4m3", DataType::fp8_e4m3},
    {"fp8_e5m2", DataType::fp8_e5m2},
    {"float8_e5m2", DataType::fp8_e5m2},
    {"e5m2", DataType::fp8_e5m2},
    {"e4m3_float8", DataType::fp8_e4m3},
    {"e5m2_float8", DataType::fp8_e5m2},
    {"nf4", DataType::nf4},
    {"float4_e2m1fn", [] { return DataType::floating(2, 1); }},
};

int to_width(const std::string& digits) {
  if (digits.size() > 4) return kMaxBits + 1;  // clearly out of range, no overflow
  return std::stoi(digits);
}

DataType parse_unlocated(const std::string& text) {
  for (const auto& [name, make] : kAliases)
    if (text == name) return make();
  static const std::regex integer("(u?)int([0-9]+)");
  static const std::regex minifloat("fp([0-9]+)_e([0-9]+)m([0-9]+)");
  std::smatch m;
  if (std::regex_match(text, m, integer)) {
    const int bits = to_width(m[2].str());
    return m[1].length() ? DataType::unsigned_int(bits) : DataType::signed_int(bits);
  }
  if (std::regex_match(text, m, minifloat)) {
    const int bits = to_width(m[1].str()), e = to_width(m[2].str()), mant = to_width(m[3].str());
    if (1 + e + mant != bits)
      throw InputError(error_code::kRange, "", "",
                       fmt::format("\"{}\": 1 sign + {} exponent + {} mantissa bits is not {}",
                                   text, e, mant, bits));
    return DataType::floating(e, mant);
  }
  throw InputError(
      error_code::kUnknownName, "", "",
      fmt::format("unknown number format \"{}\", expected one of {}", text, kAcceptedForms));
}

}  // namespace

const char* to_string(NumberFormat f) {
  switch (f) {
    case NumberFormat::kInt:
      return "int";
    case NumberFormat::kUint:
      return "uint";
    case NumberFormat::kFloat:
      return "fp";
    case NumberFormat::kNormalFloat:
      return "nf";
  }
  return "?";
}

DataType DataType::signed_int(int bits) {
  require_width(bits, "a signed integer");
  return DataType(NumberFormat::kInt, bits, 0);
}

DataType DataType::unsigned_int(int bits) {
  require_width(bits, "an unsigned integer");
  return DataType(NumberFormat::kUint, bits, 0);
}

DataType DataType::floating(int exponent_bits, int mantissa_bits) {
  if (exponent_bits < 1 || mantissa_bits < 0)
    throw InputError(error_code::kRange, "", "",
                     fmt::format("a float needs >= 1 exponent and >= 0 mantissa bits, got e{}m{}",
                                 exponent_bits, mantissa_bits));
  const int bits = 1 + exponent_bits + mantissa_bits;
  require_width(bits, "a float");
  return DataType(NumberFormat::kFloat, bits, exponent_bits);
}

DataType DataType::nf4() { return DataType(NumberFormat::kNormalFloat, 4, 0); }

int DataType::mantissa_bits() const { return is_float() ? bits_ - 1 - exponent_bits_ : 0; }

bool DataType::is_model_float() const {
  return *this == fp32() || *this == fp16() || *this == bf16();
}

std::string to_string(const DataType& t) {
  switch (t.format()) {
    case NumberFormat::kInt:
      return fmt::format("int{}", t.bits());
    case NumberFormat::kUint:
      return fmt::format("uint{}", t.bits());
    case NumberFormat::kNormalFloat:
      return fmt::format("nf{}", t.bits());
    case NumberFormat::kFloat:
      break;
  }
  if (t == DataType::fp32()) return "fp32";
  if (t == DataType::fp16()) return "fp16";
  if (t == DataType::bf16()) return "bf16";
  return fmt::format("fp{}_e{}m{}", t.bits(), t.exponent_bits(), t.mantissa_bits());
}

std::ostream& operator<<(std::ostream& os, const DataType& t) { return os << to_string(t); }

DataType parse_data_type(const std::string& text, const std::string& file,
                         const std::string& where) {
  try {
    return parse_unlocated(text);
  } catch (const InputError& e) {
    throw e.located(file, where);
  }
}

}  // namespace tenet::workload
