#include "tenet/llm/generation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "detail/exact.hpp"
#include "hw/vector_unit.hpp"
#include "llm/checked_int.hpp"
#include "llm/model_summary.hpp"
#include "llm/vector_ops.hpp"
#include "tenet/error.hpp"

namespace tenet::llm {
namespace {

using detail::checked_add;
using detail::checked_mul;

using ::tenet::detail::big;
using ::tenet::llm::detail::ceil_div;
Integer ceil_div(const Integer& a, std::int64_t b) {
  Integer q;
  mpz_cdiv_q(q.get_mpz_t(), a.get_mpz_t(), big(b).get_mpz_t());
  return q;
}
// Bytes of `elements` values of `bits` bits.
Integer bits_to_bytes(const Integer& elements, int bits) { return ceil_div(elements * bits, 8); }

void require_positive(std::int64_t v, const char* field, const char* what) {
  if (v <= 0)
    throw InputError(error_code::kRange, "", field,
                     fmt::format("expected a positive {}, got {}", what, v));
}

// Bits one stored element of `op` costs with its scales and zero points spread over the
// elements they scale (group: per group; per-token / per-channel levels of the KV cache: per
// channel row of `row` elements).
double bits_per_element(const quant::OperandSpec& op, std::int64_t row) {
  double bits = op.dtype.bits();
  for (const quant::ScaleLevel& l : op.scales) {
    const double one = l.dtype.bits() + (l.zero ? l.zero->bits() : 0);
    if (l.granularity == quant::Granularity::kGroup && l.group_size > 0)
      bits += one / static_cast<double>(l.group_size);
    else if (l.granularity == quant::Granularity::kPerToken)
      bits += one / static_cast<double>(row);
  }
  return bits;
}

// ---- the cost of one pass on one chip ---------------------------------------------------------

struct PassCost {
  double layer_cycles = 0;                             // decoder layers (all of them)
  double embed_cycles = 0;                             // embedding lookup (first stage)
  double head_cycles = 0;                              // final norm, lm_head, sampling (last stage)
  std::vector<std::pair<std::string, OpTotal>> kinds;  // cycles in seconds later
  std::int64_t tokens = 0, head_rows = 0;

  void add_kind(const std::string& kind, double cycles, const Integer& dram) {
    for (auto& [k, t] : kinds)
      if (k == kind) {
        t.seconds += cycles;
        t.dram_bytes += dram;
        return;
      }
    kinds.push_back({kind, OpTotal{cycles, dram}});
  }
};

std::string call_key(const MatmulShape& s) {
  return fmt::format(
             "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}", s.batch, s.m, s.n, s.k,
             static_cast<int>(s.phase), static_cast<int>(s.layout), static_cast<int>(s.b_operand),
             s.weights_quantized ? (*s.weights_quantized ? 1 : 0) : 2, s.epilogue_ops, s.quant,
             s.dtypes.in, s.dtypes.w, s.dtypes.out, s.dtypes.accum, s.accumulate ? 1 : 0) +
         (s.fused_attention ? fmt::format("|fused {}/{}/{}/{}", s.fused_attention->heads,
                                          s.fused_attention->kv_heads, s.fused_attention->causal,
                                          s.fused_attention->window)
                            : std::string()) +
         (s.fused_ffn ? fmt::format("|ffn {}/{}", s.fused_ffn->gated, s.fused_ffn->bias)
                      : std::string());
}

class RequestModel {
 public:
  RequestModel(const ModelConfig& full, const RequestOptions& o, const CostModel& cost,
               const arch::Accelerator& acc, const quant::QuantSpec& scheme)
      : chip_(tensor_parallel_shard(full, o.tp)),
        o_(o),
        cost_(cost),
        acc_(acc),
        unit_(hw::vector_unit_of(acc)) {
    bits_.activation = scheme.activations.dtype.bits();
    bits_.kv_cache = scheme.kv_cache ? scheme.kv_cache->dtype.bits() : bits_.activation;
    bits_.embedding = scheme.weights.dtype.bits();
  }

