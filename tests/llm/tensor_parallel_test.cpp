// Tensor parallelism (llm::tensor_parallel_shard, llm::evaluate_request with tp > 1): every
// layer kind's work divides by tp — checked matmul by matmul against the whole model's list, for
// dense GQA, GQA with 2 KV heads, multi-head, MoE, MLA and hybrid configs — the per-chip time and
// memory fall to about 1/tp, the collectives are counted per block, and a split that cannot be
// made evenly is refused naming the model, the layer kind and tp.
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>

#include "input_error_of.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/generation.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using namespace tenet::llm;

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace llm_tensor_parallel_test {

namespace {

ModelConfig bundled(const std::string& name) {
  return load_model_config(std::string(TENET_SOURCE_DIR) + "/workloads/models/" + name + ".json");
}
ModelConfig test_data(const std::string& path) {
  return load_model_config(std::string(TENET_TEST_DATA_DIR) + "/llm/" + path + ".json");
}

// Dense GQA (8 KV heads), GQA with 2 KV heads, multi-head (gated and plain MLP, Baichuan an
// unknown family), MoE (Mixtral; Qwen-MoE with a shared expert), MLA + MoE, and the hybrids
// (Mamba-1 + MoE, Mamba-2, Gated DeltaNet + MoE, DeciLM's per-layer blocks with linears).
std::vector<ModelConfig> models() {
  return {bundled("llama-3-8b"),
          test_data("tp/qwen2-1.5b"),
          bundled("chatglm3-6b"),
          bundled("llama-2-7b"),
          bundled("gpt2"),
          test_data("tp/baichuan2-7b-base"),
          bundled("mixtral-8x7b-v0.1"),
          bundled("qwen1.5-moe-a2.7b"),
          test_data("tp/qwen2-57b-a14b"),
          bundled("deepseek-v2-lite"),
          bundled("jamba-v0.1"),
          test_data("nemotron-h-8b-base-8k"),
          bundled("qwen3-next-80b-a3b-instruct"),
          bundled("llama-3.3-nemotron-super-49b-v1")};
}

// Σ MACs (count·batch·M·N·K; fused attention: MatmulShape::macs) per matmul name.
std::map<std::string, double> macs_by_name(const ModelConfig& m, const GenerationOptions& g) {
  std::map<std::string, double> out;
  for (const MatmulShape& s : generate_matmuls(m, g))
    out[s.name] += s.macs().get_d();  // a fused attention row: its two products' MACs
  return out;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Matmuls every chip runs whole: the MoE router and Qwen-MoE's shared-expert gate, MLA's latent
// projections.
bool replicated(const ModelConfig& m, const std::string& name) {
  if (m.moe && (name == m.names.moe + "gate" || ends_with(name, "shared_expert_gate"))) return true;
  return name == "self_attn.q_a_proj" || name == "self_attn.kv_a_proj_with_mqa";
}

// The smallest KV-head count of the attention layers.
std::int64_t min_kv_heads(const ModelConfig& m) {
  std::int64_t kv = m.kv_heads;
  for (const LayerSpec& l : m.stack)
    if (l.mixer == MixerKind::kAttention) kv = std::min(kv, l.kv_heads);
  return kv;
}

// cycles = ceil(MACs / 256) + 100 per call (a fixed overhead that does not divide).
LayerCost fake_cost(const MatmulShape& s) {
  const std::int64_t macs = s.batch * s.m * s.n * s.k;
  LayerCost c;
  c.cycles = Integer(static_cast<long>((macs + 255) / 256 + 100));
  c.bound = "compute";
  c.dram_bytes = Integer(static_cast<long>(2 * s.batch * (s.m * s.k + s.n * s.k + s.m * s.n)));
  c.sram_bytes = c.dram_bytes;
  return c;
}

arch::Accelerator accelerator() {
  arch::AcceleratorSpec s = arch::load_accelerator_preset("scalable-32x32").spec();
  s.serving.link.reset();
  return arch::Accelerator(s);
}

const quant::QuantSpec& fp16() {
  static const quant::QuantSpec q = quant::load_quant("q0f16");
  return q;
}

RequestOptions request(std::int64_t tp) {
  RequestOptions o;
  o.prompt = 256;
  o.tokens = 4;
  o.batch = 2;
  o.tp = tp;
  o.link_gbps = 400;
  return o;
}

double matmul_seconds(const RequestReport& r) {
  for (const auto& [kind, t] : r.ops)
    if (kind == "matmul") return t.seconds;
  FAIL("no matmul time");
  return 0;
}

InputError shard_error(const ModelConfig& m, std::int64_t tp) {
  return test::error_of([&] { tensor_parallel_shard(m, tp); });
}

}  // namespace

TEST_CASE("tensor parallelism divides every matmul by tp but what is replicated", "[llm][tp]") {
  for (const ModelConfig& m : models()) {
    for (std::int64_t tp : {2, 4}) {
      INFO(m.name << " at tp " << tp);
      const ModelConfig chip = tensor_parallel_shard(m, tp);
      CHECK(chip.shards == tp);
      for (Phase phase : {Phase::kPrefill, Phase::kDecode}) {
        GenerationOptions g;
        g.phase = phase;
        g.batch = 3;
        g.prompt = 200;
        g.context = 201;
        g.fused_qkv = false;  // K and V apart from Q: their replication is checked alone
        const auto whole = macs_by_name(m, g);
        const auto one = macs_by_name(chip, g);
        REQUIRE(whole.size() == one.size());
        for (const auto& [name, macs] : whole) {
          INFO(name << (phase == Phase::kPrefill ? " prefill" : " decode"));
          REQUIRE(one.count(name) == 1);
          const double got = one.at(name);
          if (replicated(m, name)) {
            CHECK(got == macs);
          } else if (name == m.names.lm_head) {  // ⌈V/tp⌉ rows of the vocabulary
            CHECK(got == Approx(macs / static_cast<double>(m.vocab) *
                                static_cast<double>((m.vocab + tp - 1) / tp)));
          } else if (!m.mla && (name == m.names.k || name == m.names.v)) {
            // KV heads split, or replicated (each chip one) when fewer than tp.
            const double kv = static_cast<double>(min_kv_heads(m));
            CHECK(got == Approx(kv >= tp ? macs / tp : macs / kv));
          } else if (!m.mla && name == m.names.qkv) {  // fused: Q split, K and V as above
            const double q = static_cast<double>(m.heads * (m.gated_attention ? 2 : 1));
            const double kv = static_cast<double>(min_kv_heads(m));
            const double kv_chip = kv >= tp ? kv / tp : 1;
            CHECK(got == Approx(macs * (q / tp + 2 * kv_chip) / (q + 2 * kv)));
          } else if (name == "mixer.in_proj" && m.ssm->groups < tp) {
            CHECK(got > macs / tp);  // the B/C groups replicated
          } else {
            CHECK(got == Approx(macs / tp).epsilon(1e-12));
          }
        }
      }
    }
  }
}

TEST_CASE("tensor parallelism: per-chip matmul time and memory fall to about 1/tp", "[llm][tp]") {
  const CostModel cost{fake_cost, 1e9, "fake"};
  for (const ModelConfig& m : models()) {
    const RequestReport one = evaluate_request(m, request(1), cost, accelerator(), fp16());
    for (std::int64_t tp : {2, 4}) {
      INFO(m.name << " at tp " << tp);
      const RequestReport r = evaluate_request(m, request(tp), cost, accelerator(), fp16());
      const double time = matmul_seconds(r) / matmul_seconds(one);
      CHECK(time >= 0.85 / tp);
      CHECK(time <= 1.2 / tp);
      const double memory = r.memory.per_chip_bytes.get_d() / one.memory.per_chip_bytes.get_d();
      CHECK(memory >= 1.0 / tp);  // nothing is held by fewer than all chips
      CHECK(memory <= 1.0 / tp + 0.15);
      CHECK(r.parallel.layer_collective_bytes > 0);
      CHECK(r.parallel.embedding_collective_bytes > 0);
      CHECK(r.parallel.logits_collective_bytes > 0);
      // The model's memory in all does not depend on the split.
      CHECK(r.memory.total_bytes == one.memory.total_bytes);
      CHECK(r.ttft_seconds < one.ttft_seconds);
    }
  }
}

TEST_CASE("tensor parallelism: one chip's memory by hand", "[llm][tp]") {
  const CostModel cost{fake_cost, 1e9, "fake"};
  SECTION("Llama-3-8B at tp 2: norms and the residual stream replicated") {
    const ModelConfig m = bundled("llama-3-8b");
    RequestOptions o = request(1);
    o.prompt = 64, o.tokens = 5, o.batch = 2;
    const RequestReport whole = evaluate_request(m, o, cost, accelerator(), fp16());
    o.tp = 2;
    const RequestReport two = evaluate_request(m, o, cost, accelerator(), fp16());
    const long h = 4096, inter = 14336, norms = (2 * 32 + 1) * h;  // fp16: 2 bytes each
    // Weights: every matrix and the vocabulary halved, the norms whole.
    CHECK(two.memory.per_chip_weights_bytes ==
          (whole.memory.weights_bytes + Integer(2 * norms)) / 2);
    // KV cache: 8 KV heads, 4 per chip.
    CHECK(two.memory.per_chip_kv_cache_bytes == whole.memory.kv_cache_bytes / 2);
    // Activations per sequence: the residual stream P·h and the largest matmul's input and
    // output on the chip (gate_up: P × (h + 2·I/2)).
    const Integer act = Integer(2L * 2 * (64 * h + 64 * (h + inter)));
    CHECK(two.memory.per_chip_bytes ==
          two.memory.per_chip_weights_bytes + two.memory.per_chip_kv_cache_bytes + act);
  }
  SECTION("Qwen2-1.5B at tp 4: 2 KV heads replicated, each chip holds one") {
    const ModelConfig m = test_data("tp/qwen2-1.5b");
    const RequestReport whole = evaluate_request(m, request(1), cost, accelerator(), fp16());
    const RequestReport four = evaluate_request(m, request(4), cost, accelerator(), fp16());
    CHECK(four.memory.per_chip_kv_cache_bytes == whole.memory.kv_cache_bytes / 2);
    CHECK(four.memory.kv_cache_bytes == whole.memory.kv_cache_bytes);
  }
  SECTION("pipeline stages divide the chip's share") {
    const ModelConfig m = bundled("llama-3-8b");
    RequestOptions o = request(2);
    const RequestReport tp = evaluate_request(m, o, cost, accelerator(), fp16());
    o.pp = 2;
    const RequestReport both = evaluate_request(m, o, cost, accelerator(), fp16());
    CHECK(both.memory.per_chip_bytes == (tp.memory.per_chip_bytes + 1) / 2);
  }
}

TEST_CASE("tensor parallelism: one all-reduce per block that ends in the residual stream",
          "[llm][tp]") {
  const CostModel cost{fake_cost, 1e9, "fake"};
  RequestOptions o = request(2);
  o.prompt = 10, o.tokens = 3, o.batch = 1;
  const Integer tokens = 10 + 3 - 1;
  // Ring of 2: each chip sends the whole T·h tensor (fp16) once per all-reduce.
  SECTION("GPT-J: attention and MLP in parallel, one per layer") {
    const RequestReport r = evaluate_request(bundled("gpt-j-6b"), o, cost, accelerator(), fp16());
    CHECK(r.parallel.layer_collective_bytes == tokens * 28 * 4096 * 2);
  }
  SECTION("Nemotron-H: every layer is one block (a mixer or an MLP)") {
    const RequestReport r =
        evaluate_request(test_data("nemotron-h-8b-base-8k"), o, cost, accelerator(), fp16());
    CHECK(r.parallel.layer_collective_bytes == tokens * 52 * 4096 * 2);
  }
  SECTION("Jamba: two per layer and the x_proj of each Mamba layer (dt_rank + 2·state)") {
    const RequestReport r = evaluate_request(bundled("jamba-v0.1"), o, cost, accelerator(), fp16());
    CHECK(r.parallel.layer_collective_bytes ==
          tokens * 32 * 2 * 4096 * 2 + tokens * 28 * (256 + 2 * 16) * 2);
  }
}

TEST_CASE("tensor parallelism: splits that cannot be made name the model, the layer kind and tp",
          "[llm][tp][errors]") {
  // Multi-head attention splits (this was "self_attn.qk: expected m > 0, got 0").
  CHECK(tensor_parallel_shard(bundled("llama-2-7b"), 2).kv_heads == 16);
  CHECK(tensor_parallel_shard(bundled("gpt2"), 4).heads == 3);

  auto check = [](const InputError& e, std::vector<std::string> parts) {
    INFO(e.what());
    CHECK(e.where() == "tp");
    CHECK(e.code() == error_code::kRange);
    for (const std::string& p : parts) CHECK(std::string(e.what()).find(p) != std::string::npos);
  };
  check(shard_error(bundled("falcon-7b"), 2),
        {"falcon-7b", "tp = 2", "attention layers", "71 query heads"});
  // 2 KV heads over 3 chips: neither split nor replicated evenly (12 query heads do split).
  check(shard_error(test_data("tp/qwen2-1.5b"), 3),
        {"qwen2-1.5b", "tp = 3", "attention layers", "2 KV heads", "neither split", "replicated"});
  ModelConfig moe = bundled("deepseek-v2-lite");  // 16 heads, experts of 1408
  check(shard_error(moe, 3), {"attention layers (MLA)", "16 query heads"});
  moe.moe->expert_intermediate = 1407;
  check(shard_error(moe, 2), {"MoE experts", "1407 channels of each expert", "tp = 2"});
  ModelConfig dense = bundled("llama-3-8b");
  dense.stack[3].ffn_width = 14335;
  check(shard_error(dense, 2), {"dense MLP", "14335 MLP channels"});
  ModelConfig nemotron = test_data("nemotron-h-8b-base-8k");  // 128 Mamba-2 heads, 8 groups
  nemotron.ssm->groups = 3;
  check(shard_error(nemotron, 2), {"Mamba-2 layers", "3 B/C groups"});
  ModelConfig next = bundled("qwen3-next-80b-a3b-instruct");  // 16 key, 32 value heads
  next.deltanet->key_heads = 6;
  check(shard_error(next, 4), {"Gated DeltaNet layers", "6 key heads", "tp = 4"});
  ModelConfig jamba = bundled("jamba-v0.1");
  jamba.ssm->inner = 8190;
  check(shard_error(jamba, 4), {"Mamba layers", "8190 inner channels"});
  // Through a request, the same error.
  const CostModel cost{fake_cost, 1e9, "fake"};
  check(test::error_of([&] {
          evaluate_request(bundled("falcon-7b"), request(2), cost, accelerator(), fp16());
        }),
        {"falcon-7b", "71 query heads"});
}

}  // namespace llm_tensor_parallel_test
