// Generated matmuls against the reference table (docs/llm.md), derived by hand per model:
// B batch, S prompt, L context, h hidden, n_h heads, n_kv KV heads, r = n_h/n_kv, d = h/n_h,
// I intermediate, V vocab, T = B·S.
#include "tenet/llm/model_matmuls.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tenet/error.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace llm_model_matmuls_test {

using namespace tenet::llm;

namespace {

ModelConfig model(const std::string& file) {
  return load_model_config(std::string(TENET_SOURCE_DIR) + "/workloads/models/" + file);
}

const MatmulShape& find(const std::vector<MatmulShape>& shapes, const std::string& name) {
  for (const MatmulShape& s : shapes) {
    if (s.name == name) return s;
  }
  FAIL("no matmul named " << name);
  throw;  // unreachable
}

struct Row {
  const char* name;
  std::int64_t batch, m, n, k, count;
  Layout layout;
  OperandRole b;
  int epilogue = 0;  // bias adds
};

// The entry a row describes (generated entries carry no log fields: weights_quantized unset,
// no epilogue ops, no scheme, default data types).
MatmulShape shape_of(const Row& r, Phase phase) {
  MatmulShape s;
  s.name = r.name;
  s.batch = r.batch, s.m = r.m, s.n = r.n, s.k = r.k;
  s.count = r.count;
  s.phase = phase;
  s.layout = r.layout;
  s.b_operand = r.b;
  s.epilogue_ops = r.epilogue;
  return s;
}

// The generated list must hold exactly these rows, in this order.
void check_rows(const std::vector<MatmulShape>& shapes, const std::vector<Row>& rows, Phase phase) {
  REQUIRE(shapes.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(shapes[i] == shape_of(rows[i], phase));  // every field, printed on failure
    CHECK(shapes[i].has_weights() == (rows[i].b == OperandRole::kWeight));
  }
}

constexpr Layout NT = Layout::kNT;
constexpr Layout NN = Layout::kNN;
constexpr OperandRole W = OperandRole::kWeight;
constexpr OperandRole KV = OperandRole::kKvCache;

GenerationOptions prefill(std::int64_t batch, std::int64_t prompt) {
  GenerationOptions o;
  o.fused_attention = false;  // the qk / pv rows of the reference formulas
  o.phase = Phase::kPrefill;
  o.batch = batch;
  o.prompt = prompt;
  return o;
}

GenerationOptions decode(std::int64_t batch, std::int64_t context) {
  GenerationOptions o;
  o.fused_attention = false;  // the qk / pv rows of the reference formulas
  o.phase = Phase::kDecode;
  o.batch = batch;
  o.context = context;
  return o;
}

std::int64_t weight_macs(const std::vector<MatmulShape>& shapes) {
  std::int64_t total = 0;
  for (const MatmulShape& s : shapes) {
    if (s.has_weights()) total += s.count * s.batch * s.m * s.n * s.k;
  }
  return total;
}

// The reference rows of three models, prefill and decode.
struct GenerationCase {
  const char* title;
  const char* model;
  GenerationOptions options;
  std::vector<Row> rows;
};

const std::vector<GenerationCase>& generation_cases() {
  static const std::vector<GenerationCase> cases = {
      // h 1024, n_h = n_kv = 16, d 64, r 1, I 4·1024, V 50257, 24 layers; B 1, S 37 -> T 37.
      {"GPT-2 medium prefill: the seed's prompt of 37 tokens",
       "gpt2-medium.json",
       prefill(1, 37),
       {{"attn.c_attn", 1, 37, 3 * 1024, 1024, 24, NT, W, 1},  // (n_h + 2·n_kv)·d = 3072
        {"attn.qk", 16, 37, 37, 64, 24, NT, KV},               // × B·n_kv = 16, M = r·S
        {"attn.pv", 16, 37, 64, 37, 24, NN, KV},
        {"attn.c_proj", 1, 37, 1024, 1024, 24, NT, W, 1},  // the seed's kernel
        {"mlp.c_fc", 1, 37, 4096, 1024, 24, NT, W, 1},
        {"mlp.c_proj", 1, 37, 1024, 4096, 24, NT, W, 1},
        {"lm_head", 1, 1, 50257, 1024, 1, NT, W}}},  // last token only
      {"GPT-2 medium decode",
       "gpt2-medium.json",
       decode(1, 100),
       {{"attn.c_attn", 1, 1, 3072, 1024, 24, NT, W, 1},
        {"attn.qk", 16, 1, 100, 64, 24, NT, KV},  // M = r = 1, N = L
        {"attn.pv", 16, 1, 64, 100, 24, NN, KV},  // K = L
        {"attn.c_proj", 1, 1, 1024, 1024, 24, NT, W, 1},
        {"mlp.c_fc", 1, 1, 4096, 1024, 24, NT, W, 1},
        {"mlp.c_proj", 1, 1, 1024, 4096, 24, NT, W, 1},
        {"lm_head", 1, 1, 50257, 1024, 1, NT, W}}},
      // h 4096, n_h = n_kv = 32, d 128, r 1, I 11008, V 32000; T = 1024; B·n_kv = 64.
      {"Llama-2-7B prefill, batch 2, prompt 512",
       "llama-2-7b.json",
       prefill(2, 512),
       {{"self_attn.qkv_proj", 1, 1024, 12288, 4096, 32, NT, W},
        // causal: 4 query blocks of 128 attend 1 + 2 + 3 + 4 = 10 key tiles of 128
        {"self_attn.qk", 64, 128, 128, 128, 10 * 32, NT, KV},
        {"self_attn.pv", 64, 128, 128, 128, 10 * 32, NN, KV},
        {"self_attn.o_proj", 1, 1024, 4096, 4096, 32, NT, W},
        {"mlp.gate_up_proj", 1, 1024, 22016, 4096, 32, NT, W},  // 2·I
        {"mlp.down_proj", 1, 1024, 4096, 11008, 32, NT, W},
        {"lm_head", 1, 2, 32000, 4096, 1, NT, W}}},  // M = B
      {"Llama-2-7B decode, context 2048",
       "llama-2-7b.json",
       decode(1, 2048),
       {{"self_attn.qkv_proj", 1, 1, 12288, 4096, 32, NT, W},
        {"self_attn.qk", 32, 1, 2048, 128, 32, NT, KV},
        {"self_attn.pv", 32, 1, 128, 2048, 32, NN, KV},
        {"self_attn.o_proj", 1, 1, 4096, 4096, 32, NT, W},
        {"mlp.gate_up_proj", 1, 1, 22016, 4096, 32, NT, W},
        {"mlp.down_proj", 1, 1, 4096, 11008, 32, NT, W},
        {"lm_head", 1, 1, 32000, 4096, 1, NT, W}}},
      // h 4096, n_h 32, n_kv 8, d 128, r 4, I 14336, V 128256; B 1, S 512.
      {"Llama-3-8B prefill with GQA: n_kv 8, r 4",
       "llama-3-8b.json",
       prefill(1, 512),
       {{"self_attn.qkv_proj", 1, 512, (32 + 2 * 8) * 128, 4096, 32, NT, W},  // 6144
        {"self_attn.qk", 8, 4 * 128, 128, 128, 10 * 32, NT, KV},  // M = r·128, × B·n_kv = 8
        {"self_attn.pv", 8, 4 * 128, 128, 128, 10 * 32, NN, KV},
        {"self_attn.o_proj", 1, 512, 4096, 4096, 32, NT, W},
        {"mlp.gate_up_proj", 1, 512, 28672, 4096, 32, NT, W},
        {"mlp.down_proj", 1, 512, 4096, 14336, 32, NT, W},
        {"lm_head", 1, 1, 128256, 4096, 1, NT, W}}},
      {"Llama-3-8B decode with GQA, batch 4, context 2048",
       "llama-3-8b.json",
       decode(4, 2048),
       {{"self_attn.qkv_proj", 1, 4, 6144, 4096, 32, NT, W},
        {"self_attn.qk", 32, 4, 2048, 128, 32, NT, KV},  // M = r, × B·n_kv = 32
        {"self_attn.pv", 32, 4, 128, 2048, 32, NN, KV},
        {"self_attn.o_proj", 1, 4, 4096, 4096, 32, NT, W},
        {"mlp.gate_up_proj", 1, 4, 28672, 4096, 32, NT, W},
        {"mlp.down_proj", 1, 4, 4096, 14336, 32, NT, W},
        {"lm_head", 1, 4, 128256, 4096, 1, NT, W}}},
  };
  return cases;
}

}  // namespace

