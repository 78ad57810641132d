// The closed-form hardware model of one GEMM evaluation (internal to tenet::hw).
//
// Model gathers everything evaluate_gemm needs, step by step: the plan (dimensions, splits,
// precision), fold-level (array-side SRAM) accesses, residency in the global buffer, DRAM
// traffic, timing by tile classes, and finally the Result with energies.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/inline_vector.hpp"
#include "hw/intervals.hpp"
#include "hw/misfit.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/evaluate.hpp"

namespace tenet::hw::detail {

using TileIndex = std::array<long long, 3>;  // tile coordinate per GemmDim (m, n, k)

struct Plan {
  mapping::GemmShape shape;    // what runs: the problem's shape padded by the microarchitecture
  mapping::GemmShape logical;  // the problem's shape
  mapping::Tiling tiling;      // resolved
  mapping::Dataflow dataflow = mapping::Dataflow::kOutputStationary;
  mapping::DataflowDims dims{};
  std::array<DimPlan, 3> dim;  // by GemmDim
  long long rows = 1, cols = 1;
  long long macs_per_cycle = 1;  // MACs per cycle per PE (packed along k)
  long long cycles_per_mac = 1;  // cycles per MAC
  long long base = 0;  // per-fold pipeline overhead: fill, drain (and preload for ws / is)
  long long once = 0;  // paid once per GEMM: the first preload when the PEs double-buffer it
                       // and the call's fixed cost (launch)
  // The chip (arch::Chip): matrix units sharing every tile's folds, the call's fixed cost in
  // cycles (part of `once`, or of the microarchitecture's prologue).
  long long units = 1;
  bool split_stream = false;  // arch::Chip::split_stream
  long long launch = 0;
  // C = C + A·B (GemmProblem::accumulate): outputs read before their first update (psum preload).
  bool accumulate = false;
  // The stream dimension's padding (arch::Microarch): to a multiple of stream_multiple, only for
  // tilings whose stream tile is aligned when stream_aligned_only (padded_stream_size).
  long long stream_multiple = 1;
  bool stream_aligned_only = false;
  workload::DataType precision;
  double mac_pj = 0;
  bool micro = false;  // arch::Microarch::active() of the accelerator (a retiled plan keeps it)

  long long stream_cycles(long long length) const;
  long long row_lanes() const;  // PE lanes per array row along the row dimension
};

struct OperandPlan {
  const Operand* op = nullptr;  // in the GemmProblem the Model was built from (outlives it)
  int partition = 0;
  long long unique = 0;           // |tensor|
  long long fold_accesses = 0;    // array side: reads of an input, writes of an output
  long long fold_rmw_reads = 0;   // array side: read-modify-write reads of an output
  long long resident_volume = 0;  // DRAM reads (input) / writes (output) when resident
  long long footprint_bytes = 0;  // global-buffer share of one tile (x2 if double-buffered)
  bool resident = true;
  bool stationary = false;
  bool read_each_tile =
      false;  // an output read from DRAM at every tile start (accumulate_from_dram)
  bool double_buffered = true;  // two copies of a changing tile; else its transfers stall the array
  // byte address of the tensor in DRAM with arch::Microarch::packed_placement, else -1
  long long dram_base = -1;

