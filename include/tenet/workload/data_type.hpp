// A number format with its bit width: int4, uint8, fp16, bf16, fp8_e4m3, nf4, ... The one
// precision type: operand formats of a workload and of a quantization scheme, and the MAC
// precisions of an accelerator (arch::AcceleratorSpec::precisions) are all DataTypes.
//
// Canonical names (to_string / parse_data_type):
//   int<b>, uint<b>          b in [1, 32]        two's complement / unsigned integers
//   fp32, fp16, bf16         IEEE binary32, binary16, bfloat16
//   fp8_e4m3, fp8_e5m2       OCP FP8 (e4m3 is the "fn" variant: no infinities)
//   fp<b>_e<E>m<M>           any other minifloat with 1 + E + M = b (e.g. fp4_e2m1)
//   nf4                      4-bit NormalFloat (QLoRA): a 16-entry lookup table
// Aliases accepted by the parser: float32, float16, bfloat16, float8_e4m3fn, float8_e4m3,
// e4m3, float8_e5m2, e5m2, e4m3_float8, e5m2_float8 (BitBLAS), float4_e2m1fn, half.
#pragma once

#include <iosfwd>
#include <string>

namespace tenet::workload {

enum class NumberFormat { kInt, kUint, kFloat, kNormalFloat };
const char* to_string(NumberFormat f);  // "int", "uint", "fp", "nf"

class DataType {
 public:
  // fp16 by default. The factories throw InputError(range) (no file, no pointer) for widths
  // outside [1, 32] or a minifloat whose fields do not add up.
  DataType() : DataType(NumberFormat::kFloat, 16, 5) {}
  static DataType signed_int(int bits);
  static DataType unsigned_int(int bits);
  static DataType floating(int exponent_bits, int mantissa_bits);
  static DataType nf4();
  static DataType fp32() { return floating(8, 23); }
  static DataType fp16() { return floating(5, 10); }
  static DataType bf16() { return floating(8, 7); }
  static DataType fp8_e4m3() { return floating(4, 3); }
  static DataType fp8_e5m2() { return floating(5, 2); }

  NumberFormat format() const { return format_; }
  int bits() const { return bits_; }
  int exponent_bits() const { return exponent_bits_; }  // 0 unless floating
  int mantissa_bits() const;                            // 0 unless floating
  bool is_integer() const {
    return format_ == NumberFormat::kInt || format_ == NumberFormat::kUint;
  }
  bool is_float() const { return format_ == NumberFormat::kFloat; }
  // A format a model is usually kept in (fp32, fp16, bf16): not a quantized format.
  bool is_model_float() const;

  friend bool operator==(const DataType& a, const DataType& b) {
    return a.format_ == b.format_ && a.bits_ == b.bits_ && a.exponent_bits_ == b.exponent_bits_;
  }
  friend bool operator!=(const DataType& a, const DataType& b) { return !(a == b); }
  // A total order (format, width, exponent width) so types can key maps (MAC rates per precision).
  friend bool operator<(const DataType& a, const DataType& b) {
    if (a.format_ != b.format_) return a.format_ < b.format_;
    if (a.bits_ != b.bits_) return a.bits_ < b.bits_;
    return a.exponent_bits_ < b.exponent_bits_;
  }
  friend std::ostream& operator<<(std::ostream& os, const DataType& t);

 private:
  DataType(NumberFormat format, int bits, int exponent_bits)
      : format_(format), bits_(bits), exponent_bits_(exponent_bits) {}
  NumberFormat format_;
  int bits_;
  int exponent_bits_;
};

std::string to_string(const DataType& t);  // canonical name, e.g. "int4", "fp8_e4m3"

// Parses a canonical name or an alias. Throws InputError(unknown-name) listing the accepted
// forms, or InputError(range) for a width outside [1, 32]; file and where are put in the error.
DataType parse_data_type(const std::string& text, const std::string& file = "",
                         const std::string& where = "");

}  // namespace tenet::workload
