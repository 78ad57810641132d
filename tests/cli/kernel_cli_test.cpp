// `tenet kernel`: the attention and MLP kernels end to end (JSON fields, formats, decode vs
// prefill, on-chip vs DRAM vs materialised scores) and bad shapes exit 2 naming the option.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_kernel_test {

using nlohmann::json;

namespace {

using tenet::test::run_json;

long long bytes_of(const json& j, const std::string& tensor) {
  for (const json& t : j["tensors"])
    if (t["name"] == tensor) return t["dram_bytes"].get<long long>();
  FAIL("no tensor " << tensor);
  return 0;
}

}  // namespace

TEST_CASE("tenet kernel --attention: the contract keys and the fused traffic", "[cli][fused]") {
  const json j = run_json("kernel --attention 16,4,512,512,64 --causal --arch scalable-32x32");
  for (const char* key : {"seconds", "cycles", "dram_bytes", "levels", "bound", "blocking", "units",
                          "vector_unit", "tensors", "intermediates", "stages"})
    CHECK(j.contains(key));
  CHECK(j["kernel"] == "attention");
  CHECK(j["inputs"]["quant"] == "q0f16");
  CHECK(j["intermediate_placement"] == "on_chip");
  CHECK(j["levels"]["dram_bytes"] == j["dram_bytes"]);
  CHECK(bytes_of(j, "Q") == 16LL * 512 * 64 * 2);
  CHECK(bytes_of(j, "O") == 16LL * 512 * 64 * 2);
  CHECK(j["dram_bytes"].get<long long>() >= j["compulsory_dram_bytes"].get<long long>());
  CHECK(j["seconds"].get<double>() > 0);
  CHECK(j["units"][0]["seconds"].get<double>() <= j["seconds"].get<double>());
  CHECK(j["vector_unit"]["seconds"].get<double>() <= j["seconds"].get<double>());
  CHECK(j["dram"]["seconds"].get<double>() <= j["seconds"].get<double>());

  // Scores through DRAM: S and P cross the link twice each; never faster.
  const json d = run_json("kernel --attention 16,4,512,512,64 --causal --scores dram");
  CHECK(d["intermediate_placement"] == "dram");
  CHECK(d["dram_bytes"].get<long long>() > j["dram_bytes"].get<long long>());
  CHECK(d["cycles"].get<long long>() >= j["cycles"].get<long long>());

  // Materialised scores (tpu-v6e): S and P of every head kept while they fit the buffer, spilled
  // (rows padded to 128 keys) when not; the isl relations count the spilled blocking too.
  const json m = run_json(
      "kernel --attention 120,120,328,328,32 --scores materialised --arch tpu-v6e --quant q0bf16");
  CHECK(m["inputs"]["scores"] == "materialised");
  CHECK(m["intermediate_placement"] == "on_chip");
  CHECK(m["blocking"]["kv_block"] == 328);
  const json ms = run_json(
      "kernel --attention 192,192,328,328,32 --scores materialised --arch tpu-v6e --quant q0bf16 "
      "--relation-centric");
  CHECK(ms["intermediate_placement"] == "spilled");
  CHECK(bytes_of(ms, "S") == 2LL * 2 * 192 * 328 * 384);
  CHECK(ms["relation_counts"]["S"] == 192LL * 328 * 328);
  // Without --scores, the chip's own: tpu-v6e materialises non-causal attention (as the
  // calibration's attn_enc rows are costed), causal attention is its fused kernel; elsewhere on
  // chip.
  const json own = run_json("kernel --attention 120,120,328,328,32 --arch tpu-v6e --quant q0bf16");
  CHECK(own["inputs"]["scores"] == "materialised");
  CHECK(own["seconds"] == m["seconds"]);
  CHECK(
      run_json(
          "kernel --attention 24,8,128,512,128 --causal --arch tpu-v6e --quant q0bf16")["inputs"]
                                                                                       ["scores"] ==
      "on_chip");
  CHECK(run_json("kernel --attention 12,12,328,328,32")["inputs"]["scores"] == "on_chip");
  CHECK(run_json("kernel --attention 12,12,328,328,32 --scores chip")["inputs"]["scores"] ==
        "on_chip");

  // Decode (one query, GQA): K and V read once; extend with Q < KV sees the last positions.
  const json dec = run_json("kernel --attention 32,8,1,2048,128 --causal");
  CHECK(bytes_of(dec, "K") == 8LL * 2048 * 128 * 2);
  CHECK(dec["dram_bytes"] == dec["compulsory_dram_bytes"]);
  const json ext = run_json("kernel --attention 32,8,64,2048,128 --causal --relation-centric");
  CHECK(ext["relation_counts"]["macs"] == ext["macs"]);
  CHECK(ext["relation_counts"]["K"].get<long long>() * 2 == bytes_of(ext, "K"));
  CHECK_FALSE(dec.contains("relation_counts"));

  // A sliding window: an extend of 256 queries after 1,792 cached keys, window 512: the keys
  // 1,281 .. 2,047 are seen, each query its last 512; the isl relations count the same.
  const json win =
      run_json("kernel --attention 32,8,256,2048,128 --causal --window 512 --relation-centric");
  CHECK(win["inputs"]["window"] == 512);
  CHECK(win["relation_counts"]["macs"] == win["macs"]);
  CHECK(win["compulsory_dram_bytes"] == 2 * (2LL * 32 * 256 * 128 + 2LL * 8 * (2048 - 1281) * 128));
  // Whole tiles: at least the 2·32·256·512·128 MACs of the visible pairs.
  CHECK(win["macs"].get<long long>() >= 2LL * 32 * 256 * 512 * 128);
  const json full = run_json("kernel --attention 32,8,256,2048,128 --causal");
  CHECK(win["macs"].get<long long>() < full["macs"].get<long long>());
  // A window of at least the keys is no window.
  const json wide = run_json("kernel --attention 32,8,256,2048,128 --causal --window 2048");
  CHECK(wide["dram_bytes"] == full["dram_bytes"]);
  CHECK(wide["cycles"] == full["cycles"]);
}