  long long dram_reads() const;
  long long dram_writes() const;
  double dram_bytes_if(bool keep) const;
};

struct PartitionPlan {
  // "shared", or the partition's key in the accelerator's global buffer (which outlives the model)
  const char* key = "";
  long long bytes = 0;
  arch::Bandwidth bandwidth;
  // The operands it holds (indices into Model::operands()), at most kMax (more: size() says how
  // many, choose_residency refuses them); no allocation per model.
  struct Members {
    static constexpr int kMax = 16;
    std::array<int, kMax> items{};
    int n = 0;
    void push_back(int i) {
      if (n < kMax) items[static_cast<size_t>(n)] = i;
      ++n;
    }
    size_t size() const { return static_cast<size_t>(n); }
    const int* begin() const { return items.data(); }
    const int* end() const { return items.data() + (n < kMax ? n : kMax); }
    int operator[](size_t b) const { return items[b]; }
  };
  Members members;
};

struct TileCycles {
  long long pipeline = 0;   // fold pipeline cycles
  long long with_sram = 0;  // folds stretched by the SRAM bandwidth
  long long sram_busy = 0;  // cycles the SRAM ports are busy
};

struct Timing {
  long long pipeline = 0;  // sum of fold pipeline cycles (compute + 1)
  long long total = 0;     // sum of tile steps (total + 1)
  long long sram_stall = 0, dram_stall = 0;
  long long sram_busy = 0, dram_busy = 0;
  long long edge_fill = 0;  // the first fill's window (edge transfers), part of dram_stall
};

[[noreturn]] void byte_count_overflow();  // InputError(overflow)
inline long long round_up(long long v, long long multiple) {
  return multiple <= 1 ? v : mul(ceil_div(v, multiple), multiple);
}
// Cycles to move `bytes` through a port; 0 when the port is ideal.
inline long long transfer_cycles(double bytes, const arch::Bandwidth& bw, bool ideal) {
  if (ideal || bw.unlimited || bytes <= 0) return 0;
  return static_cast<long long>(std::ceil(bytes / bw.bytes_per_cycle - 1e-9));
}
// The stream dimension's size as it runs: `logical` padded to `multiple`, except, with
// `aligned_only` (arch::Microarch::pad_stream_aligned_tiles_only), when the tiling's stream
// extent as given (`extent`: 0 or beyond `logical` = the whole dimension) is not a multiple of
// it: such a tile runs off the feeder word whatever the zeros, and the dimension is left as is.
inline long long padded_stream_size(long long logical, long long extent, long long multiple,
                                    bool aligned_only) {
  if (multiple <= 1) return logical;
  const bool whole = extent <= 0 || extent > logical;
  if (aligned_only && !whole && extent % multiple != 0) return logical;
  return round_up(logical, multiple);
}
// A double-buffered tile's cycles from its array time, the DRAM window that overlaps it
// (`window`) and that window's input reads (`reads` cycles), when `fraction` of the reads may run
// under the matrix units' work (arch::Dram::read_overlap_fraction): max(busy, window) plus
// min(matrix, ⌈(1 - fraction) x reads⌉); max(busy, window) at 1. `busy`: the tile's cycles
// stretched by the SRAM ports; `matrix`: the matrix units' own (pipeline) cycles.
struct ArrayCycles {
  long long busy = 0, matrix = 0;
};
// The window's input reads: `cycles` of them (latency + bytes) of which `fraction` may run under
// the matrix units' work, and `oversized` cycles of oversized operands' reads with their own
// `oversized_fraction` (arch::Dram::oversized_read_overlap_fraction; 0 cycles when absent).
struct Reads {
  long long cycles = 0;
  double fraction = 1;
  long long oversized = 0;
  double oversized_fraction = 1;
  // arch::Dram::window_read_overlap_fraction given: the serialised reads run within the window's
  // slack, max(window, busy + serial), instead of max(busy, window) + min(matrix, serial).
  bool within_window = false;
};
long long overlapped_cycles(const ArrayCycles& array, long long window, const Reads& reads);
// A DRAM transfer window moving `bytes` (limited bandwidth): latency + ⌈bytes / bandwidth⌉
// cycles; 0 when nothing moves.
inline long long dram_window_cycles(const arch::Dram& dram, double bytes) {
  return bytes > 0 ? add(dram.latency_cycles, transfer_cycles(bytes, dram.bandwidth, false)) : 0;
}
// A floor of the cycles `bytes` take on the DRAM channel (limited bandwidth), `share` of them on
// one channel, spread over the windows of `tiles` tiles: rounded down with a margin far above the
// rounding of doubles (search::dram_cycles_floor).
long long dram_channel_cycles_floor(const arch::Dram& dram, double bytes, double share,
                                    long long tiles);
// ⌈elements × bits / 8⌉; InputError(overflow) beyond 64 bits.
inline long long ceil_bytes(long long elements, int bits) {
  const __int128 bytes = (static_cast<__int128>(elements) * bits + 7) / 8;
  if (bytes > INT64_MAX) byte_count_overflow();
  return static_cast<long long>(bytes);
}
// Distinct elements of an operand over the whole problem: Π over its indices of ⌈size / group⌉.
long long distinct_elements(const Operand& op, const mapping::GemmShape& shape);
// Global-buffer bytes of an operand's tile with these extents (per GemmDim, each <= its size):
// the most distinct elements a tile holds, twice in a double-buffered buffer (the next tile loads
// while the current one is used) unless the tile never changes (one tile along every dimension
// the operand depends on): it is loaded once and kept, and a second copy would hold nothing.
inline long long tile_footprint_bytes(const Operand& op, const std::array<long long, 3>& tile,
                                      const std::array<long long, 3>& size, bool double_buffered) {
  long long elements = 1;
  bool changes = false;
  for (int d = 0; d < 3; ++d) {
    const long long g = op.group[d];
    if (g == 0) continue;
    elements = mul(elements, g == 1 ? tile[d] : max_distinct_groups(tile[d], g));
    changes = changes || tile[d] < size[d];
  }
  const long long bytes = ceil_bytes(elements, op.bits);
  return double_buffered && changes ? mul(bytes, 2) : bytes;
}

// The tensor whose buffering choice (Tiling::single) an operand follows: the output C, an input
// indexed by i A, any other input B.
inline mapping::BufferedTensor buffered_tensor(const Operand& op) {
  if (op.output) return mapping::BufferedTensor::kC;
  return op.group[0] > 0 ? mapping::BufferedTensor::kA : mapping::BufferedTensor::kB;
}
// Whether the operand's tile is kept twice: the buffer is double-buffered and the tiling does not
// single-buffer the operand's tensor.
inline bool double_buffered(const arch::GlobalBuffer& gb, const mapping::Tiling& tiling,
                            const Operand& op) {
  return gb.double_buffered && !tiling.single_buffered(buffered_tensor(op));
}

// Global-buffer bytes of an operand's tile as the model counts them (Model::plan_operands, the
// tiling search's capacity boundary): tile_footprint_bytes, or, when the microarchitecture's
// tiles must fit one bank of a double-buffered buffer (arch::Microarch::tile_fits_one_bank), two
// banks' worth of it whatever the tile or its buffering.
inline long long operand_footprint_bytes(const arch::AcceleratorSpec& spec, const Operand& op,
                                         const std::array<long long, 3>& tile,
                                         const std::array<long long, 3>& size,
                                         bool double_buffered) {
  if (spec.micro.tile_fits_one_bank && spec.global_buffer.double_buffered)
    return mul(tile_footprint_bytes(op, tile, size, false), 2);
  return tile_footprint_bytes(op, tile, size, double_buffered);
}

// Busy cycles of tile q on the array under the microarchitecture (arch::Microarch::active()),
// without the per-tile overhead: the per-tile law of docs/hardware.md §3b, on the busiest of the
// chip's matrix units (⌈folds / units⌉ of the tile's folds).
long long micro_tile_busy(const Plan& plan, const arch::Microarch& u, const TileIndex& q);
// The compute cycles of a plan (Model::compute_cycles, Result::cycles.compute; a count): the
// folds' pipeline cycles, or with `micro` (arch::Microarch::active(), else null) the run overhead
// plus every tile's busy cycles and overhead. A lower bound of timing().total either way.
long long compute_cycles(const Plan& plan, const arch::Microarch* micro);
// compute_cycles of a plan with several matrix units (no microarchitecture): Σ over the tiles of
// ⌈folds / units⌉ folds, plus `once`.
long long unit_compute_cycles(const Plan& plan);
// The call's fixed cost in cycles: ⌈kernel_launch_ns × clock⌉ (arch::Chip), 0 without one.
long long launch_cycles(const arch::AcceleratorSpec& spec);
// Its fold pipeline (no microarchitecture) from its parts, the one formula every search uses:
// every fold costs `base` plus the stream dimension's cycles over the folds of the other two
// (`streamed`, streamed_cycles of the stream dimension's plan), the GEMM `once` more.
// `fold_intervals` per dimension: DimPlan::fold_intervals().
// With several matrix units (plan.units > 1) a floor of it: the folds' cycles shared evenly
// (compute_cycles adds each tile's ⌈folds / units⌉; docs/hardware.md#a-chip-several-matrix-units).
inline long long fold_pipeline_cycles(const Plan& plan,
                                      const std::array<long long, 3>& fold_intervals,
                                      long long streamed) {
  const long long spatial = mul(fold_intervals[static_cast<int>(plan.dims.rows)],
                                fold_intervals[static_cast<int>(plan.dims.cols)]);
  const long long folds = mul(mul(fold_intervals[0], fold_intervals[1]), fold_intervals[2]);
  const long long work = add(mul(folds, plan.base), mul(spatial, streamed));
  return add(plan.units > 1 ? ceil_div(work, plan.units) : work, plan.once);
}
// The cycles one tile's `folds` folds of `fold_cycles` each (`stream` of them the streamed rows)
// take on the chip's units: every unit runs its share, the folds dealt out one at a time, so the
// busiest unit runs ⌈folds / units⌉; with split_stream, or every fold with ⌈stream / units⌉
// streamed rows on each unit, whichever is faster.
inline long long unit_share_cycles(const Plan& plan, long long folds, long long fold_cycles,
                                   long long stream) {
  if (plan.units <= 1) return mul(folds, fold_cycles);
  const long long dealt = mul(ceil_div(folds, plan.units), fold_cycles);
  if (!plan.split_stream) return dealt;
  return std::min(dealt, mul(folds, add(fold_cycles - stream, ceil_div(stream, plan.units))));
}
// The stream dimension's cycles summed over its tiles (Plan::stream_cycles of each tile).
long long streamed_cycles(const Plan& plan, const DimPlan& stream);
// The plan the Model constructor makes of the same problem with another tiling: `base` with
// the tile extents of `tiling` (resolved). The tiling search bounds candidates with it.
Plan retile(const Plan& base, const mapping::Tiling& tiling);
// Distinct elements of operand `op` in tile q of a plan.
inline long long tile_volume(const Plan& plan, const Operand& op, const TileIndex& q) {
  long long v = 1;
  for (int d = 0; d < 3; ++d) {
    const DimPlan& dp = plan.dim[d];
    if (op.group[d] > 0)
      v = mul(v, interval_weight(dp.tile_start(q[d]), dp.tile_extent(q[d]), op.group[d]));
  }
  return v;
}

// The members of a global-buffer partition to keep resident (Model::choose_residency; bit b:
// member b, n <= 16): of the subsets that hold the `required` members and whose footprints (not
// negative) fit `capacity` (any with `unlimited`), the one moving the fewest DRAM bytes (the sum
// over the members, in their order, of kept[b] or streamed[b]), the most members among equal
// ones, the lowest mask among those; nothing when none fits. InputError(overflow) when the
// footprints' sum does not fit in 64 bits. cheapest_subset_reference sums every subset on its
// own; cheapest_subset (the same choice) builds the sums over prefixes of the members.
struct SubsetInput {
  int n = 0;
  const double* kept = nullptr;
  const double* streamed = nullptr;
  const long long* footprint = nullptr;
  unsigned required = 0;
  long long capacity = 0;
  bool unlimited = false;
};
std::optional<unsigned> cheapest_subset(const SubsetInput& in);
std::optional<unsigned> cheapest_subset_reference(const SubsetInput& in);

// The index (in key order) of the global-buffer partition whose `holds` lists the role (the
// last such), -1 if none does.
int holding_partition(const arch::GlobalBuffer& gb, workload::OperandRole role);

// How much to build. The tiling search validates the problem once, bounds candidates by
// compute_cycles(), which needs the plan only, and builds its candidates from the plan of
// another tiling of the same problem and options (`base`, another model's plan(), of the same
// dataflow): retiled (detail::retile), not derived again.
struct ModelBuild {
  bool validate = true;        // hw::validate(problem) first
  bool operands = true;        // plan the operands and their residency (all but the plan)
  const Plan* base = nullptr;  // retile this plan (the problem is then not validated)
};

class Model {
 public:
  using Build = ModelBuild;
  Model(const arch::Accelerator& acc, const GemmProblem& problem, mapping::Dataflow dataflow,
        const mapping::Tiling& tiling, const Options& options, Build build = {});

