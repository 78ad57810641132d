// The per-layer stack of a config.json (layer_types, hybrid_override_pattern, block_configs,
// sliding-window and chunked layers, which layers are MoE): StackReader::read_stack and its parts.
#include <algorithm>

#include "llm/config_reader.hpp"

namespace tenet::llm::config_detail {

using detail::checked_add;
using detail::checked_mul;

void StackReader::unmodelled(const std::string& where, const std::string& kind) {
  f.add(error_code::kUnknownName, where,
        "layer kind " + kind +
            " is not modelled (modelled: full_attention, sliding_attention, chunked_attention, "
            "linear_attention (Gated DeltaNet), mamba, mamba2, MLP and MoE blocks)");
}

// `layer_types`: one kind per layer, each checked.
void StackReader::read_layer_types(const json& list) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& v = list[i];
    const std::string where = io::pointer_join("/layer_types", i);
    if (!v.is_string()) {
      f.add(error_code::kType, where, "expected a layer kind (a string), got " + describe(v));
      continue;
    }
    const std::string kind = v.get<std::string>();
    LayerSpec& l = specs[i];
    if (kind == "full_attention" || kind == "attention") {
      l.mixer = MixerKind::kAttention;
    } else if (kind == "sliding_attention") {
      l.mixer = MixerKind::kAttention, l.span = AttentionSpan::kSliding;
    } else if (kind == "chunked_attention") {
      l.mixer = MixerKind::kAttention, l.span = AttentionSpan::kChunked;
    } else if (kind == "linear_attention" && doc.contains("linear_num_value_heads")) {
      l.mixer = MixerKind::kGatedDeltaNet;
    } else if ((kind == "mamba" || kind == "mamba2") && doc.contains("mamba_num_heads")) {
      l.mixer = MixerKind::kMamba2;
    } else {
      unmodelled(where, "\"" + excerpt(kind, 40) + "\"" +
                            (kind == "linear_attention"
                                 ? " (without linear_num_value_heads: not Gated DeltaNet)"
                                 : ""));
    }
  }
}

// Nemotron-H: one character per layer; M = Mamba-2 mixer, * = attention, - = MLP, E = MoE
// (relu² experts: moe_mask() marks these layers). Every unknown character is recorded.
void StackReader::read_pattern(const std::string& key) {
  const json& v = doc.at(key);
  if (!v.is_string() || static_cast<std::int64_t>(v.get<std::string>().size()) != c.layers) {
    f.add(error_code::kType, pointer(key),
          "expected a string of " + std::to_string(c.layers) +
              " layer characters (M, *, -, E), got " + describe(v));
    return;
  }
  const std::string text = v.get<std::string>();
  bool experts_checked = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    LayerSpec& l = specs[i];
    switch (text[i]) {
      case 'M':
        l.mixer = MixerKind::kMamba2, l.ffn = FfnKind::kNone;
        break;
      case '*':
        l.mixer = MixerKind::kAttention, l.ffn = FfnKind::kNone;
        break;
      case '-':
        l.mixer = MixerKind::kNone, l.ffn = FfnKind::kDense;
        break;
      case 'E':
        if (!c.moe && !known.moe_failed && !experts_checked) {
          required_int({"n_routed_experts", "num_experts"},
                       "number of experts (the pattern has MoE layers, 'E')");
        }
        experts_checked = true;
        l.mixer = MixerKind::kNone, l.ffn = FfnKind::kDense;  // kMoe by the mask
        break;
      default:
        unmodelled(pointer(key), "'" + excerpt(text.substr(i, 1), 4) + "' (layer " +
                                     std::to_string(i) + " of the pattern)");
    }
  }
}

