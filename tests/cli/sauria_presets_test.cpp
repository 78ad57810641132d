// The presets calibrated on SAURIA's RTL run the main use case end to end (issue 34): `tenet
// model` (prefill and decode) and `tenet search` of a real model under every bundled scheme their
// PEs can run, 4-bit weights included, under auto tiling; `search` searches only the dataflow the
// accelerator declares (SAURIA: os); a matmul no tile of which fits gives an error naming the
// layer, the scheme, the operands and their sizes, never an option the user did not type.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_run.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_sauria_presets_test {

using nlohmann::json;

namespace {

tenet::test::CliRun run(const std::string& args) {
  return tenet::test::run_cli(args, std::string(TENET_SOURCE_DIR));
}

// The presets and the bundled schemes whose MACs their PEs have (int8 PEs: int8 x int8 schemes;
// FP16 PEs: fp16 schemes, and the int8 ones on them).
struct Preset {
  const char* name;
  std::vector<const char*> schemes;
};
const std::vector<Preset> kPresets{
    {"sauria-int8-32x32", {"w4a8", "smoothquant_w8a8"}},
    {"sauria-int8-8x16", {"w4a8", "smoothquant_w8a8"}},
    {"sauria-int8-8x16-idealmem", {"w4a8", "smoothquant_w8a8"}},
    {"sauria-fp16-8x16", {"q4f16_1", "awq_w4a16_g128", "q0f16", "w4a8"}}};

// SmolLM2-360M: its lm_head (M = 1 in prefill, N = 49152) is the matmul whose auto tiling broke
// the residency rule under every 4-bit scheme before issue 34.
const std::string kModel = "--model workloads/models/smollm2-360m.json";

}  // namespace

TEST_CASE("SAURIA presets: model (prefill, decode) and search run every scheme their PEs run",
          "[cli][sauria]") {
  for (const Preset& p : kPresets)
    for (const char* scheme : p.schemes) {
      const std::string common = kModel + " --arch " + p.name + " --quant " + scheme;
      INFO(common);
      for (const std::string pass :
           {" --phase prefill --prompt 128", " --phase decode --context 128"}) {
        const auto r = run("model " + common + pass + " --format json");
        INFO(r.out);
        REQUIRE(r.exit_code == 0);
        const json doc = json::parse(r.out);
        CHECK(doc["layers"].size() >= 6);
        for (const json& l : doc["layers"]) {
          CHECK(l["cycles"].get<long long>() > 0);
          // bound <= achieved everywhere
          CHECK(l["bounds"]["cycles"].get<long long>() <= l["cycles"].get<long long>());
        }
      }
      const auto s = run("search " + common + " --prompt 128 --format json");
      INFO(s.out);
      REQUIRE(s.exit_code == 0);
      const json doc = json::parse(s.out);
      REQUIRE(doc.size() >= 6);
      for (const json& layer : doc) {
        REQUIRE(layer.contains("best"));
        CHECK(layer["best"]["dataflow"] == "os");  // SAURIA runs os only
        CHECK(layer["best_built_in"]["dataflow"] == "os");
        for (const json& c : layer["front"]) CHECK(c["dataflow"] == "os");
      }
    }
}

TEST_CASE("search honours a declared dataflow, --dataflows still chooses", "[cli][sauria]") {
  const auto candidates = [](const std::string& args) {
    const auto r = run("search --gemm 64,256,128 " + args + " --format json");
    INFO(args << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out)[0]["counts"]["candidates"].get<long long>();
  };
  // SAURIA declares os: its search is the search of os alone
  const std::string sauria = "--arch sauria-int8-8x16 --quant w4a8";
  const long long declared = candidates(sauria);
  CHECK(declared == candidates(sauria + " --dataflows os"));
  // asked for, ws and is are searched too (a what-if the user typed)
  CHECK(candidates(sauria + " --dataflows os,ws,is") > declared);
  const auto ws = run("search --gemm 64,256,128 " + sauria + " --dataflows ws --format json");
  REQUIRE(ws.exit_code == 0);
  CHECK(json::parse(ws.out)[0]["best"]["dataflow"] == "ws");
  // the default preset declares none: the three dataflows
  CHECK(candidates("") == candidates("--dataflows os,ws,is"));
}

TEST_CASE("no tile fits: the error names the layer, the scheme, the operands and their sizes",
          "[cli][sauria]") {
  // tests/data/arch/tiny_sram_b.json: SAURIA's rules (A, B, C SRAM-resident, a tile in one bank)
  // with an SRAM B of 8 bytes: no tile of packed 4-bit weights fits one 4-byte bank.
  const std::string arch = "--arch tests/data/arch/tiny_sram_b.json";
  for (const std::string cmd : {"model " + kModel + " --quant w4a8 --prompt 16 " + arch,
                                "search " + kModel + " --quant w4a8 --prompt 16 " + arch,
                                "compare --gemm 64,256,128 --quant w4a8 " + arch}) {
    INFO(cmd);
    const auto r = run(cmd);
    INFO(r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("--tile") == std::string::npos);  // the user gave no tile
    CHECK(r.out.find("no tile of the") != std::string::npos);
    CHECK(r.out.find("scheme w4a8") != std::string::npos);
    CHECK(r.out.find("partition \"sram_b\" (8 bytes)") != std::string::npos);
    CHECK(r.out.find("B (weight) ") != std::string::npos);
  }
  // the layer: a model's matmul by its name, a GEMM by the option that gave it
  CHECK(run("model " + kModel + " --quant w4a8 --prompt 16 " + arch)
            .out.find("self_attn.qkv_proj: no tile of the") != std::string::npos);
  CHECK(run("compare --gemm 64,256,128 --quant w4a8 " + arch).out.find("--gemm: no tile of the") !=
        std::string::npos);
  // a tile the user gave is still named as theirs
  const auto given = run("compare --gemm 64,256,128 --quant w4a8 --tile 64x256x128 " + arch);
  CHECK(given.exit_code == 2);
  CHECK(given.out.find("--tile: the tile does not fit") != std::string::npos);
}

TEST_CASE("the cost-model line states the dequant unit and where its rate comes from",
          "[cli][dequant]") {
  const std::string model = "model " + kModel + " --prompt 16";
  // the default preset's int8 PEs take two MACs per cycle: the default unit keeps up
  const auto w4 = run(model + " --quant w4a8");
  REQUIRE(w4.exit_code == 0);
  CHECK(w4.out.find("dequant unit 64 elements/cycle (default: keeps up with the array: 32 "
                    "columns x 2 int8 MACs per PE per cycle)") != std::string::npos);
  const auto given = run(model + " --quant w4a8 --dequant-rate 16");
  REQUIRE(given.exit_code == 0);
  CHECK(given.out.find("dequant unit 16 elements/cycle (requested)") != std::string::npos);
  const auto fp16 = run(model + " --quant q0f16");
  REQUIRE(fp16.exit_code == 0);
  CHECK(fp16.out.find("dequant unit") == std::string::npos);  // nothing dequantized
}

}  // namespace cli_sauria_presets_test