  const Plan& plan() const { return plan_; }
  // (in place up to a few operands or partitions: no allocation per model)
  using OperandPlans = InlineVector<OperandPlan, 6>;
  using PartitionPlans = InlineVector<PartitionPlan, 4>;
  const OperandPlans& operands() const { return ops_; }
  long long dram_bytes() const;  // Result::dram_bytes (all tensors), without the timing
  long long tiles() const;
  long long folds() const;
  // Closed form, without stalls (SCALE-Sim total; with the microarchitecture its busy time and
  // overheads): Result::cycles.compute, a count.
  long long compute_cycles() const;
  Timing timing() const;
  // timing() with every DRAM window from dram_window, none from the per-call table (the same
  // timing; tests compare the two).
  Timing reference_timing() const;
  // What the tiling search's floors (src/hw/search/model_floors.cpp) read.
  const arch::Accelerator& accelerator() const { return acc_; }
  const Options& options() const { return options_; }
  const PartitionPlans& partitions() const { return partitions_; }
  bool micro() const { return micro_; }
  bool dram_priced() const;  // whether DRAM transfers take time at all
  long long tile_volume(const OperandPlan& x, const TileIndex& q) const;
  struct EdgeCycles {
    long long fill = 0, drain = 0;
  };
  EdgeCycles edge_transfer_cycles() const;  // the first fill's and the last drain's windows
  // False when operands that must be SRAM-resident (arch::Microarch::sram_resident) do not fit:
  // the tiling search skips such a tiling; result() throws InputError(range, "tile").
  bool feasible() const { return !misfit_; }
  // Why not (the first partition that breaks the rule); nothing when feasible.
  const std::optional<Misfit>& misfit() const { return misfit_; }
  // Result::energy_pj without the timing (needs Build::operands); result() uses it.
  EnergyBreakdown energy() const;
  Result result() const;
  // The same with the timing given: timing() of this model, or of one built alike (the tiling
  // search's of the tiling it chose, the same plan and operands), not computed again.
  Result result(const Timing& timed) const;
  // Result::tensors alone (no timing, which they do not depend on); InputError as result().
  std::vector<TensorResult> tensors() const;

