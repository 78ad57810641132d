// A whole generation request (llm::evaluate_request) and the non-matmul operators of a pass
// (llm::vector_ops), checked against figures derived by hand from the model configs: a dense GQA
// model (Llama-3-8B), a MoE model (Mixtral-8x7B) and an MLA model (DeepSeek-V2-Lite, whose KV
// cache is the latent). Matmul costs come from a fake evaluator (simple formulas of the shape):
// only the request's bookkeeping is tested here; the matmul model has its own tests.
#include "tenet/llm/generation.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>

#include "input_error_of.hpp"
#include "llm/vector_ops.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/quant/quant_json.hpp"

using namespace tenet;
using namespace tenet::llm;

namespace {

// cycles = ceil(MACs / 256) + 100; DRAM bytes from the fp16 operand sizes.
LayerCost fake_cost(const MatmulShape& s) {
  const std::int64_t macs = s.batch * s.m * s.n * s.k;
  LayerCost c;
  c.cycles = Integer(static_cast<long>((macs + 255) / 256 + 100));
  c.bound = "compute";
  c.dram_bytes = Integer(static_cast<long>(2 * s.batch * (s.m * s.k + s.n * s.k + s.m * s.n)));
  c.sram_bytes = c.dram_bytes;
  return c;
}

CostModel fake_model() { return CostModel{fake_cost, 1e9, "fake"}; }

ModelConfig model(const std::string& name) {
  return load_model_config(std::string(TENET_SOURCE_DIR) + "/workloads/models/" + name + ".json");
}

arch::Accelerator accelerator(std::optional<long long> capacity = std::nullopt) {
  arch::AcceleratorSpec s = arch::load_accelerator_preset("scalable-32x32").spec();
  s.serving.capacity_bytes = capacity;
  s.serving.link.reset();  // every test states its link
  return arch::Accelerator(s);
}

const quant::QuantSpec& fp16() {
  static const quant::QuantSpec q = quant::load_quant("q0f16");
  return q;
}

RequestOptions request(std::int64_t prompt, std::int64_t tokens, std::int64_t batch) {
  RequestOptions o;
  o.prompt = prompt;
  o.tokens = tokens;
  o.batch = batch;
  return o;
}

double prefill_matmul_seconds(const ModelConfig& m, const RequestOptions& o) {
  GenerationOptions g;
  g.phase = Phase::kPrefill;
  g.batch = o.batch;
  g.prompt = o.prompt;
  double cycles = 0;
  for (const MatmulShape& s : generate_matmuls(m, g))
    cycles += fake_cost(s).cycles.get_d() * static_cast<double>(s.count);
  return cycles / 1e9;
}

double relative(const Integer& got, double want) { return std::abs(got.get_d() / want - 1); }

// The timeline's invariants, on any request.
void check_timeline(const ModelConfig& m, const RequestOptions& o, const RequestReport& r) {
  REQUIRE(r.steps.size() == static_cast<std::size_t>(o.tokens - 1));
  double sum = 0;
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    CHECK(r.steps[i].context == o.prompt + static_cast<std::int64_t>(i) + 1);
    if (i > 0) CHECK(r.steps[i].seconds >= r.steps[i - 1].seconds);
    sum += r.steps[i].seconds;
  }
  CHECK(r.e2e_seconds == Approx(r.ttft_seconds + sum).epsilon(1e-12));
  REQUIRE(r.tpot_seconds);
  CHECK(*r.tpot_seconds == Approx(sum / static_cast<double>(r.steps.size())));
  CHECK(r.tokens_per_second ==
        Approx(static_cast<double>(o.batch * o.tokens) / r.e2e_seconds).epsilon(1e-12));
  // The prefill's matmuls as one chip runs them (its tensor-parallel shard; all the layers).
  if (o.pp == 1) CHECK(r.ttft_seconds >= prefill_matmul_seconds(tensor_parallel_shard(m, o.tp), o));
  for (const auto& [kind, t] : r.ops) {
    INFO(kind);
    CHECK(t.seconds > 0);
  }
}

