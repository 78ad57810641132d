// Block-by-block counts of a fused kernel (fused/counts.hpp). The rules (docs/model.md#fused-
// kernels): attention walks KV heads, then query blocks, then the key blocks a query block sees
// (causal: up to the last key its last query sees; with a window, from the first key its first
// query sees); the Q block and the O accumulator stay on
// chip over the key blocks, K and V blocks are read once per query block for the whole group.
// The MLP walks token blocks; W1 and W2 stream once per token block, or are read once (resident).
#include "fused/counts.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "tenet/error.hpp"

namespace tenet::fused {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0); }

std::int64_t operand_elements(char operand, const TileShape& t) {
  const auto [m, n, k] = t;
  return operand == 'A' ? m * k : operand == 'B' ? k * n : m * n;
}

TensorCount tensor(const char* name, const char* kind, const char* stage, char operand) {
  TensorCount t;
  t.name = name, t.kind = kind, t.stage = stage, t.operand = operand;
  return t;
}

void check_blocking(const Blocking& b, bool attention) {
  if (b.rows < 1 || (attention && b.cols < 1))
    throw InputError(
        error_code::kRange, "", "blockings",
        "expected block sizes >= 1, got " + std::to_string(b.rows) + "x" + std::to_string(b.cols));
}

// The first key query block `qb` needs: 0, or with a window the first key its first query sees
// (KV - Q + its index - W + 1).
std::int64_t first_key(const AttentionKernel& a, const Blocking& b, std::int64_t qb) {
  if (!a.causal || a.window == 0) return 0;
  return std::max<std::int64_t>(0, a.kv - a.q + qb * b.rows - a.window + 1);
}

// The key blocks query block `qb` (with `rq` queries) computes, [first, end): all of them, or
// under a causal mask those up to the last key its last query sees (KV - Q + its index) and,
// with a window, from the block of the first key it needs.
std::pair<std::int64_t, std::int64_t> key_blocks(const AttentionKernel& a, const Blocking& b,
                                                 std::int64_t qb, std::int64_t rq) {
  const std::int64_t all = ceil_div(a.kv, b.cols);
  if (!a.causal) return {0, all};
  const std::int64_t end = std::min(all, (a.kv - a.q + qb * b.rows + rq - 1) / b.cols + 1);
  return {first_key(a, b, qb) / b.cols, end};
}

// Counts by tile shape summed over a walk: a short list first (a walk meets a handful of shapes:
// the first, whole and last key blocks of a query block; the last query block's), a map beyond
// it; put into a map at the end. The same sums as adding to the map block by block, without a map
// lookup per block.
class ShapeSums {
 public:
  void add(const TileShape& t, std::int64_t n) {
    for (auto& [shape, sum] : list_)
      if (shape[0] == t[0] && shape[1] == t[1] && shape[2] == t[2]) {
        sum += n;
        return;
      }
    if (list_.size() < kListed)
      list_.emplace_back(t, n);
    else
      rest_[t] += n;
  }
  // Adds `times` x each sum to `m`.
  void into(std::map<TileShape, std::int64_t>& m, std::int64_t times = 1) const {
    for (const auto& [shape, sum] : list_) m[shape] += times * sum;
    for (const auto& [shape, sum] : rest_) m[shape] += times * sum;
  }

 private:
  static constexpr std::size_t kListed = 8;
  std::vector<std::pair<TileShape, std::int64_t>> list_;
  std::map<TileShape, std::int64_t> rest_;
};

ChainCounts count_attention(const AttentionKernel& a, const Blocking& b, bool spill) {
  check_blocking(b, true);
  const std::int64_t g = a.group(), d = a.d;
  ChainCounts c;
  StageCount qk{"qk", {}}, pv{"pv", {}};
  TensorCount Q = tensor("Q", "input", "qk", 'A'), K = tensor("K", "input", "qk", 'B');
  TensorCount V = tensor("V", "input", "pv", 'B'), O = tensor("O", "output", "pv", 'C');
  TensorCount S = tensor("S", "intermediate", "qk", 'C'),
              P = tensor("P", "intermediate", "pv", 'A');
  IntermediateCount s_count{"S", 0, 0, 0}, p_count{"P", 0, 0, 0};
  VectorCount& v = c.vector;
  v.kind = "softmax";
  const std::int64_t full_kv = std::min(b.cols, a.kv);
  // Tiles of Q·Kᵀ (their P·V tiles have the same rows and keys; K, V, S and P move by them), and
  // the Q and O transfers, by shape over the walk.
  ShapeSums qk_tiles, q_moves, o_moves;
  std::int64_t scores = 0, row_steps = 0, rescaled = 0, normalized = 0;  // summed in registers
  for (std::int64_t qb = 0; qb * b.rows < a.q; ++qb) {
    // m: the rows the array computes (a padded block: all b.rows queries); mq: the real ones.
    const std::int64_t rq = std::min(b.rows, a.q - qb * b.rows), mq = g * rq;
    const std::int64_t m = b.padded ? g * b.rows : mq;
    const auto [first, end] = key_blocks(a, b, qb, rq);
    const std::int64_t blocks = end - first, from = first_key(a, b, qb);
    // The keys of key block kb the query block reads: the block's, from the first it needs on
    // (a window starts the first block there) and up to the end of the KV axis.
    auto keys_of = [&](std::int64_t kb) {
      return std::min((kb + 1) * b.cols, a.kv) - std::max(kb * b.cols, from);
    };
    const std::int64_t per_head = a.hkv;  // the same counts for every KV head
    auto add_tiles = [&](std::int64_t keys, std::int64_t n) {
      if (n == 0) return;
      const std::int64_t tiles = n * per_head;
      qk_tiles.add({m, keys, d}, tiles);
      scores += tiles * m * keys;
      row_steps += tiles * m;
    };
    add_tiles(keys_of(first), 1);  // the first block, whole blocks between, the last
    if (blocks >= 2) add_tiles(b.cols, blocks - 2), add_tiles(keys_of(end - 1), 1);
    q_moves.add({mq, full_kv, d}, per_head);  // once per query block, kept over its key blocks
    o_moves.add({mq, d, full_kv}, per_head);  // written once, after the last key block
    c.blocks += per_head;
    c.rows += per_head * m;
    c.block_keys.push_back(std::min(end * b.cols, a.kv) - std::max(first * b.cols, from));
    // Online softmax (the fused kernel's, spilled tiles or not): O rescaled after every key
    // block, divided by the row sum once.
    rescaled += per_head * blocks * m * d;
    normalized += per_head * m * d;
  }
  s_count.produced = p_count.produced = v.elements = scores;
  v.row_steps = row_steps, v.rescaled = rescaled, v.normalized = normalized;
  qk_tiles.into(qk.tiles), qk_tiles.into(K.transfers);
  for (const auto& [t, n] : qk.tiles) pv.tiles[{t[0], d, t[1]}] = n;
  V.transfers = pv.tiles;
  if (spill) {
    qk_tiles.into(S.transfers, 2);  // written by Q·Kᵀ, read by the softmax
    for (const auto& [t, n] : pv.tiles)
      P.transfers[t] = 2 * n;  // written by the softmax, read by P·V
  }
  q_moves.into(Q.transfers), o_moves.into(O.transfers);
  (spill ? s_count.spilled : s_count.on_chip) = s_count.produced;
  (spill ? p_count.spilled : p_count.on_chip) = p_count.produced;
  c.stages.push_back(std::move(qk)), c.stages.push_back(std::move(pv));
  for (TensorCount* t : {&Q, &K, &V, &O, &S, &P})
    if (spill || t->kind != "intermediate") c.tensors.push_back(std::move(*t));
  c.intermediates = {s_count, p_count};
  return c;
}