 private:
  void plan_tensors(const GemmProblem& problem);  // the operands and their residency
  void require_feasible() const;                  // InputError(range, "tile") naming the misfit
  Result report(const Timing* timed) const;       // result(), with the timing given or not
  void fill_cycles(Result& r, const Timing& t) const;
  std::vector<TensorResult> tensor_results(long long macs) const;
  // Result::array_use of a result whose cycles are filled (src/hw/array_use.cpp).
  ArrayUse array_use(const Result& r) const;
  TensorResult tensor_result(const OperandPlan& x, long long macs) const;
  void fill_accesses(TensorResult& tr, const OperandPlan& x, long long macs) const;  // but name

  void plan_operands();
  void choose_residency();
  long long tile_stream(const OperandPlan& x, const TileIndex& q) const;
  std::optional<TileIndex> next_tile(const TileIndex& q) const;
  std::optional<TileIndex> prev_tile(const TileIndex& q) const;
  long long fold_port_cycles(const std::array<long long, 3>& lengths) const;
  TileCycles time_tile(const TileIndex& q) const;
  Timing run_timing(bool tables) const;  // timing(), the windows from the table when `tables`

  // What moves between DRAM and the buffer. A window's transfers (for_each_window_transfer):
  // operands that are not resident stream their fold traffic (kStream, `elements`), a resident
  // operand's tile is read (kRead) or written back (kWrite).
  enum class Move { kStream, kRead, kWrite };
  template <typename F>
  void for_each_window_transfer(const TileIndex& q, F&& f) const;  // f(i, move, tile, elements)
  // The edge transfers (the first tile's loads, the last tile's write-back): f(i, move, tile,
  // fill), `fill` true for the first tile's.
  template <typename F>
  void for_each_edge_transfer(F&& f) const;
  // A window's traffic and its price: element bytes over the DRAM channel, or with the
  // microarchitecture's DMA engine per command, burst and beat (docs/hardware.md §3b).
  struct DmaCost {
    long long commands = 0;  // DMA commands (contiguous runs)
    long long read = 0;      // read-channel cycles (latency and transfer)
    long long write = 0;     // write-channel cycles
    double bytes = 0;        // bytes moved (whole beats)
  };
  struct Traffic {
    double bytes = 0;     // element bytes (no DMA engine: the whole window)
    DmaCost dma;          // DMA engine: resident tiles' transfers
    double streamed = 0;  // DMA engine: streamed operands' element bytes
  };
  void add_move(Traffic& t, const OperandPlan& x, Move move, const TileIndex& tile,
                long long elements) const;
  long long traffic_cycles(const Traffic& t) const;
  // The DRAM window of tile q: overlapped, the transfers that overlap its folds (double-buffered
  // tiles, streamed operands); exposed, those of single-buffered tiles (before its folds).
  struct Window {
    long long overlapped = 0, exposed = 0;
    detail::Reads reads;  // the overlapped transfers' input reads alone (latency + bytes)
  };
  // What every window of a run shares (Model::timing works it out once): whether transfers take
  // time, the global buffer's double buffering and the share of the input reads that overlaps
  // the array's work (arch::Dram's read overlap fractions; split_reads: some share is below 1).
  struct WindowRule {
    bool priced = false, buffered = false, split_reads = false;
    double fraction = 1;
    std::optional<double> oversized_fraction;
    bool within_window = false;
  };
  WindowRule window_rule() const;
  Window dram_window(const TileIndex& q, const WindowRule& rule) const;
  // dram_window without the microarchitecture, from each operand's tile volumes and fold traffic
  // along each dimension at the tiles the windows of the tile classes name, worked out once per
  // timing() (WindowTable): the same windows. window_table is false (the
  // table not filled) with the microarchitecture or more than WindowTable::kOps operands.
  struct WindowTable;
  bool window_table(WindowTable& table, const WindowRule& rule) const;
  Window table_window(const WindowTable& table, const TileIndex& q, const WindowRule& rule) const;
  bool oversized_operand(const OperandPlan& x) const;
  // One tile of the run: its busy (pipeline) cycles, stretched by the SRAM ports, the ports' busy
  // cycles: the folds' pipeline (§3) or the microarchitecture's per-tile law (§3b).
  TileCycles tile_busy(const TileIndex& q) const;

