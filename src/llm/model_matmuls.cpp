#include "tenet/llm/model_matmuls.hpp"

#include <algorithm>

#include "llm/checked_int.hpp"
#include "tenet/error.hpp"

namespace tenet::llm {
namespace {

using detail::checked_add;
using detail::checked_mul;

// Sizes shared by every matmul of one pass, checked once.
struct PassSizes {
  std::int64_t rows = 0;        // T: B·S (prefill) or B (decode): rows of every projection
  std::int64_t queries = 0;     // query rows per KV head and sequence: r·S or r
  std::int64_t keys = 0;        // keys attended per query row: S, or min(L, window)
  std::int64_t attn_batch = 0;  // B·n_kv
  std::int64_t head_rows = 0;   // lm_head rows
};

struct Names {
  const char* prefix_attn;
  const char* qkv;
  const char* q;
  const char* k;
  const char* v;
  const char* o;
  const char* qk;
  const char* pv;
};

constexpr Names kGpt2{"attn.", "c_attn", "q_proj", "k_proj", "v_proj", "c_proj", "qk", "pv"};
constexpr Names kLlama{"self_attn.", "qkv_proj", "q_proj", "k_proj",
                       "v_proj",     "o_proj",   "qk",     "pv"};

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
    throw InputError(error_code::kRange, "", "--batch",
                     "expected a positive batch size, got " + std::to_string(o.batch));
  }
  if (o.phase == Phase::kPrefill) {
    check_length(o.prompt, "--prompt", "prompt length", model);
  } else if (o.phase == Phase::kDecode) {
    check_length(o.context, "--context", "context length", model);
  } else {
    throw InputError(error_code::kUsage, "", "--phase", "expected prefill or decode");
  }
}

PassSizes pass_sizes(const ModelConfig& model, const GenerationOptions& o) {
  PassSizes s;
  const std::int64_t r = model.group_size();
  if (o.phase == Phase::kPrefill) {
    s.rows = checked_mul(o.batch, o.prompt, "", "--prompt", "B·S");
    s.queries = checked_mul(r, o.prompt, "", "--prompt", "r·S");
    s.keys = o.prompt;
    s.head_rows = o.lm_head == LmHead::kAllTokens ? s.rows : o.batch;
  } else {
    s.rows = o.batch;
    s.queries = r;
    s.keys = model.sliding_window ? std::min(o.context, *model.sliding_window) : o.context;
    s.head_rows = o.batch;
  }
  s.attn_batch = checked_mul(o.batch, model.kv_heads, "", "--batch", "B·n_kv");
  return s;
}

MatmulShape projection(std::string name, std::int64_t rows, std::int64_t n, std::int64_t k,
                       std::int64_t count, Phase phase) {
  MatmulShape s;
  s.name = std::move(name);
  s.m = rows;
  s.n = n;
  s.k = k;
  s.count = count;
  s.phase = phase;
  s.layout = Layout::kNT;
  s.b_operand = OperandKind::kWeight;
  return s;
}

// Q·Kᵀ: K cache rows are keys (N×K = keys×d, NT); P·V: V cache is keys×d = K×N (NN).
MatmulShape attention(std::string name, const PassSizes& s, std::int64_t n, std::int64_t k,
                      Layout layout, std::int64_t count, Phase phase) {
  MatmulShape a = projection(std::move(name), s.queries, n, k, count, phase);
  a.batch = s.attn_batch;
  a.layout = layout;
  a.b_operand = OperandKind::kKvCache;
  return a;
}

void add_attention(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
                   const Names& names, std::vector<MatmulShape>& out) {
  const std::string p = names.prefix_attn;
  const std::int64_t d = model.head_dim, h = model.hidden, n = model.layers;
  const std::int64_t q_width = model.heads * d, kv_width = model.kv_heads * d;
  if (o.fused_qkv) {
    out.push_back(projection(p + names.qkv, s.rows, q_width + 2 * kv_width, h, n, o.phase));
  } else {
    out.push_back(projection(p + names.q, s.rows, q_width, h, n, o.phase));
    out.push_back(projection(p + names.k, s.rows, kv_width, h, n, o.phase));
    out.push_back(projection(p + names.v, s.rows, kv_width, h, n, o.phase));
  }
  out.push_back(attention(p + names.qk, s, s.keys, d, Layout::kNT, n, o.phase));
  out.push_back(attention(p + names.pv, s, d, s.keys, Layout::kNN, n, o.phase));
  out.push_back(projection(p + names.o, s.rows, h, q_width, n, o.phase));
}

void add_mlp(const ModelConfig& model, const GenerationOptions& o, const PassSizes& s,
             std::vector<MatmulShape>& out) {
  const std::int64_t h = model.hidden, i = model.intermediate, n = model.layers;
  if (model.family == ModelFamily::kGpt2) {
    out.push_back(projection("mlp.c_fc", s.rows, i, h, n, o.phase));
    out.push_back(projection("mlp.c_proj", s.rows, h, i, n, o.phase));
    return;
  }
  if (o.fused_gate_up) {
    out.push_back(projection("mlp.gate_up_proj", s.rows, 2 * i, h, n, o.phase));
  } else {
    out.push_back(projection("mlp.gate_proj", s.rows, i, h, n, o.phase));
    out.push_back(projection("mlp.up_proj", s.rows, i, h, n, o.phase));
  }
  out.push_back(projection("mlp.down_proj", s.rows, h, i, n, o.phase));
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

std::vector<MatmulShape> generate_matmuls(const ModelConfig& model, const GenerationOptions& o) {
  check_options(model, o);
  const PassSizes sizes = pass_sizes(model, o);
  const Names& names = model.family == ModelFamily::kGpt2 ? kGpt2 : kLlama;
  std::vector<MatmulShape> out;
  add_attention(model, o, sizes, names, out);
  add_mlp(model, o, sizes, out);
  out.push_back(projection("lm_head", sizes.head_rows, model.vocab, model.hidden, 1, o.phase));
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
