// sweep::resolve_search: the search's settings resolve through eval::Settings and
// eval/defaults.hpp (the CLI and Python pass text; nothing is defaulted twice), every objective is
// accepted, and errors name the field.
#include "sweep/search_settings.hpp"

#include <catch2/catch.hpp>

#include "input_error_of.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/eval/defaults.hpp"

using namespace tenet;

TEST_CASE("search settings left empty are the library's defaults", "[search][defaults]") {
  const sweep::ResolvedSearch r = sweep::resolve_search({});
  CHECK(r.request.accelerator->name() ==
        arch::load_accelerator_preset(eval::defaults::kAccelerator).name());
  CHECK(r.request.scheme->name == eval::defaults::kScheme);
  CHECK(r.options.objective == eval::defaults::kTilingObjective);
  CHECK(r.options.dataflows ==
        std::vector<mapping::Dataflow>(eval::defaults::kSearchDataflows.begin(),
                                       eval::defaults::kSearchDataflows.end()));
  CHECK(r.options.exact_front);
  CHECK(r.request.dequant_rate.elements_per_cycle == 0);
  CHECK(r.request.hw.edge_transfers == eval::defaults::kEdgeTransfers);
}

TEST_CASE("every tiling objective is a search objective", "[search][defaults]") {
  for (hw::TilingObjective o : {hw::TilingObjective::kLatency, hw::TilingObjective::kEnergy,
                                hw::TilingObjective::kDramBytes, hw::TilingObjective::kEdp}) {
    sweep::SearchSettings s;
    s.objective = hw::to_string(o);
    s.dataflows = {"ws", "is"};
    s.eval.arch = "systolic-8x8";
    s.eval.quant = "q4f16_1";
    s.eval.dequant_rate = 4;
    const sweep::ResolvedSearch r = sweep::resolve_search(s);
    CHECK(r.options.objective == o);
    CHECK(r.options.dataflows ==
          std::vector<mapping::Dataflow>{mapping::Dataflow::kWeightStationary,
                                         mapping::Dataflow::kInputStationary});
    CHECK(r.request.scheme->name == "q4f16_1");
    CHECK(r.request.accelerator->rows() == 8);
    CHECK(r.request.dequant_rate.elements_per_cycle == 4);
  }
}

TEST_CASE("search setting errors name the field", "[search][errors]") {
  auto where = [](const sweep::SearchSettings& s) {
    return test::error_of([&] { sweep::resolve_search(s); }).where();
  };
  sweep::SearchSettings s;
  s.objective = "throughput";
  CHECK(where(s) == "objective");
  s = {};
  s.dataflows = {"os", ""};
  CHECK(where(s) == "dataflows");
  s = {};
  s.eval.arch = "no-such-accelerator";
  CHECK(where(s) == "arch");
  s = {};
  s.eval.tile = "8x8x8";
  CHECK(where(s) == "tile");
  s = {};
  s.eval.dequant_ops_rate = 3;
  CHECK(where(s) == "dequant_ops_rate");
  s = {};
  s.eval.dequant_rate = -1;
  CHECK(where(s) == "dequant_rate");
}
