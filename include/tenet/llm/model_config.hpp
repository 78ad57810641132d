// A decoder-only transformer as described by a Hugging Face config.json.
//
// The reader is driven by what the fields mean, not by a list of model types: each quantity is
// looked up under every key the hub's dialects use for it (hidden: hidden_size | n_embd | n_embed
// | d_model, ...), and `model_type` only supplies the family's conventions that a config does not
// state (gated or plain MLP, which projections a checkpoint stores fused, biases, tied
// embeddings, norms). A model_type it does not know is read with the standard keys; every
// convention assumed is listed in `assumptions`. Key tables in docs/llm.md.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tenet::llm {

// kPlain: up → activation → down (GPT-2, OPT, Falcon, ...). kGated: gate and up → act(gate)·up
// → down (Llama, Qwen, Gemma, Phi-3, ChatGLM, every MoE expert here).
enum class MlpKind { kPlain, kGated };
const char* to_string(MlpKind k);  // "plain", "gated"

// The names of one layer's weights as the family's checkpoint spells them (matmul names).
struct LayerNames {
  std::string qkv = "self_attn.qkv_proj";  // fused Q, K, V
  std::string q = "self_attn.q_proj", k = "self_attn.k_proj", v = "self_attn.v_proj";
  std::string o = "self_attn.o_proj";
  std::string qk = "self_attn.qk", pv = "self_attn.pv";
  std::string gate_up = "mlp.gate_up_proj";                // gated: fused gate and up
  std::string gate = "mlp.gate_proj", up = "mlp.up_proj";  // gated, apart; plain: up = fc
  std::string down = "mlp.down_proj";
  std::string moe = "mlp.";  // prefix of experts, router and shared experts
  std::string lm_head = "lm_head";
  friend bool operator==(const LayerNames& a, const LayerNames& b);
};

// Mixture of experts (Mixtral, Qwen-MoE, DeepSeek-V2, Nemotron-H): the MLP of `moe_layers` layers
// is a router and `experts` experts of width `expert_intermediate` (gated: gate, up, down; plain:
// up, down, as Nemotron-H's relu² experts), of which each token uses `top_k`; plus, when
// shared_intermediate > 0, a shared MLP of that width and kind that every token uses.
struct MoeConfig {
  std::int64_t experts = 0;              // E: routed experts per MoE layer
  std::int64_t top_k = 0;                // k: experts per token
  std::int64_t expert_intermediate = 0;  // width of each routed expert
  std::int64_t shared_intermediate = 0;  // width of the shared MLP (n_shared·width), 0 = none
  bool shared_gate = false;              // Qwen-MoE: a 1-wide sigmoid gate on the shared MLP
  std::int64_t moe_layers = 0;           // layers whose MLP is the MoE (the rest are dense)
  MlpKind expert_mlp = MlpKind::kGated;  // the experts' (and shared MLP's) kind
  friend bool operator==(const MoeConfig& a, const MoeConfig& b);
};

// Multi-head latent attention (DeepSeek-V2/V3).
struct MlaConfig {
  std::optional<std::int64_t> q_lora_rank;  // none: Q straight from h (q_proj)
  std::int64_t kv_lora_rank = 0;            // c: the latent cached per token
  std::int64_t qk_nope_head_dim = 0;
  std::int64_t qk_rope_head_dim = 0;
  std::int64_t v_head_dim = 0;
  friend bool operator==(const MlaConfig& a, const MlaConfig& b);
};

// A layer's token mixer. kAttention: softmax attention over the KV cache (MHA/GQA/MQA or MLA);
// kMamba (Mamba-1: in_proj, x_proj, dt_proj, out_proj) and kMamba2 (in_proj, out_proj) state-space
// layers; kGatedDeltaNet (Qwen3-Next linear attention: in_proj_qkvz, in_proj_ba, out_proj); kLinear
// (DeciLM's attention replaced by one h×h linear); kNone (DeciLM no_op: no mixer). The scan or
// recurrence of kMamba, kMamba2 and kGatedDeltaNet is not a matmul: it is listed among the
// non-matmul ops (model_matmuls.hpp) and not costed.
enum class MixerKind { kAttention, kMamba, kMamba2, kGatedDeltaNet, kLinear, kNone };
const char* to_string(MixerKind k);  // "attention", "mamba", "mamba2", "gated_deltanet", ...

