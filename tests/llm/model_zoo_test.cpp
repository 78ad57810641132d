// The bundled configs (workloads/models) against their published figures: parameter counts
// within 0.5 %, hand-derived shapes and MACs per family, and `tenet model` end to end on each.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "llm/expert_routing.hpp"
#include "llm/model_summary.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/model_matmuls.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace llm_model_zoo_test {

using namespace tenet::llm;
using tenet::test::CliRun;
using tenet::test::run_cli;

namespace {

std::string model_path(const std::string& file) {
  return std::string(TENET_SOURCE_DIR) + "/workloads/models/" + file;
}

ModelConfig model(const std::string& file) { return load_model_config(model_path(file)); }

struct Published {
  const char* file;
  double parameters;  // the published figure
  const char* source;
};

// Published parameter counts. "hub" = the parameter count the Hugging Face Hub shows for the
// repository's safetensors (3 significant digits); exact figures are from the papers / cards
// named. Sources of every figure: workloads/models/SOURCES.md.
const Published kPublished[] = {
    {"gpt2.json", 124439808, "hub: openai-community/gpt2 (124M); exact figure 124,439,808"},
    {"gpt2-medium.json", 354823168, "hub: openai-community/gpt2-medium (355M)"},
    {"llama-2-7b.json", 6738415616, "hub: meta-llama/Llama-2-7b-hf (6.74B), exact count"},
    {"llama-2-13b.json", 13015864320, "hub: meta-llama/Llama-2-13b-hf (13B), exact count"},
    {"llama-3-8b.json", 8030261248, "hub: meta-llama/Meta-Llama-3-8B (8.03B), exact count"},
    {"llama-3.1-8b.json", 8.03e9, "hub: meta-llama/Llama-3.1-8B (8.03B)"},
    {"llama-3.1-70b.json", 70.6e9, "hub: meta-llama/Llama-3.1-70B (70.6B)"},
    {"llama-3.2-1b.json", 1.24e9, "model card: meta-llama/Llama-3.2-1B (1.23B); hub 1.24B"},
    {"mistral-7b-v0.1.json", 7.24e9, "hub: mistralai/Mistral-7B-v0.1 (7.24B)"},
    {"mistral-nemo-base-2407.json", 12.2e9, "hub: mistralai/Mistral-Nemo-Base-2407 (12.2B)"},
    {"qwen2-7b.json", 7.62e9, "hub: Qwen/Qwen2-7B (7.62B)"},
    {"qwen2.5-7b.json", 7.61e9, "model card: Qwen/Qwen2.5-7B, 'Number of Parameters: 7.61B'"},
    {"qwen-7b.json", 7.72e9, "hub: Qwen/Qwen-7B (7.72B)"},
    {"mixtral-8x7b-v0.1.json", 46.7e9, "hub: mistralai/Mixtral-8x7B-v0.1 (46.7B)"},
    {"qwen1.5-moe-a2.7b.json", 14.3e9, "model card: Qwen/Qwen1.5-MoE-A2.7B, 14.3B in total"},
    {"deepseek-v2-lite.json", 15.7e9, "model card: deepseek-ai/DeepSeek-V2-Lite, 15.7B total"},
    {"gemma-2b.json", 2.51e9, "hub: google/gemma-2b (2.51B)"},
    {"gemma-2-9b.json", 9.24e9, "hub: google/gemma-2-9b (9.24B)"},
    {"phi-2.json", 2.78e9, "hub: microsoft/phi-2 (2.78B); model card 2.7B"},
    {"phi-3-mini-4k-instruct.json", 3.82e9, "hub: microsoft/Phi-3-mini-4k-instruct (3.82B)"},
    {"falcon-7b.json", 6.92e9, "hub: tiiuae/falcon-7b (6.92B)"},
    {"opt-6.7b.json", 6.66e9, "hub: facebook/opt-6.7b (6.66B); paper's nominal 6.7B"},
    {"opt-350m.json", 331e6, "hub: facebook/opt-350m (331M); paper's nominal 350M"},
    {"pythia-6.9b.json", 6857302016, "Pythia paper (Biderman et al. 2023), Table 1: 6,857,302,016"},
    {"bloom-560m.json", 559214592, "model card: bigscience/bloom-560m, 559,214,592 parameters"},
    {"starcoder.json", 15.5e9, "model card: bigcode/starcoder, 15.5B parameter model"},
    {"starcoder2-7b.json", 7.17e9, "hub: bigcode/starcoder2-7b (7.17B)"},
    {"chatglm3-6b.json", 6.24e9, "hub: THUDM/chatglm3-6b (6.24B)"},
    {"gpt-j-6b.json", 6053381344, "model card: EleutherAI/gpt-j-6b, n_parameters 6,053,381,344"},
    {"qwen3-30b-a3b.json", 30.5e9, "model card: Qwen/Qwen3-30B-A3B, 30.5B in total"},
    {"qwen3-next-80b-a3b-instruct.json", 80e9,
     "model card: Qwen/Qwen3-Next-80B-A3B-Instruct, 80B in total (without the MTP layer)"},
    {"jamba-v0.1.json", 51.6e9, "hub: ai21labs/Jamba-v0.1 (51.6B)"},
    {"llama-3.3-nemotron-super-49b-v1.json", 49.9e9,
     "hub: nvidia/Llama-3_3-Nemotron-Super-49B-v1 (49.9B)"},
    {"gemma-3-27b-it.json", 27.016e9,
     "Gemma 3 technical report, Table 1: 27B = 1,416M embedding + 25,600M non-embedding "
     "(the 417M vision encoder is not read)"},
    {"llama-3.2-3b-instruct.json", 3.21e9, "hub: meta-llama/Llama-3.2-3B-Instruct (3.21B)"},
    {"llama-3.3-70b-instruct.json", 70.6e9, "hub: meta-llama/Llama-3.3-70B-Instruct (70.6B)"},
    {"gemma-2-27b.json", 27.2e9, "hub: google/gemma-2-27b (27.2B)"},
    {"qwen2.5-3b.json", 3.09e9, "model card: Qwen/Qwen2.5-3B, 'Number of Parameters: 3.09B'"},
    {"qwen3-4b.json", 4.02e9, "hub: Qwen/Qwen3-4B (4.02B); model card 4.0B"},
    {"qwen3-8b.json", 8.19e9, "hub: Qwen/Qwen3-8B (8.19B); model card 8.2B"},
    {"smollm2-360m.json", 362e6, "hub: HuggingFaceTB/SmolLM2-360M (362M)"},
    {"smollm2-1.7b.json", 1.71e9, "hub: HuggingFaceTB/SmolLM2-1.7B (1.71B)"},
    {"phi-4-mini-instruct.json", 3.84e9, "hub: microsoft/Phi-4-mini-instruct (3.84B)"},
    {"internlm2_5-7b.json", 7.74e9, "hub: internlm/internlm2_5-7b (7.74B)"},
    {"stablelm-2-zephyr-1_6b.json", 1.64e9, "hub: stabilityai/stablelm-2-zephyr-1_6b (1.64B)"},
    {"aya-23-8b.json", 8.03e9, "hub: CohereForAI/aya-23-8B (8.03B)"},
    {"deepseek-moe-16b-base.json", 16.4e9, "model card: deepseek-ai/deepseek-moe-16b-base, 16.4B"},
    {"deepseek-v2.5.json", 236e9, "model card: deepseek-ai/DeepSeek-V2.5 (V2: 236B total)"},
    {"deepseek-r1.json", 671e9,
     "DeepSeek-V3 technical report: 671B total (the hub's 685B adds the 14B MTP module)"},
    {"gpt-oss-20b.json", 20.91e9, "gpt-oss model card (OpenAI 2025), Table 1: 20.91B total"},
    {"gpt-oss-120b.json", 116.83e9, "gpt-oss model card (OpenAI 2025), Table 1: 116.83B total"},
    {"nvidia-nemotron-3-nano-30b-a3b.json", 31.6e9,
     "Nemotron 3 Nano technical report: 31.6B total (3.2B active, 3.6B with embeddings)"},
};

const MatmulShape& find(const std::vector<MatmulShape>& shapes, const std::string& name) {
  for (const MatmulShape& s : shapes) {
    if (s.name == name) return s;
  }
  FAIL("no matmul named " << name);
  throw;  // unreachable
}

// Pointers into `shapes`: a temporary would dangle (found by the sanitizer build).
std::vector<const MatmulShape*> all_named(std::vector<MatmulShape>&& shapes,
                                          const std::string& name) = delete;
std::vector<const MatmulShape*> all_named(const std::vector<MatmulShape>& shapes,
                                          const std::string& name) {
  std::vector<const MatmulShape*> out;
  for (const MatmulShape& s : shapes) {
    if (s.name == name) out.push_back(&s);
  }
  return out;
}

GenerationOptions prefill(std::int64_t batch, std::int64_t prompt) {
  GenerationOptions o;
  o.fused_attention = false;  // the qk / pv rows of the reference formulas
  o.batch = batch, o.prompt = prompt;
  return o;
}

GenerationOptions decode(std::int64_t batch, std::int64_t context) {
  GenerationOptions o;
  o.fused_attention = false;  // the qk / pv rows of the reference formulas
  o.phase = Phase::kDecode;
  o.batch = batch, o.context = context;
  return o;
}

Integer total_macs(const std::vector<MatmulShape>& shapes) {
  Integer t;
  for (const MatmulShape& s : shapes) t += s.macs();
  return t;
}

Integer big(std::int64_t v) { return Integer(static_cast<long>(v)); }

void check_shape(const MatmulShape& s, std::int64_t batch, std::int64_t m, std::int64_t n,
                 std::int64_t k, std::int64_t count) {
  INFO(s);
  CHECK(s.batch == batch);
  CHECK(s.m == m);
  CHECK(s.n == n);
  CHECK(s.k == k);
  CHECK(s.count == count);
}

}  // namespace

