// `tenet log` costs the non-matmul kernels of an MLC-LLM log (norms, rope, KV append, take,
// SwiGLU, sampling, element-wise, MoE top-k) on the vector unit the generator uses: each row by
// hand on systolic-16x16 (16 lanes; norm, rotary, residual, kv_append, embedding 1 op per lane and
// cycle, activation, logits, routing 1/4; SRAM port 64 B/cycle; DRAM 32 B/cycle + 100 cycles;
// 1 GHz) at q4f16_1 (activations 16 bits, the embedding table 4 bits).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_run.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace cli_log_vector_kernels_test {

namespace {

using json = nlohmann::json;
using tenet::test::run_cli;
using tenet::test::shell_quoted;

const std::string kLog = std::string(TENET_TEST_DATA_DIR) + "/logs/mlc-llama-3.2-1b-kernels.txt";

json log_json(const std::string& path, const std::string& extra = "") {
  const tenet::test::CliRun r =
      run_cli("log --input " + shell_quoted(path) + " --arch systolic-16x16 --format json" + extra);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

struct Expected {
  const char* kind;
  std::int64_t count;
  std::int64_t elements, ops, dram_bytes;  // one call
  double cycles;                           // one call
  const char* bound;
};

}  // namespace

TEST_CASE("tenet log costs MLC-LLM's non-matmul kernels by name and shape",
          "[cli][log][generate]") {
  const json doc = log_json(kLog);
  REQUIRE(doc.contains("non_matmul"));
  const json& kernels = doc["non_matmul"]["kernels"];
  // Derivations: elements = Π extents; ops = elements × ops per element; bytes = inputs and
  // outputs at their formats (+ the norm's 2048 fp16 weights); cycles = max(ops / (16 lanes ×
  // rate), bytes / 64, bytes / 32 + 100).
  const std::map<std::string, Expected> expected = {
      // 14336 table elements at 4 bits (7168 B) + 14336 fp16 out (28672 B) = 35840 B;
      // 35840/32 + 100 = 1220 > 14336/16 = 896
      {"fused_dequantize_take1", {"embedding", 1, 14336, 14336, 35840, 1220, "dram"}},
      // ops 4 × 14336; bytes 28672 + 4096 + 28672 = 61440; 57344/16 = 3584 > 61440/32+100
      {"rms_norm1|7", {"norm", 1, 14336, 57344, 61440, 3584, "compute"}},
      // 7·48·64 = 21504 elements, 3 ops each; 2 × 43008 B; 64512/16 = 4032
      {"fused_rope", {"rotary", 1, 21504, 64512, 86016, 4032, "compute"}},
      // 7·16·64 = 7168; 14336 + 14336 B; 28672/32 + 100 = 996 > 448
      {"tir_kv_cache_transpose_append", {"kv_append", 1, 7168, 7168, 28672, 996, "dram"}},
      // two calls (aggregated); 5 ops; reads x and the residual (2 × 28672) + weights 4096,
      // writes both (2 × 28672): 118784 B; 71680/16 = 4480 > 118784/32 + 100 = 3812
      {"fuse_add_norm_prefill", {"norm", 2, 14336, 71680, 118784, 4480, "compute"}},
      // SiLU × gate: 5 ops on 7·8192 = 57344; 286720 / (16/4) = 71680
      {"fused_split_silu_multiply", {"activation", 1, 57344, 286720, 344064, 71680, "compute"}},
      // the final norm of the last token: 8192 ops / 16 = 512 > 12288/32 + 100 = 484
      {"rms_norm1|1", {"norm", 1, 2048, 8192, 12288, 512, "compute"}},
      // 5 ops on the vocabulary: 641280 / 4 = 160320
      {"softmax_with_temperature", {"logits", 1, 128256, 641280, 513024, 160320, "compute"}},
      // a sort of 128256 values: ceil(log2 128256) = 17 compares each; 2180352 / 4 = 545088
      {"argsort_probs", {"logits", 1, 128256, 2180352, 513024, 545088, "compute"}},
      // x + y: reads 2 × 28672, writes 28672 = 86016 B; 86016/32 + 100 = 2788 > 896
      {"add", {"residual", 1, 14336, 14336, 86016, 2788, "dram"}},
      // MoE top-4 softmax over 8 router logits of 7 tokens: 6 ops × 56 = 336; 224 B: 107 cycles
      {"top4_softmax", {"routing", 1, 56, 336, 224, 107, "dram"}},
      // a decode step's fused add + norm, 2 calls: 20480 B / 32 + 100 = 740 > 10240/16 = 640
      {"fuse_add_norm_decode", {"norm", 2, 2048, 10240, 20480, 740, "dram"}},
  };
  REQUIRE(kernels.size() == expected.size());
  double total = 0;
  std::int64_t total_bytes = 0;
  std::map<std::string, double> by_kind;
  for (const json& k : kernels) {
    std::string key = k["kernel"];
    if (key == "rms_norm1") key += "|" + std::to_string(k["shape"][1].get<int>());
    INFO(key);
    REQUIRE(expected.count(key) == 1);
    const Expected& e = expected.at(key);
    CHECK(k["kind"] == e.kind);
    CHECK(k["count"] == e.count);
    CHECK(k["elements"] == e.elements);
    CHECK(k["ops"] == e.ops);
    CHECK(k["dram_bytes"] == e.dram_bytes * e.count);
    CHECK(k["bound"] == e.bound);
    CHECK(k["seconds"].get<double>() == Approx(e.cycles * e.count / 1e9).epsilon(1e-12));
    total += e.cycles * e.count / 1e9;
    total_bytes += e.dram_bytes * e.count;
    by_kind[e.kind] += e.cycles * e.count / 1e9;
  }
  CHECK(kernels[0]["phase"].is_null());
  CHECK(kernels.back()["phase"] == "decode");
  const json& totals = doc["non_matmul"]["totals"];
  CHECK(totals["seconds"].get<double>() == Approx(total).epsilon(1e-12));
  CHECK(totals["dram_bytes"] == total_bytes);
  for (const auto& [kind, seconds] : by_kind)
    CHECK(totals["by_kind"][kind]["seconds"].get<double>() == Approx(seconds).epsilon(1e-12));
  // Totals separate matmul and non-matmul work; the matmuls cost what they cost without the
  // non-matmul lines.
  const json& all = doc["all_totals"];
  CHECK(all["matmul_seconds"] == doc["totals"]["seconds"]);
  CHECK(all["non_matmul_seconds"].get<double>() == Approx(total).epsilon(1e-12));
  CHECK(all["seconds"].get<double>() ==
        Approx(doc["totals"]["seconds"].get<double>() + total).epsilon(1e-12));
  char dir[] = "/tmp/tenet_vlog_XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string matmuls_only = std::string(dir) + "/matmuls.txt";
  {
    std::ifstream in(kLog);
    std::ofstream out(matmuls_only);
    std::string line;
    while (std::getline(in, line))
      if (line.find("matmul") != std::string::npos || line.find("header") != std::string::npos)
        out << line << "\n";
  }
  const json plain = log_json(matmuls_only);
  CHECK_FALSE(plain.contains("non_matmul"));
  CHECK(plain["totals"]["seconds"] == doc["totals"]["seconds"]);
  CHECK(plain["layers"].size() == doc["layers"].size());
  std::remove(matmuls_only.c_str());
  rmdir(dir);
}

TEST_CASE("tenet log's table lists the non-matmul kernels with their kind and split totals",
          "[cli][log]") {
  const tenet::test::CliRun r =
      run_cli("log --input " + shell_quoted(kLog) + " --arch systolic-16x16");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("non-matmul kernels (vector unit):") != std::string::npos);
  CHECK(r.out.find("fuse_add_norm_prefill") != std::string::npos);
  CHECK(r.out.find("total routing") != std::string::npos);
  CHECK(r.out.find("total matmul:") != std::string::npos);
  CHECK(r.out.find("total non-matmul:") != std::string::npos);
}

TEST_CASE("a non-matmul record that tenet cannot cost is an input error naming the line",
          "[cli][log][errors]") {
  char dir[] = "/tmp/tenet_vlog_XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string path = std::string(dir) + "/bad.jsonl";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"kernel":"rms_norm","shape":[1,0,64]})", "line 1, /shape/1"},
      {R"({"kernel":"batch_prefill_paged_kv","shape":[1,7,64]})", "line 1, /kernel"},
      {R"({"kernel":"rms_norm","shape":[1,7,64],"M":3})", "line 1, /M"},
      {R"({"shape":[1,7,64]})", "line 1, /kernel"},
      {"rms_norm: 1, x, 64", "line 1"},
  };
  for (const auto& [line, where] : cases) {
    INFO(line);
    std::ofstream(path) << line << "\n";
    const tenet::test::CliRun r = run_cli("log --input " + shell_quoted(path));
    CHECK(r.exit_code == 2);
    CHECK(r.out.find(path + ": " + where) != std::string::npos);
  }
  std::remove(path.c_str());
  rmdir(dir);
}

}  // namespace cli_log_vector_kernels_test