// Which keys an attention layer attends: all earlier tokens (kFull), the last `window` (kSliding),
// or the tokens of its own chunk of `window` (kChunked: Llama-4's attention_chunk_size).
enum class AttentionSpan { kFull, kSliding, kChunked };

// A layer's feed-forward block: the dense MLP (width `ffn_width`), the MoE, a DeciLM linear
// (h×h), or none (DeciLM no_op; Nemotron-H's mixer-only layers).
enum class FfnKind { kDense, kMoe, kLinear, kNone };

// One decoder layer as the per-layer keys describe it (layer_types, hybrid_override_pattern,
// block_configs, no_rope_layers, mlp_only_layers, decoder_sparse_step, ...).
struct LayerSpec {
  MixerKind mixer = MixerKind::kAttention;
  AttentionSpan span = AttentionSpan::kFull;
  std::int64_t kv_heads = 0;  // attention: this layer's KV heads (DeciLM n_heads_in_group)
  FfnKind ffn = FfnKind::kDense;
  std::int64_t ffn_width = 0;  // kDense: the MLP width of this layer
  friend bool operator==(const LayerSpec& a, const LayerSpec& b);
  friend bool operator!=(const LayerSpec& a, const LayerSpec& b) { return !(a == b); }
};

// State-space mixers (Mamba-1 / Mamba-2, as in Jamba, Nemotron-H, Bamba, Falcon-H1).
struct SsmConfig {
  std::int64_t inner = 0;    // d_inner = expand·h, or mamba_num_heads·mamba_head_dim
  std::int64_t heads = 0;    // Mamba-2 heads (dt per head); Mamba-1: 0
  std::int64_t groups = 1;   // Mamba-2 B/C groups (n_groups)
  std::int64_t state = 0;    // d_state (ssm_state_size)
  std::int64_t conv = 0;     // depthwise conv kernel width
  std::int64_t dt_rank = 0;  // Mamba-1 dt_rank
  bool proj_bias = false;    // in_proj / out_proj biases
  bool conv_bias = true;     // the conv1d bias
  friend bool operator==(const SsmConfig& a, const SsmConfig& b);
};

// Gated DeltaNet (Qwen3-Next's linear attention layers).
struct DeltaNetConfig {
  std::int64_t key_heads = 0, value_heads = 0, key_dim = 0, value_dim = 0, conv = 0;
  friend bool operator==(const DeltaNetConfig& a, const DeltaNetConfig& b);
};

// DeepSeek-V3.2's lightning indexer on each MLA layer: index_n_heads heads of index_head_dim
// scoring every earlier token, of which index_topk are attended.
struct IndexerConfig {
  std::int64_t heads = 0, head_dim = 0, topk = 0;
  friend bool operator==(const IndexerConfig& a, const IndexerConfig& b);
};

struct ModelConfig {
  std::string name;        // "_name_or_path", else the file name without .json
  std::string model_type;  // as written, or the one implied by `architectures`
  MlpKind mlp = MlpKind::kGated;
  std::int64_t hidden = 0;         // h
  std::int64_t layers = 0;         // decoder layers
  std::int64_t heads = 0;          // n_h
  std::int64_t kv_heads = 0;       // n_kv (= n_h without GQA, 1 with MQA)
  std::int64_t head_dim = 0;       // d (head_dim | kv_channels | h / n_h)
  std::int64_t intermediate = 0;   // I: width of the dense MLP (each of gate and up when gated)
  std::int64_t vocab = 0;          // V
  std::int64_t max_positions = 0;  // longest context; INT64_MAX when the config states none
  // Sliding-window attention: a token attends to at most this many tokens (itself included), in
  // `window_layers` of the layers (all of them for Mistral, every other one for Gemma-2).
  std::optional<std::int64_t> sliding_window;
  std::int64_t window_layers = 0;