std::map<std::string, OpTotal> ops_of(const RequestReport& r) {
  return {r.ops.begin(), r.ops.end()};
}

}  // namespace

TEST_CASE("request of a dense GQA model (Llama-3-8B): timeline, memory, fits", "[generation]") {
  const ModelConfig m = model("llama-3-8b");
  const RequestOptions o = request(100, 9, 4);
  const RequestReport r = evaluate_request(m, o, fake_model(), accelerator(), fp16());
  check_timeline(m, o, r);
  const auto ops = ops_of(r);
  for (const char* kind :
       {"matmul", "norm", "rotary", "activation", "residual", "kv_append", "embedding", "logits"})
    CHECK(ops.count(kind) == 1);
  CHECK(ops.count("routing") == 0);
  // The fused attention kernel carries its online softmax: no softmax row (not counted twice);
  // the unfused qk / pv have one.
  CHECK(ops.count("softmax") == 0);
  RequestOptions unfused = o;
  unfused.pass.fused_attention = false;
  CHECK(
      ops_of(evaluate_request(m, unfused, fake_model(), accelerator(), fp16())).count("softmax") ==
      1);

  // Weights: 2 bytes × every matmul weight, the (untied) embedding and lm_head included.
  const double h = 4096, kv = 1024, inter = 14336, vocab = 128256, layers = 32;
  const double per_layer = h * h + 2 * h * kv + h * h + 3 * h * inter;
  const double weights = 2 * (layers * per_layer + 2 * vocab * h);
  CHECK(relative(r.memory.weights_bytes, weights) < 0.01);
  // KV cache: B·(P+G)·2·layers·n_kv·d·2 bytes, exactly.
  CHECK(r.memory.kv_cache_bytes == Integer(4L * 109 * 2 * 32 * 8 * 128 * 2));
  CHECK(r.memory.total_bytes ==
        r.memory.weights_bytes + r.memory.kv_cache_bytes + r.memory.activation_bytes);
  CHECK_FALSE(r.memory.capacity_bytes);
  CHECK_FALSE(r.memory.fits);

  // fits ⇔ total ≤ capacity; max_batch is the largest batch that fits.
  const long long total = poly::to_int64(r.memory.total_bytes);
  for (long long capacity : {total, total - 1, 2 * total, total / 2}) {
    const RequestReport c = evaluate_request(m, o, fake_model(), accelerator(capacity), fp16());
    REQUIRE(c.memory.fits);
    CHECK(*c.memory.fits == (total <= capacity));
    REQUIRE(c.memory.max_batch);
    const std::int64_t max_batch = *c.memory.max_batch;
    CHECK((max_batch >= o.batch) == *c.memory.fits);
    if (max_batch > 0) {
      const RequestReport at = evaluate_request(m, request(100, 9, max_batch), fake_model(),
                                                accelerator(capacity), fp16());
      CHECK(*at.memory.fits);
    }
    const RequestReport above = evaluate_request(m, request(100, 9, max_batch + 1), fake_model(),
                                                 accelerator(capacity), fp16());
    CHECK_FALSE(*above.memory.fits);
  }
}