TEST_CASE("parameters counted from the matmul list match the published counts within 0.5 %",
          "[llm][zoo]") {
  CHECK(std::size(kPublished) >= 20);
  for (const Published& p : kPublished) {
    INFO(p.file << " — " << p.source);
    const ModelSummary s = summarize_model(model(p.file), decode(1, 1));
    const double counted = s.parameters.get_d();
    INFO("counted " << s.parameters.get_str() << ", published " << p.parameters);
    CHECK(std::abs(counted - p.parameters) <= 0.005 * p.parameters);
  }
}

TEST_CASE("every bundled config has a published figure in the table", "[llm][zoo]") {
  std::set<std::string> listed, bundled;
  for (const Published& p : kPublished) listed.insert(p.file);
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(TENET_SOURCE_DIR) + "/workloads/models")) {
    if (entry.path().extension() == ".json") bundled.insert(entry.path().filename().string());
  }
  CHECK(listed == bundled);
}

TEST_CASE("exact parameter counts where the publication gives every digit", "[llm][zoo]") {
  CHECK(summarize_model(model("llama-2-7b.json"), decode(1, 1)).parameters == 6738415616L);
  CHECK(summarize_model(model("pythia-6.9b.json"), decode(1, 1)).parameters == 6857302016L);
  CHECK(summarize_model(model("bloom-560m.json"), decode(1, 1)).parameters == 559214592L);
  CHECK(summarize_model(model("gpt2.json"), decode(1, 1)).parameters == 124439808L);
}

