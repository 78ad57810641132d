// 2025-26 config dialects: nested language-model configs, per-layer heterogeneous stacks
// (hybrid_override_pattern, layer_types, full_attention_interval, block_configs, Jamba's
// periods, Llama-4's chunked / NoPE layers), hybrid mixers (Mamba-1, Mamba-2, Gated DeltaNet)
// and DeepSeek-V3.2's indexer. Every expected shape is derived by hand from the published config
// (workloads/models/SOURCES.md) in the comment above it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "llm/model_summary.hpp"
#include "llm/vector_ops.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"

using namespace tenet::llm;
using nlohmann::json;
using tenet::InputError;
using tenet::test::CliRun;
using tenet::test::run_cli;

namespace {

std::string bundled(const std::string& file) {
  return std::string(TENET_SOURCE_DIR) + "/workloads/models/" + file;
}
std::string test_data(const std::string& file) {
  return std::string(TENET_TEST_DATA_DIR) + "/llm/" + file;
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

Integer big(std::int64_t v) { return Integer(static_cast<long>(v)); }

Integer total_macs(const std::vector<MatmulShape>& shapes) {
  Integer t;
  for (const MatmulShape& s : shapes) t += s.macs();
  return t;
}

std::vector<const MatmulShape*> named(const std::vector<MatmulShape>& shapes,
                                      const std::string& name) {
  std::vector<const MatmulShape*> out;
  for (const MatmulShape& s : shapes)
    if (s.name == name) out.push_back(&s);
  return out;
}
std::vector<const MatmulShape*> named(std::vector<MatmulShape>&&, const std::string&) = delete;

const MatmulShape& one(const std::vector<MatmulShape>& shapes, const std::string& name) {
  const auto all = named(shapes, name);
  INFO(name);
  REQUIRE(all.size() == 1);
  return *all.front();
}
const MatmulShape& one(std::vector<MatmulShape>&&, const std::string&) = delete;

void check_shape(const MatmulShape& s, std::int64_t batch, std::int64_t m, std::int64_t n,
                 std::int64_t k, std::int64_t count) {
  INFO(s);
  CHECK(s.batch == batch);
  CHECK(s.m == m);
  CHECK(s.n == n);
  CHECK(s.k == k);
  CHECK(s.count == count);
}

// One expected matmul: its name, batch, M, N, K and count.
struct Expected {
  const char* name;
  std::int64_t batch, m, n, k, count;
};

void check_shapes(const std::vector<MatmulShape>& shapes, std::initializer_list<Expected> want) {
  for (const Expected& w : want) check_shape(one(shapes, w.name), w.batch, w.m, w.n, w.k, w.count);
}

std::int64_t count_kind(const ModelConfig& c, MixerKind k) { return c.layers_with(k); }

InputError error_of(const json& doc) {
  try {
    parse_model_config(doc, "c.json");
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  throw;
}

}  // namespace

TEST_CASE("Nemotron-H-8B: the pattern string gives 24 Mamba-2, 4 attention and 24 MLP layers",
          "[llm][hybrid]") {
  const ModelConfig c = load_model_config(test_data("nemotron-h-8b-base-8k.json"));
  REQUIRE(c.stack.size() == 52);
  CHECK(count_kind(c, MixerKind::kMamba2) == 24);
  CHECK(count_kind(c, MixerKind::kAttention) == 4);
  CHECK(count_kind(c, MixerKind::kNone) == 24);  // the '-' layers: MLP only
  CHECK(c.mlp == MlpKind::kPlain);               // relu² up / down
  const auto shapes = generate_matmuls(c, decode(1, 100));
  check_shapes(shapes,
               {// in_proj: z and x (2·128·64), B and C (2·8·128), dt (128 heads) from h = 4096
                {"mixer.in_proj", 1, 1, 2 * 8192 + 2 * 8 * 128 + 128, 4096, 24},
                {"mixer.out_proj", 1, 1, 4096, 8192, 24},
                // attention: 32 heads, 8 KV heads of 128: fused QKV (32 + 16)·128; r = 4
                {"mixer.qkv_proj", 1, 1, 48 * 128, 4096, 4},
                {"mixer.qk", 8, 4, 100, 128, 4},
                {"mixer.pv", 8, 4, 128, 100, 4},
                {"mixer.o_proj", 1, 1, 4096, 4096, 4},
                {"mixer.up_proj", 1, 1, 21504, 4096, 24},
                {"mixer.down_proj", 1, 1, 4096, 21504, 24},
                {"lm_head", 1, 1, 131072, 4096, 1}});
  CHECK(shapes.size() == 9);
  // the scan is named, not costed
  const auto ops = non_matmul_ops(c);
  REQUIRE(ops.size() == 1);
  CHECK(ops[0].name == "mixer.ssd_scan");
  CHECK(ops[0].layers == 24);
  // KV cache: only the 4 attention layers: 4 · 2 · 8 · 128 · 2 bytes
  const ModelSummary s = summarize_model(c, decode(1, 1));
  CHECK(s.kv_cache_bytes_per_token == 4 * 2 * 8 * 128 * 2);
  // parameters: embeddings + lm_head, per Mamba layer in/out projections, conv (10240 channels
  // × 4 + bias), A_log, D, dt_bias (128 each), the gated norm (8192); attention; MLP; one
  // RMSNorm per layer and the final one
  const Integer mamba = big(18560) * 4096 + big(8192) * 4096 + big(10240) * 5 + 3 * 128 + 8192;
  const Integer attention = big(6144) * 4096 + big(4096) * 4096;
  const Integer mlp = big(2) * 21504 * 4096;
  const Integer expected =
      big(2) * 131072 * 4096 + mamba * 24 + attention * 4 + mlp * 24 + big(53) * 4096;
  CHECK(s.parameters == expected);
}

TEST_CASE("a Nemotron-H config's Infinity (time_step_limit) is read as HF reads it",
          "[llm][hybrid][json]") {
  // the fixture holds "time_step_limit": [0.0, Infinity]: strict JSON would refuse the file
  CHECK_NOTHROW(load_model_config(test_data("nemotron-h-8b-base-8k.json")));
}

TEST_CASE("Qwen3-Next: Gated DeltaNet on 3 of 4 layers, gated attention, 512-expert MoE",
          "[llm][hybrid]") {
  const ModelConfig c = load_model_config(bundled("qwen3-next-80b-a3b-instruct.json"));
  CHECK(count_kind(c, MixerKind::kGatedDeltaNet) == 36);
  CHECK(count_kind(c, MixerKind::kAttention) == 12);
  CHECK(c.stack[3].mixer == MixerKind::kAttention);  // (i + 1) % 4 == 0
  CHECK(c.stack[0].mixer == MixerKind::kGatedDeltaNet);
  REQUIRE(c.moe);
  CHECK(c.moe->moe_layers == 48);
  const auto shapes = generate_matmuls(c, prefill(1, 64));
  // q, k: 16 key heads × 128; v, z: 32 value heads × 128 → 2·2048 + 2·4096
  check_shape(one(shapes, "linear_attn.in_proj_qkvz"), 1, 64, 12288, 2048, 36);
  check_shape(one(shapes, "linear_attn.in_proj_ba"), 1, 64, 64, 2048, 36);
  check_shape(one(shapes, "linear_attn.out_proj"), 1, 64, 2048, 4096, 36);
  // gated attention: q_proj yields 16·256 queries and 16·256 gates; K, V 2·256 each
  check_shape(one(shapes, "self_attn.qkv_proj"), 1, 64, 2 * 4096 + 2 * 512, 2048, 12);
  // 64 tokens < the 128 tile: one 64×64 tile per KV head; 8 query heads per KV head
  check_shape(one(shapes, "self_attn.qk"), 2, 8 * 64, 64, 256, 12);
  check_shape(one(shapes, "self_attn.o_proj"), 1, 64, 2048, 4096, 12);
  check_shape(one(shapes, "mlp.gate"), 1, 64, 512, 2048, 48);
  check_shape(one(shapes, "mlp.shared_expert.gate_up_proj"), 1, 64, 1024, 2048, 48);
  check_shape(one(shapes, "mlp.shared_expert_gate"), 1, 64, 1, 2048, 48);
  CHECK(named(shapes, "mlp.gate_up_proj").empty());  // no dense MLP: every layer is MoE
  // 64 tokens × top-10 = 640 slots over 512 experts: 128 experts of 2 tokens, 384 of 1
  const auto experts = named(shapes, "mlp.experts.gate_up_proj");
  REQUIRE(experts.size() == 2);
  Integer routed;
  for (const MatmulShape* e : experts) routed += big(e->m) * big(e->count);
  CHECK(routed == big(640) * 48);
  const auto ops = non_matmul_ops(c);
  REQUIRE(ops.size() == 1);
  CHECK(ops[0].name == "linear_attn.gated_delta_rule");
  CHECK(ops[0].layers == 36);
  // KV cache of the 12 attention layers only
  CHECK(summarize_model(c, decode(1, 1)).kv_cache_bytes_per_token == 12 * 2 * 2 * 256 * 2);
}

TEST_CASE("Jamba: attention every 8th layer (offset 4), MoE every 2nd (offset 1), Mamba-1",
          "[llm][hybrid]") {
  const ModelConfig c = load_model_config(bundled("jamba-v0.1.json"));
  CHECK(count_kind(c, MixerKind::kAttention) == 4);
  CHECK(count_kind(c, MixerKind::kMamba) == 28);
  CHECK(c.stack[4].mixer == MixerKind::kAttention);
  CHECK(c.stack[1].ffn == FfnKind::kMoe);
  CHECK(c.stack[0].ffn == FfnKind::kDense);
  const auto shapes = generate_matmuls(c, decode(1, 10));
  check_shape(one(shapes, "mamba.in_proj"), 1, 1, 16384, 4096, 28);
  check_shape(one(shapes, "mamba.x_proj"), 1, 1, 256 + 2 * 16, 8192, 28);
  check_shape(one(shapes, "mamba.dt_proj"), 1, 1, 8192, 256, 28);
  check_shape(one(shapes, "mamba.out_proj"), 1, 1, 4096, 8192, 28);
  check_shape(one(shapes, "self_attn.qkv_proj"), 1, 1, 48 * 128, 4096, 4);
  check_shape(one(shapes, "feed_forward.gate_up_proj"), 1, 1, 2 * 14336, 4096, 16);
  check_shape(one(shapes, "feed_forward.gate"), 1, 1, 16, 4096, 16);
  // decode B = 1, top-2: two experts of one token in each of the 16 MoE layers
  check_shape(one(shapes, "feed_forward.experts.gate_up_proj"), 1, 1, 2 * 14336, 4096, 32);
  CHECK(non_matmul_ops(c).at(0).name == "mamba.selective_scan");
}

TEST_CASE("Nemotron-Super-49B (DeciLM block_configs): per-layer KV heads, FFN widths, no-ops",
          "[llm][hybrid]") {
  const ModelConfig c = load_model_config(bundled("llama-3.3-nemotron-super-49b-v1.json"));
  CHECK(count_kind(c, MixerKind::kAttention) == 49);
  CHECK(count_kind(c, MixerKind::kNone) == 31);
  const auto shapes = generate_matmuls(c, decode(1, 10));
  // n_heads_in_group 8: 64 / 8 = 8 KV heads of 128
  check_shape(one(shapes, "self_attn.qkv_proj"), 1, 1, (64 + 16) * 128, 8192, 49);
  check_shape(one(shapes, "self_attn.qk"), 8, 8, 10, 128, 49);
  // width = int(2·mult·8192/3) rounded up to 256: 5.25 → 28672, 2.625 → 14336,
  // 3.28125 → 17920, 1.3125 → 7168, 1.0 → 5461 → 5632, 0.5 → 2730 → 2816
  const std::vector<std::pair<std::int64_t, std::int64_t>> widths = {
      {28672, 49}, {14336, 6}, {17920, 1}, {7168, 10}, {5632, 8}, {2816, 6}};
  const auto downs = named(shapes, "mlp.down_proj");
  REQUIRE(downs.size() == widths.size());
  for (const auto& [width, layers] : widths) {
    bool found = false;
    for (const MatmulShape* d : downs) {
      if (d->k != width) continue;
      found = true;
      check_shape(*d, 1, 1, 8192, width, layers);
    }
    INFO("width " << width);
    CHECK(found);
  }
}

TEST_CASE("DeciLM: replace_with_linear gives one h×h linear, a bad n_heads_in_group is refused",
          "[llm][hybrid]") {
  json block = {{"attention", {{"n_heads_in_group", 4}, {"no_op", false}}},
                {"ffn", {{"ffn_mult", 1.5}, {"no_op", false}}}};
  json linear = {{"attention", {{"replace_with_linear", true}, {"no_op", false}}},
                 {"ffn", {{"replace_with_linear", true}, {"no_op", false}}}};
  json doc = {{"model_type", "nemotron-nas"},
              {"hidden_size", 96},
              {"num_hidden_layers", 3},
              {"num_attention_heads", 8},
              {"vocab_size", 100},
              {"intermediate_size", nullptr},
              {"block_configs", {block, linear, block}}};
  const auto shapes = generate_matmuls(parse_model_config(doc, "d.json"), decode(1, 5));
  check_shape(one(shapes, "self_attn.linear_attn"), 1, 1, 96, 96, 1);
  check_shape(one(shapes, "mlp.linear_mlp"), 1, 1, 96, 96, 1);
  // 8 heads of 12, 2 KV heads; width int(2·1.5·96/3) = 96 → 256
  check_shape(one(shapes, "self_attn.qkv_proj"), 1, 1, (8 + 4) * 12, 96, 2);
  check_shape(one(shapes, "mlp.down_proj"), 1, 1, 96, 256, 2);
  doc["block_configs"][0]["attention"]["n_heads_in_group"] = 3;
  const InputError e = error_of(doc);
  CHECK(e.where() == "/block_configs/0/attention/n_heads_in_group");
  doc["block_configs"] = {block};
  CHECK(error_of(doc).where() == "/block_configs");
}

TEST_CASE("Llama-4 Scout: text_config read, 3 of 4 layers chunked, all MoE + shared expert",
          "[llm][hybrid][nested]") {
  const ModelConfig c = load_model_config(test_data("llama-4-scout-17b-16e.json"));
  CHECK(c.nested == "text_config");
  CHECK(c.model_type == "llama4_text");
  REQUIRE(!c.assumptions.empty());
  CHECK(c.assumptions.front().find("/text_config") != std::string::npos);
  CHECK(c.assumptions.front().find("vision_config") != std::string::npos);
  REQUIRE(c.attention_chunk);
  CHECK(*c.attention_chunk == 8192);
  std::int64_t chunked = 0;
  for (const LayerSpec& l : c.stack) chunked += l.span == AttentionSpan::kChunked;
  CHECK(chunked == 36);  // NoPE every 4th layer (3, 7, ...) attends everything
  CHECK(c.stack[3].span == AttentionSpan::kFull);
  // decode, L = 10000: chunked layers attend (10000 − 1) mod 8192 + 1 = 1808 keys
  const auto shapes = generate_matmuls(c, decode(1, 10000));
  const auto qk = named(shapes, "self_attn.qk");
  REQUIRE(qk.size() == 2);
  check_shape(*qk[0], 8, 5, 1808, 128, 36);
  check_shape(*qk[1], 8, 5, 10000, 128, 12);
  check_shape(one(shapes, "feed_forward.gate"), 1, 1, 16, 5120, 48);
  check_shape(one(shapes, "feed_forward.experts.gate_up_proj"), 1, 1, 16384, 5120, 48);
  check_shape(one(shapes, "feed_forward.shared_experts.gate_up_proj"), 1, 1, 16384, 5120, 48);
  CHECK(named(shapes, "feed_forward.gate_up_proj").empty());
  // prefill S = 8192 + 100, tile 128: a chunked layer computes one whole chunk (64·65/2 tiles
  // of 128×128) and a 100-token chunk (one 100×100 tile); a full layer the causal 8292 tokens:
  // 2080 tiles of 128×128, 64 of 100×128 and one 100×100
  const auto p = generate_matmuls(c, prefill(1, 8292));
  const auto pqk = named(p, "self_attn.qk");
  Integer macs;
  for (const MatmulShape* s : pqk) macs += s->macs();
  const Integer chunk_layer = big(2080) * 128 * 128 + big(100) * 100;
  const Integer full_layer = big(2080) * 128 * 128 + big(64) * 100 * 128 + big(100) * 100;
  CHECK(macs == big(8) * 5 * 128 * (chunk_layer * 36 + full_layer * 12));
}

TEST_CASE("a nested config's errors point into it, the wrapper's keys are not read",
          "[llm][nested][errors]") {
  // An unknown family: PretrainedConfig has no sizes, so an absent one is missing (a Llama's
  // would be LlamaConfig's default).
  json inner = {{"model_type", "my_lm"},    {"hidden_size", 64}, {"num_hidden_layers", 2},
                {"num_attention_heads", 4}, {"vocab_size", 10},  {"intermediate_size", 128}};
  for (const char* key : {"text_config", "language_config", "llm_config"}) {
    json doc = {{"architectures", {"SomeVLM"}}, {"hidden_size", 4096}, {key, inner}};
    const ModelConfig c = parse_model_config(doc, "w.json");
    CHECK(c.hidden == 64);  // not the wrapper's 4096
    CHECK(c.nested == key);
    doc[key].erase("hidden_size");
    const InputError e = error_of(doc);
    CHECK(e.where() == std::string("/") + key + "/hidden_size");
    CHECK(e.code() == tenet::error_code::kMissingField);
  }
  json bad = {{"text_config", 3}};
  CHECK(error_of(bad).where() == "/text_config");
}

TEST_CASE("Gemma-3-27B: text_config with Gemma3TextConfig defaults, 5 local : 1 global",
          "[llm][nested]") {
  const ModelConfig c = load_model_config(bundled("gemma-3-27b-it.json"));
  CHECK(c.vocab == 262208);  // the class default, listed among the assumptions
  bool said = false;
  for (const std::string& a : c.assumptions) said |= a.find("vocab_size = 262208") == 0;
  CHECK(said);
  CHECK(c.window_layers == 52);  // layers 5, 11, ..., 59 global
  const auto shapes = generate_matmuls(c, decode(1, 2000));
  const auto qk = named(shapes, "self_attn.qk");
  REQUIRE(qk.size() == 2);
  check_shape(*qk[0], 16, 2, 1024, 128, 52);
  check_shape(*qk[1], 16, 2, 2000, 128, 10);
  check_shape(one(shapes, "self_attn.qkv_proj"), 1, 1, (32 + 32) * 128, 5376, 62);
}

TEST_CASE("DeepSeek-V3.2: the lightning indexer's projections and scores, top-k attention",
          "[llm][hybrid][mla]") {
  const ModelConfig c = load_model_config(test_data("deepseek-v3.2-exp.json"));
  REQUIRE(c.indexer);
  CHECK(c.indexer->topk == 2048);
  // decode L = 4096, absorbed MLA: the indexer scores all 4096 keys with 64 heads of 128; the
  // attention reads the 2048 selected latents
  const auto shapes = generate_matmuls(c, decode(1, 4096));
  check_shape(one(shapes, "self_attn.indexer.wq_b"), 1, 1, 64 * 128, 1536, 61);
  check_shape(one(shapes, "self_attn.indexer.wk"), 1, 1, 128, 7168, 61);
  check_shape(one(shapes, "self_attn.indexer.weights_proj"), 1, 1, 64, 7168, 61);
  check_shape(one(shapes, "self_attn.indexer.qk"), 1, 64, 4096, 128, 61);
  check_shape(one(shapes, "self_attn.qk"), 1, 128, 2048, 512 + 64, 61);
  check_shape(one(shapes, "self_attn.pv"), 1, 128, 512, 2048, 61);
  // the indexer adds its matmuls to MLA: without it the pass has exactly these fewer MACs
  ModelConfig plain = c;
  plain.indexer.reset();
  const Integer with = total_macs(shapes);
  const Integer without = total_macs(generate_matmuls(plain, decode(1, 4096)));
  const Integer indexer = big(8192) * 1536 * 61 + big(128) * 7168 * 61 + big(64) * 7168 * 61 +
                          big(64) * 4096 * 128 * 61;
  const Integer topk_saving = big(128) * (4096 - 2048) * 576 * 61 + big(128) * 512 * 2048 * 61;
  CHECK(with == without + indexer - topk_saving);
}

TEST_CASE("unmodelled layer kinds exit 2 naming the kind, never costed as attention",
          "[llm][hybrid][errors]") {
  json doc = {{"model_type", "llama"},    {"hidden_size", 64}, {"num_hidden_layers", 2},
              {"num_attention_heads", 4}, {"vocab_size", 10},  {"intermediate_size", 128}};
  json conv = doc;
  conv["layer_types"] = {"conv", "full_attention"};
  InputError e = error_of(conv);
  CHECK(e.code() == tenet::error_code::kUnknownName);
  CHECK(e.where() == "/layer_types/0");
  CHECK(std::string(e.message()).find("\"conv\"") != std::string::npos);
  json linear = doc;
  linear["layer_types"] = {"linear_attention", "full_attention"};
  CHECK(error_of(linear).message().find("linear_attention") != std::string::npos);
  json pattern = doc;
  pattern["hybrid_override_pattern"] = "MO";
  e = error_of(pattern);
  CHECK(e.code() == tenet::error_code::kUnknownName);
  CHECK(e.where() == "/hybrid_override_pattern");
  CHECK(e.message().find("'O'") != std::string::npos);
  // a MoE layer ('E') without the experts' sizes names what it looked for
  pattern["hybrid_override_pattern"] = "-E";
  e = error_of(pattern);
  CHECK(e.code() == tenet::error_code::kMissingField);
  CHECK(e.message().find("n_routed_experts") != std::string::npos);
  pattern["hybrid_override_pattern"] = "M";
  CHECK(error_of(pattern).code() == tenet::error_code::kType);  // one character per layer
  for (const char* family :
       {"falcon_h1", "mamba2", "rwkv", "recurrent_gemma", "lfm2", "minimax_m1"}) {
    json f = doc;
    f["model_type"] = family;
    e = error_of(f);
    CHECK(e.code() == tenet::error_code::kUnknownName);
    CHECK(e.where() == "/model_type");
    CHECK(e.message().find(family) != std::string::npos);
  }
  // a Mamba-2 pattern without the SSM sizes names what it looked for
  json ssm = doc;
  ssm["hybrid_override_pattern"] = "M*";
  e = error_of(ssm);
  CHECK(e.code() == tenet::error_code::kMissingField);
  CHECK(e.message().find("mamba_num_heads") != std::string::npos);
}

TEST_CASE("decoder_sparse_step, mlp_only_layers and moe_layers pick the MoE layers",
          "[llm][hybrid]") {
  json doc = {{"model_type", "qwen2_moe"},   {"hidden_size", 64},        {"num_hidden_layers", 6},
              {"num_attention_heads", 4},    {"num_key_value_heads", 4}, {"vocab_size", 10},
              {"intermediate_size", 128},    {"num_experts", 4},         {"num_experts_per_tok", 2},
              {"moe_intermediate_size", 32}, {"decoder_sparse_step", 2}, {"mlp_only_layers", {3}}};
  // (i + 1) % 2 == 0 → 1, 3, 5; 3 is MLP-only → 1, 5
  ModelConfig c = parse_model_config(doc, "q.json");
  REQUIRE(c.moe);
  CHECK(c.moe->moe_layers == 2);
  CHECK(c.stack[1].ffn == FfnKind::kMoe);
  CHECK(c.stack[3].ffn == FfnKind::kDense);
  CHECK(c.stack[5].ffn == FfnKind::kMoe);
  doc.erase("decoder_sparse_step");
  doc.erase("mlp_only_layers");
  doc["moe_layers"] = {0, 4};
  c = parse_model_config(doc, "q.json");
  CHECK(c.moe->moe_layers == 2);
  CHECK(c.stack[4].ffn == FfnKind::kMoe);
  doc["moe_layers"] = {6};
  CHECK(error_of(doc).where() == "/moe_layers/0");
}

TEST_CASE("tenet model reports a hybrid's scan as not costed (JSON and table)",
          "[llm][hybrid][cli]") {
  const std::string args = "model --model " + test_data("nemotron-h-8b-base-8k.json") +
                           " --array 8x8 --phase decode --context 64";
  CliRun r = run_cli(args + " --format json");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  const auto doc = json::parse(r.out);
  const json& ops = doc.at("summary").at("not_costed");
  REQUIRE(ops.size() == 1);
  CHECK(ops[0].at("name") == "mixer.ssd_scan");
  CHECK(ops[0].at("kind") == "mamba2");
  CHECK(ops[0].at("layers") == 24);
  r = run_cli(args + " --format table");
  CHECK(r.out.find("not_costed: ") != std::string::npos);
  r = run_cli("model --model " + bundled("qwen3-next-80b-a3b-instruct.json") +
              " --array 8x8 --phase prefill --prompt 16 --format json");
  REQUIRE(r.exit_code == 0);
  CHECK(json::parse(r.out).at("summary").at("not_costed")[0].at("layers") == 36);
}

TEST_CASE("gpt-oss: alternating sliding / full layers, biased attention, sinks counted",
          "[llm][hybrid]") {
  // the shape of openai/gpt-oss-20b's config (24 layers, h 2880, 64 heads of 64, 8 KV heads,
  // 32 experts top 4 of width 2880, window 128 on every other layer)
  json doc = {{"architectures", {"GptOssForCausalLM"}},
              {"model_type", "gpt_oss"},
              {"hidden_size", 2880},
              {"num_hidden_layers", 4},
              {"num_attention_heads", 64},
              {"num_key_value_heads", 8},
              {"head_dim", 64},
              {"intermediate_size", 2880},
              {"num_local_experts", 32},
              {"num_experts_per_tok", 4},
              {"vocab_size", 201088},
              {"sliding_window", 128},
              {"max_position_embeddings", 131072},
              {"tie_word_embeddings", false},
              {"layer_types",
               {"sliding_attention", "full_attention", "sliding_attention", "full_attention"}}};
  const ModelConfig c = parse_model_config(doc, "gpt-oss.json");
  CHECK(c.window_layers == 2);
  CHECK(c.qkv_bias);
  CHECK(c.o_bias);
  const auto shapes = generate_matmuls(c, decode(1, 1000));
  const auto qk = named(shapes, "self_attn.qk");
  REQUIRE(qk.size() == 2);
  check_shape(*qk[0], 8, 8, 128, 64, 2);
  check_shape(*qk[1], 8, 8, 1000, 64, 2);
  check_shape(one(shapes, "self_attn.qkv_proj"), 1, 1, (64 + 16) * 64, 2880, 4);
  CHECK(one(shapes, "self_attn.qkv_proj").epilogue_ops == 1);  // the bias add
  // sinks (64 per layer), router bias (32) and expert biases 32·(2·2880 + 2880) per layer
  CHECK(c.other_parameters == 4 * 64 + 4 * (32 + 32 * (2 * 2880 + 2880)));
}

TEST_CASE("Nemotron-3-Nano-30B-A3B: 'E' layers are MoEs of relu² experts with a shared expert",
          "[llm][hybrid]") {
  // nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B: 52 layers by the pattern, 23 Mamba-2 (64 heads of
  // 64, 8 groups, state 128), 6 attention (32 heads, 2 KV heads of 128), 23 MoE layers: a router
  // over 128 experts, 6 per token, each expert up 2688→1856, relu², down 1856→2688 (no gate),
  // plus one shared expert of width 3712.
  const ModelConfig c = load_model_config(bundled("nvidia-nemotron-3-nano-30b-a3b.json"));
  REQUIRE(c.stack.size() == 52);
  CHECK(count_kind(c, MixerKind::kMamba2) == 23);
  CHECK(count_kind(c, MixerKind::kAttention) == 6);
  CHECK(count_kind(c, MixerKind::kNone) == 23);  // the 'E' layers: no mixer, the MoE
  REQUIRE(c.moe);
  CHECK(c.moe->moe_layers == 23);
  CHECK(c.moe->experts == 128);
  CHECK(c.moe->top_k == 6);
  CHECK(c.moe->expert_intermediate == 1856);
  CHECK(c.moe->shared_intermediate == 3712);
  CHECK(c.moe->expert_mlp == MlpKind::kPlain);
  CHECK_FALSE(c.moe->shared_gate);
  for (std::size_t i = 0; i < c.stack.size(); ++i) {
    INFO("layer " << i);
    CHECK((c.stack[i].ffn == FfnKind::kMoe) == (c.stack[i].mixer == MixerKind::kNone));
  }
  const auto shapes = generate_matmuls(c, decode(1, 100));
  check_shapes(shapes,
               {// in_proj: z and x (2·64·64), B and C (2·8·128), dt (64 heads) from h = 2688
                {"mixer.in_proj", 1, 1, 2 * 4096 + 2 * 8 * 128 + 64, 2688, 23},
                {"mixer.out_proj", 1, 1, 2688, 4096, 23},
                // attention: fused QKV (32 + 2·2)·128; 16 query heads per KV head
                {"mixer.qkv_proj", 1, 1, 36 * 128, 2688, 6},
                {"mixer.qk", 2, 16, 100, 128, 6},
                {"mixer.pv", 2, 16, 128, 100, 6},
                {"mixer.o_proj", 1, 1, 2688, 4096, 6},
                // the MoE: router, 6 routed experts for the one decode token, the shared expert
                {"mixer.gate", 1, 1, 128, 2688, 23},
                {"mixer.experts.up_proj", 1, 1, 1856, 2688, 6 * 23},
                {"mixer.experts.down_proj", 1, 1, 2688, 1856, 6 * 23},
                {"mixer.shared_experts.up_proj", 1, 1, 3712, 2688, 23},
                {"mixer.shared_experts.down_proj", 1, 1, 2688, 3712, 23},
                {"lm_head", 1, 1, 131072, 2688, 1}});
  CHECK(named(shapes, "mixer.experts.gate_proj").empty());  // relu² experts have no gate
  CHECK(shapes.size() == 12);
  // the activation runs on every up projection's output: 6 routed experts and the shared one
  bool activation = false;
  for (const VectorOp& op : vector_ops(c, decode(1, 100), shapes, ElementBits{})) {
    if (op.kind != "activation") continue;
    activation = true;
    CHECK(op.elements * op.count == 6 * 23 * 1856 + 23 * 3712);
  }
  CHECK(activation);
  // prefill of 128 tokens: uniform routing sends 128·6 / 128 = 6 tokens to each expert
  const auto p = generate_matmuls(c, prefill(1, 128));
  check_shape(one(p, "mixer.experts.up_proj"), 1, 6, 1856, 2688, 128 * 23);
  check_shape(one(p, "mixer.shared_experts.up_proj"), 1, 128, 3712, 2688, 23);
  // parameters: embeddings + lm_head; per Mamba layer in/out projections, conv (6144 channels ×
  // 4 + bias), A_log, D, dt_bias (64 each), the gated norm (4096); attention; per MoE layer the
  // router, 128 experts and the shared expert; one RMSNorm per layer and the final one
  const Integer mamba = big(10304) * 2688 + big(4096) * 2688 + big(6144) * 5 + 3 * 64 + 4096;
  const Integer attention = big(4608) * 2688 + big(4096) * 2688;
  const Integer expert = big(2) * 1856 * 2688;
  const Integer moe = big(128) * 2688 + expert * 128 + big(2) * 3712 * 2688;
  const Integer rest = big(2) * 131072 * 2688 + mamba * 23 + attention * 6 + big(53) * 2688;
  const ModelSummary s = summarize_model(c, decode(1, 1));
  CHECK(s.parameters == rest + moe * 23);
  CHECK(s.active_parameters == rest + (moe - expert * 122) * 23);  // 6 of 128 experts
}

TEST_CASE("InternLM2, StableLM-2, Cohere and DeepSeekMoE read with their families' conventions",
          "[llm][zoo]") {
  // InternLM2.5-7B: one fused wqkv (32 + 2·8 heads of 128), w1 / w3 / w2, the head `output`
  ModelConfig c = load_model_config(bundled("internlm2_5-7b.json"));
  CHECK(c.assumptions.empty());             // InternLM2Config's defaults: every key stated
  GenerationOptions apart = decode(1, 10);  // gate and up apart (the checkpoint's matrices)
  apart.fused_gate_up = false;
  auto shapes = generate_matmuls(c, apart);
  check_shapes(shapes, {{"attention.wqkv", 1, 1, 48 * 128, 4096, 32},
                        {"attention.wo", 1, 1, 4096, 4096, 32},
                        {"feed_forward.w1", 1, 1, 14336, 4096, 32},
                        {"feed_forward.w3", 1, 1, 14336, 4096, 32},
                        {"feed_forward.w2", 1, 1, 4096, 14336, 32},
                        {"output", 1, 1, 92544, 4096, 1}});
  // StableLM-2-1.6B: LayerNorm (weight and bias) twice per layer and once at the end; Q, K, V
  // biases (use_qkv_bias)
  c = load_model_config(bundled("stablelm-2-zephyr-1_6b.json"));
  CHECK(c.assumptions == std::vector<std::string>{
                             "use_parallel_residual = false (StableLmConfig's default; the config "
                             "states none)"});
  CHECK(c.qkv_bias);
  CHECK_FALSE(c.o_bias);
  CHECK(c.norm_parameters == (24 * 2 + 1) * 2 * 2048);
  CHECK_FALSE(c.parallel_blocks);
  // Aya-23-8B (Cohere): one bias-free LayerNorm per layer before parallel attention and MLP;
  // the embedding is the head (tie_word_embeddings is the class default, not written)
  c = load_model_config(bundled("aya-23-8b.json"));
  CHECK(c.assumptions ==
        std::vector<std::string>{"tie_word_embeddings = true (CohereConfig's default; the config "
                                 "states none)"});
  CHECK(c.parallel_blocks);
  CHECK(c.tie_embeddings);
  CHECK(c.norm_parameters == (32 + 1) * 4096);
  // DeepSeekMoE-16B: layer 0 dense (10944), 27 MoE layers of 64 experts (1408) top 6 and two
  // shared experts (2·1408)
  c = load_model_config(bundled("deepseek-moe-16b-base.json"));
  CHECK(c.assumptions.empty());
  REQUIRE(c.moe);
  CHECK(c.moe->moe_layers == 27);
  CHECK(c.moe->shared_intermediate == 2 * 1408);
  CHECK(c.stack[0].ffn == FfnKind::kDense);
  CHECK(c.stack[0].ffn_width == 10944);
  shapes = generate_matmuls(c, apart);
  check_shapes(shapes, {{"mlp.shared_experts.gate_proj", 1, 1, 2816, 2048, 27},
                        {"mlp.experts.down_proj", 1, 1, 2048, 1408, 6 * 27},
                        {"mlp.gate_proj", 1, 1, 10944, 2048, 1}});
}
