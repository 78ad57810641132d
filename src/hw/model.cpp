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

// Cycles to move `bytes` through a port; 0 when the port is ideal.
long long transfer_cycles(double bytes, const arch::Bandwidth& bw, bool ideal) {
  if (ideal || bw.unlimited || bytes <= 0) return 0;
  return static_cast<long long>(std::ceil(bytes / bw.bytes_per_cycle - 1e-9));
}

}  // namespace

long long ceil_bytes(long long elements, int bits) {
  const __int128 bits_total = static_cast<__int128>(elements) * bits;
  const __int128 bytes = (bits_total + 7) / 8;
  if (bytes > INT64_MAX)
    throw InputError(error_code::kOverflow, "", "", "a byte count does not fit in 64 bits");
  return static_cast<long long>(bytes);
}

long long distinct_elements(const Operand& op, const mapping::GemmShape& shape) {
  long long n = 1;
  for (int d = 0; d < 3; ++d)
    if (op.group[d] > 0) n = mul(n, ceil_div(shape_size(shape, d), op.group[d]));
  return n;
}

long long Plan::stream_cycles(long long length) const {
  const bool packed = dims.stream == GemmDim::kK;
  return mul(slow, packed ? ceil_div(length, pack) : length);
}

long long Plan::row_lanes() const { return dims.rows == GemmDim::kK ? pack : 1; }

long long OperandPlan::dram_reads() const {
  if (!op->output) return resident ? resident_volume : fold_accesses;
  return resident ? resident_volume - unique : fold_rmw_reads;
}

long long OperandPlan::dram_writes() const {
  if (!op->output) return 0;
  return resident ? resident_volume : fold_accesses;
}

double OperandPlan::dram_bytes_if(bool keep) const {
  long long elements;
  if (!op->output)
    elements = keep ? resident_volume : fold_accesses;
  else
    elements =
        keep ? add(resident_volume, resident_volume - unique) : add(fold_accesses, fold_rmw_reads);
  return bytes_of(elements, op->bits);
}

Model::Model(const arch::Accelerator& acc, const GemmProblem& problem, Dataflow dataflow,
             const mapping::Tiling& tiling, const Options& options)
    : Model(acc, problem, dataflow, tiling, options, Build{}) {}

Model::Model(const arch::Accelerator& acc, const GemmProblem& problem, Dataflow dataflow,
             const mapping::Tiling& tiling, const Options& options, Build build)
    : acc_(acc), options_(options) {
  if (build.validate) validate(problem);
  plan_.shape = problem.shape;
  plan_.tiling = mapping::resolve_tiling(tiling, problem.shape);
  plan_.dataflow = dataflow;
  plan_.dims = mapping::dataflow_dims(dataflow);
  plan_.rows = acc.rows();
  plan_.cols = acc.cols();
  plan_.precision = mac_precision(acc, problem);
  const arch::MacRate& rate = acc.mac_rate(plan_.precision);
  plan_.mac_pj = acc.mac_energy_pj(plan_.precision);
  plan_.pack = rate.macs_per_cycle;
  plan_.slow = rate.cycles_per_mac;
  for (int d = 0; d < 3; ++d) {
    plan_.dim[d].size = shape_size(plan_.shape, d);
    plan_.dim[d].tile = plan_.tiling.extent(static_cast<GemmDim>(d));
  }
  plan_.dim[at(plan_.dims.rows)].split = mul(plan_.rows, plan_.row_lanes());
  plan_.dim[at(plan_.dims.cols)].split = plan_.cols;
  plan_.base = dataflow == Dataflow::kOutputStationary ? plan_.rows + plan_.cols - 2
                                                       : 2 * plan_.rows + plan_.cols - 2;
  if (!build.operands) return;
  ops_.reserve(problem.operands.size());
  for (const Operand& op : problem.operands) ops_.push_back(OperandPlan{&op});
  plan_operands();
  choose_residency();
}

