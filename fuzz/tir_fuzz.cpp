// TVMScript modules (docs/tir.md): parse, find the matmul kernels, bind every symbolic size to a
// small value, derive the implied scheme and cost the first kernel on a preset.
#include <algorithm>

#include "fuzz_common.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/quant/quant_json.hpp"
#include "tenet/tir/matmul.hpp"
#include "tenet/tir/script.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tenet;
  static const arch::Accelerator acc = arch::load_accelerator_preset("systolic-16x16");
  static const quant::QuantSpec fp16 = quant::load_preset("q0f16");
  fuzz::expect_contract([&] {
    const tir::Module module = tir::parse_module(fuzz::as_text(data, size), "kernel.py");
    const tir::Recognition found = tir::find_matmuls(module);
    for (std::size_t i = 0; i < std::min<std::size_t>(found.kernels.size(), 4); ++i)
      fuzz::expect_contract([&] {
        tir::SymbolValues values;
        for (const std::string& s : found.kernels[i].symbols) values[s] = 3;
        const tir::BoundKernel b = tir::bind(found.kernels[i], values);
        fuzz::check(b.shape.batch >= 1 && b.shape.m >= 1 && b.shape.n >= 1 && b.shape.k >= 1,
                    "tir: a bound kernel with a size < 1");
        if (i == 0)
          fuzz::check_cost(fuzz::evaluate_cost(acc, mapping::Dataflow::kOutputStationary,
                                               b.quant ? *b.quant : fp16, b.shape),
                           "tir: " + b.shape.name);
      });
  });
  return 0;
}
