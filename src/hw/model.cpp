#include "hw/model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tenet/error.hpp"

namespace tenet::hw::detail {
namespace {

using mapping::Dataflow;
using mapping::GemmDim;

int at(GemmDim d) { return static_cast<int>(d); }

long long shape_size(const mapping::GemmShape& s, int d) {
  return d == 0 ? s.m : d == 1 ? s.n : s.k;
}

long long product(const std::array<long long, 3>& v) { return mul(mul(v[0], v[1]), v[2]); }

double bytes_of(long long elements, int bits) { return static_cast<double>(elements) * bits / 8.0; }

// The shape that runs: the row / column dimensions padded to the array edges and the stream
// dimension to its multiple (arch::Microarch padding rules, padded_stream_size with the tiling's
// stream extent as given; the zeros move and compute).
mapping::GemmShape padded_shape(const arch::Microarch& u, const mapping::GemmShape& s,
                                const mapping::Tiling& tiling, Dataflow dataflow, long long rows,
                                long long cols) {
  const mapping::DataflowDims dims = mapping::dataflow_dims(dataflow);
  std::array<long long, 3> size{s.m, s.n, s.k};
  if (u.pad_to_array) {
    size[at(dims.rows)] = round_up(size[at(dims.rows)], rows);
    size[at(dims.cols)] = round_up(size[at(dims.cols)], cols);
  }
  size[at(dims.stream)] =
      padded_stream_size(size[at(dims.stream)], tiling.extent(dims.stream), u.pad_stream_multiple,
                         u.pad_stream_aligned_tiles_only);
  mapping::GemmShape out = s;
  out.m = size[0], out.n = size[1], out.k = size[2];
  return out;
}

}  // namespace

long long overlapped_cycles(const ArrayCycles& array, long long window, const Reads& reads) {
  const long long longer = std::max(array.busy, window);
  const auto serial_of = [](long long cycles, double fraction) {
    return fraction < 1 && cycles > 0 ? (1 - fraction) * static_cast<double>(cycles) : 0.0;
  };
  const double serial = serial_of(reads.cycles, reads.fraction) +
                        serial_of(reads.oversized, reads.oversized_fraction);
  if (serial <= 0 || array.matrix <= 0) return longer;
  const auto serial_cycles = static_cast<long long>(std::ceil(serial - 1e-9));
  if (reads.within_window) return std::max(window, add(array.busy, serial_cycles));
  return add(longer, std::min(array.matrix, serial_cycles));
}

void byte_count_overflow() {
  throw InputError(error_code::kOverflow, "", "", "a byte count does not fit in 64 bits");
}

long long distinct_elements(const Operand& op, const mapping::GemmShape& shape) {
  long long n = 1;
  for (int d = 0; d < 3; ++d)
    if (op.group[d] > 0) n = mul(n, ceil_div(shape_size(shape, d), op.group[d]));
  return n;
}

long long Plan::stream_cycles(long long length) const {
  const bool packed = dims.stream == GemmDim::kK;
  return mul(cycles_per_mac, packed ? ceil_div(length, macs_per_cycle) : length);
}

long long Plan::row_lanes() const { return dims.rows == GemmDim::kK ? macs_per_cycle : 1; }

Model::Model(const arch::Accelerator& acc, const GemmProblem& problem, Dataflow dataflow,
             const mapping::Tiling& tiling, const Options& options, Build build)
    : acc_(acc),
      options_(options),
      micro_(build.base ? build.base->micro : acc.spec().micro.active()),
      dma_(micro_ && acc.spec().micro.dma.enabled) {
  if (build.base) {
    plan_ = retile(*build.base, tiling);
    last_ = {plan_.dim[0].tiles() - 1, plan_.dim[1].tiles() - 1, plan_.dim[2].tiles() - 1};
    if (build.operands) plan_tensors(problem);
    return;
  }
  if (build.validate) validate(problem);
  const arch::Microarch& micro = acc.spec().micro;
  plan_.logical = problem.shape;
  plan_.accumulate = problem.accumulate;
  plan_.stream_multiple = micro.pad_stream_multiple;
  plan_.stream_aligned_only = micro.pad_stream_aligned_tiles_only;
  plan_.shape = padded_shape(micro, problem.shape, tiling, dataflow, acc.rows(), acc.cols());
  plan_.tiling = mapping::resolve_tiling(tiling, problem.shape);
  // A tile covering a whole (logical) dimension covers its padding too.
  for (long long* t : {&plan_.tiling.m, &plan_.tiling.n, &plan_.tiling.k}) {
    const int d = t == &plan_.tiling.m ? 0 : t == &plan_.tiling.n ? 1 : 2;
    if (*t >= shape_size(problem.shape, d)) *t = shape_size(plan_.shape, d);
  }
  plan_.micro = micro_;
  plan_.dataflow = dataflow;
  plan_.dims = mapping::dataflow_dims(dataflow);
  plan_.rows = acc.rows();
  plan_.cols = acc.cols();
  plan_.precision = mac_precision(acc, problem);
  const arch::MacRate& rate = acc.mac_rate(plan_.precision);
  plan_.mac_pj = acc.mac_energy_pj(plan_.precision);
  plan_.macs_per_cycle = rate.macs_per_cycle;
  plan_.cycles_per_mac = rate.cycles_per_mac;
  for (int d = 0; d < 3; ++d) {
    plan_.dim[d].size = shape_size(plan_.shape, d);
    plan_.dim[d].tile = plan_.tiling.extent(static_cast<GemmDim>(d));
  }
  plan_.dim[at(plan_.dims.rows)].split = mul(plan_.rows, plan_.row_lanes());
  plan_.dim[at(plan_.dims.cols)].split = plan_.cols;
  const FoldOverhead overhead = fold_overhead(acc, dataflow);
  plan_.base = overhead.per_fold;
  plan_.units = acc.spec().chip.matrix_units;
  plan_.split_stream = acc.spec().chip.split_stream;
  plan_.launch = options.kernel_launch ? launch_cycles(acc.spec()) : 0;
  plan_.once = add(overhead.once, micro_ ? 0 : plan_.launch);
  last_ = {plan_.dim[0].tiles() - 1, plan_.dim[1].tiles() - 1, plan_.dim[2].tiles() - 1};
  if (build.operands) plan_tensors(problem);
}

long long Model::dram_bytes() const {
  long long total = 0;
  if (micro_ && acc_.spec().micro.dma.enabled) {
    for (long long b : operand_bus_bytes()) total = add(total, b);
    return total;
  }
  for (const OperandPlan& x : ops_)
    total = add(total, ceil_bytes(add(x.dram_reads(), x.dram_writes()), x.op->bits));
  return total;
}

long long Model::tiles() const {
  return product({plan_.dim[0].tiles(), plan_.dim[1].tiles(), plan_.dim[2].tiles()});
}

long long Model::folds() const {
  return product({plan_.dim[0].fold_intervals(), plan_.dim[1].fold_intervals(),
                  plan_.dim[2].fold_intervals()});
}

// Step 3 (closed form): every fold costs base + its streamed length, the GEMM `once` more.
long long Model::compute_cycles() const {
  return detail::compute_cycles(plan_, micro_ ? &acc_.spec().micro : nullptr);
}

long long compute_cycles(const Plan& plan, const arch::Microarch* micro) {
  if (micro) {  // §3b: the run overhead, every tile's busy time and overhead
    long long busy = add(micro->run_overhead_cycles, plan.launch);
    for (const auto& [q0, c0] : plan.dim[0].tile_classes())
      for (const auto& [q1, c1] : plan.dim[1].tile_classes())
        for (const auto& [q2, c2] : plan.dim[2].tile_classes())
          busy =
              add(busy, mul(mul(mul(c0, c1), c2), add(micro_tile_busy(plan, *micro, {q0, q1, q2}),
                                                      micro->tile_overhead_cycles)));
    return busy;
  }
  if (plan.units > 1) return unit_compute_cycles(plan);
  return fold_pipeline_cycles(
      plan,
      {plan.dim[0].fold_intervals(), plan.dim[1].fold_intervals(), plan.dim[2].fold_intervals()},
      streamed_cycles(plan, plan.dim[at(plan.dims.stream)]));
}

// Several matrix units: each tile's folds dealt out over the units (unit_share_cycles), so a tile
// of row class r and column class c (F_rc folds per stream tile) costs ⌈F_rc / units⌉ folds on
// its busiest unit; summed over the stream tiles, each fold costs base + its streamed length.
long long unit_compute_cycles(const Plan& plan) {
  const int r = at(plan.dims.rows), c = at(plan.dims.cols), st = at(plan.dims.stream);
  long long total = plan.once;
  for (const auto& [qr, cr] : plan.dim[r].tile_classes())
    for (const auto& [qc, cc] : plan.dim[c].tile_classes()) {
      const long long folds = mul(plan.dim[r].pieces_in(plan.dim[r].tile_extent(qr)),
                                  plan.dim[c].pieces_in(plan.dim[c].tile_extent(qc)));
      for (const auto& [qs, cs] : plan.dim[st].tile_classes()) {
        const long long stream = plan.stream_cycles(plan.dim[st].tile_extent(qs));
        total = add(total, mul(mul(mul(cr, cc), cs),
                               unit_share_cycles(plan, folds, add(plan.base, stream), stream)));
      }
    }
  return total;
}

long long launch_cycles(const arch::AcceleratorSpec& spec) {
  const double cycles = spec.chip.kernel_launch_ns * spec.clock_mhz / 1000;
  if (!(cycles > 0)) return 0;
  if (cycles > 4e18) byte_count_overflow();
  return static_cast<long long>(std::ceil(cycles - 1e-9));
}

long long streamed_cycles(const Plan& plan, const DimPlan& stream) {
  const long long n = stream.tiles();
  return add(mul(n - 1, plan.stream_cycles(stream.tile)),
             plan.stream_cycles(stream.tile_extent(n - 1)));
}

// Busy cycles of tile q on the array: n folds of stream length s (x unaligned_factor when the
// stream is not whole feeder words). Double-buffered accumulators: the next fold starts while
// the previous drains, (n-1) max(s, P) + max(s + D, Fmin), P = drain_cycles_reload when partial
// sums are reloaded (the stream dimension split over tiles, or C = C + A·B: psum preload), else
// drain_cycles. Otherwise every fold pays its pipeline base, the last one D instead:
// n (s + base) - base + D, floored at Fmin. A stream off the feeder word also stalls the array
// ⌈unaligned_stall_cycles · s⌉ per fold (the general feeder path; nothing overlaps a stall).
long long micro_tile_busy(const Plan& plan, const arch::Microarch& u, const TileIndex& q) {
  const int r = at(plan.dims.rows), c = at(plan.dims.cols), st = at(plan.dims.stream);
  const long long len = plan.dim[st].tile_extent(q[st]);
  const bool unaligned = u.feeder_word > 1 && len % u.feeder_word != 0;
  const long long d = u.tile_fill_drain_cycles >= 0 ? u.tile_fill_drain_cycles : plan.base;
  const bool reload = plan.dim[st].tiles() > 1 || plan.accumulate;
  // n folds of s0 streamed cycles each on one unit
  auto busy = [&](long long n, long long s0) {
    long long s = s0;
    if (unaligned)
      s = static_cast<long long>(std::ceil(static_cast<double>(s) * u.unaligned_factor - 1e-9));
    const long long stall =
        unaligned && u.unaligned_stall_cycles > 0
            ? mul(n, static_cast<long long>(
                         std::ceil(static_cast<double>(s0) * u.unaligned_stall_cycles - 1e-9)))
            : 0;
    if (u.accumulator_double_buffered) {
      const long long p = reload ? u.drain_cycles_reload : u.drain_cycles;
      return add(add(mul(n - 1, std::max(s, p)), std::max(add(s, d), u.min_tile_cycles)), stall);
    }
    return add(std::max(add(add(mul(n, add(s, plan.base)), -plan.base), d), u.min_tile_cycles),
               stall);
  };
  const long long folds = mul(plan.dim[r].pieces_in(plan.dim[r].tile_extent(q[r])),
                              plan.dim[c].pieces_in(plan.dim[c].tile_extent(q[c])));
  const long long s0 = plan.stream_cycles(len);
  // the folds of the tile's busiest matrix unit: ⌈folds / units⌉ (all of them on one array);
  // split_stream: or every fold on ⌈s0 / units⌉ of the streamed cycles, whichever is faster
  const long long dealt = busy(ceil_div(folds, plan.units), s0);
  if (plan.units <= 1 || !plan.split_stream) return dealt;
  return std::min(dealt, busy(folds, ceil_div(s0, plan.units)));
}

Plan retile(const Plan& base, const mapping::Tiling& tiling) {
  Plan plan = base;
  // the stream dimension's padding follows the tiling's stream extent (padded_stream_size)
  const int st = at(plan.dims.stream);
  const long long stream =
      padded_stream_size(shape_size(base.logical, st), tiling.extent(plan.dims.stream),
                         plan.stream_multiple, plan.stream_aligned_only);
  (st == 0 ? plan.shape.m : st == 1 ? plan.shape.n : plan.shape.k) = stream;
  plan.dim[st].size = stream;
  plan.tiling = mapping::resolve_tiling(tiling, base.logical);
  // as the Model constructor: a tile covering a whole (logical) dimension covers its padding too
  for (int d = 0; d < 3; ++d) {
    long long* t = d == 0 ? &plan.tiling.m : d == 1 ? &plan.tiling.n : &plan.tiling.k;
    if (*t >= shape_size(base.logical, d)) *t = shape_size(plan.shape, d);
    plan.dim[d].tile = *t;
  }
  return plan;
}

long long dram_channel_cycles_floor(const arch::Dram& dram, double bytes, double share,
                                    long long tiles) {
  const double cycles = bytes / dram.bandwidth.bytes_per_cycle * (1 - 1e-9) * share -
                        1e-9 * static_cast<double>(tiles) - 1;
  return cycles <= 0 ? 0 : static_cast<long long>(cycles);
}

long long Model::tile_volume(const OperandPlan& x, const TileIndex& q) const {
  return detail::tile_volume(plan_, *x.op, q);
}

long long Model::tile_stream(const OperandPlan& x, const TileIndex& q) const {
  long long v = 1;
  for (int d = 0; d < 3; ++d) v = mul(v, plan_.dim[d].fold_sum_in_tile(q[d], x.op->group[d]));
  return v;
}

inline std::optional<TileIndex> Model::next_tile(const TileIndex& q) const {
  for (int p = 2; p >= 0; --p) {
    const int d = at(plan_.tiling.order[p]);
    if (q[d] < last_[d]) {
      TileIndex r = q;
      ++r[d];
      for (int inner = p + 1; inner < 3; ++inner) r[at(plan_.tiling.order[inner])] = 0;
      return r;
    }
  }
  return std::nullopt;
}

inline std::optional<TileIndex> Model::prev_tile(const TileIndex& q) const {
  for (int p = 2; p >= 0; --p) {
    const int d = at(plan_.tiling.order[p]);
    if (q[d] > 0) {
      TileIndex r = q;
      --r[d];
      for (int inner = p + 1; inner < 3; ++inner) {
        const int di = at(plan_.tiling.order[inner]);
        r[di] = last_[di];
      }
      return r;
    }
  }
  return std::nullopt;
}

// Cycles the SRAM ports need for one fold with these extents along (m, n, k): per partition the
// bytes of the distinct elements it moves of every operand (an output that is revisited moves
// them twice: read and write) over the partition's bandwidth. Grouped operands use the largest
// number of groups a piece of that length can touch.
long long Model::fold_port_cycles(const std::array<long long, 3>& lengths) const {
  long long port = 0;
  for (const PartitionPlan& part : partitions_) {
    double bytes = 0;
    for (int i : part.members) {
      const OperandPlan& x = ops_[i];
      long long distinct = 1;
      for (int d = 0; d < 3; ++d)
        if (x.op->group[d] > 0)
          distinct = mul(distinct, max_distinct_groups(lengths[d], x.op->group[d]));
      bytes += bytes_of(distinct, x.op->bits) * (x.fold_rmw_reads > 0 ? 2 : 1);
    }
    port =
        std::max(port, transfer_cycles(bytes, part.bandwidth, options_.unlimited_sram_bandwidth));
  }
  return port;
}

// The folds of tile q: pipeline cycles, cycles once stretched by the SRAM bandwidth, and the
// cycles the SRAM ports are busy.
TileCycles Model::time_tile(const TileIndex& q) const {
  const int r = at(plan_.dims.rows), c = at(plan_.dims.cols), s = at(plan_.dims.stream);
  const long long stream_len = plan_.dim[s].tile_extent(q[s]);
  const long long fold_cycles = add(plan_.base, plan_.stream_cycles(stream_len));
  TileCycles out;
  long long folds = 0;
  for (const auto& [len_r, n_r] : plan_.dim[r].piece_lengths(plan_.dim[r].tile_extent(q[r]))) {
    for (const auto& [len_c, n_c] : plan_.dim[c].piece_lengths(plan_.dim[c].tile_extent(q[c]))) {
      std::array<long long, 3> lengths{};
      lengths[r] = len_r, lengths[c] = len_c, lengths[s] = stream_len;
      const long long port = fold_port_cycles(lengths);
      const long long count = mul(n_r, n_c);
      folds = add(folds, count);
      out.pipeline = add(out.pipeline, mul(count, fold_cycles));
      out.with_sram = add(out.with_sram, mul(count, std::max(fold_cycles, port)));
      out.sram_busy = add(out.sram_busy, mul(count, port));
    }
  }
  if (plan_.units > 1) {
    // the folds dealt out over the units, which share the buffer's ports: the tile lasts its
    // busiest unit's folds, and at least the ports' cycles for every fold's operands
    out.pipeline = unit_share_cycles(plan_, folds, fold_cycles, plan_.stream_cycles(stream_len));
    out.with_sram = std::max(out.pipeline, out.sram_busy);
  }
  return out;
}

// ---- DRAM traffic: the windows and the edges -------------------------------------------------

// The transfers of tile q's DRAM window: the next tile's inputs whose tile changes (and its
// outputs when revisited, or read at every output-tile start: accumulate_from_dram), the previous
// tile's outputs whose tile changes (write-back), and the fold-level traffic of tile q of the
// operands that are not resident (an output's partial sums written, and read back but the first
// time).
template <typename F>
void Model::for_each_window_transfer(const TileIndex& q, F&& f) const {
  const std::optional<TileIndex> next = next_tile(q), prev = prev_tile(q);
  auto changed = [](const OperandPlan& x, const TileIndex& a, const TileIndex& b) {
    for (int d = 0; d < 3; ++d)
      if (x.op->group[d] > 0 && a[d] != b[d]) return true;
    return false;
  };
  auto revisit = [](const OperandPlan& x, const TileIndex& t) {
    for (int d = 0; d < 3; ++d)
      if (x.op->group[d] == 0 && t[d] > 0) return true;
    return false;
  };
  for (size_t i = 0; i < ops_.size(); ++i) {
    const OperandPlan& x = ops_[i];
    if (!x.resident) {
      const long long moved = tile_stream(x, q);
      long long elements = moved;
      // an output's partial sums written, and read back but the first time (every time when
      // C = C + A·B: its initial values are read too)
      if (x.op->output)
        elements =
            add(elements, moved - (revisit(x, q) || plan_.accumulate ? 0 : tile_volume(x, q)));
      f(i, Move::kStream, q, elements);
      continue;
    }
    if (next && changed(x, q, *next) && (!x.op->output || x.read_each_tile || revisit(x, *next)))
      f(i, Move::kRead, *next, 0LL);
    if (x.op->output && prev && changed(x, *prev, q)) f(i, Move::kWrite, *prev, 0LL);
  }
}

// Options::edge_transfers: the first tile's resident inputs (and outputs read at every tile
// start) before the first fold (`fill`), the last tile's resident outputs after the last one.
template <typename F>
void Model::for_each_edge_transfer(F&& f) const {
  const TileIndex first{0, 0, 0};
  const TileIndex& last = last_;
  for (size_t i = 0; i < ops_.size(); ++i) {
    const OperandPlan& x = ops_[i];
    if (!x.resident) continue;  // streamed inside every tile's own window
    if (!x.op->output || x.read_each_tile) f(i, Move::kRead, first, true);
    if (x.op->output) f(i, Move::kWrite, last, false);
  }
}

// (inline: every window adds its moves; without the microarchitecture a move is its element
// bytes)
inline void Model::add_move(Traffic& t, const OperandPlan& x, Move move, const TileIndex& tile,
                            long long elements) const {
  if (!micro_) {
    t.bytes += bytes_of(move == Move::kStream ? elements : detail::tile_volume(plan_, *x.op, tile),
                        x.op->bits);
    return;
  }
  if (move == Move::kStream) {
    (dma_ ? t.streamed : t.bytes) += bytes_of(elements, x.op->bits);
  } else if (dma_) {
    add_transfer(t.dma, x, tile, move == Move::kWrite);
  } else {  // whole bytes per contiguous run, as the DMA law counts them
    DmaCost c;
    add_transfer(c, x, tile, move == Move::kWrite);
    t.bytes += c.bytes;
  }
}

bool Model::dram_priced() const {
  if (options_.unlimited_dram_bandwidth) return false;
  return dma_ || !acc_.spec().dram.bandwidth.unlimited;
}

// Without a DMA engine: latency + bytes / bandwidth (nothing if nothing moves). With one: its
// commands and channels (dma_cycles), and streamed operands as one more command.
long long Model::traffic_cycles(const Traffic& t) const {
  const arch::Dram& dram = acc_.spec().dram;
  if (!dma_) return dram_window_cycles(dram, t.bytes);
  long long cycles = dma_cycles(t.dma);
  if (t.streamed > 0)
    cycles = add(cycles, add(acc_.spec().micro.dma.command_cycles,
                             std::max(acc_.spec().micro.dma.command_setup_cycles,
                                      add(dram.latency_cycles,
                                          transfer_cycles(t.streamed, dram.bandwidth, false)))));
  return cycles;
}

// A single-buffered tile (in a double-buffered buffer) moves while the array waits: exposed.
Model::WindowRule Model::window_rule() const {
  WindowRule rule;
  rule.priced = dram_priced();
  rule.buffered = acc_.spec().global_buffer.double_buffered;
  const arch::Dram& dram = acc_.spec().dram;
  rule.oversized_fraction = dram.oversized_read_overlap_fraction;
  rule.within_window = dram.window_read_overlap_fraction.has_value();
  rule.fraction = dram.window_read_overlap_fraction.value_or(dram.read_overlap_fraction);
  rule.split_reads = rule.fraction < 1 || (rule.oversized_fraction && *rule.oversized_fraction < 1);
  return rule;
}

Model::Window Model::dram_window(const TileIndex& q, const WindowRule& rule) const {
  if (!rule.priced) return {};
  Traffic overlapped, exposed, reads, oversized;
  for_each_window_transfer(q, [&](size_t i, Move move, const TileIndex& tile, long long n) {
    const OperandPlan& x = ops_[i];
    const bool wait = x.resident && rule.buffered && !x.double_buffered;
    add_move(wait ? exposed : overlapped, x, move, tile, n);
    // an input's reads (not an output's partial sums nor its write-back); with the oversized
    // fraction given, those of an operand the buffer cannot hold whole apart
    if (rule.split_reads && !wait && !x.op->output)
      add_move(rule.oversized_fraction && oversized_operand(x) ? oversized : reads, x, move, tile,
               n);
  });
  if (!rule.split_reads) return {traffic_cycles(overlapped), traffic_cycles(exposed), {}};
  return {traffic_cycles(overlapped),
          traffic_cycles(exposed),
          {traffic_cycles(reads), rule.fraction, traffic_cycles(oversized),
           rule.oversized_fraction.value_or(1.0), rule.within_window}};
}

// The tiles a window names along a dimension of n tiles: a tile class's (0, 1, n - 2, n - 1, or
// all of them when n <= 3) and its neighbours (the next: one more or 0; the previous: one less or
// n - 1), so among 0, 1, 2, n - 3, n - 2 and n - 1: slot i for tile i <= 2, slot i - n + 6 for
// the others.
struct Model::WindowTable {
  static constexpr int kOps = 6, kSlots = 6;
  static int slot(long long tile, long long n) {
    return static_cast<int>(tile <= 2 ? tile : tile - n + kSlots);
  }
  struct Op {
    // per dimension and slot: the tile's interval_weight (1 along a dimension the operand does
    // not depend on) and, for a streamed operand at the tile classes, fold_sum_in_tile
    std::array<std::array<long long, kSlots>, 3> weight{}, fold{};
    unsigned grouped = 0;  // bit d: the operand depends on dimension d
    // the window's sums its moves add to: 0 overlapped, 1 exposed (a single-buffered resident
    // tile); and 2 input reads, 3 an oversized operand's input reads, or none (-1)
    int sum = 0, reads = -1;
    int bits = 0;
    bool resident = false, output = false;
    bool read_first =
        false;  // a resident tile read whenever it changes (an input, or read_each_tile)
  };
  std::array<Op, kOps> ops;
  // per dimension and slot of a tile: the slots of the tile after and before it
  std::array<std::array<int, kSlots>, 3> plus{}, minus{};
  std::array<int, 3> last{};  // per dimension: the slot of its last tile
};

bool Model::window_table(WindowTable& table, const WindowRule& rule) const {
  if (micro_ || ops_.size() > WindowTable::kOps) return false;
  std::array<std::array<long long, WindowTable::kSlots>, 3> index{}, start{}, extent{};
  std::array<unsigned, 3> valid{}, classes{};  // bit s: slot s names a tile / a tile class
  for (int d = 0; d < 3; ++d) {
    const DimPlan& dp = plan_.dim[d];
    const long long n = last_[d] + 1;
    for (int s = 0; s < WindowTable::kSlots; ++s) {
      const long long tile = s <= 2 ? s : n - WindowTable::kSlots + s;
      if (tile < 0 || tile >= n || (s > 2 && tile <= 2)) continue;
      valid[d] |= 1u << s;
      index[d][s] = tile, start[d][s] = dp.tile_start(tile), extent[d][s] = dp.tile_extent(tile);
      if (tile + 1 < n) table.plus[d][s] = WindowTable::slot(tile + 1, n);
      if (tile > 0) table.minus[d][s] = WindowTable::slot(tile - 1, n);
    }
    for (const auto& [q, count] : dp.tile_classes()) classes[d] |= 1u << WindowTable::slot(q, n);
    table.last[d] = WindowTable::slot(n - 1, n);
  }
  for (size_t i = 0; i < ops_.size(); ++i) {
    const OperandPlan& x = ops_[i];
    WindowTable::Op& o = table.ops[i];
    const bool wait = x.resident && rule.buffered && !x.double_buffered;
    o.sum = wait ? 1 : 0;
    o.reads = !(rule.split_reads && !wait && !x.op->output)     ? -1
              : rule.oversized_fraction && oversized_operand(x) ? 3
                                                                : 2;
    o.bits = x.op->bits, o.resident = x.resident, o.output = x.op->output;
    o.read_first = !x.op->output || x.read_each_tile;
    for (int d = 0; d < 3; ++d) {
      const long long g = x.op->group[d];
      if (g > 0) o.grouped |= 1u << d;
      for (int s = 0; s < WindowTable::kSlots; ++s) {
        if (!((valid[d] >> s) & 1u)) continue;
        o.weight[d][s] = interval_weight(start[d][s], extent[d][s], g);
        if (!x.resident && ((classes[d] >> s) & 1u))
          o.fold[d][s] = plan_.dim[d].fold_sum_in_tile(index[d][s], g);
      }
    }
  }
  return true;
}

Model::Window Model::table_window(const WindowTable& table, const TileIndex& q,
                                  const WindowRule& rule) const {
  // next_tile and prev_tile by slots: the innermost dimension (in the tiling's order) that can
  // advance (go back) does, the ones inside it restart at their first (last) tile
  std::array<int, 3> at_q{};
  unsigned q_past = 0;  // bit d: along dimension d, past the first tile
  for (int d = 0; d < 3; ++d) {
    at_q[d] = WindowTable::slot(q[d], last_[d] + 1);
    if (q[d] > 0) q_past |= 1u << d;
  }
  std::array<int, 3> at_next = at_q, at_prev = at_q;
  bool next = false, prev = false;
  unsigned next_moved = 0, prev_moved = 0, next_past = q_past;  // bit d: along dimension d
  for (int p = 2; p >= 0 && !next; --p) {
    const int d = at(plan_.tiling.order[p]);
    const unsigned bit = 1u << d;
    next = q[d] < last_[d];
    at_next[d] = next ? table.plus[d][at_q[d]] : 0;
    next_past = next ? next_past | bit : next_past & ~bit;
    if (next || q[d] > 0) next_moved |= bit;
  }
  for (int p = 2; p >= 0 && !prev; --p) {
    const int d = at(plan_.tiling.order[p]);
    prev = q[d] > 0;
    at_prev[d] = prev ? table.minus[d][at_q[d]] : table.last[d];
    if (prev || q[d] < last_[d]) prev_moved |= 1u << d;
  }
  std::array<double, 4> sum{};  // overlapped, exposed, reads, oversized (WindowTable::Op::sum)
  const size_t n = ops_.size();
  for (size_t i = 0; i < n; ++i) {
    const WindowTable::Op& o = table.ops[i];
    const auto volume = [&](const std::array<int, 3>& at) {
      return mul(mul(o.weight[0][at[0]], o.weight[1][at[1]]), o.weight[2][at[2]]);
    };
    const auto move = [&](long long elements) {
      const double bytes = static_cast<double>(elements) * o.bits / 8.0;  // bytes_of
      sum[o.sum] += bytes;
      if (o.reads >= 0) sum[o.reads] += bytes;
    };
    if (!o.resident) {  // for_each_window_transfer's kStream
      const long long moved = mul(mul(o.fold[0][at_q[0]], o.fold[1][at_q[1]]), o.fold[2][at_q[2]]);
      long long elements = moved;
      if (o.output)
        elements =
            add(elements, moved - ((q_past & ~o.grouped) || plan_.accumulate ? 0 : volume(at_q)));
      move(elements);
      continue;
    }
    if (next && (next_moved & o.grouped) && (o.read_first || (next_past & ~o.grouped)))
      move(volume(at_next));
    if (o.output && prev && (prev_moved & o.grouped)) move(volume(at_prev));
  }
  const arch::Dram& dram = acc_.spec().dram;
  if (!rule.split_reads)
    return {dram_window_cycles(dram, sum[0]), dram_window_cycles(dram, sum[1]), {}};
  return {dram_window_cycles(dram, sum[0]),
          dram_window_cycles(dram, sum[1]),
          {dram_window_cycles(dram, sum[2]), rule.fraction, dram_window_cycles(dram, sum[3]),
           rule.oversized_fraction.value_or(1.0), rule.within_window}};
}

// An operand whose whole tensor is at least the capacity of the buffer (partition) holding it:
// it cannot be kept on chip whole (dram.oversized_read_overlap_fraction).
bool Model::oversized_operand(const OperandPlan& x) const {
  const long long capacity = partitions_[static_cast<size_t>(x.partition)].bytes;
  return capacity > 0 && ceil_bytes(x.unique, x.op->bits) >= capacity;
}

// Each edge a window of its own (latency + transfer), not overlapped with any fold.
Model::EdgeCycles Model::edge_transfer_cycles() const {
  if (!options_.edge_transfers || !dram_priced()) return {};
  Traffic fill, drain;
  for_each_edge_transfer([&](size_t i, Move move, const TileIndex& tile, bool first) {
    add_move(first ? fill : drain, ops_[i], move, tile, 0);
  });
  return {traffic_cycles(fill), traffic_cycles(drain)};
}

// The bytes each operand moves on the DRAM bus: every transfer of the windows and both edges in
// bus_bytes per run (reads in whole beats, writes their bytes), streamed operands their element
// bytes.
std::vector<long long> Model::operand_bus_bytes() const {
  std::vector<long long> out(ops_.size(), 0);
  for (const auto& [q0, c0] : plan_.dim[0].tile_classes())
    for (const auto& [q1, c1] : plan_.dim[1].tile_classes())
      for (const auto& [q2, c2] : plan_.dim[2].tile_classes()) {
        const long long count = mul(mul(c0, c1), c2);
        for_each_window_transfer({q0, q1, q2}, [&](size_t i, Move move, const TileIndex& tile,
                                                   long long n) {
          const OperandPlan& x = ops_[i];
          const long long bytes = move == Move::kStream ? ceil_bytes(n, x.op->bits)
                                                        : bus_bytes(x, tile, move == Move::kWrite);
          out[i] = add(out[i], mul(count, bytes));
        });
      }
  for_each_edge_transfer([&](size_t i, Move move, const TileIndex& tile, bool) {
    out[i] = add(out[i], bus_bytes(ops_[i], tile, move == Move::kWrite));
  });
  return out;
}

// ---- The run ---------------------------------------------------------------------------------

// §3: the folds' pipeline cycles, stretched fold by fold by the SRAM ports. §3b: the per-tile
// law (micro_tile_busy) plus the tile's overhead; the ports must move every fold's operands, so
// the tile lasts at least their sum.
TileCycles Model::tile_busy(const TileIndex& q) const {
  TileCycles tc = time_tile(q);
  if (!micro_) return tc;
  const arch::Microarch& u = acc_.spec().micro;
  tc.pipeline = add(micro_tile_busy(plan_, u, q), u.tile_overhead_cycles);
  tc.with_sram = std::max(tc.pipeline, tc.sram_busy);
  return tc;
}

// Step 4: the run, tile by tile (by classes of tiles with equal behaviour): a prologue (the
// first fold's exposed preload; the microarchitecture's run overhead), then per tile the longer
// of its busy time (stretched by the SRAM) and its DRAM window, but for the transfers of
// single-buffered tiles, which the array waits for (their sum without double buffering), then
// the edge windows (edge transfers).
Timing Model::timing() const { return run_timing(true); }
Timing Model::reference_timing() const { return run_timing(false); }

Timing Model::run_timing(bool tables) const {
  const long long prologue =
      micro_ ? add(acc_.spec().micro.run_overhead_cycles, plan_.launch) : plan_.once;
  const bool overlap = acc_.spec().global_buffer.double_buffered;
  const WindowRule rule = window_rule();
  WindowTable table;
  const bool tabled = tables && rule.priced && window_table(table, rule);
  Timing t;
  t.pipeline = prologue;
  t.total = prologue;
  const CountedPairs classes1 = plan_.dim[1].tile_classes();
  const CountedPairs classes2 = plan_.dim[2].tile_classes();
  // tile_busy depends on a tile through its extents alone, and along each dimension a tile's
  // extent is the tile's own or (the last tile's) what is left: at most 8 distinct tiles' busy
  // cycles, each computed once (bit d of the key: dimension d's extent is not the tile's).
  std::array<TileCycles, 8> busy;
  unsigned known = 0;
  const auto busy_of = [&](const TileIndex& q) -> const TileCycles& {
    unsigned key = 0;
    for (int d = 0; d < 3; ++d)
      if (plan_.dim[d].tile_extent(q[d]) != plan_.dim[d].tile) key |= 1u << d;
    if (!((known >> key) & 1u)) busy[key] = tile_busy(q), known |= 1u << key;
    return busy[key];
  };
  for (const auto& [q0, c0] : plan_.dim[0].tile_classes())
    for (const auto& [q1, c1] : classes1)
      for (const auto& [q2, c2] : classes2) {
        const TileIndex q{q0, q1, q2};
        const long long count = mul(mul(c0, c1), c2);
        const TileCycles& tc = busy_of(q);
        const Window w = tabled ? table_window(table, q, rule) : dram_window(q, rule);
        const long long window = add(w.overlapped, w.exposed);
        const long long step =
            overlap ? add(overlapped_cycles({tc.with_sram, tc.pipeline}, w.overlapped, w.reads),
                          w.exposed)
                    : add(tc.with_sram, window);
        t.pipeline = add(t.pipeline, mul(count, tc.pipeline));
        t.total = add(t.total, mul(count, step));
        t.sram_stall = add(t.sram_stall, mul(count, tc.with_sram - tc.pipeline));
        t.dram_stall = add(t.dram_stall, mul(count, step - tc.with_sram));
        t.sram_busy = add(t.sram_busy, mul(count, tc.sram_busy));
        t.dram_busy = add(t.dram_busy, mul(count, window));
      }
  const EdgeCycles edge = edge_transfer_cycles();
  const long long edges = add(edge.fill, edge.drain);
  t.edge_fill = edge.fill;
  t.total = add(t.total, edges);
  t.dram_stall = add(t.dram_stall, edges);
  t.dram_busy = add(t.dram_busy, edges);
  if (t.pipeline != compute_cycles())
    throw InternalError(
        fmt::format("hw timing: tile classes give {} pipeline cycles, the closed "
                    "form {}",
                    t.pipeline, compute_cycles()));
  return t;
}

namespace {

void add_energy(TensorResult& t, const arch::EnergyTable& e) {
  t.energy_pj.register_file = t.register_reads * e.register_file.read_pj_for(t.bits) +
                              t.register_writes * e.register_file.write_pj_for(t.bits);
  t.energy_pj.sram =
      t.sram_reads * e.sram.read_pj_for(t.bits) + t.sram_writes * e.sram.write_pj_for(t.bits);
  t.energy_pj.dram =
      t.dram_reads * e.dram.read_pj_for(t.bits) + t.dram_writes * e.dram.write_pj_for(t.bits);
  t.energy_pj.total = t.energy_pj.register_file + t.energy_pj.sram + t.energy_pj.dram;
}

}  // namespace

// Step 5a: cycles, utilisation, mapping efficiency, the bounding resource and time.
void Model::fill_cycles(Result& r, const Timing& t) const {
  r.cycles.compute = t.pipeline;
  r.cycles.total = t.total;
  r.cycles.last_write_index = t.total - 1;
  r.cycles.stall_sram = t.sram_stall;
  r.cycles.stall_dram = t.dram_stall;
  r.cycles.edge_fill = t.edge_fill;
  r.cycles.stall = add(t.sram_stall, t.dram_stall);
  r.busy = {t.pipeline, t.sram_busy, t.dram_busy};
  r.bound = bounding_resource(r.busy);
  const long long peak = mul(mul(mul(plan_.rows, plan_.cols), plan_.macs_per_cycle), plan_.units);
  const double util = static_cast<double>(r.macs) * plan_.cycles_per_mac /
                      (static_cast<double>(std::max(1LL, r.cycles.total)) * peak);
  r.utilization = std::min(1.0, util);
  const long long used =
      product({plan_.dim[at(plan_.dims.rows)].size, plan_.dim[at(plan_.dims.cols)].size,
               plan_.dim[at(plan_.dims.stream)].tiles()});
  r.mapping_efficiency = static_cast<double>(used) / (static_cast<double>(r.folds) * plan_.rows *
                                                      plan_.row_lanes() * plan_.cols);
  r.seconds = static_cast<double>(r.cycles.total) / (acc_.spec().clock_mhz * 1e6);
}

// Step 5b: one tensor's accesses per level (the SRAM counts both its sides) and energy.
TensorResult Model::tensor_result(const OperandPlan& x, long long macs) const {
  TensorResult tr;
  tr.name = x.op->name;
  fill_accesses(tr, x, macs);
  return tr;
}

// tensor_result but its name (energy() adds up the energies alone)
void Model::fill_accesses(TensorResult& tr, const OperandPlan& x, long long macs) const {
  tr.role = x.op->role, tr.bits = x.op->bits, tr.output = x.op->output;
  tr.stationary = x.stationary, tr.resident = x.resident;
  tr.footprint_bytes = x.footprint_bytes;
  tr.register_reads = macs;
  tr.register_writes = x.op->output || !x.stationary ? macs : x.fold_accesses;
  tr.dram_reads = x.dram_reads();
  tr.dram_writes = x.dram_writes();
  tr.sram_array_reads = x.op->output ? x.fold_rmw_reads : x.fold_accesses;
  tr.sram_array_writes = x.op->output ? x.fold_accesses : 0;
  tr.sram_reads = add(tr.sram_array_reads, tr.dram_writes);   // + drains to DRAM
  tr.sram_writes = add(tr.sram_array_writes, tr.dram_reads);  // + fills from DRAM
  tr.dram_bytes = ceil_bytes(add(tr.dram_reads, tr.dram_writes), tr.bits);
  add_energy(tr, acc_.spec().energy);
}

void Model::require_feasible() const {
  if (!feasible())
    throw InputError(error_code::kRange, "", "tile",
                     "the tile does not fit: " + describe(*misfit_));
}

// Step 5: the report.
Result Model::result() const { return report(nullptr); }
Result Model::result(const Timing& timed) const { return report(&timed); }

Result Model::report(const Timing* timed) const {
  require_feasible();
  Result r;
  r.accelerator = acc_.name();
  r.dataflow = plan_.dataflow;
  r.shape = plan_.logical;
  r.accumulate = plan_.accumulate;
  r.tiling = plan_.tiling;
  r.rows = plan_.rows, r.cols = plan_.cols;
  r.precision = plan_.precision;
  r.macs_per_cycle = plan_.macs_per_cycle, r.cycles_per_mac = plan_.cycles_per_mac;
  r.macs = product({plan_.logical.m, plan_.logical.n, plan_.logical.k});
  r.folds = folds();
  r.tiles = tiles();
  fill_cycles(r, timed ? *timed : timing());
  r.array_use = array_use(r);
  r.tensors = tensor_results(r.macs);
  r.dram_bytes = dram_bytes();
  r.energy_pj = energy();
  return r;
}

std::vector<TensorResult> Model::tensors() const {
  require_feasible();
  return tensor_results(product({plan_.logical.m, plan_.logical.n, plan_.logical.k}));
}

std::vector<TensorResult> Model::tensor_results(long long macs) const {
  std::vector<TensorResult> out;
  out.reserve(ops_.size());
  for (const OperandPlan& x : ops_) out.push_back(tensor_result(x, macs));
  if (dma_) {  // bytes on the bus (bus_bytes)
    const std::vector<long long> bus = operand_bus_bytes();
    for (size_t i = 0; i < bus.size(); ++i) out[i].dram_bytes = bus[i];
  }
  return out;
}

EnergyBreakdown Model::energy() const {
  const long long macs = product({plan_.shape.m, plan_.shape.n, plan_.shape.k});
  EnergyBreakdown e;
  e.mac = static_cast<double>(macs) * plan_.mac_pj;
  TensorResult tr;  // (no name: no string copied per operand)
  for (const OperandPlan& x : ops_) {
    fill_accesses(tr, x, macs);
    e.register_file += tr.energy_pj.register_file;
    e.sram += tr.energy_pj.sram;
    e.dram += tr.energy_pj.dram;
  }
  e.total = e.mac + e.register_file + e.sram + e.dram;
  return e;
}

}  // namespace tenet::hw::detail

namespace tenet::hw {

FoldOverhead fold_overhead(const arch::Accelerator& acc, mapping::Dataflow dataflow) {
  const long long rows = acc.rows(), cols = acc.cols();
  if (dataflow == mapping::Dataflow::kOutputStationary) return {rows + cols - 2, 0};
  if (acc.spec().stationary_double_buffered) return {rows + cols - 2, rows};
  return {2 * rows + cols - 2, 0};
}

// The MAC precision: given, or chosen for the widest activation / weight operand (any input if
// there is none of those).
workload::DataType mac_precision(const arch::Accelerator& acc, const GemmProblem& problem) {
  if (problem.precision) return *problem.precision;
  int bits = 0, any_input_bits = 0;
  for (const Operand& op : problem.operands) {
    if (op.output) continue;
    any_input_bits = std::max(any_input_bits, op.bits);
    if (op.role == workload::OperandRole::kActivation || op.role == workload::OperandRole::kWeight)
      bits = std::max(bits, op.bits);
  }
  return acc.select_precision(bits ? bits : any_input_bits ? any_input_bits : 16);
}

}  // namespace tenet::hw