TEST_CASE("Falcon-7B: MQA, fused query_key_value N = (71 + 2)·64 = 4672, plain 4h MLP",
          "[llm][zoo]") {
  const auto shapes = generate_matmuls(model("falcon-7b.json"), decode(2, 300));
  check_shape(find(shapes, "self_attention.query_key_value"), 1, 2, 4672, 4544, 32);
  // one KV head: the 71 query heads stack into M, × B·n_kv = 2
  check_shape(find(shapes, "self_attention.qk"), 2, 71, 300, 64, 32);
  check_shape(find(shapes, "self_attention.pv"), 2, 71, 64, 300, 32);
  check_shape(find(shapes, "self_attention.dense"), 1, 2, 4544, 4544, 32);
  check_shape(find(shapes, "mlp.dense_h_to_4h"), 1, 2, 18176, 4544, 32);
  check_shape(find(shapes, "mlp.dense_4h_to_h"), 1, 2, 4544, 18176, 32);
  check_shape(find(shapes, "lm_head"), 1, 2, 65024, 4544, 1);
  // --qkv separate cannot split what the checkpoint stores fused
  GenerationOptions o = decode(2, 300);
  o.fused_qkv = false;
  CHECK(generate_matmuls(model("falcon-7b.json"), o).size() == shapes.size());
  // MACs: 32 layers × 2 tokens × (4672 + 4544 + 2·18176)·4544 + attention 2·2·71·300·64·32
  // + lm_head 2·65024·4544
  const Integer expected = big(32) * 2 * (4672 + 4544 + 2 * 18176) * 4544 +
                           big(2) * 2 * 71 * 300 * 64 * 32 + big(2) * 65024 * 4544;
  CHECK(total_macs(shapes) == expected);
  // KV cache: 32 layers × 2 (K, V) × 1 head × 64 × 2 bytes
  CHECK(summarize_model(model("falcon-7b.json"), decode(1, 1)).kv_cache_bytes_per_token ==
        32 * 2 * 64 * 2);
}