  std::int64_t embed_dim = 0;      // width of the token embedding (OPT word_embed_proj_dim), else h
  std::int64_t position_rows = 0;  // rows of a learned position table (GPT-2, OPT), 0 = none
  // Rotary positions on q and k (RoPE); false: learned positions (GPT-2, OPT), ALiBi (BLOOM) or
  // none (the attention of Jamba and Nemotron-H).
  bool rotary = true;
  bool tie_embeddings = false;  // lm_head shares the token embedding
  bool qkv_bias = false, o_bias = false, mlp_bias = false, lm_head_bias = false;
  bool parallel_blocks = false;        // attention and MLP read the same input (Falcon, GPT-J, Phi)
  bool fused_qkv_weights = false;      // the checkpoint stores one QKV matrix
  bool fused_gate_up_weights = false;  // the checkpoint stores one gate_up matrix
  std::int64_t norm_parameters = 0;    // all LayerNorm/RMSNorm weights (and biases)
  bool layer_norm = false;             // LayerNorm (mean and variance) or RMSNorm
  std::int64_t norms_per_layer = 2;    // norms in one decoder layer (the final norm apart)
  LayerNames names;
  std::optional<MoeConfig> moe;
  std::optional<MlaConfig> mla;
  // One entry per decoder layer (always `layers` entries; uniform stacks repeat one spec).
  std::vector<LayerSpec> stack;
  std::optional<std::int64_t> attention_chunk;  // span kChunked: tokens per chunk
  std::optional<SsmConfig> ssm;
  std::optional<DeltaNetConfig> deltanet;
  std::optional<IndexerConfig> indexer;
  bool gated_attention = false;       // Qwen3-Next: q_proj also yields a per-channel output gate
  std::int64_t other_parameters = 0;  // non-matmul weights of hybrid mixers (conv, A, D, dt, norms)
  // Tensor-parallel chips this config is one chip's share of (llm::tensor_parallel_shard): the
  // widths above are that chip's; 1 = the whole model as read.
  std::int64_t shards = 1;
  // The nested language-model object read in place of the document ("" = the document itself).
  std::string nested;
  // Conventions taken without the config stating them (unknown model_type, defaults).
  std::vector<std::string> assumptions;

  std::int64_t group_size() const { return heads / kv_heads; }  // r = n_h / n_kv
  std::int64_t dense_layers() const { return layers - (moe ? moe->moe_layers : 0); }
  std::int64_t layers_with(MixerKind k) const;  // layers of the stack whose mixer is k

  friend bool operator==(const ModelConfig& a, const ModelConfig& b);
  friend bool operator!=(const ModelConfig& a, const ModelConfig& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const ModelConfig& c);
};

// Parses and validates a config.json document. `file` names it in errors. Every problem is
// collected (io::JsonProblems) and one InputError is thrown at the end: the first problem's code
// and JSON pointer, every other problem listed in its message. Problems: missing-field (a
// required dimension under none of its keys; the message lists the keys looked for), type, range
// (sizes <= 0, heads not dividing hidden, kv heads not dividing heads, top-k above the experts),
// overflow (a value or a derived size beyond 64 bits), unknown-name (an encoder or encoder-decoder
// model). A wrapper whose language model sits in `text_config`, `language_config` or `llm_config`
// (Llama-4, Gemma-3, Mistral-3, InternVL, ...) is read from that object; its other keys (vision
// tower, projector, token ids) are ignored and listed in `assumptions`; errors point into it
// ("/text_config/hidden_size"). Layer kinds the reader does not model throw unknown-name naming
// the kind and the field (never read as attention).
ModelConfig parse_model_config(const nlohmann::json& document, const std::string& file);

// Reads and parses a config.json file (InputError io / parse when it cannot be read or is not
// JSON). `path` may also name a bundled model (model_file).
ModelConfig load_model_config(const std::string& path);

// The config file of `name_or_file`: itself when it is a file or looks like a path (a '/' or a
// ".json" ending), else the bundled model of that name (workloads/models/NAME.json on the model
// search path: $TENET_MODEL_DIR, the source tree, the installed share/tenet), as `--arch` finds
// presets. Neither: InputError(unknown-name, where "model") listing the bundled models.
std::string model_file(const std::string& name_or_file);
// The names of the bundled models, sorted.
std::vector<std::string> bundled_model_names();

}  // namespace tenet::llm