  const ElementBits& bits() const { return bits_; }
  const ModelConfig& chip() const { return chip_; }

  // One pass (prefill of `length` tokens or a decode step over `length` tokens) at batch b.
  GenerationOptions options(Phase phase, std::int64_t b, std::int64_t length) const {
    GenerationOptions g = o_.pass;
    g.phase = phase;
    g.batch = b;
    if (phase == Phase::kPrefill)
      g.prompt = length;
    else
      g.context = length;
    return g;
  }

  // Evaluates every distinct matmul of the passes (phase, b, length) not evaluated yet, on up to
  // hardware_concurrency threads (the cost model is pure and thread-safe); pass() then finds
  // them all in the memo. Results do not depend on the threads.
  void prefetch(const std::vector<std::pair<Phase, std::int64_t>>& passes, std::int64_t b) {
    std::vector<std::pair<std::string, MatmulShape>> todo;
    std::unordered_map<std::string, bool> queued;
    for (const auto& [phase, length] : passes)
      for (const MatmulShape& s : generate_matmuls(chip_, options(phase, b, length))) {
        std::string key = call_key(s);
        if (memo_.count(key) || queued.count(key)) continue;
        queued[key] = true;
        todo.push_back({std::move(key), s});
      }
    std::vector<LayerCost> costs(todo.size());
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto work = [&] {
      for (std::size_t i = next++; i < todo.size(); i = next++) {
        try {
          costs[i] = cost_.evaluate(todo[i].second);
        } catch (...) {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (!error) error = std::current_exception();
        }
      }
    };
    const std::size_t threads = std::min<std::size_t>(
        std::max(1u, std::thread::hardware_concurrency()), std::max<std::size_t>(todo.size(), 1));
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
    for (std::size_t i = 0; i < todo.size(); ++i) memo_.emplace(todo[i].first, costs[i]);
  }

  PassCost pass(Phase phase, std::int64_t b, std::int64_t length) {
    const GenerationOptions g = options(phase, b, length);
    const std::vector<MatmulShape> shapes = generate_matmuls(chip_, g);
    PassCost c;
    c.tokens = phase == Phase::kPrefill ? b * length : b;
    c.head_rows = g.lm_head == LmHead::kAllTokens ? c.tokens : b;
    const std::string& head = chip_.names.lm_head;
    for (const MatmulShape& s : shapes) {
      const LayerCost& lc = matmul(s);
      const double cycles = lc.cycles.get_d() * static_cast<double>(s.count);
      const bool edge = s.name == head || s.name == "project_out" || s.name == "project_in";
      (edge ? (s.name == "project_in" ? c.embed_cycles : c.head_cycles) : c.layer_cycles) += cycles;
      c.add_kind("matmul", cycles, lc.dram_bytes * big(s.count));
    }
    for (const VectorOp& v : vector_ops(chip_, g, shapes, bits_)) {
      const hw::VectorCycles vc =
          hw::vector_op_cycles(acc_, unit_, v.kind, v.ops, v.sram_bytes, v.dram_bytes);
      const double cycles = vc.cycles * static_cast<double>(v.count);
      if (v.per_layer)
        c.layer_cycles += cycles;
      else if (v.kind == "embedding")
        c.embed_cycles += cycles;
      else
        c.head_cycles += cycles;
      c.add_kind(v.kind, cycles, big(v.dram_bytes) * big(v.count));
    }
    return c;
  }

 private:
  const LayerCost& matmul(const MatmulShape& s) {
    const std::string key = call_key(s);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    return memo_.emplace(key, cost_.evaluate(s)).first->second;
  }