TEST_CASE("Gemma-2-9B: head size 256 with hidden 3584, local layers capped at the window",
          "[llm][zoo]") {
  const ModelConfig g = model("gemma-2-9b.json");
  const auto shapes = generate_matmuls(g, decode(1, 6000));
  check_shape(find(shapes, "self_attn.qkv_proj"), 1, 1, (16 + 2 * 8) * 256, 3584, 42);
  check_shape(find(shapes, "self_attn.o_proj"), 1, 1, 3584, 16 * 256, 42);
  const auto qk = all_named(shapes, "self_attn.qk");
  REQUIRE(qk.size() == 2);
  check_shape(*qk[0], 8, 2, 4096, 256, 21);  // 21 local layers: 4096 keys of 6000
  check_shape(*qk[1], 8, 2, 6000, 256, 21);  // 21 global layers
  check_shape(find(shapes, "mlp.gate_up_proj"), 1, 1, 2 * 14336, 3584, 42);
  check_shape(find(shapes, "lm_head"), 1, 1, 256000, 3584, 1);
  // short context: both groups attend the same keys and merge into one row
  const auto g_decode = generate_matmuls(g, decode(1, 100));
  CHECK(all_named(g_decode, "self_attn.qk").size() == 1);
}

TEST_CASE("Mistral-Nemo: head size 128 with hidden 5120 (q width 4096)", "[llm][zoo]") {
  const auto shapes = generate_matmuls(model("mistral-nemo-base-2407.json"), prefill(1, 100));
  check_shape(find(shapes, "self_attn.qkv_proj"), 1, 100, (32 + 2 * 8) * 128, 5120, 40);
  check_shape(find(shapes, "self_attn.qk"), 8, 4 * 100, 100, 128, 40);
  check_shape(find(shapes, "self_attn.o_proj"), 1, 100, 5120, 4096, 40);
  check_shape(find(shapes, "mlp.down_proj"), 1, 100, 5120, 14336, 40);
}