int holding_partition(const arch::GlobalBuffer& gb, workload::OperandRole role) {
  const std::string key = role_key(role);
  int holder = -1, p = 0;
  for (const auto& [name, part] : gb.partitions) {
    for (const std::string& held : part.holds)
      if (held == key) holder = p;
    ++p;
  }
  return holder;
}

// Step 1: per operand, the array-side accesses of the folds, the size, the DRAM volume if kept
// in the buffer and the buffer space of one tile (tile_footprint_bytes).
void Model::plan_operands() {
  const arch::GlobalBuffer& gb = acc_.spec().global_buffer;
  const std::array<long long, 3> tile{plan_.dim[0].tile, plan_.dim[1].tile, plan_.dim[2].tile};
  const std::array<long long, 3> size{plan_.dim[0].size, plan_.dim[1].size, plan_.dim[2].size};
  for (OperandPlan& x : ops_) {
    std::array<long long, 3> fold{}, volume{};
    int innermost = -1;  // innermost loop position over an index of x with > 1 tile
    for (int p = 0; p < 3; ++p) {
      const int d = at(plan_.tiling.order[p]);
      if (x.op->group[d] > 0 && plan_.dim[d].tiles() > 1) innermost = p;
    }
    for (int d = 0; d < 3; ++d) {
      const long long g = x.op->group[d];
      const DimPlan& dp = plan_.dim[d];
      fold[d] = dp.fold_sum(g);
    }
    for (int p = 0; p < 3; ++p) {
      const int d = at(plan_.tiling.order[p]);
      const long long g = x.op->group[d];
      volume[p] = g > 0 ? plan_.dim[d].tile_sum(g) : p <= innermost ? plan_.dim[d].tiles() : 1;
    }
    x.unique = distinct_elements(*x.op, plan_.shape);
    x.fold_accesses = product(fold);
    x.fold_rmw_reads = x.op->output ? x.fold_accesses - x.unique : 0;
    x.resident_volume = product(volume);
    x.double_buffered = detail::double_buffered(gb, plan_.tiling, *x.op);
    x.footprint_bytes = tile_footprint_bytes(*x.op, tile, size, x.double_buffered);
    x.stationary = x.op->group[at(plan_.dims.stream)] == 0;
  }
}

// Step 2: which operands stay in the global buffer. Per partition (or the shared buffer), the
// subset of its operands that fits and moves the fewest DRAM bytes.
void Model::choose_residency() {
  const arch::GlobalBuffer& gb = acc_.spec().global_buffer;
  if (gb.partitions.empty()) {
    partitions_.push_back({"shared", gb.bytes, gb.bandwidth, {}});
    for (size_t i = 0; i < ops_.size(); ++i) partitions_[0].members.push_back(static_cast<int>(i));
  } else {
    for (const auto& [key, part] : gb.partitions)
      partitions_.push_back({key, part.bytes, part.bandwidth, {}});
    for (size_t i = 0; i < ops_.size(); ++i) {
      const std::string role = role_key(ops_[i].op->role);
      const int holder = holding_partition(gb, ops_[i].op->role);
      if (holder < 0)
        throw InputError(error_code::kUsage, "", "/global_buffer/partitions",
                         "no global-buffer partition holds operand \"" + ops_[i].op->name +
                             "\" (role " + role + "); add \"" + role +
                             "\" to the \"holds\" list of a partition");
      partitions_[holder].members.push_back(static_cast<int>(i));
    }
  }
  for (size_t p = 0; p < partitions_.size(); ++p) {
    const std::vector<int>& members = partitions_[p].members;
    for (int i : members) ops_[i].partition = static_cast<int>(p);
    if (members.size() > 16)
      throw InputError(error_code::kUsage, "", "operands",
                       "at most 16 operands may share one global-buffer partition");
    const unsigned all = (1u << members.size()) - 1;
    std::array<double, 16> kept{}, streamed{};  // DRAM bytes of each member either way
    for (size_t b = 0; b < members.size(); ++b) {
      kept[b] = ops_[members[b]].dram_bytes_if(true);
      streamed[b] = ops_[members[b]].dram_bytes_if(false);
    }
    unsigned best = 0;
    double best_cost = 0;
    bool have = false;
    for (unsigned mask = 0; mask <= all; ++mask) {
      long long used = 0;
      double cost = 0;
      for (size_t b = 0; b < members.size(); ++b) {
        const bool keep = (mask >> b) & 1u;
        if (keep) used = add(used, ops_[members[b]].footprint_bytes);
        cost += keep ? kept[b] : streamed[b];
      }
      if (!options_.unlimited_buffer && used > partitions_[p].bytes) continue;
      if (!have || cost < best_cost ||
          (cost == best_cost && __builtin_popcount(mask) > __builtin_popcount(best))) {
        best = mask, best_cost = cost, have = true;
      }
    }
    for (size_t b = 0; b < members.size(); ++b) ops_[members[b]].resident = (best >> b) & 1u;
  }
}

