// Energy = accesses x per-access energy + MACs x MAC energy, with its breakdown; the JSON and
// table presentations.
#include <catch2/catch.hpp>

#include "fixtures.hpp"
#include "hw/format.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"

using namespace tenet;
using namespace hwtest;

TEST_CASE("energy equals the sum of its breakdown and of accesses times energies", "[hw][energy]") {
  const Accelerator acc = make_acc(4, 4, 4096, Bandwidth::of(16), Bandwidth::of(4), 10);
  hw::GemmProblem p = hw::make_gemm_problem({9, 10, 11}, {8, 4, 16});
  p.operands.push_back({"sW", workload::OperandRole::kScale, 16, false, {0, 1, 4}});
  p.precision = workload::DataType::fp16();
  for (Dataflow df :
       {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
    const hw::Result r = hw::evaluate_gemm(acc, p, df, Tiling{4, 6, 5});
    const arch::EnergyTable& e = acc.spec().energy;
    CHECK(r.energy_pj.total ==
          r.energy_pj.mac + r.energy_pj.register_file + r.energy_pj.sram + r.energy_pj.dram);
    CHECK(r.energy_pj.mac == Approx(990 * 1.5));
    double rf = 0, sram = 0, dram = 0, tensors = 0;
    for (const hw::TensorResult& t : r.tensors) {
      INFO(t.name);
      const double t_rf = t.register_reads * e.register_file.read_pj * t.bits / 32 +
                          t.register_writes * e.register_file.write_pj * t.bits / 32;
      const double t_sram =
          (t.sram_reads * e.sram.read_pj + t.sram_writes * e.sram.write_pj) * t.bits / 32;
      const double t_dram =
          (t.dram_reads * e.dram.read_pj + t.dram_writes * e.dram.write_pj) * t.bits / 32;
      CHECK(t.energy_pj.register_file == Approx(t_rf));
      CHECK(t.energy_pj.sram == Approx(t_sram));
      CHECK(t.energy_pj.dram == Approx(t_dram));
      CHECK(t.energy_pj.total == t.energy_pj.register_file + t.energy_pj.sram + t.energy_pj.dram);
      rf += t_rf, sram += t_sram, dram += t_dram, tensors += t.energy_pj.total;
    }
    CHECK(r.energy_pj.register_file == Approx(rf));
    CHECK(r.energy_pj.sram == Approx(sram));
    CHECK(r.energy_pj.dram == Approx(dram));
    CHECK(r.energy_pj.total == Approx(r.energy_pj.mac + tensors));
  }
}

TEST_CASE("the MAC energy follows the operand precision", "[hw][energy]") {
  AcceleratorSpec s = make_acc(4, 4).spec();
  s.precisions[workload::DataType::signed_int(8)] = {2, 1};
  const Accelerator acc(arch::with_energy_defaults(s));
  const hw::Result fp16 =
      hw::evaluate_gemm(acc, hw::make_gemm_problem({8, 8, 8}), Dataflow::kOutputStationary);
  const hw::Result int8 = hw::evaluate_gemm(acc, hw::make_gemm_problem({8, 8, 8}, {8, 8, 32}),
                                            Dataflow::kOutputStationary);
  CHECK(fp16.precision == workload::DataType::fp16());
  CHECK(int8.precision == workload::DataType::signed_int(8));
  CHECK(fp16.energy_pj.mac == Approx(512 * 1.5));
  CHECK(int8.energy_pj.mac == Approx(512 * 0.3));
  CHECK(int8.cycles.total < fp16.cycles.total);
}

TEST_CASE("JSON output has the contract keys with consistent values", "[hw][format]") {
  const hw::Result r = hw::evaluate_gemm(
      make_acc(4, 4, 4096, Bandwidth::of(16), Bandwidth::of(4), 10),
      hw::make_gemm_problem({9, 10, 11}), Dataflow::kWeightStationary, Tiling{4, 6, 5});
  const nlohmann::json j = hw::to_json(r);
  CHECK(j["cycles"]["total"] == r.cycles.total);
  CHECK(j["cycles"]["compute"] == r.cycles.compute);
  CHECK(j["cycles"]["stall"] == r.cycles.stall);
  CHECK(j["utilization"].get<double>() == r.utilization);
  CHECK(j["mapping_efficiency"].get<double>() == r.mapping_efficiency);
  CHECK(j["energy_pj"]["total"].get<double>() == r.energy_pj.total);
  for (const char* part : {"mac", "register_file", "sram", "dram"})
    CHECK(j["energy_pj"].contains(part));
  for (const hw::TensorResult& t : r.tensors) {
    const auto& jt = j["tensors"][t.name];
    CHECK(jt["sram_reads"] == t.sram_reads);
    CHECK(jt["sram_writes"] == t.sram_writes);
    CHECK(jt["dram_reads"] == t.dram_reads);
    CHECK(jt["dram_writes"] == t.dram_writes);
    CHECK(jt["dram_bytes"] == t.dram_bytes);
  }
  // Merging keeps what the report already has for a tensor.
  nlohmann::json report = {{"macs", 990},
                           {"tensors", {{"A", {{"role", "activation"}, {"total_volume", 990}}}}}};
  hw::merge_into(report, r);
  CHECK(report["tensors"]["A"]["total_volume"] == 990);
  CHECK(report["tensors"]["A"]["sram_reads"] == r.tensor("A").sram_reads);
  CHECK(report["cycles"]["total"] == r.cycles.total);
  const std::string table = hw::format_table(r);
  for (const char* text : {"cycles total", "utilization", "mapping efficiency", "DRAM traffic",
                           "energy total", "pJ", "bytes", "(elements)"})
    CHECK(table.find(text) != std::string::npos);
}

TEST_CASE("the tiling search fits the buffer and keeps small GEMMs whole", "[hw][tiling]") {
  const auto problem = hw::make_gemm_problem({64, 96, 80});
  // Everything fits: the untiled run (fewest fills and drains) is chosen.
  const Tiling whole = hw::choose_tiling(make_acc(8, 8), problem, Dataflow::kWeightStationary);
  CHECK(whole == mapping::resolve_tiling({}, problem.shape));
  // 8 KiB: the tiles must fit (x2 for double buffering) and beat the untiled traffic.
  const Accelerator small = make_acc(8, 8, 8192);
  const Tiling t = hw::choose_tiling(small, problem, Dataflow::kWeightStationary);
  const hw::Result tiled = hw::evaluate_gemm(small, problem, Dataflow::kWeightStationary, t);
  const hw::Result untiled = hw::evaluate_gemm(small, problem, Dataflow::kWeightStationary);
  long long used = 0;
  for (const hw::TensorResult& x : tiled.tensors) used += x.resident ? x.footprint_bytes : 0;
  CHECK(used <= 8192);
  CHECK(tiled.dram_bytes < untiled.dram_bytes);
}