TEST_CASE("Mixtral: top-2 of 8 routed experts, uniform in prefill, expected experts in decode",
          "[llm][zoo][moe]") {
  const ModelConfig m = model("mixtral-8x7b-v0.1.json");
  // prefill T = 100: 200 assignments over 8 experts, 25 tokens each
  const auto p = generate_matmuls(m, prefill(1, 100));
  check_shape(find(p, "block_sparse_moe.gate"), 1, 100, 8, 4096, 32);
  check_shape(find(p, "block_sparse_moe.experts.gate_up_proj"), 1, 25, 2 * 14336, 4096, 8 * 32);
  check_shape(find(p, "block_sparse_moe.experts.down_proj"), 1, 25, 4096, 14336, 8 * 32);
  CHECK(all_named(p, "mlp.gate_up_proj").empty());  // no dense MLP
  // T = 13: 26 over 8 → 2 experts with 4 tokens, 6 with 3
  const auto p13 = generate_matmuls(m, prefill(1, 13));  // all_named points into it
  const auto odd = all_named(p13, "block_sparse_moe.experts.down_proj");
  REQUIRE(odd.size() == 2);
  check_shape(*odd[0], 1, 4, 4096, 14336, 2 * 32);
  check_shape(*odd[1], 1, 3, 4096, 14336, 6 * 32);
  // decode B = 1: the 2 chosen experts, one token each
  const auto d1 = generate_matmuls(m, decode(1, 10));
  check_shape(find(d1, "block_sparse_moe.experts.gate_up_proj"), 1, 1, 2 * 14336, 4096, 2 * 32);
  // decode B = 4: 8·(1 − (3/4)^4) = 5.47 → 5 experts share 8 assignments (3 × 2, 2 × 1)
  CHECK(expected_active_experts(4, 2, 8) == Approx(8 * (1 - std::pow(0.75, 4))));
  const auto d4_all = generate_matmuls(m, decode(4, 10));
  const auto d4 = all_named(d4_all, "block_sparse_moe.experts.down_proj");
  REQUIRE(d4.size() == 2);
  check_shape(*d4[0], 1, 2, 4096, 14336, 3 * 32);
  check_shape(*d4[1], 1, 1, 4096, 14336, 2 * 32);
  // active parameters: 2 of 8 experts (the card's 12.9B)
  const ModelSummary s = summarize_model(m, decode(1, 1));
  CHECK(std::abs(s.active_parameters.get_d() - 12.9e9) <= 0.005 * 12.9e9);
}

TEST_CASE("a measured routing histogram replaces uniform routing", "[llm][zoo][moe]") {
  const ModelConfig m = model("mixtral-8x7b-v0.1.json");
  GenerationOptions o = prefill(1, 10);  // 20 assignments
  o.routing = {5, 5, 0, 4, 3, 3, 0, 0};
  const auto all = generate_matmuls(m, o);
  const auto rows = all_named(all, "block_sparse_moe.experts.gate_up_proj");
  REQUIRE(rows.size() == 3);
  check_shape(*rows[0], 1, 5, 2 * 14336, 4096, 2 * 32);
  check_shape(*rows[1], 1, 4, 2 * 14336, 4096, 1 * 32);
  check_shape(*rows[2], 1, 3, 2 * 14336, 4096, 2 * 32);
  o.routing = {5, 5, 0, 4, 3, 3, 0, 1};  // 21 ≠ T·k
  CHECK_THROWS_AS(generate_matmuls(m, o), tenet::InputError);
  o.routing = {20};  // one entry, 8 experts
  CHECK_THROWS_AS(generate_matmuls(m, o), tenet::InputError);
  const auto file = load_expert_routing(std::string(TENET_TEST_DATA_DIR) + "/llm/routing-8.json");
  CHECK(file.size() == 8);
}

TEST_CASE("Qwen (v1): each gated projection is half of intermediate_size", "[llm][zoo]") {
  GenerationOptions o = decode(1, 50);
  o.fused_gate_up = false;
  const auto shapes = generate_matmuls(model("qwen-7b.json"), o);
  check_shape(find(shapes, "attn.c_attn"), 1, 1, 3 * 4096, 4096, 32);
  CHECK(find(shapes, "attn.c_attn").epilogue_ops == 1);        // c_attn has a bias
  CHECK(find(shapes, "attn.c_proj").epilogue_ops == 0);        // no_bias
  check_shape(find(shapes, "mlp.w1"), 1, 1, 11008, 4096, 32);  // 22016 / 2
  check_shape(find(shapes, "mlp.w2"), 1, 1, 11008, 4096, 32);
  check_shape(find(shapes, "mlp.c_proj"), 1, 1, 4096, 11008, 32);
}

