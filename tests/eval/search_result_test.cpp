// The product stage takes the tiling search's Result of the tiling it chose
// (hw::TilingSearchOptions::result) instead of evaluating it again: eval::evaluate with auto
// tiling gives the same product and cost, field for field, as with that tiling given (the
// product stage then runs hw::evaluate_gemm itself), quantized or not.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;

TEST_CASE("auto tiling gives the product of its tiling given (the search's Result reused)",
          "[eval][tiling][search_result]") {
  struct Case {
    const char* preset;
    long long m, n, k;
    mapping::Dataflow dataflow;
    const char* scheme;  // nullptr: unquantized (16-bit operands, 8-bit when `int8`)
    bool int8 = false;
  };
  const std::vector<Case> cases{
      {"scalable-32x32", 2048, 4096, 4096, mapping::Dataflow::kInputStationary, "q4f16_1"},
      {"scalable-32x32", 1, 4096, 11008, mapping::Dataflow::kOutputStationary, "q4f16_1"},
      {"scalable-32x32", 300, 1000, 700, mapping::Dataflow::kWeightStationary, nullptr},
      {"systolic-128x128", 512, 128, 2048, mapping::Dataflow::kOutputStationary, nullptr},
      {"tpu-v6e", 128, 4096, 4096, mapping::Dataflow::kWeightStationary, "q4f16_1"},
      {"sauria-int8-8x16", 64, 512, 768, mapping::Dataflow::kOutputStationary, nullptr, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.preset, c.m, c.n, c.k, mapping::to_string(c.dataflow), c.scheme ? c.scheme : "-");
    eval::Request r;
    r.accelerator =
        std::make_shared<const arch::Accelerator>(arch::load_accelerator_preset(c.preset));
    if (c.scheme) r.scheme = std::make_shared<const quant::QuantSpec>(quant::load_preset(c.scheme));
    r.matmul.name = "layer", r.matmul.m = c.m, r.matmul.n = c.n, r.matmul.k = c.k;
    r.dataflow = c.dataflow;
    if (c.int8) r.bits = {8, 8, 32};
    const eval::Evaluation automatic = eval::evaluate(r);
    r.tiling = automatic.tiling();
    const eval::Evaluation given = eval::evaluate(r);
    const quant::ProductResult& a = automatic.systolic().product;
    const quant::ProductResult& g = given.systolic().product;
    CHECK(a.hw == g.hw);
    CHECK(a.hw == hw::evaluate_gemm(*r.accelerator, automatic.problem, r.dataflow,
                                    automatic.tiling(), r.hw));
    CHECK(a.total_cycles == g.total_cycles);
    CHECK(a.dram_bytes == g.dram_bytes);
    CHECK(a.energy.total() == g.energy.total());
    CHECK(automatic.call_cost() == given.call_cost());
  }
}
