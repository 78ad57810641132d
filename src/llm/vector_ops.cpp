#include "llm/vector_ops.hpp"

#include <algorithm>

#include "llm/checked_int.hpp"
#include "llm/op_counts.hpp"

namespace tenet::llm {
namespace {

using detail::checked_add;
using detail::checked_mul;

std::int64_t mul(std::int64_t a, std::int64_t b) {
  return checked_mul(a, b, "", "", "operator size");
}
std::int64_t add(std::int64_t a, std::int64_t b) {
  return checked_add(a, b, "", "", "operator size");
}
using ::tenet::llm::detail::ceil_div;
// Bytes of `elements` values of `bits` bits, rounded up to whole bytes.
std::int64_t bytes(std::int64_t elements, int bits) { return ceil_div(mul(elements, bits), 8); }

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Elementary operations per element: llm/op_counts.hpp.
using ::tenet::llm::detail::kGeluOps;
using ::tenet::llm::detail::kLayerNormOps;
using ::tenet::llm::detail::kRmsNormOps;
using ::tenet::llm::detail::kRotaryOps;
using ::tenet::llm::detail::kSamplingOps;
using ::tenet::llm::detail::kSiluGateOps;
using ::tenet::llm::detail::kSoftmaxOps;
constexpr std::int64_t kIndexBytes = 4;  // token ids, expert ids

bool has_rotary(const ModelConfig& m) {
  // Learned positions, ALiBi (BLOOM): none; Nemotron-H and Jamba attend without positional
  // encoding (their Mamba layers carry the order): the family's row (model_families.cpp).
  return m.position_rows == 0 && m.rotary;
}

}  // namespace

namespace {

// One pass's sizes every operator reads.
struct PassSizes {
  const ModelConfig& model;
  const GenerationOptions& o;
  const ElementBits& bits;
  std::int64_t tokens, head_rows, h, layers, th;
  int a;
};

PassSizes pass_sizes(const ModelConfig& model, const GenerationOptions& o,
                     const ElementBits& bits) {
  const std::int64_t tokens = o.phase == Phase::kPrefill ? mul(o.batch, o.prompt) : o.batch;
  const std::int64_t head_rows =
      o.phase == Phase::kPrefill && o.lm_head == LmHead::kAllTokens ? tokens : o.batch;
  return {model,          o,
          bits,           tokens,
          head_rows,      model.hidden,
          model.layers,   mul(tokens, model.hidden),
          bits.activation};
}

void add_embedding_norms_residuals(const PassSizes& p, std::vector<VectorOp>& out) {
  const ModelConfig& model = p.model;
  const ElementBits& bits = p.bits;
  const std::int64_t tokens = p.tokens, h = p.h, layers = p.layers, th = p.th;
  const int a = p.a;
  // Embedding lookup: rows of the table (weight format) in, activations out.
  {
    VectorOp e{"embedding", "embed_tokens", 1, mul(tokens, model.embed_dim), 0, 0, 0, "", false};
    e.ops = e.elements;
    e.sram_bytes = add(bytes(e.elements, bits.embedding), bytes(e.elements, a));
    e.dram_bytes = e.sram_bytes;
    out.push_back(e);
  }
  // Norms: each reads its input and writes the normalised tokens (+ its weights). A residual add
  // runs in the kernel of the norm that follows it (MLC-LLM fuse_add_norm): it reads the branch
  // output and writes the new residual; the norm's read stands for the old residual.
  const std::int64_t norm_ops = model.layer_norm ? kLayerNormOps : kRmsNormOps;
  const int weight_bits = 16;
  auto norm = [&](const char* name, std::int64_t count, bool per_layer) {
    VectorOp n{"norm", name, count, th, mul(th, norm_ops), 0, 0, "", per_layer};
    n.sram_bytes = mul(2, bytes(th, a));
    n.dram_bytes = add(n.sram_bytes, bytes(model.layer_norm ? 2 * h : h, weight_bits));
    out.push_back(n);
  };
  norm("layer_norms", mul(layers, model.norms_per_layer), true);
  norm("final_norm", 1, false);
  {
    // One residual add per block of a layer: mixer and FFN (one for parallel blocks); a hybrid's
    // mixer-only or FFN-only layers have one.
    std::int64_t adds = mul(layers, model.parallel_blocks ? 1 : 2);
    if (!model.parallel_blocks && !model.stack.empty()) {
      adds = 0;
      for (const LayerSpec& l : model.stack)
        adds = add(adds, (l.mixer != MixerKind::kNone ? 1 : 0) + (l.ffn != FfnKind::kNone ? 1 : 0));
    }
    VectorOp r{"residual", "residual_add", adds, th, th, 0, 0, "norm", true};
    r.sram_bytes = mul(3, bytes(th, a));
    r.dram_bytes = mul(2, bytes(th, a));
    out.push_back(r);
  }
}

void add_rotary_kv_append(const PassSizes& p, std::vector<VectorOp>& out) {
  const ModelConfig& model = p.model;
  const ElementBits& bits = p.bits;
  const std::int64_t tokens = p.tokens, layers = p.layers;
  const int a = p.a;
  // Rotary embedding of Q and K, in one kernel with the KV-cache append (MLC-LLM's fused rope +
  // append): it reads Q, K, V and writes the rotated Q and the cache entries.
  std::int64_t q_width = 0, read_width = 0, rot_width = 0, kv_width = 0;
  if (model.mla) {
    const MlaConfig& m = *model.mla;
    const std::int64_t heads = model.heads;
    q_width = mul(heads, m.qk_nope_head_dim + m.qk_rope_head_dim);
    kv_width = m.kv_lora_rank + m.qk_rope_head_dim;  // the latent (replicated over tp)
    rot_width = add(mul(heads, m.qk_rope_head_dim), m.qk_rope_head_dim);
    read_width = add(q_width, kv_width);
  } else {
    const std::int64_t heads = model.heads, kv = model.kv_heads;
    q_width = mul(heads, model.head_dim);
    kv_width = mul(2 * kv, model.head_dim);
    rot_width = mul(heads + kv, model.head_dim);
    read_width = add(q_width, kv_width);
  }
  // Only attention layers rotate Q/K and append to the KV cache: a hybrid's Mamba and Gated
  // DeltaNet layers keep a recurrent state instead (their scan below).
  const std::int64_t attention_layers =
      model.stack.empty() ? layers : model.layers_with(MixerKind::kAttention);
  const bool rotary = has_rotary(model) && attention_layers > 0;
  if (rotary) {
    VectorOp r{"rotary", "rotary", attention_layers, mul(tokens, rot_width), 0, 0, 0, "", true};
    r.ops = mul(r.elements, kRotaryOps);
    r.sram_bytes = add(bytes(mul(tokens, read_width), a), bytes(mul(tokens, q_width), a));
    r.dram_bytes = r.sram_bytes;
    out.push_back(r);
  }
  if (attention_layers > 0) {
    VectorOp k{"kv_append", "kv_append", attention_layers, mul(tokens, kv_width), 0, 0, 0,
               "",          true};
    k.ops = k.elements;
    k.sram_bytes = add(bytes(k.elements, a), bytes(k.elements, bits.kv_cache));
    k.dram_bytes = bytes(k.elements, bits.kv_cache);
    if (rotary) {
      k.fused_with = "rotary";
    } else {
      k.dram_bytes = add(k.dram_bytes, bytes(k.elements, a));  // reads K and V itself
    }
    out.push_back(k);
  }
}

void add_epilogues(const PassSizes& p, const std::vector<MatmulShape>& matmuls,
                   std::vector<VectorOp>& out) {
  const ModelConfig& model = p.model;
  const int a = p.a;
  // Softmax over the scores the attention kernel computes (FlashAttention-style: in the kernel,
  // no DRAM round trip); activation × gate in the epilogue of the gate/up projection (MLC-LLM's
  // fused matmul + split + silu + multiply).
  std::int64_t scores = 0, gated = 0, plain = 0;
  const LayerNames& n = model.names;
  for (const MatmulShape& s : matmuls) {
    const std::int64_t calls = mul(s.count, s.batch);
    if (s.name == n.qk || s.name == "self_attn.qk") scores = add(scores, mul(calls, mul(s.m, s.n)));
    if (model.mlp == MlpKind::kGated || ends_with(s.name, "gate_up_proj")) {
      if (s.name == n.gate_up || ends_with(s.name, "gate_up_proj"))
        gated = add(gated, mul(calls, mul(s.m, s.n / 2)));
      else if (s.name == n.gate || ends_with(s.name, ".gate_proj"))
        gated = add(gated, mul(calls, mul(s.m, s.n)));
    }
    const bool plain_expert = model.moe && model.moe->expert_mlp == MlpKind::kPlain &&
                              s.name.compare(0, n.moe.size(), n.moe) == 0 &&
                              ends_with(s.name, "experts.up_proj");  // and shared_experts.
    if ((model.mlp == MlpKind::kPlain && s.name == n.up) || plain_expert)
      plain = add(plain, mul(calls, mul(s.m, s.n)));
  }
  if (scores > 0) {
    VectorOp s{"softmax", "attention_softmax", 1,   scores, mul(scores, kSoftmaxOps), 0,
               0,         "attention",         true};
    s.sram_bytes = mul(2, bytes(scores, a));
    out.push_back(s);
  }
  if (gated > 0) {
    VectorOp g{"activation",   "silu_gate", 1, gated, mul(gated, kSiluGateOps), 0, 0,
               "gate_up_proj", true};
    g.sram_bytes = mul(3, bytes(gated, a));
    out.push_back(g);
  }
  if (plain > 0) {
    VectorOp g{"activation", "gelu", 1, plain, mul(plain, kGeluOps), 0, 0, "up_proj", true};
    g.sram_bytes = mul(2, bytes(plain, a));
    out.push_back(g);
  }
}

void add_moe_routing(const PassSizes& p, std::vector<VectorOp>& out) {
  const ModelConfig& model = p.model;
  const std::int64_t tokens = p.tokens, h = p.h, th = p.th;
  const int a = p.a;
  // MoE routing: softmax and top-k over the router logits, then the weighted combine of the
  // k expert outputs of every token.
  if (model.moe) {
    const MoeConfig& m = *model.moe;
    const std::int64_t logits = mul(tokens, m.experts), picks = mul(tokens, m.top_k);
    VectorOp t{"routing", "moe_top_k", m.moe_layers, logits, mul(logits, kSoftmaxOps + m.top_k),
               0,         0,           "",           true};
    t.sram_bytes = add(bytes(logits, a), mul(picks, add(kIndexBytes, bytes(1, a))));
    t.dram_bytes = t.sram_bytes;
    out.push_back(t);
    const std::int64_t combined = mul(picks, h);
    VectorOp c{"routing", "moe_combine", m.moe_layers, th, mul(2, combined), 0, 0, "", true};
    c.sram_bytes = add(bytes(combined, a), bytes(th, a));
    c.dram_bytes = c.sram_bytes;
    out.push_back(c);
  }
}

void add_scans(const PassSizes& p, std::vector<VectorOp>& out) {
  const ModelConfig& model = p.model;
  const GenerationOptions& o = p.o;
  const std::int64_t tokens = p.tokens;
  const int a = p.a;
  // The recurrences of Mamba and Gated DeltaNet layers (their depthwise causal conv and scan;
  // docs/generate.md#operators): per token, the state update and read-out (5 operations per
  // state element for Mamba: decay, B·x, add, C·h multiply-add; 7 for DeltaNet: decay, S·k,
  // the rank-1 delta update, q·S) and 2 per conv tap and channel. They read the mixer's inputs
  // and write its output at the activations' format; the state (activations' format) is read
  // and written once per pass.
  auto scan = [&](const char* name, std::int64_t count, std::int64_t state, std::int64_t per_state,
                  std::int64_t conv_channels, std::int64_t conv, std::int64_t in_width,
                  std::int64_t out_width) {
    if (count == 0) return;
    VectorOp v{"scan", name, count, mul(tokens, out_width), 0, 0, 0, "", true};
    v.ops = mul(tokens, add(mul(per_state, state), mul(2, mul(conv, conv_channels))));
    const std::int64_t sequences = o.batch;
    v.sram_bytes = add(add(bytes(mul(tokens, in_width), a), bytes(mul(tokens, out_width), a)),
                       mul(2, bytes(mul(sequences, add(state, mul(conv - 1, conv_channels))), a)));
    v.dram_bytes = v.sram_bytes;
    out.push_back(v);
  };
  if (model.ssm) {
    const SsmConfig& m = *model.ssm;
    const std::int64_t bc = mul(2, mul(m.groups, m.state));
    scan("mamba2.ssd_scan", model.layers_with(MixerKind::kMamba2), mul(m.inner, m.state), 5,
         add(m.inner, bc), m.conv, add(add(m.inner, bc), m.heads), m.inner);
    scan("mamba.selective_scan", model.layers_with(MixerKind::kMamba), mul(m.inner, m.state), 5,
         m.inner, m.conv, add(add(m.inner, mul(2, m.state)), m.inner), m.inner);
  }
  if (model.deltanet) {
    const DeltaNetConfig& d = *model.deltanet;
    const std::int64_t k = mul(d.key_heads, d.key_dim), v = mul(d.value_heads, d.value_dim);
    scan("gated_deltanet.delta_rule", model.layers_with(MixerKind::kGatedDeltaNet),
         mul(d.value_heads, mul(d.key_dim, d.value_dim)), 7, add(mul(2, k), v), d.conv,
         add(add(mul(2, k), v), mul(2, d.value_heads)), v);
  }
}

void add_sampling(const PassSizes& p, std::vector<VectorOp>& out) {
  const ModelConfig& model = p.model;
  const std::int64_t head_rows = p.head_rows;
  const int a = p.a;
  // Sampling: softmax and top-p over the vocabulary of the rows that produce a token (with tensor
  // parallelism the logits are all-gathered: each chip samples the whole, padded, vocabulary).
  {
    const std::int64_t v = mul(head_rows, mul(model.vocab, model.shards));
    VectorOp l{"logits", "sampling", 1, v, mul(v, kSamplingOps), 0, 0, "", false};
    l.sram_bytes = add(bytes(v, a), mul(head_rows, kIndexBytes));
    l.dram_bytes = l.sram_bytes;
    out.push_back(l);
  }
}

}  // namespace

std::vector<VectorOp> vector_ops(const ModelConfig& model, const GenerationOptions& o,
                                 const std::vector<MatmulShape>& matmuls, const ElementBits& bits) {
  const PassSizes p = pass_sizes(model, o, bits);
  std::vector<VectorOp> out;
  add_embedding_norms_residuals(p, out);
  add_rotary_kv_append(p, out);
  add_epilogues(p, matmuls, out);
  add_moe_routing(p, out);
  add_scans(p, out);
  add_sampling(p, out);
  return out;
}

VectorOp logged_vector_op(const std::string& kernel, const VectorKernelTraits& t,
                          const std::vector<std::int64_t>& extents, std::int64_t count,
                          const ElementBits& bits) {
  std::int64_t elements = 1;
  for (std::int64_t e : extents) elements = mul(elements, e);
  const std::int64_t last = extents.empty() ? 1 : extents.back();
  VectorOp v{t.kind, kernel, count, elements, 0, 0, 0, "", true};
  std::int64_t per_element = t.ops_per_element;
  if (t.sort) {  // a comparison sort of each row of `last` values
    std::int64_t log2 = 0;
    while ((std::int64_t{1} << log2) < last && log2 < 62) ++log2;
    per_element = std::max<std::int64_t>(1, log2);
  }
  v.ops = mul(elements, per_element);
  const int out_bits = t.kv_output ? bits.kv_cache : bits.activation;
  std::int64_t in = mul(t.inputs, bytes(elements, bits.activation));
  if (t.table_input) in = add(in, bytes(elements, bits.embedding));
  if (t.norm_weights) in = add(in, bytes(last, 16));
  v.sram_bytes = add(in, mul(t.outputs, bytes(elements, out_bits)));
  v.dram_bytes = v.sram_bytes;
  return v;
}

}  // namespace tenet::llm