  void add_transfer(DmaCost& cost, const OperandPlan& x, const TileIndex& q, bool write) const;
  // The contiguous DRAM runs of operand x's tile q: how many, the elements of each and, when the
  // operand is placed (OperandPlan::dram_base), the byte address of the first and the address
  // step between runs (first < 0: every run starts on a beat and burst boundary).
  struct Runs {
    long long count = 1, elements = 0;
    long long first = -1, stride = 0;
  };
  Runs dram_runs(const OperandPlan& x, const TileIndex& q) const;
  // The runs' beats and bursts in total (a run straddling a boundary takes one more of each).
  struct RunBeats {
    long long beats = 0, bursts = 0;
  };
  RunBeats run_beats(const Runs& runs, int bits) const;
  // bytes on the bus: reads in whole beats per run, writes their bytes (masked beats)
  long long bus_bytes(const OperandPlan& x, const TileIndex& q, bool write) const;
  // With a DMA engine: the bytes each operand moves on the DRAM bus (every transfer of the
  // windows and both edges: bus_bytes; streamed operands their element bytes).
  std::vector<long long> operand_bus_bytes() const;
  long long dma_cycles(const DmaCost& cost) const;

  const arch::Accelerator& acc_;
  Options options_;
  Plan plan_;
  OperandPlans ops_;
  PartitionPlans partitions_;
  std::optional<Misfit> misfit_;  // why the tiling is not feasible (none if it is)
  bool micro_ = false;            // arch::Microarch::active(): the §3b path
  bool dma_ = false;              // micro_ and its DMA engine (arch::Microarch::dma.enabled)
  TileIndex last_{};              // the last tile: plan_.dim[d].tiles() - 1 per dimension
};

}  // namespace tenet::hw::detail