TEST_CASE("tensor parallelism: two all-reduces per layer over a ring, a shorter TTFT",
          "[generation]") {
  const ModelConfig m = model("llama-3-8b");
  RequestOptions o = request(64, 5, 2);
  const RequestReport one = evaluate_request(m, o, fake_model(), accelerator(), fp16());
  CHECK(one.parallel.layer_collective_bytes == 0);
  CHECK(one.parallel.collective_seconds == 0);
  o.tp = 2;
  o.link_gbps = 800;
  o.link_latency_us = 1;
  const RequestReport two = evaluate_request(m, o, fake_model(), accelerator(), fp16());
  check_timeline(m, o, two);
  // Ring all-reduce over 2 chips: each chip sends 2·(2−1)/2 = 1× the tensor; B·(P+G−1) tokens.
  CHECK(two.parallel.layer_collective_bytes == Integer(32L * 2 * 2 * (64 + 5 - 1) * 4096 * 2));
  CHECK(two.parallel.embedding_collective_bytes == Integer(2L * (64 + 5 - 1) * 4096 * 2));
  // Logits: an all-gather of B rows of the vocabulary per pass, each chip sends half.
  CHECK(two.parallel.logits_collective_bytes == Integer(5L * 2 * 128256 * 2 / 2));
  CHECK(two.parallel.collective_seconds > 0);
  CHECK(two.ttft_seconds < one.ttft_seconds);
  // The request's memory is the model's whatever the split; per chip at least half of it (norms
  // and the residual stream are replicated: tensor_parallel_test.cpp has it by hand).
  CHECK(two.memory.weights_bytes == one.memory.weights_bytes);
  CHECK(two.memory.per_chip_bytes > (one.memory.total_bytes + 1) / 2);
  CHECK(two.memory.per_chip_bytes < one.memory.total_bytes);

  SECTION("no link: an error naming link_gbps") {
    o.link_gbps.reset();
    const InputError e =
        test::error_of([&] { evaluate_request(m, o, fake_model(), accelerator(), fp16()); });
    CHECK(e.where() == "link_gbps");
  }
  SECTION("a split that does not divide the heads") {
    o.tp = 3;
    const InputError e =
        test::error_of([&] { evaluate_request(m, o, fake_model(), accelerator(), fp16()); });
    CHECK(e.where() == "tp");
  }
}

TEST_CASE("pipeline parallelism: stages, micro-batches and the bubble", "[generation]") {
  const ModelConfig m = model("llama-3-8b");
  RequestOptions o = request(32, 3, 4);
  o.pp = 2;
  o.link_gbps = 800;
  const RequestReport r = evaluate_request(m, o, fake_model(), accelerator(), fp16());
  check_timeline(m, o, r);
  CHECK(r.parallel.micro_batches == 2);
  CHECK(r.parallel.bubble_fraction == Approx(1.0 / 3));
  // Each micro-batch hands its activations (b·tokens·h·2 bytes) to the next stage once per pass.
  CHECK(r.parallel.pipeline_bytes == Integer(4L * (32 + 2) * 4096 * 2));
  o.micro_batches = 5;
  CHECK(test::error_of([&] {
          evaluate_request(m, o, fake_model(), accelerator(), fp16());
        }).where() == "micro_batches");
}

TEST_CASE("request of a MoE model (Mixtral-8x7B): routing, every expert's weights",
          "[generation]") {
  const ModelConfig m = model("mixtral-8x7b-v0.1");
  const RequestOptions o = request(40, 4, 3);
  const RequestReport r = evaluate_request(m, o, fake_model(), accelerator(), fp16());
  check_timeline(m, o, r);
  CHECK(ops_of(r).count("routing") == 1);
  const double h = 4096, kv = 1024, inter = 14336, vocab = 32000, layers = 32;
  const double per_layer = 2 * h * h + 2 * h * kv + 8 * 3 * h * inter + h * 8;
  CHECK(relative(r.memory.weights_bytes, 2 * (layers * per_layer + 2 * vocab * h)) < 0.01);
  CHECK(r.memory.kv_cache_bytes == Integer(3L * 44 * 2 * 32 * 8 * 128 * 2));

  RequestOptions split = o;
  split.tp = 2;
  split.link_gbps = 800;
  const RequestReport two = evaluate_request(m, split, fake_model(), accelerator(), fp16());
  CHECK(two.parallel.layer_collective_bytes == Integer(32L * 2 * 3 * (40 + 4 - 1) * 4096 * 2));
  CHECK(two.ttft_seconds < r.ttft_seconds);
}

