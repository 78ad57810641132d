#include "tenet/llm/model_matmuls.hpp"

#include <algorithm>

#include "llm/checked_int.hpp"
#include "llm/expert_routing.hpp"
#include "tenet/error.hpp"

namespace tenet::llm {
namespace {

using detail::checked_add;
using detail::checked_mul;

// Sizes shared by every matmul of one pass, checked once.
struct PassSizes {
  std::int64_t rows = 0;       // T: B·S (prefill) or B (decode): rows of every projection
  std::int64_t head_rows = 0;  // lm_head rows
};

void check_length(std::int64_t value, const char* option, const char* what,
                  const ModelConfig& model) {
  if (value == 0)  // not given
    throw InputError(error_code::kMissingField, "", option,
                     std::string("no ") + what + " given: a " +
                         (std::string(option) == "prompt" ? "prefill pass" : "decode step") +
                         " needs one (a positive number of tokens)");
  if (value < 0) {
    throw InputError(error_code::kRange, "", option,
                     std::string("expected a positive ") + what + ", got " + std::to_string(value));
  }
  if (value > model.max_positions) {
    throw InputError(error_code::kRange, "", option,
                     std::string(what) + " " + std::to_string(value) + " exceeds the " +
                         std::to_string(model.max_positions) + " positions of " + model.name);
  }
}

void check_options(const ModelConfig& model, const GenerationOptions& o) {
  if (o.batch <= 0) {
    throw InputError(error_code::kRange, "", "batch",
                     "expected a positive batch size, got " + std::to_string(o.batch));
  }
  // A length of the other phase given instead of this phase's: name what was given.
  if (o.phase == Phase::kPrefill && o.prompt == 0 && o.context > 0)
    throw InputError(error_code::kUsage, "", "context",
                     "context (tokens in the KV cache) is for a decode step; a prefill pass takes "
                     "prompt (prompt tokens per sequence), or set the phase to decode");
  if (o.phase == Phase::kDecode && o.context == 0 && o.prompt > 0)
    throw InputError(error_code::kUsage, "", "prompt",
                     "prompt is for a prefill pass; a decode step takes context (tokens in the KV "
                     "cache it attends to), or set the phase to prefill");
  if (o.phase == Phase::kPrefill) {
    check_length(o.prompt, "prompt", "prompt length", model);
  } else if (o.phase == Phase::kDecode) {
    check_length(o.context, "context", "context length", model);
  } else {
    throw InputError(error_code::kUsage, "", "phase", "expected prefill or decode");
  }
  if (o.attention_tile <= 0) {
    throw InputError(error_code::kRange, "", "attention", "the attention tile must be positive");
  }
}

PassSizes pass_sizes(const ModelConfig& model, const GenerationOptions& o) {
  PassSizes s;
  if (o.phase == Phase::kPrefill) {
    s.rows = checked_mul(o.batch, o.prompt, "", "prompt", "B·S");
    s.head_rows = o.lm_head == LmHead::kAllTokens ? s.rows : o.batch;
  } else {
    s.rows = o.batch;
    s.head_rows = o.batch;
  }
  checked_mul(o.batch, model.kv_heads, "", "batch", "B·n_kv");
  checked_mul(model.heads, s.rows, "", o.phase == Phase::kPrefill ? "prompt" : "batch", "n_h·T");
  return s;
}

// Appends `s`, adding its count to an earlier entry of the same name and call.
void push(std::vector<MatmulShape>& out, MatmulShape s) {
  if (s.count == 0) return;
  for (MatmulShape& e : out) {
    if (e.name == s.name && same_call(e, s)) {
      e.count = checked_add(e.count, s.count, "", "", "count of " + e.name);
      return;
    }
  }
  out.push_back(std::move(s));
}

MatmulShape projection(std::string name, std::int64_t rows, std::int64_t n, std::int64_t k,
                       std::int64_t count, Phase phase, bool bias = false) {
  MatmulShape s;
  s.name = std::move(name);
  s.m = rows;
  s.n = n;
  s.k = k;
  s.count = count;
  s.phase = phase;
  s.layout = Layout::kNT;
  s.b_operand = OperandRole::kWeight;
  s.epilogue_ops = bias ? 1 : 0;  // the bias add
  return s;
}

// ---- attention over the KV cache --------------------------------------------------------------

// Tiles of Q·Kᵀ computed per (sequence, KV head): `tiles` tiles of `rows` query tokens × `keys`
// key tokens.
struct Tile {
  std::int64_t rows, keys, tiles;
};

// The blocks of a blocked causal kernel with block b over S tokens, a query attending at most
// `window` tokens (itself included): query block i attends key blocks max(0, i − c + 1) .. i
// with c = ⌈(window − 1)/b⌉ + 1 (c = ∞ without a window). A last partial block of ρ = S mod b
// tokens gives tiles of ρ×b and one ρ×ρ.
std::vector<Tile> causal_tiles(std::int64_t s, std::int64_t b, std::optional<std::int64_t> window) {
  const std::int64_t full = s / b, rho = s % b;
  const std::int64_t reach = window ? (*window - 1 + b - 1) / b + 1 : full + 1;
  auto triangle = [](std::int64_t n) {
    return n % 2 == 0 ? checked_mul(n / 2, n + 1, "", "prompt", "tiles")
                      : checked_mul(n, (n + 1) / 2, "", "prompt", "tiles");
  };
  const std::int64_t full_tiles =
      full <= reach
          ? triangle(full)
          : checked_add(triangle(reach), checked_mul(full - reach, reach, "", "prompt", "tiles"),
                        "", "prompt", "tiles");
  std::vector<Tile> out;
  if (full_tiles > 0) out.push_back({b, b, full_tiles});
  if (rho > 0) {
    const std::int64_t edge = std::min(full, reach - 1);
    if (edge > 0) out.push_back({rho, b, edge});
    out.push_back({rho, rho, 1});
  }
  return out;
}

// One group of layers attending the same way: every earlier token, the last `window` tokens
// (sliding), or the tokens of the query's own chunk of `window` (chunked).
struct AttentionGroup {
  std::int64_t layers;
  AttentionSpan span;
  std::optional<std::int64_t> window;
};

// The attention layers with `kv_heads` KV heads (0: every attention layer), grouped by span:
// sliding first, then chunked, then full. `topk`: the keys a sparse (indexed) attention reads per
// query, a window in the count of keys.
std::vector<AttentionGroup> attention_groups(const ModelConfig& m, std::int64_t kv_heads,
                                             std::optional<std::int64_t> topk = std::nullopt) {
  std::int64_t sliding = 0, chunked = 0, full = 0;
  for (const LayerSpec& l : m.stack) {
    if (l.mixer != MixerKind::kAttention || (kv_heads != 0 && l.kv_heads != kv_heads)) continue;
    (l.span == AttentionSpan::kSliding   ? sliding
     : l.span == AttentionSpan::kChunked ? chunked
                                         : full)++;
  }
  if (topk) return {{sliding + chunked + full, AttentionSpan::kSliding, topk}};
  std::vector<AttentionGroup> g;
  if (sliding > 0) g.push_back({sliding, AttentionSpan::kSliding, m.sliding_window});
  if (chunked > 0) g.push_back({chunked, AttentionSpan::kChunked, m.attention_chunk});
  if (full > 0) g.push_back({full, AttentionSpan::kFull, std::nullopt});
  return g;
}

// The tiles of one (sequence, KV head) of a group.
std::vector<Tile> group_tiles(const GenerationOptions& o, const AttentionGroup& g) {
  const bool dense = o.attention == AttentionMask::kDense;
  if (g.span == AttentionSpan::kChunked) {
    const std::int64_t c = *g.window;
    if (o.phase == Phase::kDecode) return {{1, (o.context - 1) % c + 1, 1}};
    const std::int64_t chunks = o.prompt / c, rest = o.prompt % c;
    std::vector<Tile> out;
    if (chunks > 0) {
      for (Tile t : dense ? std::vector<Tile>{{c, c, 1}} : causal_tiles(c, o.attention_tile, {})) {
        t.tiles = checked_mul(t.tiles, chunks, "", "prompt", "tiles");
        out.push_back(t);
      }
    }
    if (rest > 0) {
      for (const Tile& t :
           dense ? std::vector<Tile>{{rest, rest, 1}} : causal_tiles(rest, o.attention_tile, {}))
        out.push_back(t);
    }
    return out;
  }
  if (o.phase == Phase::kDecode)
    return {{1, g.window ? std::min(o.context, *g.window) : o.context, 1}};
  if (dense) return {{o.prompt, o.prompt, 1}};
  return causal_tiles(o.prompt, o.attention_tile, g.window);
}

// The shape of attention's two products: `batch` products of `group`·rows query rows (group:
// query heads stacked per KV head) against keys of width qk_k, values of width pv_n (pv_n 0: no
// P·V product, as the indexer's scores).
struct AttentionShape {
  std::string qk, pv;
  std::int64_t batch, group, qk_k, pv_n;
};

void add_kv_products(const GenerationOptions& o, const std::vector<AttentionGroup>& groups,
                     const AttentionShape& a, std::vector<MatmulShape>& out) {
  for (const AttentionGroup& g : groups) {
    for (const Tile& t : group_tiles(o, g)) {
      const std::int64_t m = checked_mul(a.group, t.rows, "", "prompt", "query rows");
      const std::int64_t count = checked_mul(t.tiles, g.layers, "", "prompt", "tiles·layers");
      MatmulShape qk = projection(a.qk, m, t.keys, a.qk_k, count, o.phase);
      qk.batch = a.batch;
      qk.b_operand = OperandRole::kKvCache;
      push(out, qk);
      if (a.pv_n == 0) continue;
      MatmulShape pv = qk;
      pv.name = a.pv, pv.n = a.pv_n, pv.k = t.keys, pv.layout = Layout::kNN;
      push(out, pv);
    }
  }
}

// One fused attention row: per sequence `heads` query heads over `kv_heads` KV heads, `q` queries
// against `kv` keys of width d, `count` calls.
MatmulShape fused_row(const std::string& name, const GenerationOptions& o, std::int64_t heads,
                      std::int64_t kv_heads, std::int64_t q, std::int64_t kv, std::int64_t d,
                      bool causal, std::int64_t count, std::int64_t window = 0) {
  MatmulShape s;
  s.name = name;
  s.batch = o.batch;
  s.m = q, s.n = kv, s.k = d;
  s.count = count;
  s.phase = o.phase;
  s.layout = Layout::kNT;
  s.b_operand = OperandRole::kKvCache;
  s.fused_attention = FusedAttention{heads, kv_heads, causal, window};
  return s;
}

// The fused kernels of one group of layers. Decode: one query against the keys it sees (the
// window's, the chunk's); chunked prefill: one kernel per chunk; causal prefill of a sliding
// layer whose window is shorter than the prompt: the kernel with that window.
void add_fused_group(const GenerationOptions& o, const AttentionGroup& g, const std::string& name,
                     std::int64_t heads, std::int64_t kv_heads, std::int64_t d,
                     std::vector<MatmulShape>& out) {
  const bool causal = o.attention == AttentionMask::kCausal;
  if (o.phase == Phase::kDecode) {
    std::int64_t keys = o.context;
    if (g.span == AttentionSpan::kChunked) keys = (o.context - 1) % *g.window + 1;
    if (g.span == AttentionSpan::kSliding && g.window) keys = std::min(keys, *g.window);
    push(out, fused_row(name, o, heads, kv_heads, 1, keys, d, true, g.layers));
    return;
  }
  if (g.span == AttentionSpan::kChunked) {
    const std::int64_t c = *g.window, chunks = o.prompt / c, rest = o.prompt % c;
    if (chunks > 0)
      push(out, fused_row(name, o, heads, kv_heads, c, c, d, causal,
                          checked_mul(chunks, g.layers, "", "prompt", "chunks·layers")));
    if (rest > 0) push(out, fused_row(name, o, heads, kv_heads, rest, rest, d, causal, g.layers));
    return;
  }
  // A window at least the prompt (or a dense mask: every key) is no window.
  const bool windowed = g.span == AttentionSpan::kSliding && g.window && *g.window < o.prompt;
  push(out, fused_row(name, o, heads, kv_heads, o.prompt, o.prompt, d, causal, g.layers,
                      windowed && causal ? *g.window : 0));
}

// The name of the fused row: the qk row's with "qk" replaced by "attention".
std::string attention_name(const std::string& qk) {
  if (qk.size() >= 2 && qk.compare(qk.size() - 2, 2, "qk") == 0)
    return qk.substr(0, qk.size() - 2) + "attention";
  return qk + ".attention";
}

// The distinct KV-head counts of the attention layers, in order of first appearance.
std::vector<std::int64_t> kv_head_counts(const ModelConfig& model) {
  std::vector<std::int64_t> out;
  for (const LayerSpec& l : model.stack) {
    if (l.mixer == MixerKind::kAttention &&
        std::find(out.begin(), out.end(), l.kv_heads) == out.end())
      out.push_back(l.kv_heads);
  }
  return out;
}

void add_attention(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
                   std::vector<MatmulShape>& out) {
  const LayerNames& n = model.names;
  const std::int64_t d = model.head_dim, h = model.hidden;
  // Qwen3-Next's gated attention: q_proj yields the queries and a sigmoid gate per channel.
  const std::int64_t q_width = model.heads * d * (model.gated_attention ? 2 : 1);
  for (const std::int64_t kv_heads : kv_head_counts(model)) {
    const std::vector<AttentionGroup> groups = attention_groups(model, kv_heads);
    std::int64_t layers = 0;
    for (const AttentionGroup& g : groups) layers += g.layers;
    const std::int64_t kv_width = kv_heads * d;
    if (o.fused_qkv || model.fused_qkv_weights) {
      push(out,
           projection(n.qkv, s.rows, q_width + 2 * kv_width, h, layers, o.phase, model.qkv_bias));
    } else {
      push(out, projection(n.q, s.rows, q_width, h, layers, o.phase, model.qkv_bias));
      push(out, projection(n.k, s.rows, kv_width, h, layers, o.phase, model.qkv_bias));
      push(out, projection(n.v, s.rows, kv_width, h, layers, o.phase, model.qkv_bias));
    }
    const std::int64_t attn_batch = o.batch * kv_heads;
    const AttentionShape two{n.qk, n.pv, attn_batch, model.heads / kv_heads, d, d};
    for (const AttentionGroup& g : groups) {
      if (o.fused_attention)
        add_fused_group(o, g, attention_name(n.qk), model.heads, kv_heads, d, out);
      else
        add_kv_products(o, {g}, two, out);
    }
    push(out, projection(n.o, s.rows, h, model.heads * d, layers, o.phase, model.o_bias));
  }
}

// DeepSeek-V3.2's lightning indexer: its own queries from the query latent, one key per token
// (cached), per-head weights; the scores of every earlier token (a product with no P·V).
void add_indexer(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
                 std::int64_t layers, std::vector<MatmulShape>& out) {
  const IndexerConfig& x = *model.indexer;
  const std::int64_t h = model.hidden;
  const Phase p = o.phase;
  push(out, projection("self_attn.indexer.wq_b", s.rows, x.heads * x.head_dim,
                       *model.mla->q_lora_rank, layers, p));
  push(out, projection("self_attn.indexer.wk", s.rows, x.head_dim, h, layers, p));
  push(out, projection("self_attn.indexer.weights_proj", s.rows, x.heads, h, layers, p));
  add_kv_products(o, {{layers, AttentionSpan::kFull, std::nullopt}},
                  {"self_attn.indexer.qk", "", o.batch, x.heads, x.head_dim, 0}, out);
}

// DeepSeek-V2 multi-head latent attention (names as its checkpoint).
void add_mla(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
             std::vector<MatmulShape>& out) {
  const MlaConfig& a = *model.mla;
  const std::int64_t h = model.hidden, nh = model.heads;
  const std::int64_t layers = model.layers_with(MixerKind::kAttention);
  const std::int64_t qk_d = a.qk_nope_head_dim + a.qk_rope_head_dim, c = a.kv_lora_rank;
  const Phase p = o.phase;
  if (a.q_lora_rank) {
    push(out, projection("self_attn.q_a_proj", s.rows, *a.q_lora_rank, h, layers, p));
    push(out, projection("self_attn.q_b_proj", s.rows, nh * qk_d, *a.q_lora_rank, layers, p));
  } else {
    push(out, projection("self_attn.q_proj", s.rows, nh * qk_d, h, layers, p));
  }
  push(out,
       projection("self_attn.kv_a_proj_with_mqa", s.rows, c + a.qk_rope_head_dim, h, layers, p));
  if (model.indexer) add_indexer(model, o, s, layers, out);
  // With an indexer each query attends the index_topk keys it selects.
  std::optional<std::int64_t> topk;
  if (model.indexer) topk = model.indexer->topk;
  const std::vector<AttentionGroup> groups = attention_groups(model, 0, topk);
  if (resolved_mla_path(o) == MlaPath::kNaive) {
    push(out, projection("self_attn.kv_b_proj", s.rows, nh * (a.qk_nope_head_dim + a.v_head_dim), c,
                         layers, p));
    add_kv_products(o, groups,
                    {"self_attn.qk", "self_attn.pv", o.batch * nh, 1, qk_d, a.v_head_dim}, out);
  } else {
    MatmulShape q_absorb =
        projection("self_attn.q_absorb", s.rows, c, a.qk_nope_head_dim, layers, p);
    q_absorb.batch = nh;  // W_UK of each head
    push(out, q_absorb);
    add_kv_products(o, groups,
                    {"self_attn.qk", "self_attn.pv", o.batch, nh, c + a.qk_rope_head_dim, c}, out);
    MatmulShape v_absorb = projection("self_attn.v_absorb", s.rows, a.v_head_dim, c, layers, p);
    v_absorb.batch = nh;  // W_UV of each head
    push(out, v_absorb);
  }
  push(out, projection("self_attn.o_proj", s.rows, h, nh * a.v_head_dim, layers, p));
}

// ---- hybrid mixers: their projections (the scan / recurrence is a non-matmul op) -------------

void add_hybrid_mixers(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
                       std::vector<MatmulShape>& out) {
  const std::int64_t h = model.hidden;
  const Phase p = o.phase;
  if (const std::int64_t n = model.layers_with(MixerKind::kMamba2)) {
    const SsmConfig& m = *model.ssm;
    const std::int64_t width = 2 * m.inner + 2 * m.groups * m.state + m.heads;  // z, x, B, C, dt
    push(out, projection("mixer.in_proj", s.rows, width, h, n, p, m.proj_bias));
    push(out, projection("mixer.out_proj", s.rows, h, m.inner, n, p, m.proj_bias));
  }
  if (const std::int64_t n = model.layers_with(MixerKind::kMamba)) {
    const SsmConfig& m = *model.ssm;
    push(out, projection("mamba.in_proj", s.rows, 2 * m.inner, h, n, p, m.proj_bias));
    push(out, projection("mamba.x_proj", s.rows, m.dt_rank + 2 * m.state, m.inner, n, p));
    push(out, projection("mamba.dt_proj", s.rows, m.inner, m.dt_rank, n, p, true));
    push(out, projection("mamba.out_proj", s.rows, h, m.inner, n, p, m.proj_bias));
  }
  if (const std::int64_t n = model.layers_with(MixerKind::kGatedDeltaNet)) {
    const DeltaNetConfig& d = *model.deltanet;
    const std::int64_t kd = d.key_heads * d.key_dim, vd = d.value_heads * d.value_dim;
    push(out, projection("linear_attn.in_proj_qkvz", s.rows, 2 * kd + 2 * vd, h, n, p));
    push(out, projection("linear_attn.in_proj_ba", s.rows, 2 * d.value_heads, h, n, p));
    push(out, projection("linear_attn.out_proj", s.rows, h, vd, n, p));
  }
  if (const std::int64_t n = model.layers_with(MixerKind::kLinear)) {
    // Row-parallel under tensor parallelism: each chip its 1/shards of the input channels.
    push(out, projection("self_attn.linear_attn", s.rows, h, h / model.shards, n, p));
  }
}

// ---- MLPs -------------------------------------------------------------------------------------

// One MLP of kind `kind` and width `width` on `rows` tokens, `count` times (gated: gate, up,
// down; plain: up, down); names prefixed by `prefix` (empty: the family's dense MLP names).
void add_mlp(const ModelConfig& model, const GenerationOptions& o, const std::string& prefix,
             MlpKind kind, std::int64_t rows, std::int64_t width, std::int64_t count,
             std::vector<MatmulShape>& out) {
  const LayerNames& n = model.names;
  const std::int64_t h = model.hidden;
  const bool bias = prefix.empty() && model.mlp_bias;
  const std::string gate_up = prefix.empty() ? n.gate_up : prefix + "gate_up_proj";
  const std::string gate = prefix.empty() ? n.gate : prefix + "gate_proj";
  const std::string up = prefix.empty() ? n.up : prefix + "up_proj";
  const std::string down = prefix.empty() ? n.down : prefix + "down_proj";
  if (kind == MlpKind::kPlain) {
    push(out, projection(up, rows, width, h, count, o.phase, bias));
  } else if (o.fused_gate_up || (prefix.empty() && model.fused_gate_up_weights)) {
    push(out, projection(gate_up, rows, 2 * width, h, count, o.phase, bias));
  } else {
    push(out, projection(gate, rows, width, h, count, o.phase, bias));
    push(out, projection(up, rows, width, h, count, o.phase, bias));
  }
  push(out, projection(down, rows, h, width, count, o.phase, bias));
}

// The fused MLP row's name: the down projection's prefix + "ffn" ("mlp.down_proj" -> "mlp.ffn").
std::string ffn_name(const std::string& down) {
  const std::size_t dot = down.rfind('.');
  return (dot == std::string::npos ? std::string() : down.substr(0, dot + 1)) + "ffn";
}

void add_dense_mlp(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
                   std::vector<MatmulShape>& out) {
  // Layers per dense width, in order of first appearance.
  std::vector<std::pair<std::int64_t, std::int64_t>> widths;
  std::int64_t linear = 0;
  for (const LayerSpec& l : model.stack) {
    if (l.ffn == FfnKind::kLinear) ++linear;
    if (l.ffn != FfnKind::kDense) continue;
    auto it = std::find_if(widths.begin(), widths.end(),
                           [&](const auto& w) { return w.first == l.ffn_width; });
    if (it == widths.end()) {
      widths.push_back({l.ffn_width, 1});
    } else {
      ++it->second;
    }
  }
  for (const auto& [i, layers] : widths) {
    if (!o.fused_mlp) {
      add_mlp(model, o, "", model.mlp, s.rows, i, layers, out);
      continue;
    }
    MatmulShape f =
        projection(ffn_name(model.names.down), s.rows, i, model.hidden, layers, o.phase);
    f.epilogue_ops = 0;
    f.fused_ffn = FusedFfn{model.mlp == MlpKind::kGated, model.mlp_bias};
    push(out, f);
  }
  if (linear > 0) {
    const std::int64_t h = model.hidden;
    push(out, projection("mlp.linear_mlp", s.rows, h, h / model.shards, linear, o.phase));
  }
}

std::vector<ExpertGroup> routing_of(const MoeConfig& moe, const GenerationOptions& o,
                                    std::int64_t rows) {
  if (o.routing.empty()) {
    return o.phase == Phase::kDecode ? decode_routing(o.batch, moe.top_k, moe.experts)
                                     : uniform_routing(rows, moe.top_k, moe.experts);
  }
  if (static_cast<std::int64_t>(o.routing.size()) != moe.experts) {
    throw InputError(error_code::kRange, "", "routing",
                     "the histogram has " + std::to_string(o.routing.size()) +
                         " entries; the model has " + std::to_string(moe.experts) + " experts");
  }
  std::int64_t sum = 0;
  for (std::int64_t t : o.routing) sum = checked_add(sum, t, "", "routing", "routed tokens");
  const std::int64_t slots = checked_mul(rows, moe.top_k, "", "routing", "T·k");
  if (sum != slots) {
    throw InputError(error_code::kRange, "", "routing",
                     "the histogram routes " + std::to_string(sum) +
                         " tokens; this pass routes T·k = " + std::to_string(rows) + "·" +
                         std::to_string(moe.top_k) + " = " + std::to_string(slots));
  }
  return histogram_routing(o.routing);
}

void add_moe(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
             std::vector<MatmulShape>& out) {
  if (!model.moe) return;
  const MoeConfig& moe = *model.moe;
  const std::string& p = model.names.moe;
  const std::int64_t layers = moe.moe_layers;
  push(out, projection(p + "gate", s.rows, moe.experts, model.hidden, layers, o.phase));
  for (const ExpertGroup& g : routing_of(moe, o, s.rows)) {
    const std::int64_t count = checked_mul(g.experts, layers, "", "routing", "expert calls");
    add_mlp(model, o, p + "experts.", moe.expert_mlp, g.tokens, moe.expert_intermediate, count,
            out);
  }
  if (moe.shared_intermediate == 0) return;
  const std::string shared = p + (moe.shared_gate ? "shared_expert." : "shared_experts.");
  add_mlp(model, o, shared, moe.expert_mlp, s.rows, moe.shared_intermediate, layers, out);
  if (moe.shared_gate) {
    push(out, projection(p + "shared_expert_gate", s.rows, 1, model.hidden, layers, o.phase));
  }
}

// Whether `piece` is one of the '+'-separated names of `joined`.
bool has_piece(const std::string& joined, const std::string& piece) {
  std::size_t start = 0;
  while (start <= joined.size()) {
    std::size_t end = joined.find('+', start);
    if (end == std::string::npos) end = joined.size();
    if (joined.compare(start, end - start, piece) == 0) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

AttentionMask parse_attention_mask(const std::string& name) {
  if (name == "causal") return AttentionMask::kCausal;
  if (name == "dense") return AttentionMask::kDense;
  throw InputError(error_code::kUnknownName, "", "attention",
                   "unknown attention '" + name + "' (expected causal or dense)");
}

MlaPath parse_mla_path(const std::string& name) {
  if (name == "naive") return MlaPath::kNaive;
  if (name == "absorbed") return MlaPath::kAbsorbed;
  throw InputError(error_code::kUnknownName, "", "mla",
                   "unknown MLA path '" + name + "' (expected naive or absorbed)");
}

bool parse_attention_kernel(const std::string& name) {
  if (name == "fused") return true;
  if (name == "unfused") return false;
  throw InputError(error_code::kUnknownName, "", "attention_kernel",
                   "unknown attention kernel '" + name + "' (expected fused or unfused)");
}

const char* to_string(AttentionMask a) { return a == AttentionMask::kDense ? "dense" : "causal"; }

const char* to_string(MlaPath p) {
  switch (p) {
    case MlaPath::kNaive:
      return "naive";
    case MlaPath::kAbsorbed:
      return "absorbed";
    default:
      return "auto";
  }
}

MlaPath resolved_mla_path(const GenerationOptions& o) {
  if (o.mla != MlaPath::kAuto) return o.mla;
  return o.phase == Phase::kDecode ? MlaPath::kAbsorbed : MlaPath::kNaive;
}

std::vector<MatmulShape> generate_matmuls(const ModelConfig& model, const GenerationOptions& o) {
  check_options(model, o);
  const PassSizes sizes = pass_sizes(model, o);
  std::vector<MatmulShape> out;
  const bool projected = model.embed_dim != model.hidden;  // OPT's word_embed_proj_dim
  if (projected) {
    push(out, projection("project_in", sizes.rows, model.hidden, model.embed_dim, 1, o.phase));
  }
  if (model.mla) {
    add_mla(model, o, sizes, out);
  } else {
    add_attention(model, o, sizes, out);
  }
  add_hybrid_mixers(model, o, sizes, out);
  add_dense_mlp(model, o, sizes, out);
  add_moe(model, o, sizes, out);
  if (projected) {
    push(out,
         projection("project_out", sizes.head_rows, model.embed_dim, model.hidden, 1, o.phase));
  }
  push(out, projection(model.names.lm_head, sizes.head_rows, model.vocab, model.embed_dim, 1,
                       o.phase, model.lm_head_bias));
  return out;
}

std::vector<NonMatmulOp> non_matmul_ops(const ModelConfig& model) {
  std::vector<NonMatmulOp> out;
  if (const std::int64_t n = model.layers_with(MixerKind::kMamba2))
    out.push_back({"mixer.ssd_scan", "mamba2", n});
  if (const std::int64_t n = model.layers_with(MixerKind::kMamba))
    out.push_back({"mamba.selective_scan", "mamba", n});
  if (const std::int64_t n = model.layers_with(MixerKind::kGatedDeltaNet))
    out.push_back({"linear_attn.gated_delta_rule", "gated_deltanet", n});
  return out;
}

std::vector<MatmulShape> aggregate_matmuls(const std::vector<MatmulShape>& shapes) {
  std::vector<MatmulShape> out;
  for (const MatmulShape& s : shapes) {
    auto same =
        std::find_if(out.begin(), out.end(), [&](const MatmulShape& e) { return same_call(e, s); });
    if (same == out.end()) {
      out.push_back(s);
      continue;
    }
    same->count = checked_add(same->count, s.count, "", "", "count of " + same->name);
    if (!has_piece(same->name, s.name)) same->name += "+" + s.name;
  }
  return out;
}

}  // namespace tenet::llm