ChainCounts count_ffn(const FfnKernel& f, const Blocking& b, bool spill) {
  check_blocking(b, false);
  ChainCounts c;
  StageCount up{"up", {}}, down{"down", {}};
  TensorCount X = tensor("X", "input", "up", 'A'), W1 = tensor("W1", "input", "up", 'B');
  TensorCount W2 = tensor("W2", "input", "down", 'B'), Y = tensor("Y", "output", "down", 'C');
  TensorCount b1 = tensor("b1", "input", "", 'v'), b2 = tensor("b2", "input", "", 'v');
  TensorCount H1 = tensor("H1", "intermediate", "up", 'C');
  TensorCount A = tensor("A", "intermediate", "down", 'A');
  IntermediateCount h1{"H1", 0, 0, 0}, act{"A", 0, 0, 0};
  const std::int64_t w1 = f.w1_cols();
  c.vector.kind = "activation";
  auto add_blocks = [&](std::int64_t rows, std::int64_t n) {
    if (n == 0) return;
    const TileShape up_tile{rows, w1, f.h}, down_tile{rows, f.h, f.i};
    up.tiles[up_tile] += n, down.tiles[down_tile] += n;
    // Resident weights (and biases): read with the first block only.
    const std::int64_t reads = b.resident ? (c.blocks == 0 ? 1 : 0) : n;
    X.transfers[up_tile] += n, Y.transfers[down_tile] += n;
    if (reads > 0) W1.transfers[up_tile] += reads, W2.transfers[down_tile] += reads;
    h1.produced += n * rows * w1;
    act.produced += n * rows * f.i;
    c.vector.elements += n * rows * f.i;
    if (f.bias) {
      b1.plain_elements += reads * w1, b2.plain_elements += reads * f.h;
      c.vector.bias_adds += n * rows * (w1 + f.h);
    }
    if (spill) H1.transfers[up_tile] += 2 * n, A.transfers[down_tile] += 2 * n;
    c.blocks += n;
  };
  add_blocks(b.rows, f.s / b.rows);
  add_blocks(f.s % b.rows, f.s % b.rows ? 1 : 0);
  (spill ? h1.spilled : h1.on_chip) = h1.produced;
  (spill ? act.spilled : act.on_chip) = act.produced;
  c.stages = {up, down};
  c.tensors = {X, W1};
  if (f.bias) c.tensors.push_back(b1);
  c.tensors.push_back(W2);
  if (f.bias) c.tensors.push_back(b2);
  c.tensors.push_back(Y);
  if (spill) c.tensors.push_back(H1), c.tensors.push_back(A);
  c.intermediates = {h1, act};
  return c;
}

}  // namespace

std::int64_t StageCount::macs() const {
  std::int64_t total = 0;
  for (const auto& [t, n] : tiles) total += n * t[0] * t[1] * t[2];
  return total;
}

std::int64_t TensorCount::elements() const {
  std::int64_t total = plain_elements;
  for (const auto& [t, n] : transfers) total += n * operand_elements(operand, t);
  return total;
}

std::int64_t ChainCounts::macs() const {
  std::int64_t total = 0;
  for (const StageCount& s : stages) total += s.macs();
  return total;
}

const TensorCount& ChainCounts::tensor(const std::string& name) const {
  for (const TensorCount& t : tensors)
    if (t.name == name) return t;
  throw InternalError("fused::ChainCounts: no tensor " + name);
}

ChainCounts count_chain(const Kernel& k, const Blocking& b, bool spill) {
  if (const auto* a = std::get_if<AttentionKernel>(&k)) return count_attention(*a, b, spill);
  return count_ffn(std::get<FfnKernel>(k), b, spill);
}

}  // namespace tenet::fused
