// The default mapping (tiling objective latency, default options) against the least-traffic
// mapping (dram_bytes) on the prefill layers of bundled models on the bundled presets: the default
// moves at most 1.5 x the least traffic unless the least-traffic mapping is more than 2 % slower
// (issue 21) — than the default or, where the default trades 2 % of time for bytes (the latency
// rule: the fewest bytes within 2 % of the fastest mapping C*), than C* (checked by brute force).
// CI runs a representative subset (three model families, prompt 512, every preset, the
// accelerator's default dataflow); TENET_DEFAULT_MAPPING_FULL=1 runs every bundled model x every
// preset x prompts 512 / 2048 x the three dataflows (docs/hardware.md quotes that run).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"

using namespace tenet;

namespace {

std::vector<std::string> lines_of(const char* text) {
  std::vector<std::string> out;
  std::string s = text;
  for (size_t start = 0; start < s.size();) {
    const size_t end = std::min(s.find(' ', start), s.size());
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("the default mapping moves at most 1.5x the least traffic unless that is >2 % slower",
          "[eval][tiling][default]") {
  const char* full_env = std::getenv("TENET_DEFAULT_MAPPING_FULL");
  const bool full = full_env && std::string(full_env) == "1";
  const std::vector<std::string> presets = lines_of(
      "systolic-8x8 systolic-16x16 systolic-32x32 systolic-128x128 scalable-32x32 tpu-v1 "
      "eyeriss");  // gemmini: int8 only, the default (fp16) scheme does not run on it
  std::vector<std::string> models =
      full ? lines_of(
                 "bloom-560m chatglm3-6b deepseek-v2-lite falcon-7b gemma-2-9b gemma-2b "
                 "gpt-j-6b gpt2-medium gpt2 llama-2-13b llama-2-7b llama-3-8b llama-3.1-70b "
                 "llama-3.1-8b llama-3.2-1b mistral-7b-v0.1 mistral-nemo-base-2407 "
                 "mixtral-8x7b-v0.1 opt-350m opt-6.7b phi-2 phi-3-mini-4k-instruct "
                 "pythia-6.9b qwen-7b qwen1.5-moe-a2.7b qwen2-7b qwen2.5-7b starcoder "
                 "starcoder2-7b")
           : lines_of("gpt2-medium llama-3-8b phi-2");
  const std::vector<long long> prompts =
      full ? std::vector<long long>{512, 2048} : std::vector<long long>{512};
  long long checked = 0, worst_kept = 0, beyond_window = 0;
  double worst_ratio = 0;
  for (const std::string& preset : presets) {
    for (int df = 0; df < (full ? 3 : 1); ++df) {
      eval::Settings settings;
      settings.arch = preset;
      if (full) settings.dataflow = df == 0 ? "os" : df == 1 ? "ws" : "is";
      eval::Request latency = eval::make_request(settings);
      settings.tiling_objective = "dram_bytes";
      eval::Request lean = eval::make_request(settings);
      for (const std::string& name : models) {
        const llm::ModelConfig model = llm::load_model_config(
            std::string(TENET_SOURCE_DIR) + "/workloads/models/" + name + ".json");
        std::set<std::tuple<long long, long long, long long>> seen;
        for (long long prompt : prompts) {
          llm::GenerationOptions prefill;
          prefill.fused_attention = false;  // matmul mappings: attention as qk and pv
          prefill.prompt = prompt;
          for (const llm::MatmulShape& shape : llm::generate_matmuls(model, prefill)) {
            if (!seen.insert({shape.m, shape.n, shape.k}).second) continue;
            latency.matmul = lean.matmul = shape;
            const eval::Evaluation fast = eval::evaluate(latency);
            const eval::Evaluation least = eval::evaluate(lean);
            const double bytes = fast.call_cost().dram_bytes.get_d(),
                         fewest = least.call_cost().dram_bytes.get_d();
            const double cycles = fast.call_cost().cycles.get_d(),
                         slow = least.call_cost().cycles.get_d();
            INFO(preset << " " << mapping::to_string(latency.dataflow) << " " << name << " "
                        << shape.name << " " << shape.m << "x" << shape.n << "x" << shape.k
                        << ": default " << bytes << " B, " << cycles << " cycles; least traffic "
                        << fewest << " B, " << slow << " cycles");
            CHECK(cycles <= slow * 1.02);  // the latency rule (near-ties within 2 %)
            if (slow <= cycles * 1.02) {
              if (bytes > 1.5 * fewest) {
                // The latency rule keeps the fewest bytes within 2 % of the fastest mapping C*:
                // here the least-traffic mapping must lie beyond that window (C* by brute force
                // over the candidate space).
                const arch::Accelerator& acc = *latency.accelerator;
                const hw::GemmProblem& p = fast.problem;  // the hardware model's problem
                long long fastest = -1;
                for (const mapping::Tiling& t : hw::tiling_candidates(acc, p, latency.dataflow)) {
                  const long long c = hw::evaluate_gemm(acc, p, latency.dataflow, t).cycles.total;
                  if (fastest < 0 || c < fastest) fastest = c;
                }
                CHECK(slow > 1.02 * static_cast<double>(fastest));
                ++beyond_window;
              }
              if (fewest > 0 && bytes / fewest > worst_ratio) worst_ratio = bytes / fewest;
              ++worst_kept;
            }
            ++checked;
          }
        }
      }
    }
  }
  WARN(
      "default-mapping grid: " << checked << " layers, " << worst_kept
                               << " with the least-traffic mapping within 2 % of the time; worst "
                                  "default / least traffic "
                               << worst_ratio << "; " << beyond_window
                               << " layers above 1.5x whose least-traffic mapping is more than 2 % "
                                  "slower than the fastest");
  CHECK(checked >= (full ? 1000 : 80));
}