TEST_CASE("request of an MLA model (DeepSeek-V2-Lite): the KV cache is the latent",
          "[generation]") {
  const ModelConfig m = model("deepseek-v2-lite");
  const RequestOptions o = request(50, 6, 2);
  const RequestReport r = evaluate_request(m, o, fake_model(), accelerator(), fp16());
  check_timeline(m, o, r);
  CHECK(ops_of(r).count("routing") == 1);
  // B·(P+G)·layers·(kv_lora_rank + rope dims)·2 bytes.
  CHECK(r.memory.kv_cache_bytes == Integer(2L * 56 * 27 * (512 + 64) * 2));
}

TEST_CASE("non-matmul DRAM bytes of one layer, by hand", "[generation]") {
  GenerationOptions g;
  g.fused_attention = false;  // the attention_softmax row of the unfused qk / pv
  g.phase = Phase::kDecode;
  g.batch = 2;
  g.context = 10;
  const ElementBits fp16_bits;
  auto find = [](const std::vector<VectorOp>& ops, const std::string& name) {
    for (const VectorOp& v : ops)
      if (v.name == name) return v;
    FAIL("no operator " << name);
    return VectorOp{};
  };
  SECTION("dense GQA: norms, residual adds, rotary + KV append") {
    const ModelConfig m = model("llama-3-8b");
    const auto ops = vector_ops(m, g, generate_matmuls(m, g), fp16_bits);
    const std::int64_t t = 2, h = 4096;
    const VectorOp norm = find(ops, "layer_norms");
    CHECK(norm.count == 64);
    CHECK(norm.dram_bytes == 2 * t * h * 2 + h * 2);  // read, write, weights
    CHECK(norm.ops == 4 * t * h);
    const VectorOp add = find(ops, "residual_add");
    CHECK(add.count == 64);
    CHECK(add.dram_bytes == 2 * t * h * 2);
    const VectorOp rope = find(ops, "rotary");
    CHECK(rope.dram_bytes == t * (4096 + 2 * 1024) * 2 + t * 4096 * 2);  // read Q,K,V; write Q
    CHECK(rope.elements == t * (32 + 8) * 128);
    const VectorOp append = find(ops, "kv_append");
    CHECK(append.dram_bytes == t * 2 * 1024 * 2);
    // Softmax over the scores: n_h query rows × context keys per sequence and layer, no DRAM.
    const VectorOp softmax = find(ops, "attention_softmax");
    CHECK(softmax.elements == 32 * t * 32 * 10);
    CHECK(softmax.dram_bytes == 0);
    const VectorOp act = find(ops, "silu_gate");
    CHECK(act.elements == 32 * t * 14336);
    CHECK(act.dram_bytes == 0);
    const VectorOp sampling = find(ops, "sampling");
    CHECK(sampling.dram_bytes == t * 128256 * 2 + t * 4);
    const VectorOp embed = find(ops, "embed_tokens");
    CHECK(embed.dram_bytes == 2 * t * h * 2);
  }
  SECTION("MoE: top-k over the router logits and the combine") {
    const ModelConfig m = model("mixtral-8x7b-v0.1");
    const auto ops = vector_ops(m, g, generate_matmuls(m, g), fp16_bits);
    const std::int64_t t = 2, h = 4096;
    const VectorOp top_k = find(ops, "moe_top_k");
    CHECK(top_k.count == 32);
    CHECK(top_k.dram_bytes == t * 8 * 2 + t * 2 * (4 + 2));
    const VectorOp combine = find(ops, "moe_combine");
    CHECK(combine.dram_bytes == t * 2 * h * 2 + t * h * 2);
    // Every routed token's expert output is gated: B·k tokens × 14336 per layer.
    CHECK(find(ops, "silu_gate").elements == 32 * t * 2 * 14336);
  }
  SECTION("MLA: the latent is appended, rope on the rope dims") {
    const ModelConfig m = model("deepseek-v2-lite");
    const auto ops = vector_ops(m, g, generate_matmuls(m, g), fp16_bits);
    const std::int64_t t = 2;
    CHECK(find(ops, "kv_append").dram_bytes == t * (512 + 64) * 2);
    CHECK(find(ops, "rotary").elements == t * (16 * 64 + 64));
  }
}