TEST_CASE("DeepSeek-V2-Lite: dense layer 0, 26 MoE layers of 64 top-6 experts + 2 shared, MLA",
          "[llm][zoo][moe][mla]") {
  const ModelConfig ds = model("deepseek-v2-lite.json");
  // prefill T = 64: 384 assignments over 64 experts, 6 each; naive MLA
  const auto p = generate_matmuls(ds, prefill(1, 64));
  check_shape(find(p, "self_attn.q_proj"), 1, 64, 16 * 192, 2048, 27);  // no q_lora_rank
  check_shape(find(p, "self_attn.kv_a_proj_with_mqa"), 1, 64, 512 + 64, 2048, 27);
  check_shape(find(p, "self_attn.kv_b_proj"), 1, 64, 16 * (128 + 128), 512, 27);
  check_shape(find(p, "self_attn.qk"), 16, 64, 64, 192, 27);  // per head, one causal tile
  check_shape(find(p, "self_attn.pv"), 16, 64, 128, 64, 27);
  check_shape(find(p, "self_attn.o_proj"), 1, 64, 2048, 16 * 128, 27);
  check_shape(find(p, "mlp.gate_up_proj"), 1, 64, 2 * 10944, 2048, 1);  // dense layer 0
  check_shape(find(p, "mlp.gate"), 1, 64, 64, 2048, 26);
  check_shape(find(p, "mlp.experts.gate_up_proj"), 1, 6, 2 * 1408, 2048, 64 * 26);
  check_shape(find(p, "mlp.shared_experts.gate_up_proj"), 1, 64, 2 * 2816, 2048, 26);
  check_shape(find(p, "mlp.shared_experts.down_proj"), 1, 64, 2048, 2816, 26);
  // decode, absorbed: attention over the 512 + 64 latent, all 16 heads on one cache
  const auto d = generate_matmuls(ds, decode(1, 1000));
  CHECK(all_named(d, "self_attn.kv_b_proj").empty());
  check_shape(find(d, "self_attn.q_absorb"), 16, 1, 512, 128, 27);
  check_shape(find(d, "self_attn.qk"), 1, 16, 1000, 576, 27);
  check_shape(find(d, "self_attn.pv"), 1, 16, 512, 1000, 27);
  check_shape(find(d, "self_attn.v_absorb"), 16, 1, 128, 512, 27);
  check_shape(find(d, "mlp.experts.gate_up_proj"), 1, 1, 2 * 1408, 2048, 6 * 26);
  // KV cache: absorbed (512 + 64) per layer; naive 16·(192 + 128)
  CHECK(summarize_model(ds, decode(1, 1)).kv_cache_bytes_per_token == 27 * 576 * 2);
  GenerationOptions naive = decode(1, 1000);
  naive.mla = MlaPath::kNaive;
  CHECK(summarize_model(ds, naive).kv_cache_bytes_per_token == 27 * 16 * 320 * 2);
  check_shape(find(generate_matmuls(ds, naive), "self_attn.qk"), 16, 1, 1000, 192, 27);
  // both paths hold the same weights
  CHECK(summarize_model(ds, naive).parameters == summarize_model(ds, decode(1, 1)).parameters);
}

TEST_CASE("Phi-3 and ChatGLM3: fused checkpoint matrices, ChatGLM's 2 KV groups", "[llm][zoo]") {
  GenerationOptions apart = decode(1, 10);
  apart.fused_qkv = false, apart.fused_gate_up = false;
  const auto phi3 = generate_matmuls(model("phi-3-mini-4k-instruct.json"), apart);
  check_shape(find(phi3, "self_attn.qkv_proj"), 1, 1, 3 * 3072, 3072, 32);
  check_shape(find(phi3, "mlp.gate_up_proj"), 1, 1, 2 * 8192, 3072, 32);
  const auto glm = generate_matmuls(model("chatglm3-6b.json"), apart);
  check_shape(find(glm, "self_attention.query_key_value"), 1, 1, (32 + 2 * 2) * 128, 4096, 28);
  check_shape(find(glm, "self_attention.qk"), 2, 16, 10, 128, 28);
  check_shape(find(glm, "mlp.dense_h_to_4h"), 1, 1, 2 * 13696, 4096, 28);
  check_shape(find(glm, "output_layer"), 1, 1, 65024, 4096, 1);
}