// DeciLM / Nemotron-Super: per-layer attention (n_heads_in_group, no_op, replace_with_linear)
// and FFN (ffn_mult, no_op, replace_with_linear), each block and field checked.
void StackReader::read_block_configs(const json& list) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = io::pointer_join("/block_configs", i);
    const json& b = list[i];
    if (!b.is_object() || !b.contains("attention") || !b.contains("ffn") ||
        !b.at("attention").is_object() || !b.at("ffn").is_object()) {
      f.add(error_code::kType, at,
            "expected {\"attention\": {...}, \"ffn\": {...}}, got " + describe(b));
      continue;
    }
    const json& attention = b.at("attention");
    const json& ffn = b.at("ffn");
    LayerSpec& l = specs[i];
    const BlockPart a = block_part(attention, at + "/attention");
    if (a == BlockPart::kSized) read_heads_in_group(attention, at + "/attention", l);
    if (a == BlockPart::kNoOp || a == BlockPart::kLinear)
      l.mixer = a == BlockPart::kNoOp ? MixerKind::kNone : MixerKind::kLinear;
    const BlockPart m = block_part(ffn, at + "/ffn");
    if (m == BlockPart::kSized) read_ffn_mult(ffn, at + "/ffn", l);
    if (m == BlockPart::kNoOp || m == BlockPart::kLinear)
      l.ffn = m == BlockPart::kNoOp ? FfnKind::kNone : FfnKind::kLinear;
  }
}

StackReader::BlockPart StackReader::block_part(const json& part, const std::string& at) {
  if (f.boolean(part, at, "no_op").value_or(false)) return BlockPart::kNoOp;
  if (f.boolean(part, at, "replace_with_linear").value_or(false)) return BlockPart::kLinear;
  if (f.bad(at + "/no_op") || f.bad(at + "/replace_with_linear")) return BlockPart::kBad;
  return BlockPart::kSized;
}

void StackReader::read_heads_in_group(const json& a, const std::string& at, LayerSpec& l) {
  const std::string where = at + "/n_heads_in_group";
  const auto group = f.integer(a, at, "n_heads_in_group");
  if (f.bad(where) || !known.heads) return;
  if (!group || c.heads % *group != 0) {
    f.add(error_code::kRange, where,
          "expected a positive divisor of the " + std::to_string(c.heads) + " heads, got " +
              describe(a.value("n_heads_in_group", json())));
    return;
  }
  l.kv_heads = c.heads / *group;
}

void StackReader::read_ffn_mult(const json& ffn, const std::string& at, LayerSpec& l) {
  auto m = ffn.find("ffn_mult");
  if (m == ffn.end() || !m->is_number() || !(m->get<double>() > 0) || m->get<double>() > 1e6) {
    f.add(error_code::kType, at + "/ffn_mult",
          "expected a positive number, got " + describe(m == ffn.end() ? json() : *m));
    return;
  }
  if (!known.hidden) return;
  // DeciLM: int(2 * ffn_mult * n_embd / 3) rounded up to a multiple of 256.
  const double raw = 2 * m->get<double>() * static_cast<double>(c.hidden) / 3;
  const std::int64_t width = static_cast<std::int64_t>(raw);
  l.ffn_width = (width + 255) / 256 * 256;
  if (l.ffn_width == 0) l.ffn = FfnKind::kNone;
}

// Which layers attend through a sliding window when no layer_types lists them: every
// sliding_window_pattern-th is global (Gemma-3), else the family's rule.
void StackReader::assign_windows() {
  const std::int64_t n = c.layers;
  if (auto p = optional_int("sliding_window_pattern")) {  // Gemma-3
    for (std::int64_t i = 0; i < n; ++i)
      if ((i + 1) % *p != 0) specs[i].span = AttentionSpan::kSliding;
  } else if (bad("sliding_window_pattern")) {
    return;
  } else if (family.window_layers == WindowLayers::kEveryOther) {
    for (std::int64_t i = 0; i < n; i += 2) specs[i].span = AttentionSpan::kSliding;
  } else if (family.window_layers == WindowLayers::kFrom) {
    const std::int64_t m = optional_int("max_window_layers", 0).value_or(0);
    for (std::int64_t i = std::min(m, n); i < n; ++i) specs[i].span = AttentionSpan::kSliding;
  } else {
    for (LayerSpec& l : specs) l.span = AttentionSpan::kSliding;
  }
}

