#include "tenet/llm/model_matmuls.hpp"

#include <algorithm>

#include "llm/checked_int.hpp"
#include "tenet/error.hpp"
#include "tenet/llm/expert_routing.hpp"

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
  if (value <= 0) {
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

// One group of layers attending the same way (with or without the window).
struct AttentionGroup {
  std::int64_t layers;
  std::optional<std::int64_t> window;
};

std::vector<AttentionGroup> attention_groups(const ModelConfig& m) {
  std::vector<AttentionGroup> g;
  if (m.sliding_window) g.push_back({m.window_layers, m.sliding_window});
  if (m.layers - (m.sliding_window ? m.window_layers : 0) > 0)
    g.push_back({m.layers - (m.sliding_window ? m.window_layers : 0), std::nullopt});
  return g;
}

// The shape of attention's two products: `batch` products of `group`·rows query rows (group:
// query heads stacked per KV head) against keys of width qk_k, values of width pv_n.
struct AttentionShape {
  std::string qk, pv;
  std::int64_t batch, group, qk_k, pv_n;
};

void add_kv_products(const ModelConfig& model, const GenerationOptions& o, const AttentionShape& a,
                     std::vector<MatmulShape>& out) {
  for (const AttentionGroup& g : attention_groups(model)) {
    std::vector<Tile> tiles;
    if (o.phase == Phase::kDecode) {
      tiles.push_back({1, g.window ? std::min(o.context, *g.window) : o.context, 1});
    } else if (o.attention == AttentionMask::kDense) {
      tiles.push_back({o.prompt, o.prompt, 1});
    } else {
      tiles = causal_tiles(o.prompt, o.attention_tile, g.window);
    }
    for (const Tile& t : tiles) {
      const std::int64_t m = checked_mul(a.group, t.rows, "", "prompt", "query rows");
      const std::int64_t count = checked_mul(t.tiles, g.layers, "", "prompt", "tiles·layers");
      MatmulShape qk = projection(a.qk, m, t.keys, a.qk_k, count, o.phase);
      qk.batch = a.batch;
      qk.b_operand = OperandRole::kKvCache;
      MatmulShape pv = qk;
      pv.name = a.pv, pv.n = a.pv_n, pv.k = t.keys, pv.layout = Layout::kNN;
      push(out, qk);
      push(out, pv);
    }
  }
}

void add_attention(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
                   std::vector<MatmulShape>& out) {
  const LayerNames& n = model.names;
  const std::int64_t d = model.head_dim, h = model.hidden, layers = model.layers;
  const std::int64_t q_width = model.heads * d, kv_width = model.kv_heads * d;
  if (o.fused_qkv || model.fused_qkv_weights) {
    push(out,
         projection(n.qkv, s.rows, q_width + 2 * kv_width, h, layers, o.phase, model.qkv_bias));
  } else {
    push(out, projection(n.q, s.rows, q_width, h, layers, o.phase, model.qkv_bias));
    push(out, projection(n.k, s.rows, kv_width, h, layers, o.phase, model.qkv_bias));
    push(out, projection(n.v, s.rows, kv_width, h, layers, o.phase, model.qkv_bias));
  }
  const std::int64_t attn_batch = o.batch * model.kv_heads;
  add_kv_products(model, o, {n.qk, n.pv, attn_batch, model.group_size(), d, d}, out);
  push(out, projection(n.o, s.rows, h, q_width, layers, o.phase, model.o_bias));
}

// DeepSeek-V2 multi-head latent attention (names as its checkpoint).
void add_mla(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
             std::vector<MatmulShape>& out) {
  const MlaConfig& a = *model.mla;
  const std::int64_t h = model.hidden, nh = model.heads, layers = model.layers;
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
  if (resolved_mla_path(o) == MlaPath::kNaive) {
    push(out, projection("self_attn.kv_b_proj", s.rows, nh * (a.qk_nope_head_dim + a.v_head_dim), c,
                         layers, p));
    add_kv_products(model, o, {"self_attn.qk", "self_attn.pv", o.batch * nh, 1, qk_d, a.v_head_dim},
                    out);
  } else {
    MatmulShape q_absorb =
        projection("self_attn.q_absorb", s.rows, c, a.qk_nope_head_dim, layers, p);
    q_absorb.batch = nh;  // W_UK of each head
    push(out, q_absorb);
    add_kv_products(model, o,
                    {"self_attn.qk", "self_attn.pv", o.batch, nh, c + a.qk_rope_head_dim, c}, out);
    MatmulShape v_absorb = projection("self_attn.v_absorb", s.rows, a.v_head_dim, c, layers, p);
    v_absorb.batch = nh;  // W_UV of each head
    push(out, v_absorb);
  }
  push(out, projection("self_attn.o_proj", s.rows, h, nh * a.v_head_dim, layers, p));
}

// ---- MLPs -------------------------------------------------------------------------------------

// One MLP of width `width` on `rows` tokens, `count` times; names prefixed by `prefix` (empty:
// the family's dense MLP names).
void add_gated(const ModelConfig& model, const GenerationOptions& o, const std::string& prefix,
               std::int64_t rows, std::int64_t width, std::int64_t count,
               std::vector<MatmulShape>& out) {
  const LayerNames& n = model.names;
  const std::int64_t h = model.hidden;
  const bool bias = prefix.empty() && model.mlp_bias;
  const std::string gate_up = prefix.empty() ? n.gate_up : prefix + "gate_up_proj";
  const std::string gate = prefix.empty() ? n.gate : prefix + "gate_proj";
  const std::string up = prefix.empty() ? n.up : prefix + "up_proj";
  const std::string down = prefix.empty() ? n.down : prefix + "down_proj";
  if (o.fused_gate_up || (prefix.empty() && model.fused_gate_up_weights)) {
    push(out, projection(gate_up, rows, 2 * width, h, count, o.phase, bias));
  } else {
    push(out, projection(gate, rows, width, h, count, o.phase, bias));
    push(out, projection(up, rows, width, h, count, o.phase, bias));
  }
  push(out, projection(down, rows, h, width, count, o.phase, bias));
}

void add_dense_mlp(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
                   std::vector<MatmulShape>& out) {
  const std::int64_t layers = model.dense_layers();
  if (layers == 0) return;
  if (model.mlp == MlpKind::kGated) {
    add_gated(model, o, "", s.rows, model.intermediate, layers, out);
    return;
  }
  const LayerNames& n = model.names;
  const std::int64_t h = model.hidden, i = model.intermediate;
  push(out, projection(n.up, s.rows, i, h, layers, o.phase, model.mlp_bias));
  push(out, projection(n.down, s.rows, h, i, layers, o.phase, model.mlp_bias));
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
    add_gated(model, o, p + "experts.", g.tokens, moe.expert_intermediate, count, out);
  }
  if (moe.shared_intermediate == 0) return;
  const std::string shared = p + (moe.shared_gate ? "shared_expert." : "shared_experts.");
  add_gated(model, o, shared, s.rows, moe.shared_intermediate, layers, out);
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