TEST_CASE("OPT-350m projects its 512-wide embeddings in and out", "[llm][zoo]") {
  const auto shapes = generate_matmuls(model("opt-350m.json"), prefill(2, 20));
  check_shape(find(shapes, "project_in"), 1, 40, 1024, 512, 1);
  check_shape(find(shapes, "self_attn.qkv_proj"), 1, 40, 3 * 1024, 1024, 24);
  check_shape(find(shapes, "self_attn.out_proj"), 1, 40, 1024, 1024, 24);
  check_shape(find(shapes, "fc1"), 1, 40, 4096, 1024, 24);
  check_shape(find(shapes, "project_out"), 1, 2, 512, 1024, 1);
  check_shape(find(shapes, "lm_head"), 1, 2, 50272, 512, 1);
}

TEST_CASE("GPT-NeoX, BLOOM, StarCoder, StarCoder2, Phi-2: names and widths", "[llm][zoo]") {
  const auto neox = generate_matmuls(model("pythia-6.9b.json"), decode(1, 10));
  check_shape(find(neox, "attention.query_key_value"), 1, 1, 3 * 4096, 4096, 32);
  check_shape(find(neox, "mlp.dense_h_to_4h"), 1, 1, 16384, 4096, 32);
  check_shape(find(neox, "embed_out"), 1, 1, 50432, 4096, 1);
  const auto bloom = generate_matmuls(model("bloom-560m.json"), decode(1, 10));
  check_shape(find(bloom, "mlp.dense_h_to_4h"), 1, 1, 4096, 1024, 24);
  const auto star = generate_matmuls(model("starcoder.json"), decode(1, 10));
  check_shape(find(star, "attn.c_attn"), 1, 1, 6144 + 2 * 128, 6144, 40);  // MQA
  check_shape(find(star, "attn.qk"), 1, 48, 10, 128, 40);
  const auto star2 = generate_matmuls(model("starcoder2-7b.json"), decode(1, 5000));
  check_shape(find(star2, "self_attn.qk"), 4, 9, 4096, 128, 32);  // window 4096, r = 9
  check_shape(find(star2, "mlp.c_fc"), 1, 1, 18432, 4608, 32);
  const auto phi2 = generate_matmuls(model("phi-2.json"), decode(1, 10));
  check_shape(find(phi2, "self_attn.dense"), 1, 1, 2560, 2560, 32);
  check_shape(find(phi2, "mlp.fc1"), 1, 1, 10240, 2560, 32);
  CHECK(find(phi2, "lm_head").epilogue_ops == 1);
}

TEST_CASE("tenet model runs end to end on every bundled config (table, JSON, CSV)",
          "[llm][zoo][cli]") {
  for (const Published& p : kPublished) {
    const std::string args = "model --model " + model_path(p.file) + " --array 8x8";
    for (const char* phase :
         {" --phase prefill --prompt 32", " --phase decode --context 64 --batch 3"}) {
      for (const char* format : {"table", "json", "csv"}) {
        const CliRun r = run_cli(args + phase + " --format " + format);
        INFO(p.file << phase << " " << format << "\n" << r.out);
        REQUIRE(r.exit_code == 0);
        if (std::string(format) == "json") {
          const auto doc = nlohmann::json::parse(r.out);
          CHECK(doc.at("summary").at("parameters").is_number_integer());
          CHECK(doc.at("assumptions").is_array());
          CHECK(doc.at("totals").at("macs").get<double>() > 0);
        } else if (std::string(format) == "table") {
          CHECK(r.out.find("parameters: ") != std::string::npos);
          CHECK(r.out.find("kv_cache_bytes_per_token: ") != std::string::npos);
        } else {
          CHECK(r.out.find("\ntotal,") != std::string::npos);
        }
      }
    }
  }
}

