// Sweep specs: axes and ranges, the canonical point order, stable ids, and bad specs failing
// before any evaluation with the JSON pointer of the bad field.
#include <catch2/catch.hpp>
#include <set>

#include "sweep/sweep_point.hpp"
#include "sweep_helpers.hpp"
#include "tenet/error.hpp"

using nlohmann::json;
using namespace tenet::sweep;
using sweep_test::plan_of;
using sweep_test::small_spec_json;

namespace {

// "code where" of the error that parsing + planning the spec raises, or "no error".
std::string error_of(const json& spec) {
  try {
    plan_of(spec);
  } catch (const tenet::InputError& e) {
    CHECK(e.file() == "spec.json");
    return e.code() + " " + e.where();
  }
  return "no error";
}

json with(json spec, const json::json_pointer& at, const json& value) {
  spec[at] = value;
  return spec;
}

std::vector<long long> values(const Axis<long long>& axis) {
  std::vector<long long> out;
  for (const auto& v : axis) out.push_back(v.value);
  return out;
}

}  // namespace

TEST_CASE("ranges expand: arithmetic, geometric, lists and single values", "[sweep][spec]") {
  json spec = small_spec_json();
  spec["architectures"]["global_buffer_bytes"] = {{"from", 1024}, {"to", 5000}, {"step", 1000}};
  spec["architectures"]["dram_latency_cycles"] = {{"from", 10}, {"to", 100}, {"times", 3}};
  spec["architectures"]["dequant_elements_per_cycle"] = 8;
  const SweepSpec s = parse_sweep_spec(spec, "spec.json");
  CHECK(values(s.arch.buffer_bytes) == std::vector<long long>{1024, 2024, 3024, 4024});
  CHECK(values(s.arch.dram_latency) == std::vector<long long>{10, 30, 90});
  CHECK(values(s.arch.dequant_rate) == std::vector<long long>{8});
  CHECK(s.arch.buffer_bytes[2].pointer == "/architectures/global_buffer_bytes");
  REQUIRE(s.arch.arrays.size() == 2);
  CHECK(s.arch.arrays[0].value == std::pair<long long, long long>{4, 4});
  CHECK(s.arch.arrays[1].pointer == "/architectures/array/1");
  CHECK(s.tilings.size() == 1);  // default: auto
  CHECK(s.tilings[0].value.automatic);
}

TEST_CASE("a GEMM workload's accumulate reaches its matmuls", "[sweep][spec]") {
  json spec = small_spec_json();
  spec["workloads"][0]["gemm"]["accumulate"] = true;
  const SweepSpec s = parse_sweep_spec(spec, "spec.json");
  CHECK(s.workloads[0].gemm.accumulate);
  CHECK_FALSE(parse_sweep_spec(small_spec_json(), "spec.json").workloads[0].gemm.accumulate);
}

TEST_CASE("a square-array range and explicit tilings", "[sweep][spec]") {
  json spec = small_spec_json();
  spec["architectures"]["array"] = {{"from", 4}, {"to", 32}, {"times", 2}};
  spec["tilings"] = {"auto", "16x16x0:nkm"};
  const SweepSpec s = parse_sweep_spec(spec, "spec.json");
  REQUIRE(s.arch.arrays.size() == 4);
  CHECK(s.arch.arrays[3].value == std::pair<long long, long long>{32, 32});
  REQUIRE(s.tilings.size() == 2);
  CHECK(!s.tilings[1].value.automatic);
  CHECK(s.tilings[1].value.text == "16x16x0:nkm");
}

TEST_CASE("tiling_objective: one for the sweep, named in the auto tilings' rows", "[sweep][spec]") {
  json spec = small_spec_json();
  spec["tilings"] = {"auto", "16x16x0:nkm"};
  const SweepPlan latency = plan_of(spec);
  CHECK(latency.spec().tiling_objective == tenet::hw::TilingObjective::kLatency);  // default
  CHECK(latency.tilings()[0].text == "auto");
  for (const char* name : {"latency", "energy", "dram_bytes", "edp"}) {
    spec["tiling_objective"] = name;
    const SweepPlan plan = plan_of(spec);
    const tenet::hw::TilingObjective objective = tenet::hw::parse_tiling_objective(name);
    CHECK(plan.spec().tiling_objective == objective);
    REQUIRE(plan.tilings().size() == 2);
    CHECK(plan.tilings()[0].automatic);
    CHECK(plan.tilings()[0].objective == objective);
    CHECK(plan.tilings()[0].text == (objective == tenet::hw::TilingObjective::kLatency
                                         ? std::string("auto")
                                         : std::string("auto:") + name));
    CHECK(plan.tilings()[1].text == "16x16x0:nkm");  // explicit tilings have no objective
    CHECK(make_point(plan, 0).params["tiling"] == plan.tilings()[0].text);
    CHECK(plan.size() == latency.size());  // not an axis
  }
}