long long Model::dram_bytes() const {
  long long total = 0;
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

// Step 3 (closed form): every fold costs base + its streamed length; the count starts at 0.
long long Model::compute_cycles() const {
  const DimPlan& s = plan_.dim[at(plan_.dims.stream)];
  const long long n = s.tiles();
  const long long streamed =
      add(mul(n - 1, plan_.stream_cycles(s.tile)), plan_.stream_cycles(s.tile_extent(n - 1)));
  const long long spatial = mul(plan_.dim[at(plan_.dims.rows)].fold_intervals(),
                                plan_.dim[at(plan_.dims.cols)].fold_intervals());
  return add(add(mul(folds(), plan_.base), mul(spatial, streamed)), -1);
}

// The windows of all tiles move, per operand X whose tile classes are exact (every index plain,
// g <= 1, or cut into tiles that are multiples of its group g, or not cut), every distinct
// element of X except those of one tile: a resident input's tile is fetched whenever its tile
// coordinates change, except the first one (before cycle 0); a resident output's tile is written
// back when they change, except the last one; a non-resident operand streams at least its tile's
// elements in every tile. Each window takes at least bytes / bandwidth cycles, plus the latency
// when it is not empty, and total >= the sum of the windows (a tile takes max(folds, window), or
// their sum). Other operands are left out: their tile classes use representative group counts.
// Rounding: every window is ceil(bytes / bw - 1e-9).
long long Model::dram_cycles_lower_bound() const {
  const arch::Dram& dram = acc_.spec().dram;
  if (options_.unlimited_dram_bandwidth || dram.bandwidth.unlimited) return 0;
  const TileIndex first{0, 0, 0};
  const TileIndex last{plan_.dim[0].tiles() - 1, plan_.dim[1].tiles() - 1,
                       plan_.dim[2].tiles() - 1};
  double bytes = 0;
  for (const OperandPlan& x : ops_) {
    bool plain = true;
    for (int d = 0; d < 3; ++d) {
      const long long g = x.op->group[d];
      const DimPlan& dp = plan_.dim[d];
      plain = plain && (g <= 1 || dp.tiles() == 1 || dp.tile % g == 0);
    }
    if (!plain) continue;
    double moved = bytes_of(x.unique, x.op->bits);
    if (x.resident && !options_.edge_transfers)  // else the edge windows move that tile too
      moved -= bytes_of(tile_volume(x, x.op->output ? last : first), x.op->bits);
    bytes += std::max(0.0, moved);
  }
  // Every tile but the last has a non-empty window (latency included) when each dimension cut
  // into several tiles indexes some input: that input's next tile is fetched (resident) or its
  // own traffic streams (not resident).
  bool windows_nonempty = true;
  for (int d = 0; d < 3; ++d) {
    if (plan_.dim[d].tiles() <= 1) continue;
    bool indexed = false;
    for (const OperandPlan& x : ops_) indexed = indexed || (!x.op->output && x.op->group[d] > 0);
    windows_nonempty = windows_nonempty && indexed;
  }
  const double latency =
      windows_nonempty ? static_cast<double>(tiles() - 1) * static_cast<double>(dram.latency_cycles)
                       : 0.0;
  const double cycles = latency + bytes / dram.bandwidth.bytes_per_cycle * (1 - 1e-9) -
                        1e-9 * static_cast<double>(tiles()) - 2;
  return cycles <= 0 ? 0 : static_cast<long long>(cycles);
}

// Σ over tiles of with_sram >= Σ over folds of the port cycles; a fold's port cycles on a partition
// are >= (the fold's distinct elements of the partition's operands, in bytes, twice for a
// revisited output) / bandwidth: fold_port_cycles counts max_distinct_groups >= the distinct
// elements of any piece, and the distinct elements of all folds are fold_accesses.
long long Model::sram_cycles_lower_bound() const {
  if (options_.unlimited_sram_bandwidth) return 0;
  double best = 0;
  for (const PartitionPlan& part : partitions_) {
    if (part.bandwidth.unlimited) continue;
    double bytes = 0;
    for (int i : part.members) {
      const OperandPlan& x = ops_[i];
      bytes += bytes_of(x.fold_accesses, x.op->bits) * (x.fold_rmw_reads > 0 ? 2 : 1);
    }
    best = std::max(best, bytes / part.bandwidth.bytes_per_cycle);
  }
  const double cycles = best * (1 - 1e-9) - 1e-9 * static_cast<double>(folds()) - 2;
  return cycles <= 0 ? 0 : static_cast<long long>(cycles);
}

long long Model::dram_cycles_floor(const GemmProblem& problem, double dram_bytes) const {
  const arch::Dram& dram = acc_.spec().dram;
  if (options_.unlimited_dram_bandwidth || dram.bandwidth.unlimited) return 0;
  double free = 0;  // bytes no window carries
  if (!options_.edge_transfers) {
    const std::array<long long, 3> tile{plan_.dim[0].tile, plan_.dim[1].tile, plan_.dim[2].tile};
    const std::array<long long, 3> size{plan_.dim[0].size, plan_.dim[1].size, plan_.dim[2].size};
    for (const Operand& op : problem.operands)
      free += static_cast<double>(tile_footprint_bytes(op, tile, size, false));
  }
  const double cycles = (dram_bytes - free) / dram.bandwidth.bytes_per_cycle * (1 - 1e-9) -
                        1e-9 * static_cast<double>(tiles()) - 2;
  return cycles <= 0 ? 0 : static_cast<long long>(cycles);
}

long long Model::cycles_lower_bound() const {
  return std::max({compute_cycles(), dram_cycles_lower_bound(), sram_cycles_lower_bound()});
}

long long Model::tile_volume(const OperandPlan& x, const TileIndex& q) const {
  long long v = 1;
  for (int d = 0; d < 3; ++d) {
    const DimPlan& dp = plan_.dim[d];
    if (x.op->group[d] > 0)
      v = mul(v, interval_weight(dp.tile_start(q[d]), dp.tile_extent(q[d]), x.op->group[d]));
  }
  return v;
}

long long Model::tile_stream(const OperandPlan& x, const TileIndex& q) const {
  long long v = 1;
  for (int d = 0; d < 3; ++d) v = mul(v, plan_.dim[d].fold_sum_in_tile(q[d], x.op->group[d]));
  return v;
}

std::optional<TileIndex> Model::next_tile(const TileIndex& q) const {
  for (int p = 2; p >= 0; --p) {
    const int d = at(plan_.tiling.order[p]);
    if (q[d] + 1 < plan_.dim[d].tiles()) {
      TileIndex r = q;
      ++r[d];
      for (int inner = p + 1; inner < 3; ++inner) r[at(plan_.tiling.order[inner])] = 0;
      return r;
    }
  }
  return std::nullopt;
}

std::optional<TileIndex> Model::prev_tile(const TileIndex& q) const {
  for (int p = 2; p >= 0; --p) {
    const int d = at(plan_.tiling.order[p]);
    if (q[d] > 0) {
      TileIndex r = q;
      --r[d];
      for (int inner = p + 1; inner < 3; ++inner) {
        const int di = at(plan_.tiling.order[inner]);
        r[di] = plan_.dim[di].tiles() - 1;
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
  for (const auto& [len_r, n_r] : plan_.dim[r].piece_lengths(plan_.dim[r].tile_extent(q[r]))) {
    for (const auto& [len_c, n_c] : plan_.dim[c].piece_lengths(plan_.dim[c].tile_extent(q[c]))) {
      std::array<long long, 3> lengths{};
      lengths[r] = len_r, lengths[c] = len_c, lengths[s] = stream_len;
      const long long port = fold_port_cycles(lengths);
      const long long count = mul(n_r, n_c);
      out.pipeline = add(out.pipeline, mul(count, fold_cycles));
      out.with_sram = add(out.with_sram, mul(count, std::max(fold_cycles, port)));
      out.sram_busy = add(out.sram_busy, mul(count, port));
    }
  }
  return out;
}

// The DRAM transfer window that overlaps tile q: prefetch of what the next tile needs (inputs
// whose tile changes, partial sums revisited), write-back of the previous tile's outputs that
// change, and the fold-level traffic of tile q for operands that do not fit the buffer.
// Options::edge_transfers: the first tile's resident inputs and the last tile's resident outputs,
// each a window of its own (latency + transfer), not overlapped with any fold.
long long Model::edge_transfer_cycles() const {
  const arch::Dram& dram = acc_.spec().dram;
  if (!options_.edge_transfers || options_.unlimited_dram_bandwidth || dram.bandwidth.unlimited)
    return 0;
  const TileIndex first{0, 0, 0};
  const TileIndex last{plan_.dim[0].tiles() - 1, plan_.dim[1].tiles() - 1,
                       plan_.dim[2].tiles() - 1};
  double fill = 0, drain = 0;
  for (const OperandPlan& x : ops_) {
    if (!x.resident) continue;  // streamed inside every tile's own window
    if (x.op->output)
      drain += bytes_of(tile_volume(x, last), x.op->bits);
    else
      fill += bytes_of(tile_volume(x, first), x.op->bits);
  }
  long long cycles = 0;
  for (double bytes : {fill, drain})
    if (bytes > 0)
      cycles = add(cycles, add(dram.latency_cycles, transfer_cycles(bytes, dram.bandwidth, false)));
  return cycles;
}

long long Model::dram_window(const TileIndex& q, Window part) const {
  const arch::Dram& dram = acc_.spec().dram;
  if (options_.unlimited_dram_bandwidth || dram.bandwidth.unlimited) return 0;
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
  double bytes = 0;
  const arch::GlobalBuffer& gb = acc_.spec().global_buffer;
  for (const OperandPlan& x : ops_) {
    // A single-buffered tile (in a double-buffered buffer) moves while the array waits.
    const bool exposed = x.resident && gb.double_buffered && !x.double_buffered;
    if (exposed != (part == Window::kExposed)) continue;
    if (!x.resident) {
      const long long moved = tile_stream(x, q);
      long long elements = moved;
      if (x.op->output) elements = add(elements, moved - (revisit(x, q) ? 0 : tile_volume(x, q)));
      bytes += bytes_of(elements, x.op->bits);
      continue;
    }
    if (next && changed(x, q, *next) && (!x.op->output || revisit(x, *next)))
      bytes += bytes_of(tile_volume(x, *next), x.op->bits);
    if (x.op->output && prev && changed(x, *prev, q))
      bytes += bytes_of(tile_volume(x, *prev), x.op->bits);
  }
  if (bytes <= 0) return 0;
  return add(dram.latency_cycles, transfer_cycles(bytes, dram.bandwidth, false));
}

// Step 4: the run, tile by tile (by classes of tiles with equal behaviour): each tile takes the
// longer of its folds (stretched by the SRAM) and its DRAM window (their sum without double
// buffering).
Timing Model::timing() const {
  Timing t;
  for (const auto& [q0, c0] : plan_.dim[0].tile_classes())
    for (const auto& [q1, c1] : plan_.dim[1].tile_classes())
      for (const auto& [q2, c2] : plan_.dim[2].tile_classes()) {
        const TileIndex q{q0, q1, q2};
        const long long count = mul(mul(c0, c1), c2);
        const TileCycles tc = time_tile(q);
        const long long exposed = dram_window(q, Window::kExposed);
        const long long window = add(dram_window(q, Window::kOverlapped), exposed);
        // Double-buffered: the window overlaps the tile, but for the transfers of single-buffered
        // tiles (Tiling::single), which the array waits for; otherwise it adds to it.
        const long long step = acc_.spec().global_buffer.double_buffered
                                   ? add(std::max(tc.with_sram, window - exposed), exposed)
                                   : add(tc.with_sram, window);
        t.pipeline = add(t.pipeline, mul(count, tc.pipeline));
        t.total = add(t.total, mul(count, step));
        t.sram_stall = add(t.sram_stall, mul(count, tc.with_sram - tc.pipeline));
        t.dram_stall = add(t.dram_stall, mul(count, step - tc.with_sram));
        t.sram_busy = add(t.sram_busy, mul(count, tc.sram_busy));
        t.dram_busy = add(t.dram_busy, mul(count, window));
      }
  const long long edges = edge_transfer_cycles();
  t.total = add(t.total, edges);
  t.dram_stall = add(t.dram_stall, edges);
  t.dram_busy = add(t.dram_busy, edges);
  if (t.pipeline != compute_cycles() + 1)
    throw InternalError(
        fmt::format("hw timing: tile classes give {} pipeline cycles, the closed "
                    "form {}",
                    t.pipeline, compute_cycles() + 1));
  return t;
}

namespace {

Bound bounding_resource(const ResourceCycles& busy) {
  if (busy.compute >= busy.sram && busy.compute >= busy.dram) return Bound::kCompute;
  return busy.sram >= busy.dram ? Bound::kSram : Bound::kDram;
}

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
void Model::fill_cycles(Result& r) const {
  const Timing t = timing();
  r.cycles.compute = t.pipeline;
  r.cycles.total = t.total;
  r.cycles.last_write_index = t.total - 1;
  r.cycles.stall_sram = t.sram_stall;
  r.cycles.stall_dram = t.dram_stall;
  r.cycles.stall = add(t.sram_stall, t.dram_stall);
  r.busy = {t.pipeline, t.sram_busy, t.dram_busy};
  r.bound = bounding_resource(r.busy);
  const long long peak = mul(mul(plan_.rows, plan_.cols), plan_.pack);
  const double util = static_cast<double>(r.macs) * plan_.slow /
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
  tr.name = x.op->name, tr.role = x.op->role, tr.bits = x.op->bits, tr.output = x.op->output;
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
  return tr;
}

// Step 5: the report.
Result Model::result() const {
  Result r;
  r.accelerator = acc_.name();
  r.dataflow = plan_.dataflow;
  r.shape = plan_.shape;
  r.tiling = plan_.tiling;
  r.rows = plan_.rows, r.cols = plan_.cols;
  r.precision = plan_.precision;
  r.macs_per_cycle = plan_.pack, r.cycles_per_mac = plan_.slow;
  r.macs = product({plan_.shape.m, plan_.shape.n, plan_.shape.k});
  r.folds = folds();
  r.tiles = tiles();
  fill_cycles(r);
  for (const OperandPlan& x : ops_) r.tensors.push_back(tensor_result(x, r.macs));
  r.dram_bytes = dram_bytes();
  r.energy_pj = energy();
  return r;
}

EnergyBreakdown Model::energy() const {
  const long long macs = product({plan_.shape.m, plan_.shape.n, plan_.shape.k});
  EnergyBreakdown e;
  e.mac = static_cast<double>(macs) * plan_.mac_pj;
  for (const OperandPlan& x : ops_) {
    const TensorResult tr = tensor_result(x, macs);
    e.register_file += tr.energy_pj.register_file;
    e.sram += tr.energy_pj.sram;
    e.dram += tr.energy_pj.dram;
  }
  e.total = e.mac + e.register_file + e.sram + e.dram;
  return e;
}

}  // namespace tenet::hw::detail

namespace tenet::hw {

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