TEST_CASE("stored weight bytes: packed words and scales, against element-by-element counting",
          "[generation]") {
  const quant::QuantSpec q = quant::load_quant("q4f16_1");  // int4, group 32, group-aligned
  for (std::int64_t n : {1, 3, 17}) {
    for (std::int64_t k : {1, 7, 32, 33, 95, 128}) {
      // Brute force: place every value; a group touched allocates its ⌈32/8⌉ words (MLC stores
      // ⌈k/32⌉ whole groups per row), one fp16 scale per group.
      std::set<std::pair<std::int64_t, std::int64_t>> words, scales;
      for (std::int64_t row = 0; row < n; ++row) {
        for (std::int64_t i = 0; i < k; ++i) {
          const std::int64_t group = i / 32;
          for (std::int64_t w = 0; w < 4; ++w) words.insert({row, group * 4 + w});
          scales.insert({row, group});
        }
      }
      const long want = static_cast<long>(words.size() * 4 + scales.size() * 2);
      INFO("n " << n << ", k " << k);
      CHECK(stored_weight_bytes(q.weights, n, k) == Integer(want));
    }
  }
  CHECK(stored_weight_bytes(fp16().weights, 5, 9) == Integer(5 * 9 * 2));
}

TEST_CASE("accelerator file: vector unit, capacity and link round-trip and errors",
          "[generation]") {
  const arch::Accelerator tpu = arch::load_accelerator_preset("tpu-v1");
  REQUIRE(tpu.spec().serving.capacity_bytes);
  CHECK(*tpu.spec().serving.capacity_bytes == 8LL << 30);
  REQUIRE(tpu.spec().serving.vector_unit);
  CHECK(tpu.spec().serving.vector_unit->lanes == 256);
  REQUIRE(tpu.spec().serving.link);
  CHECK(arch::parse_accelerator(arch::to_json(tpu)) == tpu);

  nlohmann::json doc = arch::to_json(tpu);
  doc["vector_unit"]["ops_per_lane_cycle"].erase("softmax");
  CHECK(test::error_of([&] { arch::parse_accelerator(doc, "a.json"); }).where() ==
        "/vector_unit/ops_per_lane_cycle/softmax");
  doc = arch::to_json(tpu);
  doc["link"]["gbps"] = 0;
  CHECK(test::error_of([&] { arch::parse_accelerator(doc, "a.json"); }).where() == "/link/gbps");
  doc = arch::to_json(tpu);
  doc["dram"]["capacity_bytes"] = -4;
  CHECK(test::error_of([&] { arch::parse_accelerator(doc, "a.json"); }).where() ==
        "/dram/capacity_bytes");
}