TEST_CASE("the number of points is the product of the axes, decoded in canonical order",
          "[sweep][plan]") {
  const SweepPlan plan = plan_of(small_spec_json());
  // 4 GEMM shapes + GPT-2 decode; 2 schemes; 2 arrays x 2 buffers; 3 dataflows; 1 tiling.
  CHECK(plan.workloads().size() == 5);
  CHECK(plan.arch_count() == 4);
  REQUIRE(plan.size() == 5 * 2 * 4 * 3);
  // Innermost: tiling, then dataflow, then the arch axes (buffer inside array), quant, workload.
  CHECK(plan.coords(1).dataflow == 1);
  CHECK(plan.coords(3).arch == 1);
  CHECK(plan.arch_variant(1).buffer_bytes == 65536);
  CHECK(plan.arch_variant(1).rows == 4);
  CHECK(plan.arch_variant(2).rows == 8);
  CHECK(plan.coords(12).quant == 1);
  CHECK(plan.coords(24).workload == 1);
  const SweepPoint last = make_point(plan, plan.size() - 1);
  CHECK(last.params["kind"] == "model");
  CHECK(last.params["phase"] == "decode");
  CHECK(last.params["seq_len"] == 16);
  CHECK(last.params["quant"] == "q4f16_1");
  CHECK(last.params["dataflow"] == "is");
  CHECK(last.params["rows"] == 8);
  CHECK_THROWS_AS(make_point(plan, plan.size()), tenet::InternalError);
}

TEST_CASE("a partitioned buffer keeps its proportions when the total changes", "[sweep][plan]") {
  json spec = small_spec_json();
  spec["architectures"]["global_buffer_bytes"] = {3000};
  spec["architectures"]["sram_bandwidth_bytes_per_cycle"] = {64};
  const SweepPlan plan = plan_of(spec);
  const tenet::arch::AcceleratorSpec a = plan.accelerator_spec(0);
  long long total = 0;
  double bandwidth = 0;
  for (const auto& [key, part] : a.global_buffer.partitions) {
    total += part.bytes;
    bandwidth += part.bandwidth.bytes_per_cycle;
  }
  CHECK(total == 3000);
  CHECK(bandwidth == Approx(64));
  CHECK(plan.arch_variant(0).buffer_bytes == 3000);
  CHECK(plan.arch_variant(0).sram_bandwidth == tenet::arch::Bandwidth::of(64));
}

TEST_CASE("point ids are unique and do not depend on the other values of the axes",
          "[sweep][plan]") {
  const SweepPlan plan = plan_of(small_spec_json());
  std::set<std::string> ids;
  for (std::uint64_t i = 0; i < plan.size(); ++i) ids.insert(make_point(plan, i).id);
  CHECK(ids.size() == plan.size());

  json fewer = small_spec_json();
  fewer["dataflows"] = {"ws"};
  fewer["quant"] = {"q4f16_1"};
  const SweepPlan small = plan_of(fewer);
  for (std::uint64_t i = 0; i < small.size(); ++i) {
    const SweepPoint p = make_point(small, i);
    CHECK(ids.count(p.id) == 1);  // the same configuration has the same id in the bigger sweep
    CHECK(p.id == point_id(p.params));
    CHECK(p.id.size() == 16);
  }
}