TEST_CASE("generated matmuls equal the reference rows (GPT-2 medium, Llama-2-7B, Llama-3-8B)",
          "[llm][matmuls]") {
  for (const GenerationCase& c : generation_cases()) {
    INFO(c.title);
    check_rows(generate_matmuls(model(c.model), c.options), c.rows, c.options.phase);
  }
}

TEST_CASE("separate Q, K, V and gate, up projections", "[llm][matmuls]") {
  GenerationOptions o = prefill(1, 16);
  o.fused_qkv = false;
  o.fused_gate_up = false;
  const auto shapes = generate_matmuls(model("llama-3-8b.json"), o);
  CHECK(find(shapes, "self_attn.q_proj").n == 4096);  // n_h·d
  CHECK(find(shapes, "self_attn.k_proj").n == 1024);  // n_kv·d
  CHECK(find(shapes, "self_attn.v_proj").n == 1024);
  CHECK(find(shapes, "mlp.gate_proj").n == 14336);
  CHECK(find(shapes, "mlp.up_proj").n == 14336);
  CHECK(shapes.size() == 10);
}

TEST_CASE("lm_head over all tokens has M = B·S", "[llm][matmuls]") {
  GenerationOptions o = prefill(3, 100);
  o.lm_head = LmHead::kAllTokens;
  CHECK(find(generate_matmuls(model("gpt2.json"), o), "lm_head").m == 300);
  o.lm_head = LmHead::kLastToken;
  CHECK(find(generate_matmuls(model("gpt2.json"), o), "lm_head").m == 3);
}

