// The hardware description of a spatial accelerator: PE array, interconnect, per-PE register
// file, global buffer (SRAM), DRAM, clock, MAC throughput per precision and an energy table.
//
// AcceleratorSpec is the plain description (what the JSON format holds, after defaults);
// Accelerator is the validated, immutable value built from it. Every rule violation throws an
// InputError whose `where` is the JSON pointer of the field in the architecture file format
// (docs/schema/arch.schema.json), so errors read the same from a file or from code.
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tenet/arch/architecture.hpp"
#include "tenet/arch/energy_table.hpp"
#include "tenet/arch/serving.hpp"

namespace tenet::arch {

// How PEs are linked; each kind yields the TENET-level interconnect (source -> destination).
enum class InterconnectKind {
  kSystolic,         // PE[x,y] -> PE[x+1,y] and PE[x,y+1] (data flows down and right)
  kMesh,             // the four nearest neighbours, both directions
  kRowBroadcast,     // a bus per row: PE[x,y] -> PE[x,y'] (y' != y)
  kColumnBroadcast,  // a bus per column: PE[x,y] -> PE[x',y] (x' != x)
  kMulticast,        // row and column buses together
  kChain,            // a 1-D chain in row-major order: PE[x,y] -> PE[x,y+1], PE[x,C-1] -> PE[x+1,0]
  kCustom,           // an isl map written by the user (intersected with the PE domain)
};
const char* to_string(InterconnectKind k);
InterconnectKind parse_interconnect_kind(const std::string& name);  // InputError(unknown-name)

struct Interconnect {
  InterconnectKind kind = InterconnectKind::kSystolic;
  std::string custom_map;  // isl map "{ PE[x,y] -> PE[...] }", only for kCustom
  friend bool operator==(const Interconnect& a, const Interconnect& b) {
    return a.kind == b.kind && a.custom_map == b.custom_map;
  }
};

// MAC throughput of one PE at a precision: `macs_per_cycle` MACs every cycle (precision-scalable
// PEs pack several narrow MACs), or one MAC every `cycles_per_mac` cycles. One of them is 1.
struct MacRate {
  long long macs_per_cycle = 1;
  long long cycles_per_mac = 1;
  friend bool operator==(const MacRate& a, const MacRate& b) {
    return a.macs_per_cycle == b.macs_per_cycle && a.cycles_per_mac == b.cycles_per_mac;
  }
};

// Bytes per cycle, or unlimited (an ideal port that never stalls).
struct Bandwidth {
  bool unlimited = true;
  double bytes_per_cycle = 0;
  static Bandwidth infinite() { return {}; }
  static Bandwidth of(double bytes) { return {false, bytes}; }
  friend bool operator==(const Bandwidth& a, const Bandwidth& b) {
    return a.unlimited == b.unlimited && (a.unlimited || a.bytes_per_cycle == b.bytes_per_cycle);
  }
};

// A separate SRAM holding the operands of some roles ("activation", "weight", "output",
// "scale", "zero", "other"); a role is held by at most one partition.
struct BufferPartition {
  long long bytes = 0;
  Bandwidth bandwidth;  // array-side bandwidth of this partition
  std::vector<std::string> holds;
  friend bool operator==(const BufferPartition& a, const BufferPartition& b) {
    return a.bytes == b.bytes && a.bandwidth == b.bandwidth && a.holds == b.holds;
  }
};

// The global buffer: one shared SRAM (partitions empty) or named partitions.
struct GlobalBuffer {
  long long bytes = 0;  // shared capacity (only when partitions is empty)
  Bandwidth bandwidth;  // shared array-side bandwidth (only when partitions is empty)
  std::map<std::string, BufferPartition> partitions;
  bool double_buffered = true;  // a resident tile needs twice its size (fill/drain overlap)
  // The buffer's row in elements: a tensor kept whole (a materialised attention score tensor,
  // docs/model.md#fused-kernels) has its minor dimension padded to a multiple of it, on chip and
  // in DRAM (TPU: the 128 lanes of a vector register row). Default 1: no padding.
  long long row_elements = 1;
  friend bool operator==(const GlobalBuffer& a, const GlobalBuffer& b) {
    return a.bytes == b.bytes && a.bandwidth == b.bandwidth && a.partitions == b.partitions &&
           a.double_buffered == b.double_buffered && a.row_elements == b.row_elements;
  }
};

struct Dram {
  Bandwidth bandwidth;
  long long latency_cycles = 0;  // added to every DRAM transfer window
  // Across the matmuls of a pass (model, log, generate): the next matmul's first DRAM fill may
  // load while the current matmul runs, in the cycles its own DRAM traffic leaves the link idle
  // (docs/hardware.md#edge-transfers). Off: each matmul's fill is exposed.
  bool prefetch_across_matmuls = false;
  // The share of a tile's input reads (DRAM to buffer) that runs under the array's work on a
  // double-buffered buffer (docs/hardware.md#read-overlap). 1: reads and folds fully pipeline (a
  // tile lasts the longer of its array time and its DRAM window). Below 1 the rest of the reads'
  // cycles and the array's cycles exclude each other, as on a chip whose DMA into the buffer and
  // the matrix units' operand loads contend for its banks: a tile lasts the longer plus the
  // shorter of its array time and (1 - share) x its reads' cycles. Output write-backs overlap.
  double read_overlap_fraction = 1;
  // The same share for the reads of an operand too large for the on-chip buffer (its whole size
  // at least global_buffer.bytes), which the chip can only stream in pipelined tiles
  // (docs/hardware.md#read-overlap). Absent: read_overlap_fraction for every operand.
  std::optional<double> oversized_read_overlap_fraction;
  // With it, a matmul tile's reads that do not overlap the array cost only what the DRAM window's
  // slack does not absorb (docs/hardware.md#read-overlap): the array waits for them while the link
  // keeps moving the tile's other transfers (write-backs, overlapped reads), max(W, B + serial),
  // where this is the share of the (fitting) operands' reads that overlaps the array (the
  // oversized ones keep oversized_read_overlap_fraction). Absent: max(B, W) + min(P, serial) with
  // read_overlap_fraction (today's law). The fused MLP keeps read_overlap_fraction.
  std::optional<double> window_read_overlap_fraction;
  friend bool operator==(const Dram& a, const Dram& b) {
    return a.bandwidth == b.bandwidth && a.latency_cycles == b.latency_cycles &&
           a.prefetch_across_matmuls == b.prefetch_across_matmuls &&
           a.read_overlap_fraction == b.read_overlap_fraction &&
           a.oversized_read_overlap_fraction == b.oversized_read_overlap_fraction &&
           a.window_read_overlap_fraction == b.window_read_overlap_fraction;
  }
};

// Microarchitecture terms of a real array (docs/hardware.md, "Microarchitecture"). Every default
// is today's idealised behaviour; Microarch::active() is false when all are defaults, and the
// hardware model then takes exactly its SCALE-Sim-compatible path.
struct DmaEngine {
  bool enabled = false;              // windows priced by the DMA law below (else bytes / bandwidth)
  long long command_cycles = 0;      // per DMA command (one per contiguous DRAM run)
  long long max_burst_bytes = 0;     // 0 = unlimited (a run is one burst)
  long long beat_bytes = 1;          // every run moves whole beats
  long long outstanding_bursts = 0;  // per direction; 0 = unlimited (latency paid once per run)
  long long burst_latency_cycles = 0;  // per batch of outstanding bursts, beside DRAM latency
  bool separate_channels = false;      // reads and writes transfer at once (commands serial)
  // Duty-cycled DRAM: after every throttle_bytes of a burst (at the DRAM bandwidth) the channel
  // idles throttle_gap_cycles. 0 = no throttle.
  long long throttle_bytes = 0;
  long long throttle_gap_cycles = 0;
  // Cycles to program the next command's registers, done while the current run transfers: a
  // run costs command_cycles + max(command_setup_cycles, its transfer). 0 = no such overlap.
  long long command_setup_cycles = 0;
  friend bool operator==(const DmaEngine& a, const DmaEngine& b) {
    return a.enabled == b.enabled && a.command_cycles == b.command_cycles &&
           a.max_burst_bytes == b.max_burst_bytes && a.beat_bytes == b.beat_bytes &&
           a.outstanding_bursts == b.outstanding_bursts &&
           a.burst_latency_cycles == b.burst_latency_cycles &&
           a.separate_channels == b.separate_channels && a.throttle_bytes == b.throttle_bytes &&
           a.throttle_gap_cycles == b.throttle_gap_cycles &&
           a.command_setup_cycles == b.command_setup_cycles;
  }
};

// How an operand lies in DRAM: the GEMM dimension ("m", "n" or "k") that is contiguous, or a
// per-tile re-layout (each tile one contiguous run). Empty contiguous = one run per tile.
struct DramLayout {
  std::string contiguous;
  bool retiled = false;
  friend bool operator==(const DramLayout& a, const DramLayout& b) {
    return a.contiguous == b.contiguous && a.retiled == b.retiled;
  }
};

struct Microarch {
  // Accumulators double-buffered: a fold costs max(stream, drain) instead of stream + fill/drain.
  bool accumulator_double_buffered = false;
  long long drain_cycles = 0;         // P0: per fold, partial sums not reloaded
  long long drain_cycles_reload = 0;  // P1: per fold, partial sums reloaded (K split over tiles)
  long long tile_fill_drain_cycles = -1;  // D: exposed per tile; -1 = the per-fold pipeline base
  long long min_tile_cycles = 0;          // Fmin: floor of a tile's busy time
  long long tile_overhead_cycles = 0;     // S: per tile (synchronisation), not overlapped
  long long run_overhead_cycles = 0;      // C0: once per matmul (configuration)
  DmaEngine dma;
  std::map<std::string, DramLayout> layouts;  // by role (activation, weight, output, ...)
  // Operands packed one after another in DRAM (in the problem's operand order, the first at a
  // multiple of dma.max_burst_bytes): a run of a laid-out operand starts where its elements lie,
  // so it may straddle beats and burst boundaries. False: every run starts on a boundary.
  bool packed_placement = false;
  bool accumulate_from_dram = false;  // outputs read from DRAM at every output-tile start
  bool pad_to_array = false;          // row / column dimensions padded to the array edges
  long long pad_stream_multiple = 1;  // stream dimension padded to a multiple of this
  // Pad the stream dimension only when the tiling's stream tile is a multiple of
  // pad_stream_multiple (or covers the whole dimension): a tile off the word runs unpadded.
  bool pad_stream_aligned_tiles_only = false;
  long long feeder_word = 1;    // stream elements per feeder word
  double unaligned_factor = 1;  // stream time x this when not whole feeder words
  // Array stall cycles per streamed cycle of a fold whose stream is not whole feeder words (the
  // general feeder path), added to the tile's busy time.
  double unaligned_stall_cycles = 0;
  std::vector<std::string> sram_resident;  // roles that must be resident (no DRAM streaming)
  bool tile_fits_one_bank = false;         // a resident tile always takes two banks