TEST_CASE("hybrid models: Mamba and Gated DeltaNet layers hold a state, not a KV cache",
          "[generation][hybrid]") {
  // Nemotron-H-8B: 52 layers "M-M-M-M*-…": 24 Mamba-2, 4 attention, 24 MLP-only layers.
  const ModelConfig nemotron =
      load_model_config(std::string(TENET_TEST_DATA_DIR) + "/llm/nemotron-h-8b-base-8k.json");
  // Qwen3-Next-80B-A3B: 48 layers, full attention every 4th: 12 attention, 36 DeltaNet.
  const ModelConfig next = model("qwen3-next-80b-a3b-instruct");
  struct Case {
    const ModelConfig* m;
    std::int64_t attention, kv_heads, head_dim;
    long state_per_sequence;  // bytes, fp16
    const char* scan;
    std::int64_t scan_layers;
  };
  // Nemotron-H: inner 128·64 = 8192, state 128, B/C 2·8·128 = 2048, conv 4:
  //   24 · (8192·128 + 3·(8192 + 2048)) · 2 B = 51,806,208 B.
  // Qwen3-Next: 32 value heads · 128 · 128 + 3 · (2·16·128 + 32·128) = 548,864 per layer:
  //   36 · 548,864 · 2 B = 39,518,208 B.
  const std::vector<Case> cases = {{&nemotron, 4, 8, 128, 51806208L, "mamba2.ssd_scan", 24},
                                   {&next, 12, 2, 256, 39518208L, "gated_deltanet.delta_rule", 36}};
  for (const Case& c : cases) {
    INFO(c.m->name);
    const RequestOptions o = request(64, 3, 2);
    const RequestReport r = evaluate_request(*c.m, o, fake_model(), accelerator(), fp16());
    check_timeline(*c.m, o, r);
    // KV cache only for the attention layers: B·(P+G)·2·attention layers·n_kv·d·2 bytes.
    CHECK(r.memory.kv_cache_bytes ==
          Integer(2L * 67 * 2 * c.attention * c.kv_heads * c.head_dim * 2));
    CHECK(r.memory.state_bytes == Integer(2L * c.state_per_sequence));
    CHECK(r.memory.total_bytes == r.memory.weights_bytes + r.memory.kv_cache_bytes +
                                      r.memory.state_bytes + r.memory.activation_bytes);
    const auto ops = ops_of(r);
    REQUIRE(ops.count("scan") == 1);
    CHECK(ops.at("scan").seconds > 0);
    // Per pass: rotary and KV append in the attention layers only, the scan in the others.
    for (Phase phase : {Phase::kPrefill, Phase::kDecode}) {
      GenerationOptions g;
      g.phase = phase;
      g.batch = 2;
      g.prompt = 64;
      g.context = 65;
      const std::vector<VectorOp> v = vector_ops(*c.m, g, generate_matmuls(*c.m, g), ElementBits{});
      std::map<std::string, const VectorOp*> by_name;
      for (const VectorOp& op : v) by_name[op.name] = &op;
      REQUIRE(by_name.count("kv_append") == 1);
      CHECK(by_name["kv_append"]->count == c.attention);
      // Nemotron-H attends without positional encoding; Qwen3-Next rotates in attention layers.
      if (c.m == &nemotron)
        CHECK(by_name.count("rotary") == 0);
      else
        CHECK(by_name.at("rotary")->count == c.attention);
      REQUIRE(by_name.count(c.scan) == 1);
      CHECK(by_name[c.scan]->kind == "scan");
      CHECK(by_name[c.scan]->count == c.scan_layers);
      CHECK(by_name[c.scan]->dram_bytes > 0);
    }
  }
  // Nemotron-H's layers each hold one block: one residual add per layer.
  GenerationOptions g;
  g.batch = 1;
  g.prompt = 8;
  for (const VectorOp& op : vector_ops(nemotron, g, generate_matmuls(nemotron, g), ElementBits{}))
    if (op.name == "residual_add") CHECK(op.count == 52);
  // A Mamba-2 layer's scan by hand, one decode step of batch 1 (fp16): ops = 5·8192·128 +
  // 2·4·(8192 + 2048); bytes: inputs (8192 + 2048 + 128 heads) + output 8192 at 2 B, and the
  // state + conv window (8192·128 + 3·10240) read and written.
  g.phase = Phase::kDecode;
  g.context = 9;
  for (const VectorOp& op : vector_ops(nemotron, g, generate_matmuls(nemotron, g), ElementBits{}))
    if (op.name == "mamba2.ssd_scan") {
      CHECK(op.ops == 5L * 8192 * 128 + 2L * 4 * (8192 + 2048));
      CHECK(op.dram_bytes ==
            2L * (8192 + 2048 + 128) + 2L * 8192 + 2L * 2 * (8192L * 128 + 3 * 10240));
    }
}
