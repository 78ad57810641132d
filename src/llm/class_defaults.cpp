// The defaults of each config class the reader knows, for the keys it reads (class_defaults.hpp):
// the values of the classes' `__init__` signatures in transformers (remote-code classes: their
// configuration_*.py), the keys whose default is None (derived by the class: num_key_value_heads
// → num_attention_heads, head_dim → hidden / heads) left to the reader's own derivation, which is
// the same. A class known here only for some keys lists only those; a key it lacks keeps the
// reader's rule (a required size missing is an error naming its keys).
#include "llm/class_defaults.hpp"

#include <algorithm>

namespace tenet::llm::config_detail {
namespace {

using nlohmann::json;
using D = std::vector<ClassDefault>;

// The sizes of a Llama-style class: V, h, I, layers, heads (n_kv: None unless given).
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
const D& qwen_window() {
  static const D d = {
      {"use_sliding_window", false}, {"sliding_window", 4096}, {"max_window_layers", 28}};
  return d;
}

// The keys the reader looks for one quantity under, in any order: a default of one of them is not
// used when the config states another.
const std::vector<std::vector<const char*>>& alias_groups() {
  static const std::vector<std::vector<const char*>> groups = {
      {"hidden_size", "n_embd", "n_embed", "d_model"},
      {"num_hidden_layers", "n_layer", "num_layers"},
      {"num_attention_heads", "n_head"},
      {"vocab_size", "padded_vocab_size"},
      {"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length", "n_ctx"},
      {"intermediate_size", "ffn_dim", "n_inner", "ffn_hidden_size"},
      {"num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num"},
      {"head_dim", "kv_channels", "attention_head_dim"},
      {"num_local_experts", "n_routed_experts", "num_experts"},
      {"sliding_window_pattern", "layer_types"},
  };
  return groups;
}

bool states(const json& doc, const char* key) {
  if (doc.contains(key)) return true;
  for (const auto& group : alias_groups()) {
    if (std::none_of(group.begin(), group.end(),
                     [&](const char* k) { return std::string(k) == key; }))
      continue;
    return std::any_of(group.begin(), group.end(), [&](const char* k) { return doc.contains(k); });
  }
  return false;
}

}  // namespace

const std::vector<ConfigClass>& config_classes() {
  static const std::vector<ConfigClass> table = {
      {"llama", "LlamaConfig",
       plus(sizes(32000, 4096, 11008, 32, 32, 2048),
            {{"tie_word_embeddings", false}, {"attention_bias", false}, {"mlp_bias", false}})},
      {"mistral", "MistralConfig",
       plus(
           sizes(32000, 4096, 14336, 32, 32, 4096 * 32),
           {{"num_key_value_heads", 8}, {"tie_word_embeddings", false}, {"sliding_window", 4096}})},
      {"mixtral", "MixtralConfig",
       plus(sizes(32000, 4096, 14336, 32, 32, 4096 * 32), {{"num_key_value_heads", 8},
                                                           {"tie_word_embeddings", false},
                                                           {"num_local_experts", 8},
                                                           {"num_experts_per_tok", 2}})},
      {"qwen2", "Qwen2Config",
       plus(plus(sizes(151936, 4096, 22016, 32, 32, 32768),
                 {{"num_key_value_heads", 32}, {"tie_word_embeddings", false}}),
            qwen_window())},
      {"qwen2_moe", "Qwen2MoeConfig",
       plus(plus(sizes(151936, 2048, 5632, 24, 16, 32768),
                 {{"num_key_value_heads", 16},
                  {"tie_word_embeddings", false},
                  {"decoder_sparse_step", 1},
                  {"moe_intermediate_size", 1408},
                  {"shared_expert_intermediate_size", 5632},
                  {"num_experts_per_tok", 4},
                  {"num_experts", 60}}),
            qwen_window())},
      {"qwen3", "Qwen3Config",
       plus(plus(sizes(151936, 4096, 22016, 32, 32, 32768), {{"num_key_value_heads", 32},
                                                             {"head_dim", 128},
                                                             {"tie_word_embeddings", false},
                                                             {"attention_bias", false}}),
            qwen_window())},
      {"qwen3_moe", "Qwen3MoeConfig",
       plus(plus(sizes(151936, 2048, 6144, 24, 32, 32768), {{"num_key_value_heads", 4},
                                                            {"tie_word_embeddings", false},
                                                            {"attention_bias", false},
                                                            {"decoder_sparse_step", 1},
                                                            {"moe_intermediate_size", 768},
                                                            {"num_experts_per_tok", 8},
                                                            {"num_experts", 128}}),
            qwen_window())},
      {"gemma", "GemmaConfig",
       plus(sizes(256000, 3072, 24576, 28, 16, 8192), {{"num_key_value_heads", 16},
                                                       {"head_dim", 256},
                                                       {"tie_word_embeddings", true},
                                                       {"attention_bias", false}})},
      {"gemma2", "Gemma2Config",
       plus(sizes(256000, 2304, 9216, 26, 8, 8192), {{"num_key_value_heads", 4},
                                                     {"head_dim", 256},
                                                     {"tie_word_embeddings", true},
                                                     {"attention_bias", false},
                                                     {"sliding_window", 4096}})},
      {"gemma3_text", "Gemma3TextConfig",
       plus(sizes(262208, 2304, 9216, 26, 8, 131072), {{"num_key_value_heads", 4},
                                                       {"head_dim", 256},
                                                       {"tie_word_embeddings", true},
                                                       {"attention_bias", false},
                                                       {"sliding_window", 4096},
                                                       {"sliding_window_pattern", 6}})},
      {"phi3", "Phi3Config",
       plus(sizes(32064, 3072, 8192, 32, 32, 4096), {{"tie_word_embeddings", false}})},
      {"phi", "PhiConfig",
       plus(sizes(51200, 2048, 8192, 24, 32, 2048), {{"tie_word_embeddings", false}})},
      {"gpt2",
       "GPT2Config",
       {{"vocab_size", 50257},
        {"n_positions", 1024},
        {"n_embd", 768},
        {"n_layer", 12},
        {"n_head", 12},
        {"tie_word_embeddings", true}}},
      {"gpt_bigcode",
       "GPTBigCodeConfig",
       {{"vocab_size", 50257},
        {"n_positions", 1024},
        {"n_embd", 768},
        {"n_layer", 12},
        {"n_head", 12},
        {"multi_query", true},
        {"tie_word_embeddings", true}}},
      {"gptj",
       "GPTJConfig",
       {{"vocab_size", 50400},
        {"n_positions", 2048},
        {"n_embd", 4096},
        {"n_layer", 28},
        {"n_head", 16},
        {"tie_word_embeddings", false}}},
      {"gpt_neox", "GPTNeoXConfig",
       plus(sizes(50432, 6144, 24576, 44, 64, 2048), {{"tie_word_embeddings", false},
                                                      {"use_parallel_residual", true},
                                                      {"attention_bias", true}})},
      {"opt",
       "OPTConfig",
       {{"vocab_size", 50272},
        {"hidden_size", 768},
        {"num_hidden_layers", 12},
        {"ffn_dim", 3072},
        {"max_position_embeddings", 2048},
        {"num_attention_heads", 12},
        {"enable_bias", true},
        {"tie_word_embeddings", true}}},
      {"bloom",
       "BloomConfig",
       {{"vocab_size", 250880},
        {"hidden_size", 64},
        {"n_layer", 2},
        {"n_head", 8},
        {"tie_word_embeddings", true}}},
      {"falcon",
       "FalconConfig",
       {{"vocab_size", 65024},
        {"hidden_size", 4544},
        {"num_hidden_layers", 32},
        {"num_attention_heads", 71},
        {"max_position_embeddings", 2048},
        {"new_decoder_architecture", false},
        {"multi_query", true},
        {"parallel_attn", true},
        {"bias", false},
        {"tie_word_embeddings", true}}},
      {"starcoder2", "Starcoder2Config",
       plus(sizes(49152, 3072, 12288, 30, 24, 4096),
            {{"num_key_value_heads", 2}, {"use_bias", true}, {"tie_word_embeddings", true}})},
      {"stablelm", "StableLmConfig",
       plus(sizes(50304, 2560, 6912, 32, 32, 4096), {{"num_key_value_heads", 32},
                                                     {"tie_word_embeddings", false},
                                                     {"use_qkv_bias", false},
                                                     {"use_parallel_residual", false}})},
      {"cohere", "CohereConfig",
       plus(sizes(256000, 8192, 22528, 40, 64, 8192),
            {{"tie_word_embeddings", true}, {"attention_bias", false}})},
      {"deepseek_v2", "DeepseekV2Config",
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
                                                       {"attention_bias", false}})},
      {"deepseek_v3", "DeepseekV3Config",
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
                                                        {"attention_bias", false}})},
      {"jamba", "JambaConfig",
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
                                                        {"tie_word_embeddings", false}})},
      // Classes known here by their tie_word_embeddings only (the reader's rules for the rest).
      {"deepseek_v32", "DeepseekV32Config", {{"tie_word_embeddings", false}}},
      {"llama4_text", "Llama4TextConfig", {{"tie_word_embeddings", false}}},
      {"qwen3_next", "Qwen3NextConfig", {{"tie_word_embeddings", false}}},
      {"qwen3_5_text", "Qwen3_5TextConfig", {{"tie_word_embeddings", false}}},
      {"qwen3_5_moe_text", "Qwen3_5MoeTextConfig", {{"tie_word_embeddings", false}}},
      {"nemotron_h", "NemotronHConfig", {{"tie_word_embeddings", false}}},
      {"gpt_oss", "GptOssConfig", {{"tie_word_embeddings", false}}},
      {"nemotron-nas", "DeciLMConfig", {{"tie_word_embeddings", false}}},  // a LlamaConfig
      {"internlm2", "InternLM2Config", {{"tie_word_embeddings", false}}},
      {"qwen", "QWenConfig", {{"tie_word_embeddings", false}}},
      {"deepseek", "DeepseekConfig", {{"tie_word_embeddings", false}}},
      // ChatGLM's output_layer is a matrix of its own: the class leaves tie_word_embeddings at
      // PretrainedConfig's default, but the model never ties it (ChatGLMForConditionalGeneration
      // has no output embeddings to tie).
      {"chatglm",
       "ChatGLMConfig (the model never ties output_layer)",
       {{"tie_word_embeddings", false}}},
      {"smollm3",
       "SmolLM3Config",
       {{"tie_word_embeddings", true}, {"attention_bias", false}, {"mlp_bias", false}}},
      {"", "PretrainedConfig", {{"tie_word_embeddings", true}}},
  };
  return table;
}

const ConfigClass& config_class(const std::string& canonical_type) {
  const std::vector<ConfigClass>& table = config_classes();
  for (const ConfigClass& c : table)
    if (canonical_type == c.model_type) return c;
  return table.back();
}

void fill_class_defaults(json& doc, const std::string& canonical_type,
                         std::vector<std::string>& notes) {
  const ConfigClass& c = config_class(canonical_type);
  for (const ClassDefault& d : c.defaults) {
    if (states(doc, d.key)) continue;
    doc[d.key] = d.value;
    notes.push_back(std::string(d.key) + " = " + d.value.dump() + " (" + c.name +
                    "'s default; the config states none)");
  }
}

}  // namespace tenet::llm::config_detail