  bool active() const;
  friend bool operator==(const Microarch& a, const Microarch& b);
};

// The chip around the PE array (docs/hardware.md#a-chip-several-matrix-units): `count` identical
// matrix units, each a PE array of `rows` x `cols` with the file's dataflow and precisions, sharing
// the global buffer (its capacity and array-side ports) and the one DRAM link; every tile's folds
// are spread over the units. `kernel_launch_ns`: the fixed cost of one kernel call (dispatch,
// synchronisation), paid once per matmul before anything moves. The defaults (1 unit, 0 ns) are
// the one-array accelerator of every file without "matrix_units" / "kernel_launch_ns".
// `fuse_mlp` ("fusion": {"mlp": true}): the chip's compiler runs a dense MLP as one fused kernel
// (docs/hardware.md#fusion); model passes then cost it as `tenet kernel --ffn`. Default false.
// `mlp_resident_bytes` ("fusion": {"mlp_resident_bytes": N}): the most bytes of MLP weights (W1,
// W2 and biases in storage format) the compiler keeps resident on chip to fuse the MLP; an MLP
// whose weights exceed it runs as its matmuls one after another in the one call (the
// intermediate through DRAM: docs/model.md#fused-kernels). -1 (absent): no limit, every MLP fused.
// `mlp_weights_whole` ("fusion": {"mlp_weights_whole": true}): a resident MLP's weights each arrive
// as one transfer (W1 then W2) and a matmul starts only when all of its weights have arrived: the
// up matmuls wait for X's first block and W1, the down matmuls for W2
// (docs/model.md#fused-kernels). Default false: the weights stream fold by fold under the units'
// work. `mlp_block_ns` ("fusion": {"mlp_block_ns": t}): a resident MLP's fixed cost of each token
// block after the first (one step of the compiled program's loop over the blocks: the scalar core's
// synchronisation and DMA issue), ns, on the units' side (serial with their work). Default 0.
// `attention` ("fusion": {"attention": {...}}): the chip's own fused attention kernel as its
// compiler builds it (docs/hardware.md#fusion, docs/model.md#fused-kernels). The defaults (all
// zero / false) leave the blocking to the search and time the kernel as every other accelerator:
//  - query_block: its query block (0: the search chooses). Blocks of min(query_block, Q) queries,
//    the last one padded: the array and the vector unit compute whole blocks.
//  - back_to_back: a stage's tiles stream through the array back to back: the pipeline's fill and
//    drain once per stage, each fold max(stream, weight load) when the held operand is
//    double-buffered (stream + load otherwise), instead of every fold's fill and drain.
//  - serial_softmax: the array and the vector unit take turns (Q·Kᵀ, softmax, P·V of a block
//    one after another), their busy cycles add instead of overlapping.
//  - block_ns, row_ns, call_ns: fixed costs of the kernel, ns: per (KV head, query block) step,
//    per computed query row and query head (both on the compute side, under the K/V stream), per
//    call (beyond kernel_launch_ns).
//  - softmax_ops_per_score: the vector unit's operations per score of the online softmax (0: the
//    generic 5, llm::detail::kSoftmaxOps; TPU: 4, the exp on its own transcendental unit).
//  - ramp_keys, ramp_ns_per_key: the K/V pipeline's ramp: each query block's first ramp_keys
//    computed keys cost ramp_ns_per_key more each, after everything else (0: none).
struct AttentionKernelSpec {
  long long query_block = 0;
  bool back_to_back = false;
  bool serial_softmax = false;
  double block_ns = 0, row_ns = 0, call_ns = 0;
  long long softmax_ops_per_score = 0;
  long long ramp_keys = 0;
  double ramp_ns_per_key = 0;
  friend bool operator==(const AttentionKernelSpec& a, const AttentionKernelSpec& b) {
    return a.query_block == b.query_block && a.back_to_back == b.back_to_back &&
           a.serial_softmax == b.serial_softmax && a.block_ns == b.block_ns &&
           a.row_ns == b.row_ns && a.call_ns == b.call_ns &&
           a.softmax_ops_per_score == b.softmax_ops_per_score && a.ramp_keys == b.ramp_keys &&
           a.ramp_ns_per_key == b.ramp_ns_per_key;
  }
  bool active() const { return !(*this == AttentionKernelSpec{}); }
};

// Materialised attention as the chip's compiler emits it ("fusion": {"materialised_attention":
// {...}}; docs/hardware.md#fusion, docs/model.md#fused-kernels). The defaults leave the model of
// materialised scores as it is on every accelerator without the key:
//  - load_filled_rows: a fold's held tile shifts in through the rows it fills (a Kᵀ or V tile
//    of D = 32 rows: 32 cycles), not through all R rows of the array; a fold then costs
//    max(stream, filled rows) with double-buffered held operands (stream + filled rows without).
//  - head_ns: every query head (and query block) of the kernel takes at least this long on the
//    chip — one iteration of the compiled program's loop over heads, its matmuls' and softmax's
//    issue — pipelined with the units' work: the busy time is at least heads × head_ns.
struct MaterialisedAttentionSpec {
  bool load_filled_rows = false;
  double head_ns = 0;
  friend bool operator==(const MaterialisedAttentionSpec& a, const MaterialisedAttentionSpec& b) {
    return a.load_filled_rows == b.load_filled_rows && a.head_ns == b.head_ns;
  }
  bool active() const { return !(*this == MaterialisedAttentionSpec{}); }
};

struct Chip {
  long long matrix_units = 1;
  // A tile's streamed rows may be split over the units instead of its folds
  // (matrix_units.split_stream; docs/hardware.md#a-chip-several-matrix-units): each unit runs every
  // fold on its share of the stream, and the tile takes the faster of the two splits.
  bool split_stream = false;
  double kernel_launch_ns = 0;
  // The latency rule's near-tie window in percent (compiler.tiling_near_tie_percent;
  // docs/hardware.md, "The latency rule"): auto tiling takes, among the tilings at most this much
  // slower than the fastest, the one moving the fewest DRAM bytes. 0: the fastest tiling (a
  // compiler that autotunes for time).
  long long tiling_near_tie_percent = 2;
  bool fuse_mlp = false;
  long long mlp_resident_bytes = -1;
  bool mlp_weights_whole = false;
  double mlp_block_ns = 0;
  AttentionKernelSpec attention;
  // How the chip's compiler runs non-causal (encoder) attention when the caller does not say:
  // "on_chip" (a fused online-softmax kernel), "materialised" (S and P of every head whole) or
  // "dram" (fusion.non_causal_attention; docs/hardware.md#fusion).
  std::string non_causal_scores = "on_chip";
  MaterialisedAttentionSpec materialised;
  friend bool operator==(const Chip& a, const Chip& b) {
    return a.matrix_units == b.matrix_units && a.split_stream == b.split_stream &&
           a.kernel_launch_ns == b.kernel_launch_ns &&
           a.tiling_near_tie_percent == b.tiling_near_tie_percent && a.fuse_mlp == b.fuse_mlp &&
           a.mlp_resident_bytes == b.mlp_resident_bytes &&
           a.mlp_weights_whole == b.mlp_weights_whole && a.mlp_block_ns == b.mlp_block_ns &&
           a.attention == b.attention && a.non_causal_scores == b.non_causal_scores &&
           a.materialised == b.materialised;
  }
};

struct AcceleratorSpec {
  std::string name;
  std::string comment;  // free text
  std::string source;   // where the figures come from
  long long rows = 0, cols = 0;
  Interconnect interconnect;
  double clock_mhz = 1000;
  long long register_file_bytes = 0;  // per PE
  // The PEs hold two copies of the stationary operand (ws: weights, is: inputs): the next fold's
  // stationary tile shifts in while the current fold computes, so only the first fold's preload
  // is exposed (TPU v1's double-buffered weight registers). No effect under os.
  bool stationary_double_buffered = false;
  // The dataflow this accelerator runs ("os", "ws", "is"; empty: none declared, the commands'
  // default applies). A request's dataflow overrides it.
  std::string dataflow;
  std::map<workload::DataType, MacRate> precisions;  // supported MAC precisions
  // `pe.float_on_integer`: the integer MAC precision that float operands may run on when no
  // float MAC holds them (values converted to fixed point outside the model). None: a float
  // never runs on integer MACs.
  std::optional<workload::DataType> float_on_integer;
  GlobalBuffer global_buffer;
  Dram dram;
  EnergyTable energy;
  std::string file;     // the file the spec was read from (empty: built in code); not compared
  ServingSpec serving;  // vector unit, DRAM capacity, link (arch/serving.hpp)
  Microarch micro;
  Chip chip;  // matrix units and the call's fixed cost (default: one array, no cost)