// Llama-4: layers with RoPE attend within chunks of attention_chunk_size; NoPE layers
// (no_rope_layers[i] == 0, by default every 4th) attend every earlier token.
void StackReader::assign_chunks() {
  c.attention_chunk = optional_int("attention_chunk_size");
  if (!c.attention_chunk) return;
  const json* nope = array_of("no_rope_layers", -1);
  if (nope && !nope->empty() && static_cast<std::int64_t>(nope->size()) != c.layers) {
    f.add(error_code::kType, "/no_rope_layers",
          "expected " + std::to_string(c.layers) +
              " flags (1: RoPE and chunked attention, 0: NoPE), got " + describe(*nope));
    nope = nullptr;
  }
  const std::int64_t interval = optional_int("no_rope_layer_interval").value_or(4);
  for (std::int64_t i = 0; i < c.layers; ++i) {
    bool rope = (i + 1) % interval != 0;
    if (nope && !nope->empty()) {
      const json& v = (*nope)[i];
      if (!v.is_number_integer() || (v != 0 && v != 1)) {
        f.add(error_code::kType, io::pointer_join("/no_rope_layers", i),
              "expected 0 or 1, got " + describe(v));
        continue;
      }
      rope = v == 1;
    }
    if (rope && specs[i].mixer == MixerKind::kAttention && specs[i].span == AttentionSpan::kFull)
      specs[i].span = AttentionSpan::kChunked;
  }
}

// Whether layer i's FFN is the MoE (DeepSeek first_k_dense_replace / moe_layer_freq; Llama-4
// moe_layers / interleave_moe_layer_step; Jamba expert_layer_period / offset; Qwen
// decoder_sparse_step / mlp_only_layers); nothing when a field it needs is wrong (recorded).
std::optional<std::vector<bool>> StackReader::moe_mask() {
  const std::size_t before = f.problems.size();
  std::vector<bool> moe = moe_mask_of_fields();
  if (f.problems.size() != before) return std::nullopt;
  return moe;
}

std::vector<bool> StackReader::moe_mask_of_fields() {
  const std::int64_t n = c.layers;
  std::vector<bool> moe(n, true);
  auto pattern = doc.find("hybrid_override_pattern");
  if (pattern != doc.end() && pattern->is_string()) {  // Nemotron-H: the 'E' layers
    const std::string text = pattern->get<std::string>();
    for (std::int64_t i = 0; i < n; ++i)
      moe[i] = i < static_cast<std::int64_t>(text.size()) && text[i] == 'E';
    return moe;
  }
  if (has("first_k_dense_replace")) {
    const std::int64_t first = optional_int("first_k_dense_replace", 0).value_or(0);
    const std::int64_t freq = optional_int("moe_layer_freq").value_or(1);
    for (std::int64_t i = 0; i < n; ++i) moe[i] = i >= first && i % freq == 0;
    return moe;
  }
  if (has("moe_layers")) {
    moe.assign(n, false);
    const json* list = array_of("moe_layers", -1);
    for (std::size_t j = 0; list && j < list->size(); ++j) {
      const json& v = (*list)[j];
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= n) {
        f.add(error_code::kRange, io::pointer_join("/moe_layers", j),
              "expected a layer index in [0, " + std::to_string(n) + "), got " + describe(v));
        continue;
      }
      moe[v.get<std::int64_t>()] = true;
    }
    return moe;
  }
  if (auto step = optional_int("interleave_moe_layer_step")) {
    for (std::int64_t i = 0; i < n; ++i) moe[i] = (i + 1) % *step == 0;
    return moe;
  }
  if (auto period = optional_int("expert_layer_period")) {
    const std::int64_t offset = optional_int("expert_layer_offset", 0).value_or(0);
    for (std::int64_t i = 0; i < n; ++i) moe[i] = i % *period == offset;
    return moe;
  }
  const std::int64_t step = optional_int("decoder_sparse_step").value_or(1);
  const std::set<std::int64_t> dense = mlp_only_layers();
  for (std::int64_t i = 0; i < n; ++i) moe[i] = (i + 1) % step == 0 && !dense.count(i);
  return moe;
}

