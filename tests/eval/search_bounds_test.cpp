// The physical limits computed once per evaluation: the bounds a tiling search leaves in
// TilingSearchOptions::bounds are hw::compute_bounds of its arguments, a search that does not
// compute them leaves the slot as it was, and eval::evaluate reports the same bounds with auto
// tiling (the search's) as with the chosen tiling given (its own call).
#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/hw/bounds.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;

namespace {

struct Case {
  const char* preset;
  long long m, n, k;
  mapping::Dataflow dataflow;
};

llm::MatmulShape shape_of(const Case& c) {
  llm::MatmulShape s;
  s.name = "layer", s.m = c.m, s.n = c.n, s.k = c.k;
  return s;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all{
      {"scalable-32x32", 2048, 4096, 4096, mapping::Dataflow::kInputStationary},
      {"scalable-32x32", 2048, 12288, 4096, mapping::Dataflow::kWeightStationary},
      {"scalable-32x32", 1, 4096, 11008, mapping::Dataflow::kOutputStationary},
      {"systolic-128x128", 512, 128, 2048, mapping::Dataflow::kOutputStationary},
      {"tpu-v6e", 128, 4096, 4096, mapping::Dataflow::kWeightStationary},
  };
  return all;
}

}  // namespace

TEST_CASE("the bounds a tiling search leaves are compute_bounds of its arguments",
          "[eval][tiling][bounds]") {
  const quant::QuantSpec scheme = quant::load_preset("q4f16_1");
  int set = 0;
  for (const Case& c : cases()) {
    CAPTURE(c.preset, c.m, c.n, c.k, mapping::to_string(c.dataflow));
    const arch::Accelerator acc = arch::load_accelerator_preset(c.preset);
    const eval::AppliedScheme applied = eval::apply_quantization(scheme, shape_of(c));
    const hw::GemmProblem problem =
        quant::make_quant_problem(acc, {c.m, c.n, c.k}, applied.spec, applied.apply);
    const hw::Bounds expected = hw::compute_bounds(acc, problem, {});
    std::optional<hw::Bounds> bounds;
    hw::choose_tiling(acc, problem, c.dataflow, {},
                      {hw::TilingObjective::kLatency, nullptr, &bounds});
    if (bounds) {
      ++set;
      CHECK(*bounds == expected);
    }
    // the least-traffic search does not compute them: the slot is left as it was
    std::optional<hw::Bounds> untouched;
    hw::choose_tiling(acc, problem, c.dataflow, {},
                      {hw::TilingObjective::kDramBytes, nullptr, &untouched});
    CHECK_FALSE(untouched);
  }
  CHECK(set == static_cast<int>(cases().size()));  // (the latency rule's cap asks for them)
}

TEST_CASE("eval::evaluate reports the same bounds with auto tiling as with the tiling given",
          "[eval][tiling][bounds]") {
  for (const Case& c : cases()) {
    CAPTURE(c.preset, c.m, c.n, c.k, mapping::to_string(c.dataflow));
    eval::Request r;
    r.accelerator =
        std::make_shared<const arch::Accelerator>(arch::load_accelerator_preset(c.preset));
    r.scheme = std::make_shared<const quant::QuantSpec>(quant::load_preset("q4f16_1"));
    r.matmul = shape_of(c);
    r.dataflow = c.dataflow;
    const eval::Evaluation automatic = eval::evaluate(r);
    r.tiling = automatic.tiling();
    const eval::Evaluation given = eval::evaluate(r);
    CHECK(automatic.bounds() == given.bounds());
    CHECK(automatic.bounds() == hw::compute_bounds(*r.accelerator, automatic.problem, r.hw));
  }
}
