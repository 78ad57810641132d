// A table row per kernel: what a reader derives by hand from a fixture's text (batch, M, N, K,
// layout, operands, epilogue, storage), checked against find_matmuls + bind.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"
#include "tir/tir_data.hpp"

namespace tenet_test::tir_cases {

using namespace tenet;

using L = llm::Layout;
using B = workload::OperandRole;

// A quantized weight's storage as a reader derives it by hand (buffer "" = not quantized).
struct Storage {
  const char* buffer = "";
  const char* dtype = "";
  int bits = 0, per_word = 1;
  const char* pack_axis = "";
  std::int64_t group = 0;  // along K (or along N when group_axis is "n")
  const char* group_axis = "";
  std::int64_t group_n = 0;  // along N as well as K
  const char* zero = "";     // zero-point buffer
  const char* zero_mode = "";
  double offset = -1;  // -1: none
  const char* decode_function = "";

  Storage groups(std::int64_t size, const char* axis = "k", std::int64_t n = 0) const {
    Storage s = *this;
    s.group = size, s.group_axis = axis, s.group_n = n;
    return s;
  }
  Storage zeros(const char* buffer_name, const char* mode) const {
    Storage s = *this;
    s.zero = buffer_name, s.zero_mode = mode;
    return s;
  }
  Storage minus(double value) const {
    Storage s = *this;
    s.offset = value;
    return s;
  }
  Storage decoded_by(const char* function) const {
    Storage s = *this;
    s.decode_function = function;
    return s;
  }
};

// `bits`-bit values stored `per_word` to a `dtype` word of `buffer`, packed along `axis`.
inline Storage packed(const char* buffer, const char* dtype, int bits, int per_word,
                      const char* axis = "") {
  Storage s;
  s.buffer = buffer, s.dtype = dtype, s.bits = bits, s.per_word = per_word, s.pack_axis = axis;
  return s;
}

// What a reader derives by hand: one row of a test's table.
struct Case {
  const char* file;
  const char* func;
  tir::SymbolValues bind;
  std::int64_t batch, m, n, k;
  L layout;
  B b_operand;
  const char* accumulate;
  const char* output;
  std::vector<std::string> epilogue;
  Storage storage = {};
  const char* preset = "";  // matching_preset of the auto scheme
  std::int64_t experts = 0;
  const char* intrinsic = "";
};

inline tir::BoundKernel check(const Case& c) {
  INFO(c.file << " " << c.func);
  const tir::Module module = tir::read_module(tenet_test::tir_data(c.file));
  const tir::Recognition r = tir::find_matmuls(module, c.func);
  for (const tir::Skipped& s : r.skipped) INFO("skipped: " << s.reason << " at line " << s.line);
  REQUIRE(r.kernels.size() == 1);
  CHECK(r.skipped.empty());
  const tir::MatmulKernel& k = r.kernels[0];
  const tir::BoundKernel b = tir::bind(k, c.bind);
  CHECK(b.shape.batch == c.batch);
  CHECK(b.shape.m == c.m);
  CHECK(b.shape.n == c.n);
  CHECK(b.shape.k == c.k);
  CHECK(b.shape.layout == c.layout);
  CHECK(b.shape.b_operand == c.b_operand);
  CHECK(k.accumulate_dtype == c.accumulate);
  CHECK(k.output_dtype == c.output);
  CHECK(k.epilogue == c.epilogue);
  CHECK(b.experts == c.experts);
  CHECK(k.intrinsic == c.intrinsic);
  REQUIRE(b.quant);
  CHECK(tir::matching_preset(*b.quant, k.layout) == c.preset);
  const Storage& want = c.storage;
  CHECK(b.shape.weights_quantized == (std::string(want.buffer) != ""));
  if (std::string(want.buffer).empty()) {
    CHECK_FALSE(k.storage);
    return b;
  }
  REQUIRE(k.storage);
  const tir::WeightStorage& w = *k.storage;
  CHECK(w.buffer == want.buffer);
  CHECK(w.storage_dtype == want.dtype);
  CHECK(w.bits == want.bits);
  CHECK(w.elems_per_word == want.per_word);
  CHECK(w.pack_axis == want.pack_axis);
  CHECK(w.group_size == want.group);
  CHECK(w.group_axis == want.group_axis);
  CHECK(w.group_size_n == want.group_n);
  CHECK(w.zero_buffer == want.zero);
  CHECK(w.zero_mode == want.zero_mode);
  CHECK(w.offset.has_value() == (want.offset >= 0));
  if (w.offset) CHECK(*w.offset == want.offset);
  CHECK(w.decode_function == want.decode_function);
  CHECK(b.quant->weights.scales.size() == (w.scale_buffer.empty() ? 0u : 1u));
  if (!w.zero_buffer.empty()) {
    REQUIRE(b.quant->weights.scales.size() == 1);
    CHECK(b.quant->weights.scales[0].zero.has_value());
  }
  return b;
}

// Every row of a test's table, in order.
template <std::size_t N>
std::vector<tir::BoundKernel> check_all(const Case (&cases)[N]) {
  std::vector<tir::BoundKernel> out;
  for (const Case& c : cases) out.push_back(check(c));
  return out;
}

}  // namespace tenet_test::tir_cases