std::set<std::int64_t> StackReader::mlp_only_layers() {
  std::set<std::int64_t> out;
  const json* v = member(doc, "mlp_only_layers");
  if (!v) return out;
  if (!v->is_array()) {
    f.add(error_code::kType, "/mlp_only_layers",
          "expected an array of layer indices, got " + describe(*v));
    return out;
  }
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& e = (*v)[i];
    if (!e.is_number_integer() || e.get<std::int64_t>() < 0) {
      f.add(error_code::kType, io::pointer_join("/mlp_only_layers", i),
            "expected a layer index >= 0, got " + describe(e));
      continue;
    }
    out.insert(e.get<std::int64_t>());
  }
  return out;
}

void StackReader::read_stack() {
  if (!known.layers) return;  // every per-layer field is indexed by the layer count
  const std::int64_t n = c.layers;
  specs.assign(n, LayerSpec{});
  const bool listed_types = doc.contains("layer_types") && !doc.at("layer_types").is_null();
  if (has("block_configs")) {
    if (const json* blocks = array_of("block_configs", n)) read_block_configs(*blocks);
  } else if (has("hybrid_override_pattern")) {
    read_pattern("hybrid_override_pattern");
  } else if (has("layer_types")) {
    if (const json* types = array_of("layer_types", n)) read_layer_types(*types);
  } else if (auto k = optional_int("full_attention_interval")) {  // Qwen3-Next
    for (std::int64_t i = 0; i < n; ++i)
      if ((i + 1) % *k != 0) specs[i].mixer = MixerKind::kGatedDeltaNet;
  } else if (bad("full_attention_interval")) {
  } else if (auto period = optional_int("attn_layer_period")) {  // Jamba
    const std::int64_t offset = optional_int("attn_layer_offset", 0).value_or(0);
    for (std::int64_t i = 0; i < n; ++i)
      if (i % *period != offset) specs[i].mixer = MixerKind::kMamba;
  }
  if (c.sliding_window && !listed_types) assign_windows();
  if (!c.sliding_window) {
    for (LayerSpec& l : specs)
      if (l.span == AttentionSpan::kSliding) l.span = AttentionSpan::kFull;
  }
  assign_chunks();
  std::vector<bool> moe(n, false);
  if (c.moe) moe = *moe_layer_mask;  // read_moe set c.moe from this mask
  std::int64_t moe_layers = 0, window_layers = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    LayerSpec& l = specs[i];
    if (l.mixer == MixerKind::kAttention && l.kv_heads == 0) l.kv_heads = c.kv_heads;
    if (l.mixer != MixerKind::kAttention) l.span = AttentionSpan::kFull, l.kv_heads = 0;
    if (l.ffn == FfnKind::kDense && c.moe && moe[i]) l.ffn = FfnKind::kMoe;
    if (l.ffn == FfnKind::kDense && l.ffn_width == 0) l.ffn_width = c.intermediate;
    if (l.ffn != FfnKind::kDense) l.ffn_width = 0;
    if (l.ffn == FfnKind::kMoe) ++moe_layers;
    if (l.span == AttentionSpan::kSliding) ++window_layers;
  }
  if (c.moe) c.moe->moe_layers = moe_layers;
  if (c.moe && moe_layers == 0) c.moe.reset();
  c.window_layers = window_layers;
  if (window_layers == 0) c.sliding_window.reset();
  if (c.attention_chunk && std::none_of(specs.begin(), specs.end(), [](const LayerSpec& l) {
        return l.span == AttentionSpan::kChunked;
      }))
    c.attention_chunk.reset();
  c.stack = specs;
}

}  // namespace tenet::llm::config_detail
