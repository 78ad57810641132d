// Quantization spec JSON (docs/quantization.md): parse, then cost a small GEMM with weights and
// with a KV-cache B operand under it.
#include "fuzz_common.hpp"
#include "io/json_reader.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/input/spec.hpp"
#include "tenet/quant/quant_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tenet;
  static const arch::Accelerator acc = arch::load_accelerator_preset("systolic-16x16");
  fuzz::expect_contract([&] {
    const quant::QuantSpec spec = quant::parse_quant_spec(
        io::parse_json(fuzz::as_text(data, size), "quant.json"), "quant.json");
    for (workload::OperandRole b :
         {workload::OperandRole::kWeight, workload::OperandRole::kKvCache}) {
      llm::MatmulShape shape;
      shape.m = 9, shape.n = 130, shape.k = 257, shape.b_operand = b;
      fuzz::expect_contract([&] {
        fuzz::check_cost(
            fuzz::evaluate_cost(acc, mapping::Dataflow::kWeightStationary, spec, shape),
            "quant: 9x130x257");
      });
    }
  });
  return 0;
}
