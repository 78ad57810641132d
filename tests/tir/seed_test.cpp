// The seed's GPT-2 kernel (seed 000, debug-phase3.py) read from tests/data/tir/gpt2_phase3.py.
#include <catch2/catch.hpp>

#include "tenet/error.hpp"
#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"
#include "tir/tir_data.hpp"

using namespace tenet;

namespace {
using tenet_test::tir_data;
}  // namespace

TEST_CASE("tir: the seed's module reads, relax skipped", "[tir]") {
  const tir::Module m = tir::read_module(tir_data("gpt2_phase3.py"));
  REQUIRE(m.functions.size() == 3);
  CHECK(m.relax_functions == 1);
  CHECK(m.skipped.empty());
  const tir::PrimFunc* f = m.find_function("fused_fused_dequantize1_fused_NT_matmul6_add7_add8");
  REQUIRE(f);
  CHECK(f->line == 11);
  REQUIRE(f->symbols.size() == 1);
  CHECK(f->symbols[0].name == "seq_len");
  CHECK(f->symbols[0].dtype == "int64");
  CHECK(f->buffers.size() == 10);
  REQUIRE(f->blocks.size() == 5);
  CHECK(f->blocks[2].name == "NT_matmul");
  CHECK(f->blocks[2].iters.size() == 4);
  CHECK(f->blocks[2].iters[3].kind == 'R');
  CHECK(f->blocks[2].init.has_value());
}

TEST_CASE("tir: the seed's kernel bound at seq_len = 37 (issue 11 done-when)", "[tir]") {
  const tir::Module m = tir::read_module(tir_data("gpt2_phase3.py"));
  const tir::Recognition r =
      tir::find_matmuls(m, "fused_fused_dequantize1_fused_NT_matmul6_add7_add8");
  REQUIRE(r.kernels.size() == 1);
  CHECK(r.skipped.empty());
  const tir::MatmulKernel& k = r.kernels[0];
  CHECK(k.block == "NT_matmul");
  CHECK(k.line == 35);
  CHECK(k.batch_vars.empty());
  CHECK(k.m_vars == std::vector<std::string>{"v_i0", "v_i1"});
  CHECK(k.n_vars == std::vector<std::string>{"v_i2"});
  CHECK(k.k_vars == std::vector<std::string>{"v_k"});
  CHECK(k.symbols == std::vector<std::string>{"seq_len"});
  CHECK(k.a_buffer == "reshape195");
  CHECK(k.b_buffer == "dequantize_intermediate_intermediate");
  CHECK(k.output_buffer == "T_add_intermediate_1_intermediate");
  CHECK(k.epilogue == std::vector<std::string>{"add", "add"});
  CHECK(k.approximations.empty());
  REQUIRE(k.storage);
  const tir::WeightStorage& w = *k.storage;
  CHECK(w.buffer == "lv397");
  CHECK(w.storage_dtype == "uint32");
  CHECK(w.bits == 4);            // mask 15
  CHECK(w.elems_per_word == 8);  // lv397[n, k // 8]
  CHECK(w.pack_axis == "k");
  CHECK(w.group_size == 32);  // lv398[n, k // 32]
  CHECK(w.group_axis == "k");
  CHECK(w.scale_buffer == "lv398");
  CHECK(w.scale_dtype == "float16");
  CHECK(w.zero_buffer.empty());
  REQUIRE(w.offset);
  CHECK(*w.offset == 7);
  CHECK(w.group_index_buffer.empty());

  const tir::BoundKernel b = tir::bind(k, {{"seq_len", 37}});
  CHECK(b.shape.batch == 1);
  CHECK(b.shape.m == 37);
  CHECK(b.shape.n == 1024);
  CHECK(b.shape.k == 1024);
  CHECK(b.shape.layout == llm::Layout::kNT);
  CHECK(b.shape.b_operand == workload::OperandRole::kWeight);
  CHECK(b.shape.epilogue_ops == 2);
  CHECK(b.shape.weights_quantized == true);
  CHECK(b.scale_shape == std::vector<std::int64_t>{1024, 32});
  REQUIRE(b.quant);
  CHECK(b.quant->weights.dtype == quant::DataType::signed_int(4));
  REQUIRE(b.quant->weights.packing);
  CHECK(b.quant->weights.packing->storage_bits == 32);
  CHECK(b.quant->weights.packing->values_per_word == 8);
  CHECK(tir::matching_preset(*b.quant, b.shape.layout) == "q4f16_1");
  CHECK_THROWS_AS(tir::bind(k, {}), InputError);
}
