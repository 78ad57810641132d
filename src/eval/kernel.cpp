// eval::evaluate_kernel: the fused model's search with every matmul tile costed by
// eval::evaluate (tenet/eval/kernel.hpp).
#include "tenet/eval/kernel.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "eval/ffn_sequence.hpp"
#include "fused/model.hpp"
#include "fused/relations.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/hw/evaluate.hpp"

namespace tenet::eval {
namespace {

using detail::activation_bits;
using detail::operand_bytes;

// Whether a tile may run transposed (Cᵀ = Bᵀ·Aᵀ: the other input held in the array): when no
// operand is quantized and A and B have one format, the two orientations are the same matmul.
bool transposable(const Request& r) {
  if (!r.scheme) return r.bits.a == r.bits.b;
  const quant::QuantSpec& q = *r.scheme;
  if (q.activations.quantized() || q.weights.quantized()) return false;
  if (q.kv_cache && (q.kv_cache->quantized() || q.kv_cache->dtype != q.activations.dtype))
    return false;
  return q.weights.dtype == q.activations.dtype;
}

// A tile's folds as a back-to-back stream sees them (arch::AttentionKernelSpec::back_to_back):
// how many, and each one's cycles besides the pipeline's fill and drain: its streamed cycles, or
// the load of its held operand when that is longer and hidden behind the previous fold
// (double-buffered held operands); stream + load when not double-buffered. The load shifts the
// held tile in through every row of the array, one row per cycle: R cycles, however few rows the
// tile fills (the measured TPU v6e encoder attention at D = 32 needs R;
// docs/validation.md#tpu-v6e).
std::pair<std::int64_t, std::int64_t> back_to_back_folds(const Evaluation& e,
                                                         const arch::Accelerator& acc) {
  const hw::Result& h = e.product().hw;
  const std::int64_t stream = h.array_use.stream_cycles, load = acc.rows();
  return {h.folds, acc.spec().stationary_double_buffered ? std::max(stream, load) : stream + load};
}

// Materialised attention on a chip whose held tiles load only the rows they fill
// (arch::MaterialisedAttentionSpec::load_filled_rows): Σ over the tile's folds of max(stream, the
// fold's filled rows) (stream + filled rows without double-buffered held operands) — R rows for
// each full fold of the held operand's rows, the rest for the last. 0 when the law is off.
std::int64_t filled_rows_fold_cycles(const Evaluation& e, const KernelRequest& r) {
  const arch::Accelerator& acc = *r.base.accelerator;
  const auto* a = std::get_if<fused::AttentionKernel>(&r.kernel);
  if (!a || a->scores != fused::ScoresPlace::kMaterialised ||
      !acc.spec().chip.materialised.load_filled_rows)
    return 0;
  const hw::Result& h = e.product().hw;
  const hw::ArrayUse& u = h.array_use;
  const std::int64_t rows = acc.rows(), stream = u.stream_cycles;
  const std::int64_t held = (u.row_size + u.row_lanes - 1) / std::max<long long>(1, u.row_lanes);
  const std::int64_t row_folds = std::max<std::int64_t>(1, (held + rows - 1) / rows);
  if (h.folds % row_folds != 0)
    throw InternalError("eval::evaluate_kernel: a tile's folds do not split into row folds");
  auto fold = [&](std::int64_t load) {
    return acc.spec().stationary_double_buffered ? std::max(stream, load) : stream + load;
  };
  return h.folds / row_folds * ((row_folds - 1) * fold(rows) + fold(held - (row_folds - 1) * rows));
}

// One tile request's evaluation, as the fused model reads it (the tile run in this orientation).
fused::TileEvaluation tile_evaluation(const Evaluation& e, const KernelRequest& r) {
  const arch::Accelerator& acc = *r.base.accelerator;
  const llm::LayerCost& c = e.call_cost();
  fused::TileEvaluation t;
  t.cycles = poly::to_int64(c.cycles);
  t.unit_cycles = t.cycles;
  t.bound = c.bound;
  t.a_bytes = operand_bytes(e.product(), 'A');
  t.b_bytes = operand_bytes(e.product(), 'B');
  t.c_bytes = operand_bytes(e.product(), 'C');
  t.sram_bytes = poly::to_int64(e.product().sram_bytes);
  t.energy_pj = c.energy_pj;
  if (c.bounds) t.compute_floor_cycles = poly::to_int64(c.bounds->compute_cycles);
  std::tie(t.folds, t.fold_cycles) = back_to_back_folds(e, acc);
  t.folds_cycles = filled_rows_fold_cycles(e, r);
  return t;
}

// eval::evaluate of each distinct tile request once per kernel: (stage, shape) on the chip, or on
// one of its matrix units. A tile's other orientation is often another blocking's tile of the
// same stage (Q·Kᵀ of 64 queries x 128 keys, transposed, is 128 queries x 64 keys).
class TileRuns {
 public:
  explicit TileRuns(const KernelRequest& r) : request_(r) {
    if (r.base.accelerator->spec().chip.matrix_units > 1) {  // a chip's tiles also on one unit
      arch::AcceleratorSpec spec = r.base.accelerator->spec();
      spec.chip.matrix_units = 1;
      one_unit_ = std::make_shared<const arch::Accelerator>(spec);
    }
  }
  const KernelRequest& request() const { return request_; }
  bool multi_unit() const { return one_unit_ != nullptr; }
  // `one_unit`: on the accelerator with one matrix unit (multi_unit() chips only).
  const fused::TileEvaluation& operator()(const std::string& stage, const fused::TileShape& shape,
                                          bool one_unit = false) {
    auto key = std::make_tuple(stage, shape, one_unit);
    auto it = runs_.find(key);
    if (it != runs_.end()) return it->second;
    Request t = tile_request(request_, stage, shape);
    if (one_unit) t.accelerator = one_unit_, t.accelerator_id.reset();
    const fused::TileEvaluation run = tile_evaluation(evaluate(t), request_);
    return runs_.emplace(std::move(key), run).first->second;
  }