TEST_CASE("MoE and MLA models through tenet sweep (CSV, JSON Lines) and tenet search",
          "[llm][zoo][cli]") {
  const std::string spec = std::string(TENET_TEST_DATA_DIR) + "/llm/moe-mla-sweep.json";
  const std::string dir = std::string(TENET_BINARY_DIR) + "/tests";
  for (const char* out : {"/moe-mla-sweep.csv", "/moe-mla-sweep.jsonl"}) {
    const std::string path = dir + out;
    std::remove(path.c_str());
    const CliRun r = run_cli("sweep --progress none --spec " + tenet::test::shell_quoted(spec) +
                             " --out " + tenet::test::shell_quoted(path));
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    // 2 dataflows × 2 schemes × (2 phases × 2 batches + 2 + 2) workload points
    CHECK(r.out.find("32 written (0 with errors)") != std::string::npos);
  }
  for (const char* format : {"table", "json"}) {
    const CliRun r =
        run_cli("search --model " + model_path("deepseek-v2-lite.json") +
                " --phase decode --context 128 --arch systolic-32x32 --format " + format);
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("self_attn.q_absorb") != std::string::npos);
    CHECK(r.out.find("mlp.experts.gate_up_proj") != std::string::npos);
  }
}

TEST_CASE("MAC totals of whole passes against hand derivations", "[llm][zoo]") {
  // Mixtral prefill, S = 100: QKV, attention (r = 4, one 100×100 causal tile), O, router, 8
  // experts × 25 tokens, lm_head of the last token.
  const Integer mixtral = big(100) * 6144 * 4096 * 32 + big(2) * 8 * 400 * 100 * 128 * 32 +
                          big(100) * 4096 * 4096 * 32 + big(100) * 8 * 4096 * 32 +
                          big(25) * 28672 * 4096 * 256 + big(25) * 4096 * 14336 * 256 +
                          big(32000) * 4096;
  CHECK(total_macs(generate_matmuls(model("mixtral-8x7b-v0.1.json"), prefill(1, 100))) == mixtral);
  // DeepSeek-V2-Lite decode, B = 1, L = 1000, absorbed MLA; layer 0 dense; 26 MoE layers with 6
  // experts of one token and the 2 shared experts.
  const Integer ds = big(3072) * 2048 * 27 + big(576) * 2048 * 27 + big(16) * 512 * 128 * 27 +
                     big(16) * 1000 * 576 * 27 + big(16) * 512 * 1000 * 27 +
                     big(16) * 128 * 512 * 27 + big(2048) * 2048 * 27 + big(21888) * 2048 +
                     big(2048) * 10944 + big(64) * 2048 * 26 + big(2816) * 2048 * 6 * 26 +
                     big(2048) * 1408 * 6 * 26 + big(5632) * 2048 * 26 + big(2048) * 2816 * 26 +
                     big(102400) * 2048;
  CHECK(total_macs(generate_matmuls(model("deepseek-v2-lite.json"), decode(1, 1000))) == ds);
  // Qwen-7B prefill, S = 300 = 2·128 + 44: causal tiles 3 of 128×128, 2 of 44×128, 1 of 44×44
  // per head (n_kv = n_h = 32); gated MLP of 2·11008.
  const Integer tiles = big(3) * 128 * 128 + big(2) * 44 * 128 + big(44) * 44;
  const Integer qwen = big(300) * 12288 * 4096 * 32 + big(2) * 32 * 32 * 128 * tiles +
                       big(300) * 4096 * 4096 * 32 + big(300) * 22016 * 4096 * 32 +
                       big(300) * 4096 * 11008 * 32 + big(151936) * 4096;
  CHECK(total_macs(generate_matmuls(model("qwen-7b.json"), prefill(1, 300))) == qwen);
  // the same with --attention dense: one 300×300 product per head
  GenerationOptions dense = prefill(1, 300);
  dense.attention = AttentionMask::kDense;
  CHECK(total_macs(generate_matmuls(model("qwen-7b.json"), dense)) ==
        qwen - big(2) * 32 * 32 * 128 * tiles + big(2) * 32 * 32 * 300 * 300 * 128);
  // Gemma-2-9B decode, L = 6000: 21 local layers attend 4096 keys, 21 global 6000.
  const Integer gemma = big(8192) * 3584 * 42 + big(2) * 8 * 2 * 256 * (4096 + 6000) * 21 +
                        big(3584) * 4096 * 42 + big(28672) * 3584 * 42 + big(3584) * 14336 * 42 +
                        big(256000) * 3584;
  CHECK(total_macs(generate_matmuls(model("gemma-2-9b.json"), decode(1, 6000))) == gemma);
}

}  // namespace llm_model_zoo_test