  friend bool operator==(const AcceleratorSpec& a, const AcceleratorSpec& b);
};

// Fills energy.mac_pj for every supported precision that has a 45 nm default and no value yet.
AcceleratorSpec with_energy_defaults(AcceleratorSpec spec);

class Accelerator {
 public:
  // Validates the spec (sizes > 0, a known interconnect with a parsable custom map, a MAC rate and
  // a MAC energy for every precision, energies >= 0, ...). Throws InputError naming the field.
  explicit Accelerator(AcceleratorSpec spec);

  const AcceleratorSpec& spec() const { return spec_; }
  const std::string& name() const { return spec_.name; }
  long long rows() const { return spec_.rows; }
  long long cols() const { return spec_.cols; }

  // The TENET-level view: PE domain { PE[x,y] : 0<=x<rows and 0<=y<cols }, the interconnect of
  // the configured kind, scratchpad bandwidth = the array-side SRAM bandwidth in bits/cycle.
  Architecture architecture() const;

  // The MAC precision used for operands of at most `bits` bits: the first supported precision,
  // in the order int4 int8 fp8_e4m3 fp8_e5m2 fp16 bf16 int16 fp32 int32, whose width is >= bits;
  // else the narrowest other supported format that wide.
  // Throws InputError(unknown-name, "/pe/precisions") if there is none.
  workload::DataType select_precision(int bits) const;
  // The MAC precision that multiplies operands of type `wanted` (docs/hardware.md#precisions):
  // `wanted` if supported; else the narrowest supported precision of the same kind (integer or
  // float) at least as wide; an integer type without one runs on the narrowest float MAC that
  // holds its values exactly; a float type without one runs on `float_on_integer` if the file
  // declares it and it is at least as wide. Otherwise InputError(unknown-name, file,
  // "/pe/precisions") naming the accelerator, its file and the precision it lacks.
  workload::DataType mac_precision_for(const workload::DataType& wanted) const;
  // Throws InputError(unknown-name, "/pe/precisions/<name>") if the precision is not supported.
  const MacRate& mac_rate(const workload::DataType& precision) const;
  double mac_energy_pj(const workload::DataType& precision) const;