TEST_CASE("tenet kernel --ffn: gated and ungated, quantized weights, formats", "[cli][fused]") {
  const json g = run_json("kernel --ffn 128,512,1408 --activation silu_gated");
  CHECK(g["kernel"] == "ffn");
  CHECK(g["inputs"]["activation"] == "silu_gated");
  CHECK(g["blocking"].contains("token_block"));
  const json w4 = run_json("kernel --ffn 128,512,1408 --activation silu_gated --quant q4f16_1");
  CHECK(bytes_of(w4, "W1") < bytes_of(g, "W1"));
  const json u = run_json("kernel --ffn 128,512,2048 --activation gelu --bias");
  CHECK(bytes_of(u, "b2") > 0);

  const tenet::test::CliRun csv =
      tenet::test::run_cli("kernel --ffn 128,512,1408 --activation silu_gated --format csv");
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.rfind("kernel,arch,quant,block_rows", 0) == 0);
  const tenet::test::CliRun table =
      tenet::test::run_cli("kernel --attention 8,8,64,64,64 --arch systolic-16x16");
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.find("attention kernel on systolic-16x16") != std::string::npos);
}

TEST_CASE("tenet kernel: bad shapes and options exit 2 naming the option", "[cli][fused]") {
  struct Case {
    const char* args;
    const char* option;
  };
  for (const Case& c :
       {Case{"kernel --attention 6,4,8,8,8", "--attention"},
        Case{"kernel --attention 4,4,16,8,8 --causal", "--attention"},
        Case{"kernel --attention 4,4,8,8", "--attention"},
        Case{"kernel --attention 4,4,8,x,8", "--attention"},
        Case{"kernel --attention 1,1,20000000,20000000,1", "--attention"},
        Case{"kernel --ffn 4000000000,4000000000,4000000000 --activation gelu", "--ffn"},
        Case{"kernel --ffn 0,8,8 --activation gelu", "--ffn"},
        Case{"kernel --ffn 8,8,8", "--activation"},
        Case{"kernel --ffn 8,8,8 --activation relu", "--activation"},
        Case{"kernel --attention 4,4,8,8,8 --scores hbm", "--scores"},
        Case{"kernel --attention 4,4,8,8,8 --bias", "--bias"},
        Case{"kernel --ffn 8,8,8 --activation gelu --causal", "--causal"},
        Case{"kernel --attention 4,4,8,8,8 --window 4", "--window"},
        Case{"kernel --attention 4,4,8,8,8 --causal --window 0", "--window"},
        Case{"kernel --ffn 8,8,8 --activation gelu --window 4", "--window"},
        Case{"kernel --arch scalable-32x32", "--attention"},
        Case{"kernel --ffn 8,8,8 --activation gelu --quant nope", "--quant"}}) {
    const tenet::test::CliRun r = tenet::test::run_cli(c.args);
    INFO(c.args << "\n" << r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find(c.option) != std::string::npos);
  }
  CHECK(tenet::test::run_cli("kernel --attention 4,4,8,8,8 --nope").exit_code == 1);
}

}  // namespace cli_kernel_test