 private:
  const KernelRequest& request_;
  std::shared_ptr<const arch::Accelerator> one_unit_;  // null on a one-unit chip
  std::map<std::tuple<std::string, fused::TileShape, bool>, fused::TileEvaluation> runs_;
};

fused::TileEvaluation evaluate_tile(TileRuns& runs, const std::string& stage,
                                    const fused::TileShape& shape) {
  const KernelRequest& r = runs.request();
  const fused::TileEvaluation& e = runs(stage, shape);
  // The kernel's compiler may hold either input in the array (a decode Q·Kᵀ holds the few
  // queries and streams the keys): the faster orientation's time, the tile's bytes either way.
  fused::TileShape run = shape;
  const fused::TileEvaluation* timed = &e;
  // Back to back (the chip's attention kernel), the orientation whose folds stream faster.
  const bool back_to_back = fused::back_to_back(r.kernel, *r.base.accelerator);
  auto stream_cost = [](const fused::TileEvaluation& v) {
    if (v.folds_cycles > 0) return static_cast<double>(v.folds_cycles);
    return static_cast<double>(v.folds) * static_cast<double>(v.fold_cycles);
  };
  if (transposable(r.base) && shape[0] != shape[1]) {
    const fused::TileEvaluation& x = runs(stage, {shape[1], shape[0], shape[2]});
    const bool faster = back_to_back ? stream_cost(x) < stream_cost(e) : x.cycles < e.cycles;
    if (faster) timed = &x, run = {shape[1], shape[0], shape[2]};
  }
  fused::TileEvaluation t = *timed;
  if (runs.multi_unit()) t.unit_cycles = runs(stage, run, true).cycles;
  t.a_bytes = e.a_bytes, t.b_bytes = e.b_bytes, t.c_bytes = e.c_bytes;
  return t;
}

// The chip's own scores place (fused::ScoresPlace::kChip) made concrete: causal attention on chip
// (the chip's attention kernel), non-causal as the accelerator's fusion.non_causal_attention says.
void resolve_scores(fused::Kernel& k, const arch::Accelerator& acc) {
  auto* a = std::get_if<fused::AttentionKernel>(&k);
  if (!a || a->scores != fused::ScoresPlace::kChip) return;
  a->scores = a->causal ? fused::ScoresPlace::kOnChip
                        : fused::parse_scores_place(acc.spec().chip.non_causal_scores);
}

}  // namespace

Request tile_request(const KernelRequest& request, const std::string& stage,
                     const std::array<std::int64_t, 3>& shape) {
  Request r = request.base;
  const bool attention = std::holds_alternative<fused::AttentionKernel>(request.kernel);
  r.matmul = llm::MatmulShape{};
  r.matmul.name = std::string(fused::kind_name(request.kernel)) + "." + stage;
  r.matmul.m = shape[0], r.matmul.n = shape[1], r.matmul.k = shape[2];
  if (attention) {
    r.matmul.b_operand = workload::OperandRole::kKvCache;
    r.matmul.layout = stage == "qk" ? llm::Layout::kNT : llm::Layout::kNN;
  }
  r.tiling = mapping::Tiling{};
  r.tiling->m = shape[0], r.tiling->n = shape[1], r.tiling->k = shape[2];
  r.hw.unlimited_dram_bandwidth = true;
  r.hw.unlimited_buffer = true;
  r.hw.edge_transfers = false;
  r.hw.kernel_launch = false;  // the kernel's one call pays it (fused::evaluate_blocking)
  r.relation_centric = false;
  return r;
}

fused::KernelResult evaluate_kernel(const KernelRequest& given) {
  if (!given.base.accelerator)
    throw InternalError("eval::evaluate_kernel: a kernel request needs an accelerator");
  if (given.base.timing != Timing::kSystolic)
    throw InputError(error_code::kUsage, "", "timing",
                     "a fused kernel is timed by the systolic model (timing tenet has no "
                     "hardware model)");
  fused::validate(given.kernel);
  KernelRequest request = given;
  resolve_scores(request.kernel, *request.base.accelerator);
  // An MLP whose weights the chip's compiler does not keep on chip: its matmuls one after another
  // (arch::Chip::mlp_resident_bytes, eval/ffn_sequence.hpp).
  if (detail::runs_as_matmuls(request)) return detail::evaluate_ffn_sequence(request);
  // One evaluation per distinct tile over the whole search, and per distinct tile request.
  std::map<std::pair<std::string, fused::TileShape>, fused::TileEvaluation> memo;
  TileRuns runs(request);
  const fused::TileEvaluator tiles = [&](const std::string& stage, const fused::TileShape& s) {
    auto key = std::make_pair(stage, s);
    auto it = memo.find(key);
    if (it == memo.end()) it = memo.emplace(key, evaluate_tile(runs, stage, s)).first;
    return it->second;
  };
  fused::ModelInputs in{*request.base.accelerator, activation_bits(request.base), tiles,
                        request.blockings};
  fused::KernelResult result = fused::search_blocking(request.kernel, in);
  if (request.relation_centric) result.relation_counts = fused::checked_relation_counts(result);
  return result;
}

fused::AttentionKernel attention_kernel(const llm::MatmulShape& row) {
  if (!row.fused_attention)
    throw InternalError("eval::attention_kernel: row " + row.name + " is not a fused attention");
  const llm::FusedAttention& f = *row.fused_attention;
  return fused::AttentionKernel{
      row.batch * f.heads,       row.batch * f.kv_heads, row.m, row.n, row.k, f.causal,
      fused::ScoresPlace::kChip, f.causal ? f.window : 0};
}

llm::LayerCost kernel_call_cost(const fused::KernelResult& r, const arch::Accelerator& acc,
                                const std::string& scheme) {
  using poly::Integer;
  auto big = [](std::int64_t v) { return Integer(static_cast<long>(v)); };
  llm::LayerCost c;
  c.cycles = big(r.cycles);
  c.bound = r.bound;
  const double lanes = static_cast<double>(acc.rows()) * static_cast<double>(acc.cols()) *
                       static_cast<double>(acc.spec().chip.matrix_units);
  c.utilization = std::min(1.0, static_cast<double>(r.macs) /
                                    (std::max<double>(1, static_cast<double>(r.cycles)) * lanes));
  c.dram_bytes = big(r.dram_bytes);
  c.sram_bytes = big(r.sram_bytes);
  std::int64_t compute_floor = 0;
  for (const fused::StageResult& s : r.stages)
    for (const fused::TileCost& t : s.tiles) {
      c.energy_pj += static_cast<double>(t.count) * t.energy_pj;
      compute_floor += t.count * t.compute_floor_cycles;
    }
  c.scheme = scheme;
  c.array_rows = acc.rows(), c.array_cols = acc.cols();
  hw::BoundsSum b;
  b.dram_bytes = b.compulsory_dram_bytes = b.schedule_independent_dram_bytes =
      big(r.compulsory_dram_bytes);
  // The link time of the compulsory bytes at the DRAM bandwidth (the fused model's link charges
  // every byte at it, and its latency on top).
  const arch::Bandwidth& bw = acc.spec().dram.bandwidth;
  if (!bw.unlimited && bw.bytes_per_cycle > 0)
    b.dram_cycles = big(static_cast<std::int64_t>(
        std::ceil(static_cast<double>(r.compulsory_dram_bytes) / bw.bytes_per_cycle - 1e-9)));
  b.compute_cycles = big(compute_floor);
  b.cycles = std::max(b.dram_cycles, b.compute_cycles);
  b.capacity_bytes = b.on_chip_bytes = r.capacity_bytes;
  c.bounds = b;
  return c;
}

llm::LayerCost evaluate_fused_row(const Request& base, const llm::MatmulShape& row) {
  KernelRequest k;
  if (row.fused_ffn)
    k.kernel = fused::FfnKernel{
        row.m, row.k, row.n,
        row.fused_ffn->gated ? fused::Activation::kSiluGated : fused::Activation::kGelu,
        row.fused_ffn->bias};
  else
    k.kernel = attention_kernel(row);
  k.base = base;
  const fused::KernelResult result = evaluate_kernel(k);
  llm::LayerCost c =
      kernel_call_cost(result, *base.accelerator, base.scheme ? base.scheme->name : std::string());
  // The precision the array runs the stages at (one tile says it for all: every stage multiplies
  // the activations' format by the KV cache's).
  for (const fused::StageResult& s : result.stages)
    if (!s.tiles.empty() && !c.precision_fallback) {
      c.precision_fallback =
          evaluate(tile_request(k, s.name, s.tiles.front().shape)).call_cost().precision_fallback;
      break;
    }
  return c;
}

}  // namespace tenet::eval
