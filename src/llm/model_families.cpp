// The families the config reader knows: the conventions a config does not state (MLP kind,
// biases, norms, fused checkpoint matrices, weight names), the model_type an architecture
// class implies, and the families refused by name (docs/llm.md).
#include "llm/model_families.hpp"

#include "tenet/error.hpp"

namespace tenet::llm::config_detail {

namespace {

LayerNames llama_names() { return {}; }

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

}  // namespace

const std::vector<Dialect>& dialects() {
  using N = LayerNames;
  constexpr MlpKind P = MlpKind::kPlain, G = MlpKind::kGated;
  static const std::vector<Dialect> table = {
      // model_type, MLP, LayerNorm (else RMSNorm), norms per layer, bias on qkv / o / MLP,
      // checkpoint stores qkv / gate_up fused, MLP width 4·h by default, weight names
      {"gpt2", P, true, 2, true, true, true, true, false, true, gpt2_names()},
      {"gpt_bigcode", P, true, 2, true, true, true, true, false, true, gpt2_names()},
      {"gpt_neox", P, true, 2, true, true, true, true, false, false,
       with(qkv_dense_names("attention."), {{&N::lm_head, "embed_out"}})},
      {"opt", P, true, 2, true, true, true, false, false, false,
       with(llama_names(), {{&N::o, "self_attn.out_proj"}, {&N::up, "fc1"}, {&N::down, "fc2"}})},
      {"bloom", P, true, 2, true, true, true, true, false, true,
       qkv_dense_names("self_attention.")},
      {"falcon", P, true, 2, false, false, false, true, false, true,
       qkv_dense_names("self_attention.")},
      {"starcoder2", P, true, 2, true, true, true, false, false, false,
       with(llama_names(), {{&N::up, "mlp.c_fc"}, {&N::down, "mlp.c_proj"}})},
      {"phi", P, true, 1, true, true, true, false, false, false,
       with(llama_names(),
            {{&N::o, "self_attn.dense"}, {&N::up, "mlp.fc1"}, {&N::down, "mlp.fc2"}})},
      {"llama", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"mistral", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"mixtral", G, false, 2, false, false, false, false, false, false,
       with(llama_names(), {{&N::moe, "block_sparse_moe."}})},
      {"qwen2", G, false, 2, true, false, false, false, false, false, llama_names()},
      {"qwen2_moe", G, false, 2, true, false, false, false, false, false, llama_names()},
      {"gemma", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"gemma2", G, false, 4, false, false, false, false, false, false, llama_names()},
      {"phi3", G, false, 2, false, false, false, true, true, false, llama_names()},
      {"deepseek_v2", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"qwen", G, false, 2, true, false, false, true, false, false,
       with(llama_names(), {{&N::qkv, "attn.c_attn"},
                            {&N::o, "attn.c_proj"},
                            {&N::qk, "attn.qk"},
                            {&N::pv, "attn.pv"},
                            {&N::gate, "mlp.w2"},
                            {&N::up, "mlp.w1"},
                            {&N::down, "mlp.c_proj"}})},
      {"gptj", P, true, 1, false, false, true, false, false, true,
       with(llama_names(), {{&N::q, "attn.q_proj"},
                            {&N::k, "attn.k_proj"},
                            {&N::v, "attn.v_proj"},
                            {&N::qkv, "attn.qkv_proj"},
                            {&N::o, "attn.out_proj"},
                            {&N::qk, "attn.qk"},
                            {&N::pv, "attn.pv"},
                            {&N::up, "mlp.fc_in"},
                            {&N::down, "mlp.fc_out"}})},
      {"qwen3", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"qwen3_moe", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"deepseek_v3", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"chatglm", G, false, 2, true, false, false, true, true, false,
       with(qkv_dense_names("self_attention."), {{&N::lm_head, "output_layer"}})},
      {"llama4_text", G, false, 2, false, false, false, false, false, false,
       with(llama_names(), {{&N::gate_up, "feed_forward.gate_up_proj"},
                            {&N::gate, "feed_forward.gate_proj"},
                            {&N::up, "feed_forward.up_proj"},
                            {&N::down, "feed_forward.down_proj"},
                            {&N::moe, "feed_forward."}})},
      {"gemma3_text", G, false, 4, false, false, false, false, false, false, llama_names()},
      {"deepseek_v32", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"qwen3_next", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"jamba", G, false, 2, false, false, false, false, false, false,
       with(llama_names(), {{&N::gate_up, "feed_forward.gate_up_proj"},
                            {&N::gate, "feed_forward.gate_proj"},
                            {&N::up, "feed_forward.up_proj"},
                            {&N::down, "feed_forward.down_proj"},
                            {&N::moe, "feed_forward."}})},
      // Nemotron-H: every layer is one block (norm + mixer): Mamba-2, attention, a relu² MLP or a
      // MoE of relu² experts (up, down) with a shared relu² expert.
      {"nemotron_h", P, false, 1, false, false, false, false, false, false,
       with(llama_names(), {{&N::qkv, "mixer.qkv_proj"},
                            {&N::q, "mixer.q_proj"},
                            {&N::k, "mixer.k_proj"},
                            {&N::v, "mixer.v_proj"},
                            {&N::o, "mixer.o_proj"},
                            {&N::qk, "mixer.qk"},
                            {&N::pv, "mixer.pv"},
                            {&N::up, "mixer.up_proj"},
                            {&N::down, "mixer.down_proj"},
                            {&N::moe, "mixer."}})},
      // gpt-oss: biases on q, k, v, o, the router and the experts; a learned sink per head.
      {"gpt_oss", G, false, 2, true, true, false, false, false, false, llama_names()},
      {"qwen3_5_text", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"qwen3_5_moe_text", G, false, 2, false, false, false, false, false, false, llama_names()},
      {"nemotron-nas", G, false, 2, false, false, false, false, false, false, llama_names()},
      // InternLM2: fused wqkv; w1 (gate), w3 (up), w2 (down); the head is `output`.
      {"internlm2", G, false, 2, false, false, false, true, false, false, internlm2_names()},
      // StableLM-2: LayerNorm, Q/K/V biases when use_qkv_bias says so.
      {"stablelm", G, true, 2, false, false, false, false, false, false, llama_names()},
      // Cohere (Command-R, Aya-23): one LayerNorm (no bias) before parallel attention and MLP,
      // tied embeddings.
      {"cohere", G, true, 1, false, false, false, false, false, false, llama_names()},
      // SmolLM3: Llama's layers, RoPE left out on every 4th layer (no_rope_layers).
      {"smollm3", G, false, 2, false, false, false, false, false, false, llama_names()},
      // DeepSeekMoE (v1): Llama attention, DeepSeek's fine-grained and shared experts.
      {"deepseek", G, false, 2, false, false, false, false, false, false, llama_names()},
  };
  return table;
}

// The generic reading of an unknown model_type: Llama's conventions.
const Dialect& generic_dialect() {
  static const Dialect d{"",    MlpKind::kGated, false, 2,     false,        false,
                         false, false,           false, false, llama_names()};
  return d;
}

std::string canonical_type(const std::string& type) {
  if (type == "RefinedWeb" || type == "RefinedWebModel") return "falcon";
  if (type == "llama4") return "llama4_text";  // a wrapper's type on its language model
  if (type == "gemma3") return "gemma3_text";
  if (type == "qwen3_5") return "qwen3_5_text";
  if (type == "qwen3_5_moe") return "qwen3_5_moe_text";
  return type;
}

const Dialect* find_dialect(const std::string& type) {
  const std::string t = canonical_type(type);
  for (const Dialect& d : dialects()) {
    if (t == d.model_type) return &d;
  }
  return nullptr;
}

// architectures[0] → model_type, for configs without model_type.
std::optional<std::string> type_of_architecture(const std::string& arch) {
  static const std::pair<const char*, const char*> table[] = {
      {"GPT2LMHeadModel", "gpt2"},
      {"GPT2Model", "gpt2"},
      {"LlamaForCausalLM", "llama"},
      {"MistralForCausalLM", "mistral"},
      {"MixtralForCausalLM", "mixtral"},
      {"Qwen2ForCausalLM", "qwen2"},
      {"Qwen2MoeForCausalLM", "qwen2_moe"},
      {"QWenLMHeadModel", "qwen"},
      {"FalconForCausalLM", "falcon"},
      {"RWForCausalLM", "falcon"},
      {"GPTNeoXForCausalLM", "gpt_neox"},
      {"OPTForCausalLM", "opt"},
      {"BloomForCausalLM", "bloom"},
      {"GPTBigCodeForCausalLM", "gpt_bigcode"},
      {"GemmaForCausalLM", "gemma"},
      {"Gemma2ForCausalLM", "gemma2"},
      {"PhiForCausalLM", "phi"},
      {"Phi3ForCausalLM", "phi3"},
      {"ChatGLMModel", "chatglm"},
      {"ChatGLMForConditionalGeneration", "chatglm"},
      {"DeepseekV2ForCausalLM", "deepseek_v2"},
      {"Starcoder2ForCausalLM", "starcoder2"},
      {"GPTJForCausalLM", "gptj"},
      {"Qwen3ForCausalLM", "qwen3"},
      {"Qwen3MoeForCausalLM", "qwen3_moe"},
      {"DeepseekV3ForCausalLM", "deepseek_v3"},
      {"DeepseekV32ForCausalLM", "deepseek_v32"},
      {"Llama4ForConditionalGeneration", "llama4"},
      {"Llama4ForCausalLM", "llama4_text"},
      {"Gemma3ForConditionalGeneration", "gemma3"},
      {"Gemma3ForCausalLM", "gemma3_text"},
      {"Qwen3NextForCausalLM", "qwen3_next"},
      {"NemotronHForCausalLM", "nemotron_h"},
      {"JambaForCausalLM", "jamba"},
      {"DeciLMForCausalLM", "nemotron-nas"},
      {"GptOssForCausalLM", "gpt_oss"},
      {"InternLM2ForCausalLM", "internlm2"},
      {"StableLmForCausalLM", "stablelm"},
      {"CohereForCausalLM", "cohere"},
      {"DeepseekForCausalLM", "deepseek"},
      {"SmolLM3ForCausalLM", "smollm3"},
  };
  for (const auto& [a, t] : table) {
    if (arch == a) return std::string(t);
  }
  return std::nullopt;
}

namespace {

bool is_not_decoder_only(const std::string& name) {
  static const char* types[] = {"bert",    "roberta",        "t5", "mt5", "bart",
                                "whisper", "encoder-decoder"};
  static const char* class_parts[] = {"Bert",        "Roberta",       "T5", "Bart", "Whisper",
                                      "ForMaskedLM", "EncoderDecoder"};
  for (const char* t : types) {
    if (name == t) return true;
  }
  for (const char* part : class_parts) {
    if (name.find(part) != std::string::npos) return true;
  }
  return false;
}

// Families whose layers are state-space, recurrent or parallel hybrids of a kind not modelled
// here: refused by name rather than read as attention.
void refuse_unmodelled_family(const std::string& name, const std::string& file, const char* where) {
  static const std::pair<const char*, const char*> families[] = {
      {"mamba", "Mamba-1 blocks only"},
      {"mamba2", "Mamba-2 blocks only"},
      {"falcon_mamba", "Mamba-1 blocks only"},
      {"falcon_h1", "attention and Mamba-2 in parallel in every block"},
      {"rwkv", "RWKV time-mix recurrence"},
      {"recurrent_gemma", "RG-LRU recurrent blocks"},
      {"zamba", "Mamba blocks with a shared attention block"},
      {"zamba2", "Mamba-2 blocks with shared attention blocks"},
      {"lfm2", "short-convolution blocks"},
      {"bamba", "Mamba-2 / attention layers by attn_layer_indices"},
      {"granitemoehybrid", "Mamba-2 / attention layers with MoE on every layer"},
      {"minimax", "lightning (linear) attention"},
      {"minimax_m1", "lightning (linear) attention on 7 of every 8 layers"},
      {"plamo2", "Mamba and attention layers"},
  };
  for (const auto& [type, what] : families) {
    if (name == type) {
      throw InputError(error_code::kUnknownName, file, where,
                       "layer kind of '" + name + "' (" + what + ") is not modelled");
    }
  }
}

}  // namespace

void refuse_non_decoder(const std::string& name, const std::string& file, const char* where) {
  refuse_unmodelled_family(name, file, where);
  if (!is_not_decoder_only(name)) return;
  throw InputError(error_code::kUnknownName, file, where,
                   "'" + name +
                       "' is not a decoder-only language model (expected a causal LM "
                       "such as llama, gpt2, falcon, mixtral, deepseek_v2)");
}

}  // namespace tenet::llm::config_detail
