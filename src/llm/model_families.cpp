// THE family table: one row per family the config reader knows (model_families.hpp). A row starts
// from Llama's conventions (gated MLP gate/up/down, RMSNorm ×2, no biases, nothing fused,
// `self_attn.*` / `mlp.*` names, the standard key names) and states what differs: its config
// class's defaults (the values of the class's `__init__` signature in transformers, or of the
// family's remote configuration_*.py; a default of None that the class derives —
// num_key_value_heads → num_attention_heads, head_dim → h / n_h — is left to the reader, which
// derives it the same way), its conventions and its rules. Docs: docs/llm.md ("Family
// conventions", "Absent keys", "Adding a family").
#include "llm/model_families.hpp"

#include <utility>

namespace tenet::llm::config_detail {
namespace family_rows {

using D = std::vector<ClassDefault>;
using N = LayerNames;
using Names = std::vector<std::string>;

// ---- weight names ----------------------------------------------------------------------------

LayerNames gpt2_names() {
  LayerNames n;
  n.qkv = "attn.c_attn", n.q = "attn.q_proj", n.k = "attn.k_proj", n.v = "attn.v_proj";
  n.o = "attn.c_proj", n.qk = "attn.qk", n.pv = "attn.pv";
  n.up = "mlp.c_fc", n.down = "mlp.c_proj";
  return n;
}

// GPT-NeoX, BLOOM, Falcon, ChatGLM: query_key_value / dense / dense_h_to_4h / dense_4h_to_h.
LayerNames qkv_dense_names(const std::string& attn) {
  LayerNames n;
  n.qkv = attn + "query_key_value", n.q = attn + "q_proj", n.k = attn + "k_proj";
  n.v = attn + "v_proj", n.o = attn + "dense", n.qk = attn + "qk", n.pv = attn + "pv";
  n.up = "mlp.dense_h_to_4h", n.gate_up = "mlp.dense_h_to_4h", n.down = "mlp.dense_4h_to_h";
  return n;
}

// InternLM2: attention.wqkv / wo; feed_forward.w1 (gate), w3 (up), w2 (down); the head `output`.
LayerNames internlm2_names() {
  LayerNames n;
  const std::string a = "attention.", f = "feed_forward.";
  n.qkv = a + "wqkv", n.q = a + "wq", n.k = a + "wk", n.v = a + "wv", n.o = a + "wo";
  n.qk = a + "qk", n.pv = a + "pv";
  n.gate_up = f + "w1_w3", n.gate = f + "w1", n.up = f + "w3", n.down = f + "w2";
  n.lm_head = "output";
  return n;
}

LayerNames with(LayerNames n,
                std::initializer_list<std::pair<std::string LayerNames::*, const char*>> set) {
  for (const auto& [member, value] : set) n.*member = value;
  return n;
}

// Llama-4, Jamba: the MLP and the MoE under `feed_forward.`.
LayerNames feed_forward_names() {
  return with({}, {{&N::gate_up, "feed_forward.gate_up_proj"},
                   {&N::gate, "feed_forward.gate_proj"},
                   {&N::up, "feed_forward.up_proj"},
                   {&N::down, "feed_forward.down_proj"},
                   {&N::moe, "feed_forward."}});
}

SizeKeys gpt2_keys() {
  return {{"n_embd", "hidden_size", "n_embed", "d_model"},
          {"n_layer", "num_hidden_layers", "num_layers"},
          {"n_head", "num_attention_heads"}};
}

// ---- class defaults --------------------------------------------------------------------------

// The sizes of a Llama-style class: V, h, I, layers, heads, context (n_kv: None unless given).
D sizes(std::int64_t vocab, std::int64_t hidden, std::int64_t inter, std::int64_t layers,
        std::int64_t heads, std::int64_t positions) {
  return {{"vocab_size", vocab},          {"hidden_size", hidden},
          {"intermediate_size", inter},   {"num_hidden_layers", layers},
          {"num_attention_heads", heads}, {"max_position_embeddings", positions}};
}

D plus(D a, const D& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Qwen2 / Qwen3's window keys: no window unless use_sliding_window, then on the layers from
// max_window_layers.
D qwen_window() {
  return {{"use_sliding_window", false}, {"sliding_window", 4096}, {"max_window_layers", 28}};
}

D untied() { return {{"tie_word_embeddings", false}}; }

// ---- a row ------------------------------------------------------------------------------------

// One family: Llama's conventions unless a setter states otherwise.
struct Row {
  Family f;

  Row(const char* type, const char* display, Names architectures, const char* config_class,
      D defaults) {
    f.model_type = type, f.display = display, f.architectures = std::move(architectures);
    f.config_class = config_class, f.defaults = std::move(defaults);
  }
  operator Family() const { return f; }

  // which configs are this family
  Row& also(Names types) { return f.other_types = std::move(types), *this; }
  Row& wrapper(const char* type, Names archs = {}) {
    f.wrapper_type = type, f.wrapper_architectures = std::move(archs);
    return *this;
  }
  Row& implied_by(const char* key) { return f.implied_by_key = key, *this; }
  // conventions
  Row& keys(SizeKeys k) { return f.size_keys = std::move(k), *this; }
  Row& plain_mlp() { return f.mlp = MlpKind::kPlain, *this; }
  Row& mlp_4h() { return f.mlp_4h = true, *this; }
  Row& norms(NormKind kind, int per_layer) {
    f.norm = kind, f.norms_per_layer = per_layer;
    return *this;
  }
  Row& biases(bool qkv, bool o, bool mlp) {
    f.qkv_bias = qkv, f.o_bias = o, f.mlp_bias = mlp;
    return *this;
  }
  Row& lm_head_bias() { return f.lm_head_bias = true, *this; }
  Row& fused(bool qkv, bool gate_up) {
    f.fused_qkv = qkv, f.fused_gate_up = gate_up;
    return *this;
  }
  Row& names(LayerNames n) { return f.names = std::move(n), *this; }
  // rules
  Row& parallel(KeyedFlag when) { return f.parallel_blocks = when, *this; }
  Row& new_architecture(KeyedFlag when, const char* type) {
    f.new_architecture = when, f.new_architecture_type = type;
    return *this;
  }
  Row& one_norm_when_parallel() { return f.one_norm_when_parallel = true, *this; }
  Row& kv_heads(KvHeadsRule rule) { return f.kv_heads = rule, *this; }
  Row& multi_query() { return f.multi_query = true, *this; }
  Row& dense_width(const char* key) { return f.dense_width_key = key, *this; }
  Row& intermediate_is_sum() { return f.intermediate_is_sum = true, *this; }
  Row& no_bias(KeyedFlag when) { return f.no_bias = when, *this; }
  Row& embed_width(const char* key) { return f.embed_width_key = key, *this; }
  Row& position_rows(int beyond_context) { return f.position_rows = beyond_context, *this; }
  Row& embedding_norm() { return f.embedding_norm = true, *this; }
  Row& no_rotary() { return f.rotary = false, *this; }
  Row& window_layers(WindowLayers w) { return f.window_layers = w, *this; }
  Row& shared_expert() { return f.shared_expert = true, *this; }
  Row& expert_mlp(MlpKind k) { return f.expert_mlp = k, *this; }
  Row& mamba_inner_norms() { return f.mamba_inner_norms = true, *this; }
  Row& gated_attention() { return f.gated_attention = true, *this; }
  Row& qk_norm() { return f.qk_norm = true, *this; }
  Row& attention_sinks() { return f.attention_sinks = true, *this; }
  Row& expert_biases() { return f.expert_biases = true, *this; }
};

constexpr KeyedFlag kAlways{nullptr, true};
constexpr NormKind kLayerNorm = NormKind::kLayer;

// GPT-2's dialect: its key names, plain 4·h MLP, LayerNorm, biases everywhere, fused c_attn,
// learned positions.
Row gpt2_style(Row r) {
  return r.keys(gpt2_keys())
      .plain_mlp()
      .mlp_4h()
      .norms(kLayerNorm, 2)
      .biases(true, true, true)
      .fused(true, false)
      .names(gpt2_names())
      .position_rows(0)
      .no_rotary();
}

std::vector<Family> gpt_rows() {
  return {
      gpt2_style({"gpt2",
                  "GPT-2",
                  {"GPT2LMHeadModel", "GPT2Model"},
                  "GPT2Config",
                  {{"vocab_size", 50257},
                   {"n_positions", 1024},
                   {"n_embd", 768},
                   {"n_layer", 12},
                   {"n_head", 12},
                   {"tie_word_embeddings", true}}})
          .implied_by("n_embd"),
      gpt2_style({"gpt_bigcode",
                  "GPTBigCode",
                  {"GPTBigCodeForCausalLM"},
                  "GPTBigCodeConfig",
                  {{"vocab_size", 50257},
                   {"n_positions", 1024},
                   {"n_embd", 768},
                   {"n_layer", 12},
                   {"n_head", 12},
                   {"multi_query", true},
                   {"tie_word_embeddings", true}}})
          .multi_query(),
      // GPT-J: attention and MLP in parallel after one LayerNorm; biases on the MLP and lm_head.
      Row("gptj", "GPT-J", {"GPTJForCausalLM"}, "GPTJConfig",
          {{"vocab_size", 50400},
           {"n_positions", 2048},
           {"n_embd", 4096},
           {"n_layer", 28},
           {"n_head", 16},
           {"tie_word_embeddings", false}})
          .keys(gpt2_keys())
          .plain_mlp()
          .mlp_4h()
          .norms(kLayerNorm, 1)
          .biases(false, false, true)
          .lm_head_bias()
          .parallel(kAlways)
          .names(with({}, {{&N::q, "attn.q_proj"},
                           {&N::k, "attn.k_proj"},
                           {&N::v, "attn.v_proj"},
                           {&N::qkv, "attn.qkv_proj"},
                           {&N::o, "attn.out_proj"},
                           {&N::qk, "attn.qk"},
                           {&N::pv, "attn.pv"},
                           {&N::up, "mlp.fc_in"},
                           {&N::down, "mlp.fc_out"}})),
      Row("gpt_neox", "GPT-NeoX", {"GPTNeoXForCausalLM"}, "GPTNeoXConfig",
          plus(sizes(50432, 6144, 24576, 44, 64, 2048), {{"tie_word_embeddings", false},
                                                         {"use_parallel_residual", true},
                                                         {"attention_bias", true}}))
          .plain_mlp()
          .norms(kLayerNorm, 2)
          .biases(true, true, true)
          .fused(true, false)
          .parallel({"use_parallel_residual", true})
          .names(with(qkv_dense_names("attention."), {{&N::lm_head, "embed_out"}})),
  };
}

// Plain-MLP LayerNorm families of their own names.
std::vector<Family> layer_norm_rows() {
  return {
      // OPT: a projected token embedding (word_embed_proj_dim), 2 extra learned position rows.
      Row("opt", "OPT", {"OPTForCausalLM"}, "OPTConfig",
          {{"vocab_size", 50272},
           {"hidden_size", 768},
           {"num_hidden_layers", 12},
           {"ffn_dim", 3072},
           {"max_position_embeddings", 2048},
           {"num_attention_heads", 12},
           {"enable_bias", true},
           {"tie_word_embeddings", true}})
          .plain_mlp()
          .norms(kLayerNorm, 2)
          .biases(true, true, true)
          .embed_width("word_embed_proj_dim")
          .position_rows(2)
          .no_rotary()
          .names(with({}, {{&N::o, "self_attn.out_proj"}, {&N::up, "fc1"}, {&N::down, "fc2"}})),
      Row("bloom", "BLOOM", {"BloomForCausalLM"}, "BloomConfig",
          {{"vocab_size", 250880},
           {"hidden_size", 64},
           {"n_layer", 2},
           {"n_head", 8},
           {"tie_word_embeddings", true}})
          .plain_mlp()
          .mlp_4h()
          .norms(kLayerNorm, 2)
          .biases(true, true, true)
          .fused(true, false)
          .embedding_norm()
          .no_rotary()  // ALiBi
          .names(qkv_dense_names("self_attention.")),
      // Falcon: the original architecture (multi-query, attention and MLP in parallel after one
      // LayerNorm) and the new one (KV groups, two LayerNorms); model_type RefinedWeb is the new.
      Row("falcon", "Falcon", {"FalconForCausalLM", "RWForCausalLM"}, "FalconConfig",
          {{"vocab_size", 65024},
           {"hidden_size", 4544},
           {"num_hidden_layers", 32},
           {"num_attention_heads", 71},
           {"max_position_embeddings", 2048},
           {"new_decoder_architecture", false},
           {"multi_query", true},
           {"parallel_attn", true},
           {"bias", false},
           {"tie_word_embeddings", true}})
          .also({"RefinedWeb", "RefinedWebModel"})
          .plain_mlp()
          .mlp_4h()
          .norms(kLayerNorm, 2)
          .fused(true, false)
          .names(qkv_dense_names("self_attention."))
          .parallel({"parallel_attn", true})
          .new_architecture({"new_decoder_architecture", false}, "RefinedWeb")
          .one_norm_when_parallel()
          .kv_heads(KvHeadsRule::kArchitecture)
          .multi_query(),
      Row("starcoder2", "StarCoder2", {"Starcoder2ForCausalLM"}, "Starcoder2Config",
          plus(sizes(49152, 3072, 12288, 30, 24, 4096),
               {{"num_key_value_heads", 2}, {"use_bias", true}, {"tie_word_embeddings", true}}))
          .plain_mlp()
          .norms(kLayerNorm, 2)
          .biases(true, true, true)
          .names(with({}, {{&N::up, "mlp.c_fc"}, {&N::down, "mlp.c_proj"}})),
      Row("phi", "Phi", {"PhiForCausalLM"}, "PhiConfig",
          plus(sizes(51200, 2048, 8192, 24, 32, 2048), untied()))
          .plain_mlp()
          .norms(kLayerNorm, 1)
          .biases(true, true, true)
          .lm_head_bias()
          .parallel(kAlways)
          .names(
              with({}, {{&N::o, "self_attn.dense"}, {&N::up, "mlp.fc1"}, {&N::down, "mlp.fc2"}})),
  };
}

std::vector<Family> llama_rows() {
  return {
      Row("llama", "Llama", {"LlamaForCausalLM"}, "LlamaConfig",
          plus(sizes(32000, 4096, 11008, 32, 32, 2048),
               {{"tie_word_embeddings", false}, {"attention_bias", false}, {"mlp_bias", false}})),
      Row("mistral", "Mistral", {"MistralForCausalLM"}, "MistralConfig",
          plus(sizes(32000, 4096, 14336, 32, 32, 4096 * 32), {{"num_key_value_heads", 8},
                                                              {"tie_word_embeddings", false},
                                                              {"sliding_window", 4096}})),
      Row("mixtral", "Mixtral", {"MixtralForCausalLM"}, "MixtralConfig",
          plus(sizes(32000, 4096, 14336, 32, 32, 4096 * 32), {{"num_key_value_heads", 8},
                                                              {"tie_word_embeddings", false},
                                                              {"num_local_experts", 8},
                                                              {"num_experts_per_tok", 2}}))
          .names(with({}, {{&N::moe, "block_sparse_moe."}})),
      Row("gemma", "Gemma", {"GemmaForCausalLM"}, "GemmaConfig",
          plus(sizes(256000, 3072, 24576, 28, 16, 8192), {{"num_key_value_heads", 16},
                                                          {"head_dim", 256},
                                                          {"tie_word_embeddings", true},
                                                          {"attention_bias", false}})),
      // Gemma-2: a norm before and after attention and MLP; a window on every other layer.
      Row("gemma2", "Gemma-2", {"Gemma2ForCausalLM"}, "Gemma2Config",
          plus(sizes(256000, 2304, 9216, 26, 8, 8192), {{"num_key_value_heads", 4},
                                                        {"head_dim", 256},
                                                        {"tie_word_embeddings", true},
                                                        {"attention_bias", false},
                                                        {"sliding_window", 4096}}))
          .norms(NormKind::kRms, 4)
          .window_layers(WindowLayers::kEveryOther),
      Row("gemma3_text", "Gemma-3", {"Gemma3ForCausalLM"}, "Gemma3TextConfig",
          plus(sizes(262208, 2304, 9216, 26, 8, 131072), {{"num_key_value_heads", 4},
                                                          {"head_dim", 256},
                                                          {"tie_word_embeddings", true},
                                                          {"attention_bias", false},
                                                          {"sliding_window", 4096},
                                                          {"sliding_window_pattern", 6}}))
          .wrapper("gemma3", {"Gemma3ForConditionalGeneration"})
          .norms(NormKind::kRms, 4)
          .qk_norm(),
      Row("phi3", "Phi-3", {"Phi3ForCausalLM"}, "Phi3Config",
          plus(sizes(32064, 3072, 8192, 32, 32, 4096), untied()))
          .fused(true, true),
      // Cohere (Command-R, Aya-23): one LayerNorm (no bias) before parallel attention and MLP.
      Row("cohere", "Cohere", {"CohereForCausalLM"}, "CohereConfig",
          plus(sizes(256000, 8192, 22528, 40, 64, 8192),
               {{"tie_word_embeddings", true}, {"attention_bias", false}}))
          .norms(NormKind::kLayerNoBias, 1)
          .parallel(kAlways),
      // StableLM-2: LayerNorm, Q/K/V biases when use_qkv_bias says so.
      Row("stablelm", "StableLM", {"StableLmForCausalLM"}, "StableLmConfig",
          plus(sizes(50304, 2560, 6912, 32, 32, 4096), {{"num_key_value_heads", 32},
                                                        {"tie_word_embeddings", false},
                                                        {"use_qkv_bias", false},
                                                        {"use_parallel_residual", false}}))
          .norms(kLayerNorm, 2)
          .parallel({"use_parallel_residual", false}),
      // SmolLM3: Llama's layers, RoPE left out on every 4th layer (no_rope_layers).
      Row("smollm3", "SmolLM3", {"SmolLM3ForCausalLM"}, "SmolLM3Config",
          {{"tie_word_embeddings", true}, {"attention_bias", false}, {"mlp_bias", false}}),
      Row("nemotron-nas", "DeciLM", {"DeciLMForCausalLM"}, "DeciLMConfig", untied()),
      // InternLM2: fused wqkv; w1 (gate), w3 (up), w2 (down); the head is `output`.
      Row("internlm2", "InternLM2", {"InternLM2ForCausalLM"}, "InternLM2Config", untied())
          .fused(true, false)
          .names(internlm2_names()),
      // ChatGLM's output_layer is a matrix of its own: the class leaves tie_word_embeddings at
      // PretrainedConfig's default, but the model never ties it.
      Row("chatglm", "ChatGLM", {"ChatGLMModel", "ChatGLMForConditionalGeneration"},
          "ChatGLMConfig (the model never ties output_layer)", untied())
          .biases(true, false, false)
          .fused(true, true)
          .names(with(qkv_dense_names("self_attention."), {{&N::lm_head, "output_layer"}}))
          .kv_heads(KvHeadsRule::kGroups),
  };
}

std::vector<Family> qwen_rows() {
  return {
      // Qwen (v1): fused c_attn; intermediate_size is the sum of w1's and w2's widths; no_bias.
      Row("qwen", "Qwen", {"QWenLMHeadModel"}, "QWenConfig", untied())
          .biases(true, false, false)
          .fused(true, false)
          .intermediate_is_sum()
          .no_bias({"no_bias", true})
          .names(with({}, {{&N::qkv, "attn.c_attn"},
                           {&N::o, "attn.c_proj"},
                           {&N::qk, "attn.qk"},
                           {&N::pv, "attn.pv"},
                           {&N::gate, "mlp.w2"},
                           {&N::up, "mlp.w1"},
                           {&N::down, "mlp.c_proj"}})),
      Row("qwen2", "Qwen2", {"Qwen2ForCausalLM"}, "Qwen2Config",
          plus(plus(sizes(151936, 4096, 22016, 32, 32, 32768),
                    {{"num_key_value_heads", 32}, {"tie_word_embeddings", false}}),
               qwen_window()))
          .biases(true, false, false)
          .window_layers(WindowLayers::kFrom),
      Row("qwen2_moe", "Qwen2-MoE", {"Qwen2MoeForCausalLM"}, "Qwen2MoeConfig",
          plus(plus(sizes(151936, 2048, 5632, 24, 16, 32768),
                    {{"num_key_value_heads", 16},
                     {"tie_word_embeddings", false},
                     {"decoder_sparse_step", 1},
                     {"moe_intermediate_size", 1408},
                     {"shared_expert_intermediate_size", 5632},
                     {"num_experts_per_tok", 4},
                     {"num_experts", 60}}),
               qwen_window()))
          .biases(true, false, false)
          .window_layers(WindowLayers::kFrom),
      Row("qwen3", "Qwen3", {"Qwen3ForCausalLM"}, "Qwen3Config",
          plus(plus(sizes(151936, 4096, 22016, 32, 32, 32768), {{"num_key_value_heads", 32},
                                                                {"head_dim", 128},
                                                                {"tie_word_embeddings", false},
                                                                {"attention_bias", false}}),
               qwen_window()))
          .qk_norm(),
      Row("qwen3_moe", "Qwen3-MoE", {"Qwen3MoeForCausalLM"}, "Qwen3MoeConfig",
          plus(plus(sizes(151936, 2048, 6144, 24, 32, 32768), {{"num_key_value_heads", 4},
                                                               {"tie_word_embeddings", false},
                                                               {"attention_bias", false},
                                                               {"decoder_sparse_step", 1},
                                                               {"moe_intermediate_size", 768},
                                                               {"num_experts_per_tok", 8},
                                                               {"num_experts", 128}}),
               qwen_window()))
          .qk_norm(),
      // Qwen3-Next: Gated DeltaNet and gated attention.
      Row("qwen3_next", "Qwen3-Next", {"Qwen3NextForCausalLM"}, "Qwen3NextConfig", untied())
          .qk_norm()
          .gated_attention(),
      Row("qwen3_5_text", "Qwen3.5", {}, "Qwen3_5TextConfig", untied())
          .wrapper("qwen3_5")
          .qk_norm(),
      Row("qwen3_5_moe_text", "Qwen3.5-MoE", {}, "Qwen3_5MoeTextConfig", untied())
          .wrapper("qwen3_5_moe")
          .qk_norm(),
  };
}

std::vector<Family> expert_rows() {
  return {
      Row("deepseek_v2", "DeepSeek-V2", {"DeepseekV2ForCausalLM"}, "DeepseekV2Config",
          plus(sizes(102400, 4096, 11008, 30, 32, 2048), {{"num_key_value_heads", 32},
                                                          {"moe_intermediate_size", 1407},
                                                          {"kv_lora_rank", 512},
                                                          {"q_lora_rank", 1536},
                                                          {"qk_rope_head_dim", 64},
                                                          {"v_head_dim", 128},
                                                          {"qk_nope_head_dim", 128},
                                                          {"moe_layer_freq", 1},
                                                          {"first_k_dense_replace", 0},
                                                          {"tie_word_embeddings", false},
                                                          {"attention_bias", false}})),
      Row("deepseek_v3", "DeepSeek-V3", {"DeepseekV3ForCausalLM"}, "DeepseekV3Config",
          plus(sizes(129280, 7168, 18432, 61, 128, 4096), {{"num_key_value_heads", 128},
                                                           {"moe_intermediate_size", 2048},
                                                           {"n_shared_experts", 1},
                                                           {"n_routed_experts", 256},
                                                           {"num_experts_per_tok", 8},
                                                           {"kv_lora_rank", 512},
                                                           {"q_lora_rank", 1536},
                                                           {"qk_rope_head_dim", 64},
                                                           {"v_head_dim", 128},
                                                           {"qk_nope_head_dim", 128},
                                                           {"moe_layer_freq", 1},
                                                           {"first_k_dense_replace", 3},
                                                           {"tie_word_embeddings", false},
                                                           {"attention_bias", false}})),
      Row("deepseek_v32", "DeepSeek-V3.2", {"DeepseekV32ForCausalLM"}, "DeepseekV32Config",
          untied()),
      // DeepSeekMoE (v1): Llama attention, DeepSeek's fine-grained and shared experts.
      Row("deepseek", "DeepSeekMoE", {"DeepseekForCausalLM"}, "DeepseekConfig", untied()),
      // Llama-4: the dense layers' MLP width is intermediate_size_mlp; every MoE layer has one
      // shared expert of the experts' width.
      Row("llama4_text", "Llama-4", {"Llama4ForCausalLM"}, "Llama4TextConfig", untied())
          .wrapper("llama4", {"Llama4ForConditionalGeneration"})
          .names(feed_forward_names())
          .dense_width("intermediate_size_mlp")
          .shared_expert(),
      // gpt-oss: biases on q, k, v, o, the router and the experts; a learned sink per head.
      Row("gpt_oss", "gpt-oss", {"GptOssForCausalLM"}, "GptOssConfig", untied())
          .biases(true, true, false)
          .attention_sinks()
          .expert_biases(),
      Row("jamba", "Jamba", {"JambaForCausalLM"}, "JambaConfig",
          plus(sizes(65536, 4096, 14336, 32, 32, 262144), {{"num_key_value_heads", 8},
                                                           {"num_experts_per_tok", 2},
                                                           {"num_experts", 16},
                                                           {"expert_layer_period", 2},
                                                           {"expert_layer_offset", 1},
                                                           {"attn_layer_period", 8},
                                                           {"attn_layer_offset", 4},
                                                           {"mamba_d_state", 16},
                                                           {"mamba_d_conv", 4},
                                                           {"mamba_expand", 2},
                                                           {"mamba_dt_rank", "auto"},
                                                           {"mamba_conv_bias", true},
                                                           {"mamba_proj_bias", false},
                                                           {"tie_word_embeddings", false}}))
          .names(feed_forward_names())
          .mamba_inner_norms()
          .no_rotary(),
      // Nemotron-H: every layer is one block (norm + mixer): Mamba-2, attention, a relu² MLP or
      // a MoE of relu² experts (up, down) with a shared relu² expert.
      Row("nemotron_h", "Nemotron-H", {"NemotronHForCausalLM"}, "NemotronHConfig", untied())
          .plain_mlp()
          .norms(NormKind::kRms, 1)
          .expert_mlp(MlpKind::kPlain)
          .no_rotary()
          .names(with({}, {{&N::qkv, "mixer.qkv_proj"},
                           {&N::q, "mixer.q_proj"},
                           {&N::k, "mixer.k_proj"},
                           {&N::v, "mixer.v_proj"},
                           {&N::o, "mixer.o_proj"},
                           {&N::qk, "mixer.qk"},
                           {&N::pv, "mixer.pv"},
                           {&N::up, "mixer.up_proj"},
                           {&N::down, "mixer.down_proj"},
                           {&N::moe, "mixer."}})),
  };
}

}  // namespace family_rows

const std::vector<Family>& families() {
  static const std::vector<Family> table = [] {
    std::vector<Family> all;
    for (auto rows : {family_rows::gpt_rows, family_rows::layer_norm_rows, family_rows::llama_rows,
                      family_rows::qwen_rows, family_rows::expert_rows}) {
      std::vector<Family> part = rows();
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  }();
  return table;
}

const Family& generic_family() {
  static const Family generic =
      family_rows::Row("", "", {}, "PretrainedConfig", {{"tie_word_embeddings", true}});
  return generic;
}

}  // namespace tenet::llm::config_detail