TEST_CASE("decode weight MACs equal the published parameter counts minus embeddings and norms",
          "[llm][matmuls]") {
  // Llama-2-7B: 6,738,415,616 parameters; minus the input embedding 32000·4096 and the RMSNorm
  // weights 4096·(2·32 + 1) leaves the linear layers incl. lm_head, each used once per token.
  const std::int64_t llama2 = 6738415616LL - 32000LL * 4096 - 4096LL * 65;
  CHECK(weight_macs(generate_matmuls(model("llama-2-7b.json"), decode(1, 10))) == llama2);
  // Llama-3-8B: 8,030,261,248 parameters, embedding 128256·4096.
  const std::int64_t llama3 = 8030261248LL - 128256LL * 4096 - 4096LL * 65;
  CHECK(weight_macs(generate_matmuls(model("llama-3-8b.json"), decode(1, 10))) == llama3);
  // GPT-2 medium: 354,823,168 parameters with a tied lm_head (counted once, used as lm_head);
  // minus the position embedding 1024·1024, the biases 24·(3072+1024+4096+1024) and the
  // LayerNorms 24·4·1024 + 2·1024.
  const std::int64_t gpt2m = 354823168LL - 1024LL * 1024 - 24LL * 9216 - (24LL * 4096 + 2048);
  CHECK(weight_macs(generate_matmuls(model("gpt2-medium.json"), decode(1, 10))) == gpt2m);
}

TEST_CASE("Mistral's sliding window caps the attended context in decode", "[llm][matmuls]") {
  const auto shapes = generate_matmuls(model("mistral-7b-v0.1.json"), decode(1, 8000));
  CHECK(find(shapes, "self_attn.qk").n == 4096);
  CHECK(find(shapes, "self_attn.pv").k == 4096);
  const auto short_context = generate_matmuls(model("mistral-7b-v0.1.json"), decode(1, 1000));
  CHECK(find(short_context, "self_attn.qk").n == 1000);
}

TEST_CASE("aggregate_matmuls merges identical calls and keeps first-appearance order",
          "[llm][matmuls]") {
  GenerationOptions o = decode(1, 64);
  o.fused_qkv = false;
  const auto merged = aggregate_matmuls(generate_matmuls(model("llama-2-7b.json"), o));
  // q, k, v and o_proj are all 1×4096×4096 in Llama-2-7B (no GQA).
  REQUIRE(merged.size() == 6);
  CHECK(merged[0].name == "self_attn.q_proj+self_attn.k_proj+self_attn.v_proj+self_attn.o_proj");
  CHECK(merged[0].count == 4 * 32);
  CHECK(merged[1].name == "self_attn.qk");
  const auto twice = aggregate_matmuls({merged[1], merged[1]});
  REQUIRE(twice.size() == 1);
  CHECK(twice[0].name == "self_attn.qk");
  CHECK(twice[0].count == 64);
}

TEST_CASE("bad generation options name the option", "[llm][matmuls][errors]") {
  namespace code = tenet::error_code;
  const ModelConfig gpt2 = model("gpt2.json");
  struct Case {
    GenerationOptions options;
    const char* code;
    const char* where;
  };
  GenerationOptions no_phase = prefill(1, 10);
  no_phase.phase = Phase::kUnspecified;
  GenerationOptions decode_with_prompt = decode(1, 0);
  decode_with_prompt.prompt = 512;
  GenerationOptions prefill_with_context = prefill(1, 0);
  prefill_with_context.context = 512;
  const Case cases[] = {
      {prefill(0, 10), code::kRange, "batch"},
      {prefill(-1, 10), code::kRange, "batch"},
      {prefill(1, 0), code::kMissingField, "prompt"},  // not given
      {prefill(1, -3), code::kRange, "prompt"},
      {prefill(1, 1025), code::kRange, "prompt"},  // GPT-2 has 1024 positions
      {decode(1, 0), code::kMissingField, "context"},
      {decode(1, -3), code::kRange, "context"},
      {decode_with_prompt, code::kUsage, "prompt"},  // the length of the other phase
      {prefill_with_context, code::kUsage, "context"},
      {decode(1, 2000), code::kRange, "context"},
      {prefill(std::int64_t{1} << 62, 1000), code::kOverflow, "prompt"},
      {no_phase, code::kUsage, "phase"},
  };
  for (const Case& c : cases) {
    try {
      generate_matmuls(gpt2, c.options);
      FAIL("expected an error at " << c.where);
    } catch (const tenet::InputError& e) {
      CHECK(e.code() == c.code);
      CHECK(e.where() == c.where);
    }
  }
}

}  // namespace llm_model_matmuls_test
