// The fused-kernel model: footprint and placement of the intermediates, bytes per tensor, the
// vector unit's work, the time of a blocking and the blocking search (fused/model.hpp; the rules:
// docs/model.md#fused-kernels).
#include "fused/model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "fused/materialised.hpp"
#include "hw/model.hpp"
#include "hw/vector_unit.hpp"
#include "llm/op_counts.hpp"
#include "tenet/error.hpp"

namespace tenet::fused {
std::int64_t bytes_of(std::int64_t elements, int bits) {
  const std::int64_t b = elements * bits;
  return b / 8 + (b % 8 != 0);
}

namespace {

constexpr std::int64_t kAccumulatorBytes = 4;  // fp32: S, the O / Y accumulators, row statistics

// The DRAM link's cycles for `bytes` (plus one latency when it moves any); 0 when unlimited.
double link_cycles(const arch::Accelerator& acc, std::int64_t bytes) {
  const arch::Dram& dram = acc.spec().dram;
  if (bytes <= 0 || dram.bandwidth.unlimited) return 0;
  return static_cast<double>(bytes) / dram.bandwidth.bytes_per_cycle +
         static_cast<double>(dram.latency_cycles);
}

// The evaluated tiles of one blocking, looked up once per (stage, shape).
class Tiles {
 public:
  explicit Tiles(const TileEvaluator& eval) : eval_(eval) {}
  const TileEvaluation& operator()(const std::string& stage, const TileShape& t) {
    auto key = std::make_pair(stage, t);
    auto it = memo_.find(key);
    if (it == memo_.end()) it = memo_.emplace(key, eval_(stage, t)).first;
    return it->second;
  }

