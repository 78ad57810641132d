// Architecture JSON (docs/hardware.md): parse, then cost a small odd GEMM on it.
#include "fuzz_common.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/quant/quant_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tenet;
  static const quant::QuantSpec fp16 = quant::load_preset("q0f16");
  fuzz::expect_contract([&] {
    const arch::Accelerator acc =
        arch::parse_accelerator_text(fuzz::as_text(data, size), "arch.json");
    llm::MatmulShape shape;
    shape.m = 17, shape.n = 19, shape.k = 23;
    for (mapping::Dataflow d :
         {mapping::Dataflow::kOutputStationary, mapping::Dataflow::kWeightStationary}) {
      fuzz::expect_contract(
          [&] { fuzz::check_cost(fuzz::evaluate_cost(acc, d, fp16, shape), "arch: 17x19x23"); });
    }
  });
  return 0;
}