TEST_CASE("bad sweep specs name the field", "[sweep][spec][errors]") {
  const json spec = small_spec_json();
  using P = json::json_pointer;
  CHECK(error_of(with(spec, P("/dataflows"), json::array())) == "range /dataflows");
  CHECK(error_of(with(spec, P("/quant"), json::array())) == "range /quant");
  CHECK(error_of(with(spec, P("/architectures/array"), json::array())) ==
        "range /architectures/array");
  CHECK(error_of(with(spec, P("/colour"), "red")) == "unknown-field /colour");
  CHECK(error_of(with(spec, P("/architectures/frequency"), 1)) ==
        "unknown-field /architectures/frequency");
  CHECK(error_of(with(spec, P("/workloads/0/gemm/q"), 1)) == "unknown-field /workloads/0/gemm/q");
  CHECK(error_of(with(spec, P("/workloads/0/gemm/accumulate"), "yes")) ==
        "type /workloads/0/gemm/accumulate");
  CHECK(error_of(with(spec, P("/workloads/0/gemm/accumulate"), true)) == "no error");
  CHECK(error_of(with(spec, P("/architectures/global_buffer_bytes"),
                      {{"from", 1}, {"to", 10}, {"step", 0}})) ==
        "range /architectures/global_buffer_bytes/step");
  CHECK(error_of(with(spec, P("/architectures/dram_latency_cycles"),
                      {{"from", 1}, {"to", 10}, {"times", 1}})) ==
        "range /architectures/dram_latency_cycles/times");
  CHECK(error_of(with(spec, P("/architectures/global_buffer_bytes"),
                      {{"from", 10}, {"to", 1}, {"step", 1}})) ==
        "range /architectures/global_buffer_bytes/to");
  CHECK(error_of(with(spec, P("/architectures/global_buffer_bytes"), {{"from", 1}, {"to", 10}})) ==
        "missing-field /architectures/global_buffer_bytes");
  CHECK(error_of(with(spec, P("/architectures/global_buffer_bytes/1"), 0)) ==
        "range /architectures/global_buffer_bytes/1");
  CHECK(error_of(with(spec, P("/architectures/clock_mhz"), {1000, -5})) ==
        "range /architectures/clock_mhz/1");
  CHECK(error_of(with(spec, P("/architectures/array/1"), "8by8")) ==
        "parse /architectures/array/1");
  CHECK(error_of(with(spec, P("/dataflows/1"), "xs")) == "unknown-name /dataflows/1");
  CHECK(error_of(with(spec, P("/tilings"), {"auto", "8x8"})) == "parse /tilings/1");
  CHECK(error_of(with(spec, P("/tiling_objective"), "speed")) == "unknown-name /tiling_objective");
  CHECK(error_of(with(spec, P("/architectures/edge_transfers"), json::array())) ==
        "range /architectures/edge_transfers");
  CHECK(error_of(with(spec, P("/architectures/edge_transfers"), {false, "yes"})) ==
        "type /architectures/edge_transfers/1");
  CHECK(error_of(with(spec, P("/tiling_objective"), json::array({"energy"}))) ==
        "type /tiling_objective");
  CHECK(error_of(with(spec, P("/workloads/1/phase"), "train")) ==
        "unknown-name /workloads/1/phase");
  CHECK(error_of(with(spec, P("/workloads/1/prompt"), 8)) == "usage /workloads/1/prompt");
  CHECK(error_of(with(spec, P("/workloads/1/phase"), "prefill")) ==
        "missing-field /workloads/1/prompt");
  CHECK(error_of(with(spec, P("/workloads/0/gemm/m"), {{"from", 1}, {"to", 9}, {"step", 0}})) ==
        "range /workloads/0/gemm/m/step");
  CHECK(error_of(with(spec, P("/workloads/2"), {{"log", "x.jsonl"}, {"gemm", {}}})) ==
        "missing-field /workloads/2");
  CHECK(error_of(with(spec, P("/workloads"), json::array())) == "range /workloads");
  // Without "dataflows": the one default dataflow, os (issue 10).
  json no_dataflows = spec;
  no_dataflows.erase("dataflows");
  CHECK(error_of(no_dataflows) == "no error");
}

TEST_CASE("unknown presets, files and lengths fail while planning, at their field",
          "[sweep][plan][errors]") {
  const json spec = small_spec_json();
  using P = json::json_pointer;
  CHECK(error_of(with(spec, P("/architectures/presets/0"), "systolic-7x7")) ==
        "unknown-name /architectures/presets/0");
  CHECK(error_of(with(spec, P("/quant/1"), "q5f16_9")) == "unknown-name /quant/1");
  CHECK(error_of(with(spec, P("/workloads/1/model"), "/no/such/model.json")) ==
        "io /workloads/1/model");
  CHECK(error_of(with(spec, P("/workloads/1/context"), 5000)) == "range /workloads/1/context");
  CHECK(error_of(with(spec, P("/workloads/2"), {{"log", "/no/such/log.jsonl"}})) ==
        "io /workloads/2/log");
  // every axis value is applied to every preset before any work
  CHECK(error_of(with(spec, P("/architectures/dram_bandwidth_bytes_per_cycle"), {1, "fast"})) ==
        "type /architectures/dram_bandwidth_bytes_per_cycle/1");
}