 private:
  const TileEvaluator& eval_;
  std::map<std::pair<std::string, TileShape>, TileEvaluation> memo_;
};

std::int64_t operand_bytes(const TileEvaluation& e, char operand) {
  return operand == 'A' ? e.a_bytes : operand == 'B' ? e.b_bytes : e.c_bytes;
}

// On-chip bytes of a blocking: the block's inputs (Q or X), the double-buffered streamed operands
// (K and V blocks; weight tiles of one fold, R x C), the fp32 accumulators and,
// unless spilled, the intermediates of one block (S in fp32 and P; H1 and A).
struct Footprint {
  std::int64_t kept = 0, intermediates = 0;
  std::int64_t first_in = 0, last_out = 0;  // the first block's input bytes, the last's output
};

Footprint attention_footprint(const AttentionKernel& a, const Blocking& b, Tiles& tiles) {
  const std::int64_t m = a.group() * std::min(b.rows, a.q), keys = std::min(b.cols, a.kv);
  const TileEvaluation& qk = tiles("qk", {m, keys, a.d});
  const TileEvaluation& pv = tiles("pv", {m, a.d, keys});
  Footprint f;
  f.kept = qk.a_bytes + 2 * (qk.b_bytes + pv.b_bytes) + m * a.d * kAccumulatorBytes +
           2 * m * kAccumulatorBytes;
  f.intermediates = m * keys * kAccumulatorBytes + pv.a_bytes;
  f.first_in = qk.a_bytes + qk.b_bytes + pv.b_bytes;
  f.last_out = pv.c_bytes;
  return f;
}

Footprint ffn_footprint(const FfnKernel& k, const Blocking& b, const arch::Accelerator& acc,
                        int act_bits, Tiles& tiles) {
  const std::int64_t rows = std::min(b.rows, k.s), w1 = k.w1_cols();
  const TileEvaluation& up = tiles("up", {rows, w1, k.h});
  const TileEvaluation& down = tiles("down", {rows, k.h, k.i});
  // The weights stream through a double-buffered tile of one fold, R x C elements (the PEs hold
  // the partial sums while the reduction streams): its bytes at the tile's bytes per element.
  const std::int64_t fold = acc.rows() * acc.cols();
  auto strip = [&](std::int64_t bytes, std::int64_t elements) {
    const std::int64_t e = std::min(fold, elements);
    return (bytes * e + elements - 1) / elements;
  };
  // Resident weights (Blocking::resident): W1, W2 and the biases held whole instead.
  const std::int64_t strips =
      b.resident ? up.b_bytes + down.b_bytes + (k.bias ? bytes_of(w1 + k.h, act_bits) : 0)
                 : 2 * std::max(strip(up.b_bytes, k.h * w1), strip(down.b_bytes, k.i * k.h));
  // The array makes its outputs a strip of C columns at a time (H1: C columns of gate and C of up
  // for a gated MLP, which the vector unit turns into C columns of A; Y: C columns, accumulated in
  // fp32 over I and written): one strip of each is held; A is held whole, the down projection
  // reads all of it for every strip of Y.
  const std::int64_t cols = acc.cols(), h1_cols = std::min(w1, k.w1_cols() / k.i * cols);
  Footprint f;
  f.kept = up.a_bytes + rows * std::min(k.h, cols) * kAccumulatorBytes + strips;
  f.intermediates = (up.c_bytes * h1_cols + w1 - 1) / w1 + down.a_bytes;
  f.first_in = up.a_bytes + strip(up.b_bytes, k.h * w1);
  f.last_out = down.c_bytes;
  return f;
}

// A stage's tiles issue back to back and their folds are dealt over the chip's units: the stage
// takes the tiles' one-unit cycles spread over the units, and no less than its longest tile on
// the chip (a tile's folds cannot be split finer). One unit: the sum of the tiles' cycles.
//
// Back to back (arch::AttentionKernelSpec::back_to_back): the stage's folds follow one another
// through the array without draining it: the pipeline's fill and drain (R + C - 2) once per stage,
// then each fold its stream (or its held operand's load, when longer), the folds dealt over the
// units; never below the array-side SRAM port's time for the stage's bytes.
double back_to_back_cycles(const StageResult& r, const std::vector<TileEvaluation>& evals,
                           const arch::Accelerator& acc) {
  const long long units = acc.spec().chip.matrix_units;
  double folds = 0;
  for (std::size_t i = 0; i < evals.size(); ++i)
    folds += static_cast<double>(r.tiles[i].count) *
             (evals[i].folds_cycles > 0 ? static_cast<double>(evals[i].folds_cycles)
                                        : static_cast<double>(evals[i].folds) *
                                              static_cast<double>(evals[i].fold_cycles));
  double cycles = static_cast<double>(acc.rows() + acc.cols() - 2) +
                  std::ceil(folds / static_cast<double>(units));
  const arch::Bandwidth& port = acc.spec().global_buffer.bandwidth;
  if (!port.unlimited && port.bytes_per_cycle > 0)
    cycles = std::max(cycles, static_cast<double>(r.sram_bytes) / port.bytes_per_cycle);
  return cycles;
}

StageResult matrix_stage(const StageCount& s, Tiles& tiles, const arch::Accelerator& acc,
                         bool back_to_back) {
  const long long units = acc.spec().chip.matrix_units;
  std::vector<TileEvaluation> evals;
  StageResult r;
  r.name = s.name, r.unit = "matrix", r.macs = s.macs();
  double one_unit = 0, longest = 0;
  for (const auto& [shape, count] : s.tiles) {
    const TileEvaluation& e = tiles(s.name, shape);
    r.cycles += static_cast<double>(count) * static_cast<double>(e.cycles);
    const double unit_cycles = e.unit_cycles > 0 ? static_cast<double>(e.unit_cycles)
                                                 : static_cast<double>(e.cycles * units);
    one_unit += static_cast<double>(count) * unit_cycles;
    longest = std::max(longest, static_cast<double>(e.cycles));
    r.sram_bytes += count * e.sram_bytes;
    r.tiles.push_back({shape, count, e.cycles, e.bound, e.energy_pj, e.compute_floor_cycles});
    evals.push_back(e);
  }
  if (back_to_back) return r.cycles = back_to_back_cycles(r, evals, acc), r;
  if (units > 1)
    r.cycles =
        std::min(r.cycles, std::max(std::ceil(one_unit / static_cast<double>(units)), longest));
  return r;
}

// The bound of the array's stages: the tile bound with the most cycles.
std::string matrix_bound(const std::vector<StageResult>& stages) {
  std::string bound = "compute";
  double most = -1;
  for (const StageResult& s : stages)
    for (const TileCost& t : s.tiles)
      if (double c = static_cast<double>(t.count) * static_cast<double>(t.cycles); c > most)
        most = c, bound = t.bound;
  return bound;
}

// The kernel's fixed costs beside its units' and the link's work, in cycles: {on the compute
// side, after everything}.
std::pair<double, double> fixed_costs(const Blocking& b, const ChainCounts& c,
                                      const arch::Accelerator& acc,
                                      const arch::AttentionKernelSpec& spec) {
  // The chip's attention kernel's fixed costs (arch::AttentionKernelSpec): per (KV head, query
  // block) step and per computed query row and query head on the compute side (the scalar core
  // issues them between the blocks' work while the DMA engine streams K and V), per call after
  // everything; the K/V pipeline's ramp, each query block's first ramp_keys keys, after too.
  double compute_side = 0, after = 0;
  if (spec.active()) {
    const double ns_cycles = acc.spec().clock_mhz / 1000;
    compute_side = ns_cycles * (spec.block_ns * static_cast<double>(c.blocks) +
                                spec.row_ns * static_cast<double>(c.rows));
    double ramp_keys = 0;
    for (std::int64_t keys : c.block_keys)
      ramp_keys += static_cast<double>(std::min<std::int64_t>(keys, spec.ramp_keys));
    after = ns_cycles * (spec.call_ns + spec.ramp_ns_per_key * ramp_keys);
  }
  // A resident MLP's fixed cost of each token block after the first (arch::Chip::mlp_block_ns;
  // the first block's is in the launch), on the units' side.
  if (b.resident && acc.spec().chip.mlp_block_ns > 0) {
    compute_side = acc.spec().chip.mlp_block_ns * acc.spec().clock_mhz / 1000 *
                   static_cast<double>(c.blocks - 1);
  }
  return {compute_side, after};
}

// The kernel's bound: the matrix stages' bound, the vector unit, the link or the heads' least time,
// whichever takes longest; `compute_bound`: the array and the vector unit, taking turns, outlast
// the link (serial_softmax).
std::string kernel_bound(const KernelResult& r, bool compute_bound) {
  if (r.head_cycles > std::max({r.matrix_cycles, r.vector_cycles, r.dram_cycles})) return "heads";
  if (compute_bound)
    return r.matrix_cycles >= r.vector_cycles ? matrix_bound(r.stages) : std::string("vector");
  if (r.matrix_cycles >= r.vector_cycles && r.matrix_cycles >= r.dram_cycles)
    return matrix_bound(r.stages);
  return r.vector_cycles >= r.dram_cycles ? "vector" : "dram";
}

// Bytes of every input once and every output once (the least traffic of any schedule that keeps
// nothing between calls): Q, K, V (the keys some query sees), O (one pass over the keys) or X,
// W1, W2, Y, biases.
std::int64_t compulsory_bytes(const Kernel& k, const Blocking& b, const ChainCounts& c,
                              const std::vector<TensorResult>& tensors, Tiles& tiles) {
  std::int64_t total = 0;
  auto bytes = [&](const std::string& name) {
    for (const TensorResult& t : tensors)
      if (t.name == name) return t.dram_bytes;
    return std::int64_t{0};
  };
  if (const auto* a = std::get_if<AttentionKernel>(&k)) {
    // The keys some query sees: all, or with a window from the first query's first key on.
    const std::int64_t seen =
        a->causal && a->window > 0 ? std::max<std::int64_t>(0, a->kv - a->q - a->window + 1) : 0;
    const std::int64_t m = a->group() * std::min(b.rows, a->q);
    for (std::int64_t key = seen; key < a->kv; key += b.cols) {
      const std::int64_t n = std::min(b.cols, a->kv - key);
      total += a->hkv * (tiles("qk", {m, n, a->d}).b_bytes + tiles("pv", {m, a->d, n}).b_bytes);
    }
    return total + bytes("Q") + bytes("O");
  }
  const std::int64_t reads = b.resident ? 1 : c.blocks;  // weight reads: resident, once
  for (const char* w : {"W1", "W2", "b1", "b2"}) total += bytes(w) / reads;
  return total + bytes("X") + bytes("Y");
}

// A dense MLP on a chip whose input reads only partly overlap the matrix units' work
// (arch::Dram::read_overlap_fraction, as hw::detail::overlapped_cycles for one matmul): the
// cycles the matrix units wait for the rest of the reads (the inputs, and the spilled
// intermediates' read half), up to the units' own cycles. 0 at the default (full overlap).
// `weights_waited`: the weights' reads are waited for whole before the matmuls start
// (ffn_weight_waits), not under the units: only the other reads count.
double ffn_serial_reads(const arch::Accelerator& acc, const KernelResult& r, bool weights_waited) {
  const double fraction = acc.spec().dram.read_overlap_fraction;
  if (fraction >= 1) return 0;
  std::int64_t reads = 0;
  for (const TensorResult& t : r.tensors) {
    if (weights_waited && t.kind == "input" && t.name != "X") continue;
    reads += t.kind == "input" ? t.dram_bytes : t.kind == "intermediate" ? t.dram_bytes / 2 : 0;
  }
  return std::min(r.matrix_cycles, (1 - fraction) * link_cycles(acc, reads));
}

// The busy cycles of an MLP compiled as one program with resident weights (Blocking::resident): a
// token block's chain is serial — the up matmul, the activation on its output, the down matmul on
// the activation — and the blocks pipeline over the matrix units and the vector unit, so the unit
// that is not the bottleneck adds its share of one block: the activation of the first block before
// its down matmul (the matrix units' side), or the first block's up and the last block's down
// matmuls (the vector unit's side). One block: the three in series. `matrix`: the matrix units'
// cycles (with the serialised reads).
double ffn_block_pipeline(const FfnKernel& f, const Blocking& b, const KernelResult& r,
                          double matrix, Tiles& tiles) {
  const std::int64_t rows = std::min(b.rows, f.s);
  const double up = static_cast<double>(tiles("up", {rows, f.w1_cols(), f.h}).cycles);
  const double down = static_cast<double>(tiles("down", {rows, f.h, f.i}).cycles);
  const double activation = r.vector_cycles * static_cast<double>(rows) / static_cast<double>(f.s);
  return std::max(matrix + activation, r.vector_cycles + up + down);
}

// A resident MLP whose weights each arrive as one transfer (arch::Chip::mlp_weights_whole): the
// up matmuls start when X's first block and W1 (with b1) have arrived (`first_in`, returned as
// the exposed start), the down matmuls when W2 (with b2) has too, one transfer after the other on
// the link. The units' busy time from the start is the blocks' pipeline (`pipeline`) and no less
// than the wait for W2 plus every down matmul and the up matmuls not done by then.
struct WeightWaits {
  double first_in = 0, busy = 0;
};
WeightWaits ffn_weight_waits(const arch::Accelerator& acc, const FfnKernel& f, const Blocking& b,
                             const KernelResult& r, double pipeline, Tiles& tiles) {
  const std::int64_t rows = std::min(b.rows, f.s);
  std::int64_t w1 = 0, w2 = 0;
  for (const TensorResult& t : r.tensors) {
    if (t.name == "W1" || t.name == "b1") w1 += t.dram_bytes;
    if (t.name == "W2" || t.name == "b2") w2 += t.dram_bytes;
  }
  const std::int64_t x = tiles("up", {rows, f.w1_cols(), f.h}).a_bytes;
  const double start = link_cycles(acc, x + w1), w2_wait = link_cycles(acc, x + w1 + w2) - start;
  const double up = r.stages[0].cycles, down = r.stages[1].cycles;
  return {start, std::max(pipeline, w2_wait + down + std::max(0.0, up - w2_wait))};
}

}  // namespace

VectorWork vector_work(const Kernel& k, const VectorCount& v, bool rows_whole, int act_bits,
                       std::int64_t score_ops) {
  using namespace ::tenet::llm::detail;
  const std::int64_t a = bytes_of(1, act_bits);
  if (std::holds_alternative<AttentionKernel>(k)) {
    if (rows_whole) return {kSoftmaxOps * v.elements, 0, 2 * a * v.elements};
    // Online softmax: per score mask/max, subtract, exp, sum, scale (or the chip kernel's own
    // count); per row and key block the new maximum, the correction factor and the running sum; O
    // divided by the sum once; O rescaled after each key block (a multiply by the row's
    // correction factor: elementwise).
    const std::int64_t per_score = score_ops > 0 ? score_ops : kSoftmaxOps;
    return {
        per_score * v.elements + 3 * v.row_steps + v.normalized, v.rescaled,
        (kAccumulatorBytes + a) * v.elements + 2 * kAccumulatorBytes * (v.rescaled + v.normalized)};
  }
  const bool gated = std::get<FfnKernel>(k).activation == Activation::kSiluGated;
  const std::int64_t per = gated ? kSiluGateOps : kGeluOps;
  return {per * v.elements + v.bias_adds, 0,
          (gated ? 3 : 2) * a * v.elements + 2 * a * v.bias_adds};
}

const arch::AttentionKernelSpec& chip_attention_kernel(const Kernel& k,
                                                       const arch::Accelerator& acc) {
  static const arch::AttentionKernelSpec none;
  const auto* a = std::get_if<AttentionKernel>(&k);
  return a && a->causal ? acc.spec().chip.attention : none;
}

bool back_to_back(const Kernel& k, const arch::Accelerator& acc) {
  const auto* a = std::get_if<AttentionKernel>(&k);
  return chip_attention_kernel(k, acc).back_to_back ||
         (a && a->scores == ScoresPlace::kMaterialised);
}

std::vector<Blocking> candidate_blockings(const Kernel& k, bool small) {
  std::vector<Blocking> out;
  auto add = [&](Blocking b) {
    if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
  };
  using List = std::vector<std::int64_t>;
  if (const auto* a = std::get_if<AttentionKernel>(&k)) {
    const List rows_list = small ? List{1, 2, 4, 8} : List{16, 32, 64, 128, 256};
    if (a->scores == ScoresPlace::kMaterialised) {  // whole rows of S; all queries first
      if (!small) add({a->q, a->kv});
      for (std::int64_t rows : rows_list) add({std::min(rows, a->q), a->kv});
      return out;
    }
    const List cols_list = small ? List{16, 32} : List{64, 128, 256, 512};
    for (std::int64_t rows : rows_list)
      for (std::int64_t cols : cols_list) add({std::min(rows, a->q), std::min(cols, a->kv)});
    return out;
  }
  const FfnKernel& f = std::get<FfnKernel>(k);
  const List rows_list = small ? List{1, 2, 4, 8} : List{16, 32, 64, 128, 256, 512, 1024};
  for (std::int64_t rows : rows_list) add({std::min(rows, f.s), 0});
  return out;
}

KernelResult evaluate_blocking(const Kernel& k, const Blocking& b, const ModelInputs& in) {
  const arch::Accelerator& acc = in.accelerator;
  Tiles tiles(in.tiles);
  const auto* attention = std::get_if<AttentionKernel>(&k);
  Footprint f = attention
                    ? attention_footprint(*attention, b, tiles)
                    : ffn_footprint(std::get<FfnKernel>(k), b, acc, in.activation_bits, tiles);
  // Materialised scores: S and P of every head whole, rows padded to the buffer's row.
  const bool materialised = attention && attention->scores == ScoresPlace::kMaterialised;
  if (materialised)
    f.intermediates = materialised_scores_bytes(*attention, acc, in.activation_bits);
  KernelResult r;
  r.kernel = k, r.blocking = b;
  r.capacity_bytes = arch::buffer_total(acc.spec().global_buffer);
  const bool forced = attention && attention->scores == ScoresPlace::kDram;
  r.spilled = forced || f.kept + f.intermediates > r.capacity_bytes;
  r.placement = forced ? "dram" : r.spilled ? "spilled" : "on_chip";
  r.footprint_bytes = r.spilled ? f.kept : f.kept + f.intermediates;
  const ChainCounts c = count_chain(k, b, r.spilled);
  r.macs = c.macs();

  for (const StageCount& s : c.stages)
    r.stages.push_back(matrix_stage(s, tiles, acc, back_to_back(k, acc)));
  for (const StageResult& s : r.stages) r.matrix_cycles += s.cycles, r.sram_bytes += s.sram_bytes;
  std::map<std::string, std::int64_t> kernel_bytes;  // --scores dram: bytes of each kernel
  for (const TensorCount& t : c.tensors) {
    TensorResult x{t.name, t.kind, t.elements(), bytes_of(t.plain_elements, in.activation_bits)};
    for (const auto& [shape, n] : t.transfers) {
      std::int64_t bytes = operand_bytes(tiles(t.stage, shape), t.operand);
      if (materialised && t.kind == "intermediate")  // S: m x n, P: m x k; rows of keys, padded
        bytes = padded_row_bytes(acc, bytes, t.name == "S" ? shape[1] : shape[2]);
      x.dram_bytes += n * bytes;
    }
    r.dram_bytes += x.dram_bytes;
    if (t.kind == "intermediate") {  // half written by its producer, half read by its consumer
      kernel_bytes[t.name == "S" ? "qk" : "pv"] += x.dram_bytes / 2;
      kernel_bytes["softmax"] += x.dram_bytes / 2;
    } else {
      kernel_bytes[t.stage] += x.dram_bytes;
    }
    r.tensors.push_back(x);
  }
  for (const IntermediateCount& i : c.intermediates)
    r.intermediates.push_back({i.name, i.produced, i.on_chip, i.spilled});

  const arch::AttentionKernelSpec& spec = chip_attention_kernel(k, acc);
  const VectorWork w = vector_work(k, c.vector, forced || materialised, in.activation_bits,
                                   spec.softmax_ops_per_score);
  const arch::VectorUnit unit = hw::vector_unit_of(acc);
  const hw::VectorCycles v = hw::vector_op_cycles(acc, unit, w.by_kind(c.vector.kind), w.sram_bytes,
                                                  forced ? kernel_bytes["softmax"] : 0);
  StageResult vs;
  vs.name = c.vector.kind, vs.unit = "vector", vs.ops = w.ops + w.elementwise, vs.cycles = v.cycles;
  vs.sram_bytes = w.sram_bytes;
  r.stages.push_back(vs);
  r.vector_cycles = v.cycles;
  r.sram_bytes += w.sram_bytes;

  // The link moves everything; the array and the vector unit overlap each other and the link
  // block by block, but cannot start before the first block is on chip nor end before the last
  // output block is written (docs/model.md#fused-kernels).
  r.dram_cycles = link_cycles(acc, r.dram_bytes);
  const double first_in = link_cycles(acc, f.first_in), last_out = link_cycles(acc, f.last_out);
  r.exposed_cycles = first_in + last_out;
  // serial_softmax: the array and the vector unit take turns on each block (their cycles add).
  // An MLP's matrix units also wait for the reads that cannot overlap them (ffn_serial_reads).
  // An MLP with resident weights: its blocks' chains pipelined (ffn_block_pipeline), and the last
  // output block written after the last input block has arrived, its latency exposed beyond the
  // link's busy time.
  const bool serial = spec.serial_softmax;
  const bool whole = b.resident && acc.spec().chip.mlp_weights_whole;
  const double matrix = r.matrix_cycles + (attention ? 0 : ffn_serial_reads(acc, r, whole));
  double busy = serial ? matrix + r.vector_cycles : std::max(matrix, r.vector_cycles);
  // Materialised scores on a chip with a least time per head (arch::MaterialisedAttentionSpec::
  // head_ns): one loop iteration per query head and query block, pipelined with the units.
  if (materialised) {
    r.head_cycles = acc.spec().chip.materialised.head_ns * acc.spec().clock_mhz / 1000 *
                    static_cast<double>(attention->hq) *
                    static_cast<double>((attention->q + b.rows - 1) / b.rows);
    busy = std::max(busy, r.head_cycles);
  }
  double link = r.dram_cycles;
  if (b.resident) {
    busy = ffn_block_pipeline(std::get<FfnKernel>(k), b, r, matrix, tiles);
    if (whole) {  // the weights waited for whole: the start after X's first block and W1
      const WeightWaits w = ffn_weight_waits(acc, std::get<FfnKernel>(k), b, r, busy, tiles);
      busy = w.busy, r.exposed_cycles = w.first_in + last_out;
    }
    if (r.dram_cycles > 0) link += static_cast<double>(acc.spec().dram.latency_cycles);
  }
  const auto [compute_side, after] = fixed_costs(b, c, acc, spec);
  r.overhead_cycles = compute_side + after;
  double time = std::max(link, busy + r.exposed_cycles + compute_side) + after;
  if (forced) {  // three kernels one after another, each bound by its own links
    const double qk = std::max(r.stages[0].cycles + first_in, link_cycles(acc, kernel_bytes["qk"]));
    const double pv = std::max(r.stages[1].cycles + last_out, link_cycles(acc, kernel_bytes["pv"]));
    time = std::max(time, qk + r.vector_cycles + pv);
  }
  // One call: the accelerator's fixed cost once (the tiles were costed without it).
  r.launch_cycles = static_cast<double>(hw::detail::launch_cycles(acc.spec()));
  time += r.launch_cycles;
  r.cycles = static_cast<std::int64_t>(std::ceil(time));
  r.clock_hz = acc.spec().clock_mhz * 1e6;
  r.seconds = static_cast<double>(r.cycles) / r.clock_hz;
  r.bound = kernel_bound(r, serial && busy + compute_side >= r.dram_cycles);
  r.compulsory_dram_bytes = compulsory_bytes(k, b, c, r.tensors, tiles);
  return r;
}

namespace {

// A floor of a blocking's cycles that needs no tile: its vector unit's busy cycles (every
// kernel time is at least those).
double vector_floor(const Kernel& k, const Blocking& b, const ModelInputs& in) {
  const auto* attention = std::get_if<AttentionKernel>(&k);
  const bool whole_rows = attention && (attention->scores == ScoresPlace::kDram ||
                                        attention->scores == ScoresPlace::kMaterialised);
  const ChainCounts c = count_chain(k, b, false);
  const VectorWork w = vector_work(k, c.vector, whole_rows, in.activation_bits,
                                   chip_attention_kernel(k, in.accelerator).softmax_ops_per_score);
  return hw::vector_op_cycles(in.accelerator, hw::vector_unit_of(in.accelerator),
                              w.by_kind(c.vector.kind), w.sram_bytes, 0)
      .cycles;
}

// The candidates that fit, each with its index, evaluated in increasing order of their floor; one
// whose floor is beyond 2 % of the fastest time found cannot come within 2 % of the fastest (C*)
// and is not evaluated.
struct Evaluated {
  std::vector<std::pair<std::size_t, KernelResult>> fitting;
  std::int64_t fastest = -1, evaluated = 0;
  std::int64_t smallest = -1;  // the least footprint of a candidate that does not fit
};

Evaluated evaluate_candidates(const Kernel& k, const std::vector<Blocking>& candidates,
                              const ModelInputs& in) {
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    order.emplace_back(vector_floor(k, candidates[i], in), i);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  Evaluated e;
  for (const auto& [floor, i] : order) {
    if (e.fastest >= 0 && floor * 100 > static_cast<double>(e.fastest) * 102) continue;
    KernelResult r = evaluate_blocking(k, candidates[i], in);
    ++e.evaluated;
    if (r.footprint_bytes <= r.capacity_bytes) {
      if (e.fastest < 0 || r.cycles < e.fastest) e.fastest = r.cycles;
      e.fitting.emplace_back(i, std::move(r));
    } else if (e.smallest < 0 || r.footprint_bytes < e.smallest) {
      e.smallest = r.footprint_bytes;
    }
  }
  return e;
}

}  // namespace

KernelResult search_blocking(const Kernel& k, const ModelInputs& in) {
  validate(k);
  std::vector<Blocking> candidates =
      in.candidates.empty() ? candidate_blockings(k, false) : in.candidates;
  // The chip's attention kernel has its own query block (arch::AttentionKernelSpec::query_block):
  // the search chooses the key block only.
  const long long query_block = chip_attention_kernel(k, in.accelerator).query_block;
  const auto* attention = std::get_if<AttentionKernel>(&k);
  const bool fixed_rows = attention && query_block > 0 && in.candidates.empty();
  if (fixed_rows) {
    std::vector<Blocking> fixed;
    for (Blocking b : candidates) {
      b.rows = std::min<std::int64_t>(query_block, attention->q), b.padded = true;
      if (std::find(fixed.begin(), fixed.end(), b) == fixed.end()) fixed.push_back(b);
    }
    candidates = std::move(fixed);
  }
  // A chip whose compiler keeps an MLP's weights on chip (arch::Chip::mlp_resident_bytes; an MLP
  // whose weights exceed it runs as its matmuls, eval/ffn_sequence.hpp): they are read once, when
  // they fit the global buffer beside a block; else they stream once per token block.
  const bool resident = !attention && in.accelerator.spec().chip.mlp_resident_bytes >= 0;
  auto weights = [&](std::vector<Blocking> list, bool kept) {
    for (Blocking& b : list) b.resident = kept;
    return list;
  };
  auto search = [&](const std::vector<Blocking>& list) {
    Evaluated e = evaluate_candidates(k, weights(list, resident), in);
    if (resident && e.fitting.empty()) e = evaluate_candidates(k, weights(list, false), in);
    return e;
  };
  Evaluated e = search(candidates);
  if (e.fitting.empty() && in.candidates.empty() && !fixed_rows) {  // smaller blocks
    const std::int64_t smallest = e.smallest;
    candidates = candidate_blockings(k, true);
    e = search(candidates);
    if (e.smallest < 0 || smallest < e.smallest) e.smallest = smallest;
  }
  auto& fitting = e.fitting;
  const std::int64_t fastest = e.fastest, smallest = e.smallest, evaluated = e.evaluated;
  // The latency objective of the tiling search (docs/hardware.md): the fastest C*; among the
  // candidates within 2 % of it, the fewest DRAM bytes, then the fewest cycles, then the first.
  std::sort(fitting.begin(), fitting.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::optional<KernelResult> best;
  for (auto& [i, r] : fitting) {
    if (static_cast<__int128>(r.cycles) * 100 > static_cast<__int128>(fastest) * 102) continue;
    if (!best || r.dram_bytes < best->dram_bytes ||
        (r.dram_bytes == best->dram_bytes && r.cycles < best->cycles))
      best = std::move(r);
  }
  if (!best)
    throw InputError(error_code::kRange, "", kind_name(k),
                     "no blocking of the kernel fits the global buffer of \"" +
                         in.accelerator.name() + "\" (" +
                         std::to_string(arch::buffer_total(in.accelerator.spec().global_buffer)) +
                         " bytes), even with its intermediates spilled: the smallest needs " +
                         std::to_string(smallest) + " bytes");
  best->candidates = static_cast<std::int64_t>(candidates.size());
  best->evaluated = evaluated;
  return *best;
}

}  // namespace tenet::fused