  ModelConfig chip_;
  const RequestOptions& o_;
  const CostModel& cost_;
  const arch::Accelerator& acc_;
  arch::VectorUnit unit_;
  ElementBits bits_;
  std::unordered_map<std::string, LayerCost> memo_;
};

// ---- memory -----------------------------------------------------------------------------------

Integer weights_bytes(const ModelConfig& m, const RequestOptions& o,
                      const quant::QuantSpec& scheme) {
  Integer total;
  for (const WeightMatrix& w : weight_matrices(m, o.pass))
    total += stored_weight_bytes(scheme.weights, w.n, w.k) * big(w.batch) * big(w.copies);
  if (!m.tie_embeddings) total += stored_weight_bytes(scheme.weights, m.vocab, m.embed_dim);
  const int a = scheme.activations.dtype.bits();
  // Position table, norms and biases at the activations' format.
  GenerationOptions g = o.pass;
  const ModelSummary s = summarize_model(m, g);
  Integer rest = s.parameters - s.matmul_parameters;
  if (!m.tie_embeddings) rest -= big(m.vocab) * big(m.embed_dim);
  total += bits_to_bytes(rest, a);
  return total;
}

// KV-cache bytes of one sequence of `tokens` tokens (window layers hold at most the window).
Integer kv_bytes_per_sequence(const ModelConfig& m, const RequestOptions& o,
                              const quant::QuantSpec& scheme, std::int64_t tokens) {
  GenerationOptions g = o.pass;
  g.phase = Phase::kDecode;
  const Integer per_token = summarize_model(m, g).kv_cache_elements_per_token;
  // Only attention layers hold a KV cache (a hybrid's Mamba / DeltaNet layers: recurrent_state).
  const std::int64_t attention = m.stack.empty() ? m.layers : m.layers_with(MixerKind::kAttention);
  if (attention == 0) return 0;
  const Integer per_layer = per_token / big(attention);
  Integer elements = per_layer * big(attention - m.window_layers) * big(tokens);
  if (m.sliding_window)
    elements += per_layer * big(m.window_layers) * big(std::min(tokens, *m.sliding_window));
  const quant::OperandSpec kv = scheme.kv_cache ? *scheme.kv_cache : scheme.activations;
  const std::int64_t row = m.mla ? m.mla->kv_lora_rank + m.mla->qk_rope_head_dim : m.head_dim;
  const double bits = bits_per_element(kv, row);
  if (bits == kv.dtype.bits()) return bits_to_bytes(elements, kv.dtype.bits());
  return Integer(std::ceil(elements.get_d() * bits / 8.0));
}

// The recurrent state of one sequence in a hybrid's Mamba and Gated DeltaNet layers (the SSM
// or delta-rule state and the causal conv's last conv − 1 inputs), at the activations' format;
// independent of the length.
Integer state_bytes_per_sequence(const ModelConfig& m, int activation_bits) {
  Integer elements;
  if (m.ssm) {
    const SsmConfig& s = *m.ssm;
    const Integer bc = big(2) * big(s.groups) * big(s.state);
    elements += big(m.layers_with(MixerKind::kMamba2)) *
                (big(s.inner) * big(s.state) + big(s.conv - 1) * (big(s.inner) + bc));
    elements += big(m.layers_with(MixerKind::kMamba)) *
                (big(s.inner) * big(s.state) + big(s.conv - 1) * big(s.inner));
  }
  if (m.deltanet) {
    const DeltaNetConfig& d = *m.deltanet;
    const Integer channels =
        big(2) * big(d.key_heads) * big(d.key_dim) + big(d.value_heads) * big(d.value_dim);
    elements +=
        big(m.layers_with(MixerKind::kGatedDeltaNet)) *
        (big(d.value_heads) * big(d.key_dim) * big(d.value_dim) + big(d.conv - 1) * channels);
  }
  return bits_to_bytes(elements, activation_bits);
}

// Peak live activations of the prefill of one sequence: the residual stream plus the largest
// weight matmul's input and output (the attention scores stay in the attention kernel).
Integer activation_bytes_per_sequence(const ModelConfig& m, const RequestOptions& o,
                                      int activation_bits) {
  GenerationOptions g = o.pass;
  g.fused_mlp = false;  // the largest projection's input and output
  g.phase = Phase::kPrefill;
  g.batch = 1;
  g.prompt = o.prompt;
  Integer largest;
  for (const MatmulShape& s : generate_matmuls(m, g)) {
    if (!s.has_weights()) continue;
    const Integer live = big(s.batch) * big(s.m) * (big(s.k) + big(s.n));
    if (live > largest) largest = live;
  }
  return bits_to_bytes(big(o.prompt) * big(m.hidden) + largest, activation_bits);
}

// What one replica of the model holds (the whole model, or one tensor-parallel chip's shard):
// its weights, and per sequence its KV cache, recurrent state and activations.
struct Footprint {
  Integer weights, kv, state, activations;  // kv, state, activations: per sequence
  Integer per_sequence() const { return kv + state + activations; }
};

Footprint footprint(const ModelConfig& m, const RequestOptions& o, const quant::QuantSpec& scheme,
                    int activation_bits, std::int64_t tokens) {
  Footprint f;
  f.weights = weights_bytes(m, o, scheme);
  f.kv = kv_bytes_per_sequence(m, o, scheme, tokens);
  f.state = state_bytes_per_sequence(m, activation_bits);
  f.activations = activation_bytes_per_sequence(m, o, activation_bits);
  return f;
}

// The request's memory: the model's in all (`model`) and one chip's (`chip`, its tensor-parallel
// shard, replicated parts whole), divided over the pp stages; fits and the largest batch from the
// chip's.
RequestMemory request_memory(const ModelConfig& model, const ModelConfig& chip,
                             const RequestOptions& o, const quant::QuantSpec& scheme, int a,
                             std::int64_t total_len, std::optional<long long> capacity) {
  const Footprint whole = footprint(model, o, scheme, a, total_len);
  const Footprint one = o.tp == 1 ? whole : footprint(chip, o, scheme, a, total_len);
  const Integer batch = big(o.batch);
  RequestMemory mem;
  mem.weights_bytes = whole.weights;
  mem.kv_cache_bytes = whole.kv * batch;
  mem.state_bytes = whole.state * batch;
  mem.activation_bytes = whole.activations * batch;
  mem.total_bytes = mem.weights_bytes + mem.kv_cache_bytes + mem.state_bytes + mem.activation_bytes;
  mem.per_chip_weights_bytes = ceil_div(one.weights, o.pp);
  mem.per_chip_kv_cache_bytes = ceil_div(one.kv * batch, o.pp);
  mem.per_chip_bytes = ceil_div(one.weights + one.per_sequence() * batch, o.pp);
  mem.capacity_bytes = capacity;
  if (!capacity) return mem;
  const Integer cap = big(*capacity);
  mem.fits = mem.per_chip_bytes <= cap;
  const Integer room = cap * big(o.pp) - one.weights;
  const Integer per_seq = one.per_sequence();
  Integer max_batch = room < 0 ? Integer(0) : Integer(room / per_seq);
  // ceil per stage can cost a byte or two: step down until it fits.
  while (max_batch > 0 && ceil_div(one.weights + max_batch * per_seq, o.pp) > cap) max_batch -= 1;
  mem.max_batch = poly::fits_int64(max_batch) ? poly::to_int64(max_batch)
                                              : std::numeric_limits<std::int64_t>::max();
  return mem;
}

// ---- collectives ------------------------------------------------------------------------------

struct Ring {
  std::int64_t chips = 1;
  double bytes_per_second = 0, latency = 0;
  // Ring all-reduce of `bytes` over the chips: 2(N−1) steps of bytes/N; each chip sends
  // 2(N−1)/N·bytes.
  double all_reduce_seconds(const Integer& bytes) const {
    if (chips == 1) return 0;
    const double n = static_cast<double>(chips);
    return 2 * (n - 1) * (latency + bytes.get_d() / n / bytes_per_second);
  }
  Integer all_reduce_sent(const Integer& bytes) const {
    if (chips == 1) return 0;
    return ceil_div(bytes * big(2 * (chips - 1)), chips);
  }
  double all_gather_seconds(const Integer& bytes) const {
    if (chips == 1) return 0;
    const double n = static_cast<double>(chips);
    return (n - 1) * (latency + bytes.get_d() / n / bytes_per_second);
  }
  Integer all_gather_sent(const Integer& bytes) const {
    if (chips == 1) return 0;
    return ceil_div(bytes * big(chips - 1), chips);
  }
};

// The all-reduces of one stage's layers per pass: one after each row-parallel block that ends
// in the residual stream (the mixer and the FFN of a layer; one for parallel attention + MLP
// blocks, none for a no-op block), and Mamba-1's x_proj (row-parallel, its output feeds dt_proj
// and the scan) of x_proj_width channels. A stage of `stage_layers` layers takes its share of
// the model's, rounded up.
struct LayerReduces {
  std::int64_t blocks = 0, x_proj = 0, x_proj_width = 0;
};

LayerReduces layer_reduces(const ModelConfig& m, std::int64_t stage_layers) {
  std::int64_t blocks = 0;
  for (const LayerSpec& l : m.stack)
    blocks += m.parallel_blocks
                  ? 1
                  : (l.mixer != MixerKind::kNone ? 1 : 0) + (l.ffn != FfnKind::kNone ? 1 : 0);
  if (m.stack.empty()) blocks = 2 * m.layers;
  LayerReduces r;
  auto share = [&](std::int64_t n) {
    return m.layers == 0
               ? 0
               : ceil_div(checked_mul(n, stage_layers, "", "pp", "all-reduces"), m.layers);
  };
  r.blocks = share(blocks);
  if (m.ssm && m.layers_with(MixerKind::kMamba) > 0) {
    r.x_proj = share(m.layers_with(MixerKind::kMamba));
    r.x_proj_width = m.ssm->dt_rank + 2 * m.ssm->state;
  }
  return r;
}

}  // namespace

Integer stored_weight_bytes(const quant::OperandSpec& w, std::int64_t n, std::int64_t k) {
  Integer values;
  const int bits = w.dtype.bits();
  std::int64_t group = 0;
  for (const quant::ScaleLevel& l : w.scales)
    if (l.granularity == quant::Granularity::kGroup) group = l.group_size;
  if (w.packing && w.packing->values_per_word > 1) {
    const quant::Packing& p = *w.packing;
    const std::int64_t v = p.values_per_word;
    if (p.axis == quant::PackAxis::kN) {
      values = big(ceil_div(n, v)) * big(k) * p.storage_bits;
    } else {
      const std::int64_t words =
          p.group_aligned && group > 0 ? ceil_div(k, group) * ceil_div(group, v) : ceil_div(k, v);
      values = big(n) * big(words) * p.storage_bits;
    }
  } else {
    values = big(n) * big(k) * bits;
  }
  Integer total = ceil_div(values, 8);
  for (const quant::ScaleLevel& l : w.scales) {
    Integer entries = 1;
    switch (l.granularity) {
      case quant::Granularity::kPerTensor:
        entries = 1;
        break;
      case quant::Granularity::kPerChannel:
        entries = big(n);
        break;
      case quant::Granularity::kPerToken:
      case quant::Granularity::kPerInputChannel:
        entries = big(k);
        break;
      case quant::Granularity::kGroup:
        entries = big(n) * big(ceil_div(k, std::max<std::int64_t>(l.group_size, 1)));
        break;
      case quant::Granularity::kBlock:
        entries = big(ceil_div(n, std::max<long long>(l.block_n, 1))) *
                  big(ceil_div(k, std::max<long long>(l.block_k, 1)));
        break;
    }
    if (l.dynamic) continue;  // computed at run time, not stored
    total += bits_to_bytes(entries, l.dtype.bits() + (l.zero ? l.zero->bits() : 0));
  }
  return total;
}

namespace {

// The request's options checked against the model: every length positive, the positions, the
// parallelism and the link. Returns the tokens of the whole sequence (prompt + generated).
std::int64_t check_request(const ModelConfig& model, const RequestOptions& o) {
  require_positive(o.prompt, "prompt", "prompt length");
  require_positive(o.tokens, "tokens", "number of generated tokens");
  require_positive(o.batch, "batch", "batch size");
  require_positive(o.tp, "tp", "tensor-parallel degree");
  require_positive(o.pp, "pp", "pipeline-parallel degree");
  if (o.micro_batches < 0 || o.micro_batches > o.batch)
    throw InputError(
        error_code::kRange, "", "micro_batches",
        fmt::format("expected 1 … batch ({}) micro-batches, got {}", o.batch, o.micro_batches));
  if (o.pp > model.layers)
    throw InputError(error_code::kRange, "", "pp",
                     fmt::format("{} pipeline stages for {} layers", o.pp, model.layers));
  const std::int64_t total_len = checked_add(o.prompt, o.tokens, "", "tokens", "P + G");
  if (total_len - 1 > model.max_positions)
    throw InputError(error_code::kRange, "", "tokens",
                     fmt::format("prompt + tokens = {} exceeds the {} positions of {}", total_len,
                                 model.max_positions, model.name));
  if (o.link_gbps && !(*o.link_gbps > 0 && std::isfinite(*o.link_gbps)))
    throw InputError(error_code::kRange, "", "link_gbps",
                     fmt::format("expected a link bandwidth > 0 Gb/s, got {}", *o.link_gbps));
  if (o.link_latency_us && !(*o.link_latency_us >= 0 && std::isfinite(*o.link_latency_us)))
    throw InputError(error_code::kRange, "", "link_latency_us",
                     fmt::format("expected a latency >= 0 us, got {}", *o.link_latency_us));
  return total_len;
}

}  // namespace

RequestReport evaluate_request(const ModelConfig& model, const RequestOptions& o,
                               const CostModel& cost, const arch::Accelerator& acc,
                               const quant::QuantSpec& scheme) {
  const std::int64_t total_len = check_request(model, o);

  RequestReport r;
  RequestParallel& par = r.parallel;
  par.tp = o.tp;
  par.pp = o.pp;
  par.micro_batches =
      o.pp == 1 ? 1 : (o.micro_batches > 0 ? o.micro_batches : std::min(o.batch, o.pp));
  const std::int64_t m = par.micro_batches, stages = o.pp;
  par.bubble_fraction = static_cast<double>(stages - 1) / static_cast<double>(m + stages - 1);

  const std::optional<arch::Link>& file_link = acc.spec().serving.link;
  Ring ring;
  ring.chips = o.tp;
  bool overlap = false;
  if (o.tp > 1 || o.pp > 1) {
    if (!o.link_gbps && !file_link)
      throw InputError(error_code::kUsage, "", "link_gbps",
                       "tensor or pipeline parallelism needs a chip-to-chip link: give its "
                       "bandwidth (link_gbps) or a \"link\" in the accelerator file");
    par.link_gbps = o.link_gbps ? *o.link_gbps : file_link->gbps;
    par.link_latency_us = o.link_latency_us ? *o.link_latency_us
                          : file_link       ? file_link->latency_us
                                            : 1.0;
    overlap = file_link && file_link->overlap;
    ring.bytes_per_second = *par.link_gbps * 1e9 / 8;
    ring.latency = *par.link_latency_us * 1e-6;
  }

  RequestModel rm(model, o, cost, acc, scheme);
  const double clock = cost.clock_hz;
  const int a = rm.bits().activation;
  const std::int64_t b = ceil_div(o.batch, m);  // sequences per micro-batch
  const std::int64_t stage_layers = ceil_div(model.layers, stages);
  const LayerReduces reduces = layer_reduces(rm.chip(), stage_layers);

  // The time of one pass; accumulates op totals and collective traffic into `r`.
  auto run = [&](Phase phase, std::int64_t length) {
    PassCost c = rm.pass(phase, b, length);
    const Integer tokens_h = big(c.tokens) * big(model.hidden);
    const Integer act = bits_to_bytes(tokens_h, a);
    const Integer logits = bits_to_bytes(big(c.head_rows) * big(model.vocab), a);
    // Per micro-batch on one chip: its stage's layers (all of them without pipelining).
    const double layer_share = static_cast<double>(stage_layers) / model.layers;
    const double compute =
        stages == 1 ? c.layer_cycles + c.embed_cycles + c.head_cycles
                    : c.layer_cycles * layer_share + std::max(c.embed_cycles, c.head_cycles);
    // The Mamba-1 x_proj's row-parallel output (dt, B, C per token) is all-reduced too.
    const Integer x_proj = bits_to_bytes(big(c.tokens) * big(reduces.x_proj_width), a);
    const double coll = static_cast<double>(reduces.blocks) * ring.all_reduce_seconds(act) +
                        static_cast<double>(reduces.x_proj) * ring.all_reduce_seconds(x_proj) +
                        ring.all_reduce_seconds(act) + ring.all_gather_seconds(logits);
    const double hop = stages > 1 ? ring.latency + act.get_d() / ring.bytes_per_second : 0.0;
    const double stage = overlap ? std::max(compute / clock, coll) : compute / clock + coll;
    const double mb = static_cast<double>(m);
    const double seconds = stages == 1 ? stage : (mb + stages - 1) * (stage + hop);
    par.collective_seconds +=
        stages == 1 ? (overlap ? 0.0 : coll) : (mb + stages - 1) * ((overlap ? 0.0 : coll) + hop);
    par.layer_collective_bytes += (ring.all_reduce_sent(act) * big(reduces.blocks) +
                                   ring.all_reduce_sent(x_proj) * big(reduces.x_proj)) *
                                  big(m);
    par.embedding_collective_bytes += ring.all_reduce_sent(act) * big(m);
    par.logits_collective_bytes += ring.all_gather_sent(logits) * big(m);
    if (stages > 1) par.pipeline_bytes += act * big(m);
    for (const auto& entry : c.kinds) {
      const auto& kind = entry.first;
      const auto& t = entry.second;
      auto it =
          std::find_if(r.ops.begin(), r.ops.end(), [&](const auto& e) { return e.first == kind; });
      if (it == r.ops.end()) it = r.ops.insert(r.ops.end(), {kind, OpTotal{}});
      it->second.seconds += t.seconds / clock * mb;
      it->second.dram_bytes += t.dram_bytes * big(m);
    }
    return seconds;
  };

  {
    std::vector<std::pair<Phase, std::int64_t>> passes = {{Phase::kPrefill, o.prompt}};
    for (std::int64_t i = 1; i < o.tokens; ++i) passes.push_back({Phase::kDecode, o.prompt + i});
    rm.prefetch(passes, b);
  }
  r.ttft_seconds = run(Phase::kPrefill, o.prompt);
  r.e2e_seconds = r.ttft_seconds;
  double sum = 0;
  for (std::int64_t i = 1; i < o.tokens; ++i) {
    const std::int64_t context = o.prompt + i;
    const double s = run(Phase::kDecode, context);
    r.steps.push_back({context, s});
    sum += s;
  }
  r.e2e_seconds += sum;
  if (!r.steps.empty()) r.tpot_seconds = sum / static_cast<double>(r.steps.size());
  r.tokens_per_second =
      static_cast<double>(o.batch) * static_cast<double>(o.tokens) / r.e2e_seconds;

  r.memory =
      request_memory(model, rm.chip(), o, scheme, a, total_len, acc.spec().serving.capacity_bytes);
  return r;
}

}  // namespace tenet::llm