  friend bool operator==(const Accelerator& a, const Accelerator& b) { return a.spec_ == b.spec_; }
  friend bool operator!=(const Accelerator& a, const Accelerator& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const Accelerator& a);

 private:
  AcceleratorSpec spec_;
};

// An R x C systolic array with ideal memories: unlimited SRAM and DRAM bandwidth, no DRAM
// latency, a 2^62-byte shared buffer, 1 MAC per PE per cycle at int8, fp16, fp32 and int32 (the
// precisions with 45 nm MAC energies), 1 GHz. With it evaluate_gemm reproduces SCALE-Sim v2's
// stall-free cycles and SRAM reads. Throws InputError(range | overflow, "", "array") for sizes
// <= 0 or >= 2^30.
Accelerator make_ideal_systolic(long long rows, long long cols);

// The global buffer's capacity: the shared bytes, or the sum of the partitions.
long long buffer_total(const GlobalBuffer& gb);
// Sets the capacity to `total` bytes: the shared bytes, or split over the partitions in their
// current proportions (floors; the remainder to the last; at least 1 byte each).
void set_buffer_bytes(GlobalBuffer& gb, long long total);
// The same accelerator with a global buffer of `total` bytes (InputError(range, "buffer_bytes")
// when the accelerator cannot take it).
Accelerator with_buffer_bytes(const Accelerator& acc, long long total);

// The same accelerator with another PE array shape (the `--array RxC` override).
Accelerator with_array_shape(const Accelerator& acc, long long rows, long long cols);

}  // namespace tenet::arch
