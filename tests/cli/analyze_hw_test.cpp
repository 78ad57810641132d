// `tenet analyze --gemm` with the hardware model (--arch, --array, --timing, --tile,
// --loop-order) and quantization (--quant, --dequant-rate): the contract keys, and their values
// equal to the library's for the same inputs.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"
#include "layer_request.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/quant/quant_json.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_analyze_hw_test {

using nlohmann::json;
using namespace tenet;

namespace {

using Run = tenet::test::CliRun;

Run run(const std::string& args) { return tenet::test::run_cli(args); }

json run_json(const std::string& args) {
  const Run r = run("analyze " + args + " --format json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

void check_fails(const std::string& args, int code, const std::string& needle) {
  const Run r = run("analyze " + args);
  INFO(r.out);
  CHECK(r.exit_code == code);
  CHECK(r.out.find(needle) != std::string::npos);
}

hw::Result library_result(const std::string& preset, mapping::GemmShape shape,
                          mapping::Dataflow flow) {
  const auto acc = arch::load_accelerator_preset(preset);
  const auto problem = hw::make_gemm_problem(shape);
  return hw::evaluate_gemm(acc, problem, flow, hw::choose_tiling(acc, problem, flow));
}

}  // namespace

TEST_CASE("analyze --arch: hardware keys, equal to hw::evaluate_gemm", "[cli][analyze][hw]") {
  const json j = run_json("--gemm 37,100,59 --arch systolic-16x16 --dataflow ws");
  const hw::Result r =
      library_result("systolic-16x16", {37, 100, 59}, mapping::Dataflow::kWeightStationary);
  // The relation-centric report is still there.
  for (const char* key : {"macs", "delay", "energy", "tensors", "workload", "mapping"})
    CHECK(j.contains(key));
  CHECK(j["cycles"]["total"] == r.cycles.total);
  CHECK(j["cycles"]["compute"] == r.cycles.compute);
  CHECK(j["cycles"]["stall"] == r.cycles.stall);
  CHECK(j["cycles"]["stall"] ==
        j["cycles"]["total"].get<long long>() - j["cycles"]["compute"].get<long long>());
  CHECK(j["utilization"].get<double>() == Approx(r.utilization));
  CHECK(j["utilization"].get<double>() > 0);
  CHECK(j["utilization"].get<double>() <= 1);
  CHECK(j["mapping_efficiency"].get<double>() == Approx(r.mapping_efficiency));
  CHECK(j["dram_bytes"] == r.dram_bytes);
  const json& e = j["energy_pj"];
  CHECK(e["total"].get<double>() ==
        Approx(e["mac"].get<double>() + e["register_file"].get<double>() + e["sram"].get<double>() +
               e["dram"].get<double>()));
  CHECK(e["total"].get<double>() == Approx(r.energy_pj.total));
  for (const char* t : {"A", "B", "C"}) {
    const hw::TensorResult& x = r.tensor(t);
    const json& y = j["tensors"][t];
    CHECK(y["total_volume"].is_number());  // relation-centric field kept
    CHECK(y["sram_reads"] == x.sram_reads);
    CHECK(y["sram_writes"] == x.sram_writes);
    CHECK(y["dram_reads"] == x.dram_reads);
    CHECK(y["dram_writes"] == x.dram_writes);
    CHECK(y["dram_bytes"] == x.dram_bytes);
  }
  // The relation-centric analysis runs on the accelerator's PE array.
  CHECK(j["active_pes"].get<long long>() <= 16 * 16);
}

TEST_CASE("analyze: --timing defaults and the ideal array", "[cli][analyze][hw]") {
  // Without --arch the output is the TENET one (no hardware keys).
  const json tenet_only = run_json("--gemm 4,4,4 --array 4x4 --dataflow os");
  CHECK_FALSE(tenet_only.contains("cycles"));
  const json explicit_tenet =
      run_json("--gemm 4,4,4 --arch systolic-8x8 --dataflow os --timing tenet");
  CHECK_FALSE(explicit_tenet.contains("cycles"));
  CHECK(explicit_tenet.contains("delay"));
  // --timing systolic without --arch: an ideal array of --array's shape (SCALE-Sim's numbers):
  // 4x4x4 on 4x4 os = K + R + C - 2 = 10 demand rows: 10 cycles, the last write at index 9.
  const json ideal = run_json("--gemm 4,4,4 --array 4x4 --dataflow os --timing systolic");
  CHECK(ideal["cycles"]["total"] == 10);
  CHECK(ideal["cycles"]["last_write_index"] == 9);
  CHECK(ideal["cycles"]["stall"] == 0);
}

TEST_CASE("analyze: --array overrides the shape of --arch", "[cli][analyze][hw]") {
  const json j = run_json("--gemm 20,30,40 --arch systolic-16x16 --array 8x4 --dataflow os");
  CHECK(j["array"]["rows"] == 8);
  CHECK(j["array"]["cols"] == 4);
  const auto acc = arch::with_array_shape(arch::load_accelerator_preset("systolic-16x16"), 8, 4);
  const auto p = hw::make_gemm_problem({20, 30, 40});
  const auto flow = mapping::Dataflow::kOutputStationary;
  CHECK(j["cycles"]["total"] ==
        hw::evaluate_gemm(acc, p, flow, hw::choose_tiling(acc, p, flow)).cycles.total);
  CHECK(j["active_pes"].get<long long>() <= 8 * 4);
}

TEST_CASE("analyze: --tile and --loop-order reach the hardware model", "[cli][analyze][hw]") {
  const json j = run_json(
      "--gemm 64,96,128 --arch systolic-16x16 --dataflow ws --tile 32x48x64 --loop-order nmk");
  CHECK(j["tiling"] == "32x48x64:nmk");
  CHECK(j["tiles"] == 2 * 2 * 2);
  check_fails("--gemm 8,8,8 --arch systolic-8x8 --dataflow ws --loop-order nmk", 2, "--loop-order");
  check_fails("--gemm 8,8,8 --arch systolic-8x8 --dataflow ws --tile 4x4 ", 2, "--tile");
}

TEST_CASE("analyze --quant q4f16_1: packed weights, scale tensors, dequant (issue 4 example)",
          "[cli][analyze][quant]") {
  const json j = run_json("--gemm 1,1024,1024 --arch scalable-32x32 --dataflow ws --quant q4f16_1");
  CHECK(j["tensors"]["B"]["dram_bytes"] == 524288);
  CHECK(j["tensors"]["B.scale"]["dram_bytes"] == 65536);
  CHECK(j["tensors"]["B"]["bits"] == 4);
  CHECK(j["tensors"]["B.scale"]["bits"] == 16);
  CHECK(j["tensors"]["A"]["bits"] == 16);
  // B.scale's volumes come from the relation-centric analysis of the quantized workload.
  CHECK(j["tensors"]["B.scale"]["role"] == "scale");
  CHECK(j["tensors"]["B.scale"]["unique_volume"].is_number());
  CHECK(j["tensors"]["B.scale"]["elements"] == 1024 * 1024 / 32);
  CHECK_FALSE(j["tensors"].contains("B_scale"));
  CHECK(j["dequant"]["ops"] == 5 * 1024 * 1024);
  CHECK(j["dequant"]["cycles"].is_number_integer());
  CHECK(j["epilogue"]["ops"].is_number_integer());

  const auto acc = arch::load_accelerator_preset("scalable-32x32");
  llm::MatmulShape shape;
  shape.m = 1, shape.n = 1024, shape.k = 1024;
  const auto e = tenet::eval::evaluate(tenet::test::layer_request(
      acc, mapping::Dataflow::kWeightStationary, quant::load_preset("q4f16_1"), shape));
  CHECK(j["cycles"]["total"] == e.product().total_cycles);
  CHECK(j["dequant"]["cycles"] == e.product().dequant_cycles);
  CHECK(j["energy_pj"]["total"].get<double>() == Approx(e.product().energy.total()));
  double parts = 0;
  for (const char* k : {"mac", "register_file", "sram", "dram", "dequant", "epilogue", "rescale",
                        "zero_sums", "quantize"})
    parts += j["energy_pj"][k].get<double>();
  CHECK(j["energy_pj"]["total"].get<double>() == Approx(parts));

  const json f16 = run_json("--gemm 1,1024,1024 --arch scalable-32x32 --dataflow ws --quant q0f16");
  CHECK(f16["tensors"]["B"]["dram_bytes"] == 2097152);
  CHECK_FALSE(f16["tensors"].contains("B.scale"));

  const json rate = run_json(
      "--gemm 1,1024,1024 --arch scalable-32x32 --dataflow ws --quant q4f16_1 --dequant-rate 4");
  CHECK(rate["dequant"]["cycles"] == 1024 * 1024 / 4);
  CHECK(rate["bound"] == "dequant");
}

TEST_CASE("analyze --quant with the TENET timing: quantization keys without the hardware model",
          "[cli][analyze][quant]") {
  const json j = run_json("--gemm 3,64,100 --array 4x4 --dataflow os --quant gptq_w4a16_g128");
  CHECK_FALSE(j.contains("cycles"));
  CHECK(j.contains("delay"));
  CHECK(j["tensors"]["B"]["bits"] == 4);
  CHECK(j["tensors"]["B.scale"]["elements"] == 64 * 1);  // N x ceil(100 / 128)
  CHECK(j["tensors"]["B.zero"]["elements"] == 64);
  CHECK(j["dequant"]["ops"].is_number_integer());
  CHECK(j["dequant"]["cycles"] == (64 * 100 + 3) / 4);  // default rate: 4 columns
  CHECK(j["epilogue"]["ops"].is_number_integer());
}

TEST_CASE("analyze: table and CSV show the hardware keys with units", "[cli][analyze][hw]") {
  const std::string args = "analyze --gemm 16,16,16 --arch systolic-8x8 --dataflow os";
  const Run table = run(args + " --quant q4f16_1");
  REQUIRE(table.exit_code == 0);
  for (const char* text : {"Tensors", "hardware model:", "cycles total", "cycles", "bytes", "pJ",
                           "quantization q4f16_1", "B.scale", "dequant"})
    CHECK(table.out.find(text) != std::string::npos);
  const Run csv = run(args + " --format csv");
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.find("hardware,,cycles.total,") != std::string::npos);
  CHECK(csv.out.find("hardware,,energy_pj.total,") != std::string::npos);
  CHECK(csv.out.find(",pJ\n") != std::string::npos);
  CHECK(csv.out.find("tensor,B,dram_bytes,") != std::string::npos);
}

TEST_CASE("analyze --accumulate and compare --accumulate: C = C + A·B", "[cli][analyze][hw]") {
  // SAURIA's sq64_accumulate (int8 8x16, the RTL's tiling): P1 on every context; C was already
  // read at every output-tile start there, so the bytes do not change. On systolic-8x8 (no
  // microarchitecture) C's 100x60 fp16 values are read once more.
  const std::string sauria =
      "--gemm 64,64,64 --arch sauria-int8-8x16 --dataflow os --bits-a 8 --bits-b 8 --bits-c 32 "
      "--tile 64x16x64:kmn --edge-transfers";
  const json plain = run_json(sauria);
  const json acc = run_json(sauria + " --accumulate");
  CHECK(acc["gemm"]["accumulate"] == true);
  CHECK(plain["gemm"]["accumulate"] == false);
  CHECK(acc["dram_bytes"] == plain["dram_bytes"]);
  CHECK(acc["cycles"]["compute"].get<long long>() > plain["cycles"]["compute"].get<long long>());
  const double measured = 4585;  // calibration.csv's sq64_accumulate
  CHECK(std::abs(acc["cycles"]["total"].get<double>() / measured - 1) <= 0.05);
  const std::string small = "--gemm 100,60,30 --arch systolic-8x8 --dataflow os --tile 0x0x0";
  const json a = run_json(small + " --accumulate");
  const json b = run_json(small);
  CHECK(a["dram_bytes"].get<long long>() == b["dram_bytes"].get<long long>() + 100 * 60 * 2);
  CHECK(a["tensors"]["C"]["kind"] == "read");  // the relation-centric C read, and C.write
  CHECK(a["tensors"].contains("C.write"));
  CHECK(a["tensors"]["C"]["dram_reads"] == 100 * 60);
  const Run cmp =
      run("compare --gemm 100,60,30 --arch systolic-8x8 --quant q0f16,q4f16_1 --accumulate "
          "--format json");
  INFO(cmp.out);
  CHECK(cmp.exit_code == 0);
  // --accumulate is a GEMM generator setting
  check_fails("--spec workloads/specs/tenet-matmul-os8-tenet-direction.json --accumulate", 1,
              "--accumulate");
}

TEST_CASE("analyze: hardware and quantization option errors", "[cli][analyze][errors]") {
  check_fails("--gemm 4,4,4 --arch no-such-arch --dataflow os", 2, "--arch");
  check_fails("--gemm 4,4,4 --arch systolic-8x8 --dataflow os --timing exact", 2, "--timing");
  check_fails("--gemm 4,4,4 --arch systolic-8x8 --dataflow os --quant q9f99", 2, "--quant");
  check_fails("--gemm 4,4,4 --arch systolic-8x8 --dataflow os --dequant-rate -3", 2,
              "--dequant-rate");
  check_fails("--gemm 4,4,4 --arch systolic-8x8 --array 0x8 --dataflow os", 2, "--array");
  check_fails("--gemm 4,4,4 --dataflow os --timing systolic", 1, "--array");
  check_fails("--arch systolic-8x8", 1, "--gemm");
  check_fails("--gemm 4,4,4 --array 2x2 --dataflow os --quant q4f16_1 --bits-a 8", 1, "--quant");
  check_fails("--gemm 4,4,4 --arch systolic-8x8 --dataflow os --bandwidth 8", 1, "--arch");
}

}  // namespace cli_analyze_hw_test
