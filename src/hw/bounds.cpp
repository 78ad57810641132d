#include "tenet/hw/bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "detail/checked_int.hpp"
#include "hw/bounds_format.hpp"
#include "hw/bounds_panel.hpp"

namespace tenet::hw {
namespace {

using regimes::panel_bound;
using regimes::PanelOf;
using regimes::Regimes;
using regimes::whole_above;
using regimes::whole_below;
using ::tenet::detail::checked_add;
using ::tenet::detail::checked_mul;

constexpr long long kUnlimited = -1;
// A buffer at least this large holds any GEMM a 64-bit count can describe: treated as unlimited.
constexpr long long kHugeBuffer = 1LL << 62;

long long extent(const mapping::GemmShape& s, int d) { return d == 0 ? s.m : d == 1 ? s.n : s.k; }

// Distinct elements of an operand: per GEMM index it depends on, ceil(extent / group).
long long elements(const mapping::GemmShape& shape, const Operand& op) {
  long long n = 1;
  for (int d = 0; d < 3; ++d)
    if (op.group[d] > 0) {
      const long long distinct = (extent(shape, d) + op.group[d] - 1) / op.group[d];
      std::int64_t product = 0;  // the figure's name built only for the overflow error
      if (!::tenet::detail::mul_fits(n, distinct, product))
        checked_mul(n, distinct, {"elements of " + op.name});
      n = product;
    }
  return n;
}

long long bytes_of(long long elements, int bits) {
  const long long b = checked_mul(elements, bits, {"bits of a tensor"});
  return b / 8 + (b % 8 != 0);
}

// Whether the operand depends on exactly the GEMM indices marked in `uses` (groups of any size).
bool depends_on(const Operand& op, std::array<bool, 3> uses) {
  for (int d = 0; d < 3; ++d)
    if ((op.group[d] > 0) != uses[d]) return false;
  return true;
}

long long group_product(const Operand& op) {
  long long g = 1;
  for (long long e : op.group) g *= std::max(1LL, e);
  return g;
}

// The operands the data-movement term is about: the data of A[i,k], B[k,j] and C[i,j] (packed
// words included: a word indexed by floor(k/g) holds g values); scale and zero tensors are not.
struct Triple {
  const Operand* a = nullptr;
  const Operand* b = nullptr;
  const Operand* c = nullptr;
};

// Bytes per value of a (possibly packed) operand: a word of `bits` holds group_product values.
long double value_bytes(const Operand& op) {
  return op.bits / 8.0L / static_cast<long double>(group_product(op));
}

Triple find_triple(const GemmProblem& problem) {
  Triple t;
  const auto better = [](const Operand* have, const Operand& op) {
    return !have || group_product(op) < group_product(*have);
  };
  for (const Operand& op : problem.operands) {
    if (op.role == workload::OperandRole::kScale || op.role == workload::OperandRole::kZero)
      continue;
    if (op.output && depends_on(op, {true, true, false}) && better(t.c, op)) t.c = &op;
    if (!op.output && depends_on(op, {true, false, true}) && better(t.a, op)) t.a = &op;
    if (!op.output && depends_on(op, {false, true, true}) && better(t.b, op)) t.b = &op;
  }
  return t;
}

// The global buffer's bytes, every partition together (capped: a buffer this large is unlimited).
long long buffer_bytes(const arch::Accelerator& acc) {
  const arch::GlobalBuffer& gb = acc.spec().global_buffer;
  long long bytes = gb.bytes;
  for (const auto& [name, partition] : gb.partitions)
    bytes = checked_add(bytes, partition.bytes, {"global buffer bytes"});
  return std::min(bytes, kHugeBuffer);
}

// Regime (i): C's tile (rows x cols) stays in the buffer, double-buffered, while K is accumulated;
// A is read a = ceil(N/cols) times, B b times (tiles of rows = ceil(M/b)). Beside C's tile the
// buffer holds a chunk of B (at least cols values) or of A (rows values), unless that input
// streams through the PE array without a buffered tile: then it is read at least once per fold,
// ceil(N/span) or ceil(M/span) times (or, as the stationary input of ws / is, once per tile of the
// streamed dimension, while the other input's chunk is in the buffer). Each case in whole numbers
// of tiles: exact over a window of b around the minimum b_min of the convex continuous relaxation
// f(b) = A·max(1, N·w_C·M / (b·S)) + B·b, which is below every case; outside the window f at the
// window's edge bounds them from below.
double accumulated_bound(const Regimes& r, bool c_whole_fits) {
  const double a_bytes = r.a_bytes, b_bytes = r.b_bytes, m = r.m, n = r.n, wa = r.wa, wb = r.wb,
               wc = r.wc, span = r.span, capacity = r.capacity;
  constexpr double kNone = std::numeric_limits<double>::infinity();
  const auto f = [&](double b) {
    return a_bytes * std::max(1.0, n * wc * m / (b * capacity)) + b_bytes * b;
  };
  // A read ceil(N/cols) times with C's tile as wide as fits beside a chunk of B (cols·w_B) or of A
  // (rows·w_A): the wider of the two.
  const auto g = [&](double b) {
    const double rows = whole_above(m / b);
    const double beside_b = whole_below(capacity / (rows * wc + wb));
    const double beside_a = whole_below((capacity - rows * wa) / (rows * wc));
    const double cols = std::min(n, std::max(beside_b, beside_a));
    if (cols < 1) return kNone;
    return a_bytes * whole_above(n / cols) + b_bytes * b;
  };
  const double b_min =
      std::min(std::sqrt(a_bytes * n * wc * m / (capacity * b_bytes)), n * wc * m / capacity);
  const double lo = std::min(m, std::max(1.0, std::floor(b_min) - 16));
  const double hi = std::min(m, std::max(1.0, std::ceil(b_min) + 16));
  double best = kNone;
  for (double b = lo; b <= hi; b += 1) best = std::min(best, g(b));
  if (lo > 1) best = std::min(best, f(lo));  // every b < lo: f decreasing there
  if (hi < m) best = std::min(best, f(hi));  // every b > hi: f increasing there
  // One input streamed fold by fold, the other reused over C's tile (as tall or as wide as C
  // alone allows), or both streamed (C in the PE array's accumulators).
  const double c_side = whole_below(capacity / wc);
  const double a_folds = a_bytes * whole_above(n / span);
  const double b_folds = b_bytes * whole_above(m / span);
  if (c_side >= 1) {
    best = std::min(best, a_folds + b_bytes * whole_above(m / std::min(m, c_side)));
    best = std::min(best, b_folds + a_bytes * whole_above(n / std::min(n, c_side)));
  }
  if (c_whole_fits) {  // C whole in one copy: the stationary input of ws / is read once
    best = std::min(best, a_folds + b_bytes);
    best = std::min(best, b_folds + a_bytes);
  }
  return std::min(best, a_folds + b_folds);
}

// The schedule-independent bound (Bounds::schedule_independent_dram_bytes): with S values of
// storage, any schedule of the M·N·K products moves at least 2MNK/sqrt(S) - 2S values (Smith,
// Lowery, Langou, van de Geijn: "A tight I/O lower bound for matrix multiplication", 2019) and
// every tensor once. S counts every on-chip byte (global buffer, not halved, and the PE
// registers) at the narrowest width of A, B and C, and the traffic is counted at that width
// too, so mixed widths and packed words only loosen it. Capped by the reachable figure (a bound
// above a traffic the model reaches would be wrong; the property tests check it is never hit).
void schedule_independent(const arch::Accelerator& acc, const GemmProblem& problem, const Triple& t,
                          bool unlimited, Bounds& b) {
  b.schedule_independent_dram_bytes = b.compulsory_dram_bytes;
  if (unlimited) {
    b.on_chip_bytes = kUnlimited;
    return;
  }
  const long double registers = static_cast<long double>(acc.rows()) *
                                static_cast<long double>(acc.cols()) *
                                static_cast<long double>(acc.spec().register_file_bytes);
  const long double on_chip = static_cast<long double>(buffer_bytes(acc)) + registers;
  b.on_chip_bytes = on_chip >= 9.2e18L ? kUnlimited : static_cast<long long>(on_chip);
  if (!(t.a && t.b && t.c) || b.on_chip_bytes < 0) return;
  const long double w = std::min({value_bytes(*t.a), value_bytes(*t.b), value_bytes(*t.c)});
  if (!(w > 0)) return;
  const mapping::GemmShape& s = problem.shape;
  const long double values = on_chip / w;
  const long double products =
      static_cast<long double>(s.m) * static_cast<long double>(s.n) * static_cast<long double>(s.k);
  const long double moved = (2 * products / std::sqrt(values) - 2 * values) * w;
  const long double floored = std::floor(moved * (1 - 1e-12L));
  if (floored > static_cast<long double>(b.schedule_independent_dram_bytes))
    b.schedule_independent_dram_bytes =
        std::min(b.dram_bytes, static_cast<long long>(std::min(floored, 9.2e18L)));
}

// C = C + A·B (GemmProblem::accumulate): every output is also read once, before its first
// update; 0 otherwise.
long long initial_output_bytes(const GemmProblem& problem) {
  long long bytes = 0;
  if (!problem.accumulate) return 0;
  for (const Operand& op : problem.operands)
    if (op.output)
      bytes = checked_add(bytes, bytes_of(elements(problem.shape, op), op.bits), {"DRAM bytes"});
  return bytes;
}

// The least DRAM traffic of the modelled mappings (Bounds::dram_bytes): `compulsory`, or more
// with a limited buffer (the least of the four regimes below).
long long traffic_floor(const arch::Accelerator& acc, const GemmProblem& problem,
                        const Options& options, long long compulsory) {
  const long long buffer = buffer_bytes(acc);
  if (options.unlimited_buffer || buffer >= kHugeBuffer) return compulsory;
  // Any tensor's tile may be single-buffered (mapping::Tiling::single): the whole buffer is usable.
  const long long usable_buffer = buffer;
  const Triple t = find_triple(problem);
  if (!(t.a && t.b && t.c)) return compulsory;
  const mapping::GemmShape& s = problem.shape;
  const arch::MacRate& rate = acc.mac_rate(mac_precision(acc, problem));
  // The least of four regimes (docs/model.md#physical-limits), S = the usable buffer, each
  // the least traffic of one class of the model's mappings, in whole numbers of tiles:
  // (i) C's tile stays in the buffer while K is accumulated (accumulated_bound): every
  //     mapping whose C is resident and revisited by no loop;
  // (ii) a panel of A (a chunk of t ≤ K values of k, ⌊S/(t·wa)⌋ rows) stays on chip and B
  //     streams past it: A is read once, B ⌈M / max(span, rows)⌉ times — span = max(R, C) is
  //     the reuse a row or column of PEs gives a value without storage — and C's partial
  //     sums leave and come back once per chunk, MN·wc·(2⌈K/t⌉ − 1); t = K is the one-pass
  //     case; mappings whose C is revisited or streamed, or whose A is read once;
  // (iii) the same with B's panel on chip and A streaming;
  // (iv) one of A, B, C on chip whole (a tile that never changes needs no second copy):
  //     compulsory traffic only.
  const long double wa = value_bytes(*t.a), wb = value_bytes(*t.b), wc = value_bytes(*t.c);
  const long double m = static_cast<long double>(s.m), n = static_cast<long double>(s.n),
                    k = static_cast<long double>(s.k);
  const long double c_bytes = static_cast<long double>(bytes_of(elements(s, *t.c), t.c->bits));
  // A scale or zero tensor indexed like A (i and k) or like B (k and j) travels with its
  // operand: read again whenever the operand is (hw model: the same loops refetch both), so
  // its bytes join the operand's streamed bytes; the rest are read at least once.
  long double a_bytes = m * k * wa, b_bytes = k * n * wb, others = 0;
  for (const Operand& op : problem.operands) {
    if (&op == t.a || &op == t.b || &op == t.c) continue;
    const long double bytes = static_cast<long double>(bytes_of(elements(s, op), op.bits));
    if (!op.output && depends_on(op, {true, false, true}))
      a_bytes += bytes;
    else if (!op.output && depends_on(op, {false, true, true}))
      b_bytes += bytes;
    else
      others += bytes;
  }
  // (i), (ii), (iii) with widths that include the scales, in whole numbers of tiles.
  const long double span = static_cast<long double>(std::max(acc.rows(), acc.cols()));
  const long double kspan = span * static_cast<long double>(rate.macs_per_cycle);
  const auto d = [](long double v) { return static_cast<double>(v); };
  const Regimes regimes{d(a_bytes), d(b_bytes), d(c_bytes), d(m),
                        d(n),       d(k),       d(wa),      d(wb),
                        d(wc),      d(span),    d(kspan),   static_cast<double>(usable_buffer)};
  const long double accumulated =
      accumulated_bound(regimes, c_bytes <= static_cast<long double>(buffer)) + c_bytes;
  const long double panel_a =
      panel_bound(regimes, PanelOf::kA, m * k * wa <= static_cast<long double>(buffer));
  const long double panel_b =
      panel_bound(regimes, PanelOf::kB, k * n * wb <= static_cast<long double>(buffer));
  long double movement = std::min({accumulated, panel_a, panel_b}) + others +
                         static_cast<long double>(initial_output_bytes(problem));
  // (iv): whole on chip beside, twice (double-buffered), the least the other two need: for A
  //      whole, a column of B (K values, each meeting all of A) or of C's partial sums (M
  //      values); for B whole, a row of A or of C; for C whole, a column of A or a row of B
  //      (one rank-1 update).
  const auto whole = [&](const Operand* x, long double slice) {
    return static_cast<long double>(bytes_of(elements(s, *x), x->bits)) + 2 * slice <=
           static_cast<long double>(buffer);
  };
  // Nothing is needed beside it where the other two stream through the PE array and are
  // still moved once: an input stationary in the PEs while the whole of a dimension streams
  // past, an input reused by every PE of a row or column (a dimension within span), C
  // accumulated in the PEs (k streamed, or K within the PE array's k extent).
  const bool m_short = m <= span, n_short = n <= span, k_short = k <= kspan;
  const auto beside = [](bool free, long double slice) { return free ? 0.0L : slice; };
  if (whole(t.a, beside(m_short || k_short, std::min(k * wb, m * wc))) ||
      whole(t.b, beside(n_short || k_short, std::min(k * wa, n * wc))) ||
      whole(t.c, beside(m_short || n_short, std::min(m * wa, n * wb))))
    movement = 0;
  // Rounded down with a relative margin, so that rounding never lifts the bound above an
  // achievable integer.
  const long double floored = std::floor(movement * (1 - 1e-12L));
  if (floored >= 9.2e18L)
    ::tenet::detail::throw_overflow({"the DRAM-traffic bound"}, std::to_string((double)floored));
  return std::max(compulsory, static_cast<long long>(floored));
}

// Bytes of every operand `take` takes, each element once (the compulsory traffic).
template <typename Take>
long long compulsory_bytes(const GemmProblem& problem, Take take) {
  long long bytes = 0;
  for (const Operand& op : problem.operands)
    if (take(op))
      bytes = checked_add(bytes, bytes_of(elements(problem.shape, op), op.bits), {"DRAM bytes"});
  return bytes;
}

// The least cycles the microarchitecture's DMA engine (arch::DmaEngine) spends per byte of a
// resident tile's runs on one channel (docs/hardware.md §3b): a burst of B bytes pays B /
// bandwidth, its share of its batch's latency ((DRAM latency + burst latency) / outstanding
// bursts; none with unlimited outstanding bursts, whose runs pay it once) and a throttle gap after
// every throttle_bytes of it. Per byte, within the bursts with the same number of gaps the
// longest is cheapest: the least over B = throttle_bytes·(j + 1) (first and last j: the cost is
// monotone in j) and the longest burst. Commands and rounding are left out (a floor).
double dma_cycles_per_byte(const arch::AcceleratorSpec& spec) {
  const arch::DmaEngine& d = spec.micro.dma;
  const double per_byte =
      spec.dram.bandwidth.unlimited ? 0.0 : 1.0 / spec.dram.bandwidth.bytes_per_cycle;
  const double latency =
      d.outstanding_bursts > 0
          ? static_cast<double>(spec.dram.latency_cycles + d.burst_latency_cycles) /
                static_cast<double>(d.outstanding_bursts)
          : 0.0;
  const double longest = static_cast<double>(d.max_burst_bytes);  // 0: unlimited
  const auto cost = [&](double burst, double gaps) {
    return per_byte + (latency + gaps * static_cast<double>(d.throttle_gap_cycles)) / burst;
  };
  if (d.throttle_bytes <= 0 || d.throttle_gap_cycles <= 0)
    return longest > 0 ? cost(longest, 0) : per_byte;
  const double t = static_cast<double>(d.throttle_bytes);
  if (longest <= 0)  // bursts of any length: j = 0, or the limit of many gaps (g / t)
    return per_byte + std::min(latency, static_cast<double>(d.throttle_gap_cycles)) / t;
  double best = cost(longest, std::floor((longest - 1) / t));
  const double whole = std::floor(longest / t);  // bursts of whole throttle units
  if (whole >= 1) best = std::min({best, cost(t, 0), cost(t * whole, whole - 1)});
  return best;
}

// The DRAM-bandwidth cycles of Bounds::dram_cycles for `dram_bytes` of traffic: the bytes at the
// DRAM bandwidth (every byte crosses the link; with a DMA engine's separate read and write
// channels, each of the bandwidth: the reads or half the bytes), and with a DMA engine and
// operands that must stay SRAM-resident at least the following (the larger of the two). The
// operands that must stay SRAM-resident (arch::Microarch::sram_resident, set Q) move at least their
// own traffic floor D_Q (traffic_floor of the problem of Q alone: more buffer, so less traffic) in
// the DMA engine's runs at dma_cycles_per_byte h each, their inputs at least I_Q bytes; the rest of
// the traffic (at least dram_bytes − the bytes Q moves) may stream at the bandwidth. With x bytes
// of Q: x·h (separate read and write channels: max(x/2, I_Q)·h) + max(0, dram_bytes − x) /
// bandwidth, least over x ≥ D_Q (convex: at its breakpoints). Without edge transfers the first
// tile's inputs and the last tile's outputs (each at most the buffer) move outside the counted
// cycles.
long long dram_cycles_floor(const arch::Accelerator& acc, const GemmProblem& problem,
                            const Options& options, long long dram_bytes) {
  const arch::AcceleratorSpec& spec = acc.spec();
  const arch::Bandwidth& bw = spec.dram.bandwidth;
  if (options.unlimited_dram_bandwidth) return 0;
  const long long buffer = buffer_bytes(acc);
  const bool unlimited = options.unlimited_buffer || buffer >= kHugeBuffer;
  const auto outside = [&](long long bytes, long long edges) {  // what the edges leave counted
    if (options.edge_transfers) return bytes;
    return unlimited ? 0LL : std::max(0LL, bytes - std::min(bytes, edges * buffer));
  };
  const auto is_required = [&](const Operand& op) {
    for (const std::string& role : spec.micro.sram_resident)
      if (role == role_key(op.role)) return true;
    return false;
  };
  GemmProblem required = problem;
  required.operands.clear();
  for (const Operand& op : problem.operands)
    if (is_required(op)) required.operands.push_back(op);
  // Every byte crosses the DRAM link at its bandwidth (issue 21: no time below a link); a DMA
  // engine's separate read and write channels each have that bandwidth: the reads (at least the
  // inputs, once) or half the bytes, whichever is more, on one of them.
  const bool dma = spec.micro.active() && spec.micro.dma.enabled;
  const bool separate = dma && spec.micro.dma.separate_channels;
  long long link = 0;
  if (!bw.unlimited && bw.bytes_per_cycle > 0) {
    double bytes = static_cast<double>(outside(dram_bytes, 2));
    if (separate)
      bytes = std::max(
          bytes / 2,
          static_cast<double>(
              outside(compulsory_bytes(problem, [](const Operand& op) { return !op.output; }), 1)));
    link = std::max(0LL, static_cast<long long>(std::ceil(bytes / bw.bytes_per_cycle - 1e-9)));
  }
  if (!dma || required.operands.empty()) return link;
  required.precision = mac_precision(acc, problem);
  const long long compulsory_q = compulsory_bytes(required, [](const Operand&) { return true; });
  const double d_all = static_cast<double>(outside(dram_bytes, 2));
  const double d_q =
      static_cast<double>(outside(traffic_floor(acc, required, options, compulsory_q), 2));
  const double i_q = static_cast<double>(
      outside(compulsory_bytes(required, [](const Operand& op) { return !op.output; }), 1));
  const double h = dma_cycles_per_byte(spec);
  const double stream = bw.unlimited ? 0.0 : 1.0 / bw.bytes_per_cycle;
  const auto cycles = [&](double x) {
    return (separate ? std::max(x / 2, i_q) : x) * h + std::max(0.0, d_all - x) * stream;
  };
  double least = cycles(d_q);
  for (double x : {std::min(d_all, 2 * i_q), d_all})
    if (x >= d_q) least = std::min(least, cycles(x));
  // rounded up but never above the real value's integer part by rounding in doubles
  const double c = std::ceil(least * (1 - 1e-12) - 1e-9);
  return std::max(link, c <= 0 ? 0LL : static_cast<long long>(c));
}

}  // namespace

Bounds compute_bounds(const arch::Accelerator& acc, const GemmProblem& problem,
                      const Options& options) {
  validate(problem);
  const mapping::GemmShape& s = problem.shape;
  const arch::MacRate& rate = acc.mac_rate(mac_precision(acc, problem));
  Bounds b;
  b.compulsory_dram_bytes =
      checked_add(compulsory_bytes(problem, [](const Operand&) { return true; }),
                  initial_output_bytes(problem), {"DRAM bytes"});
  const long long buffer = buffer_bytes(acc);
  const bool unlimited = options.unlimited_buffer || buffer >= kHugeBuffer;
  b.capacity_bytes = unlimited ? kUnlimited : buffer;
  b.dram_bytes = traffic_floor(acc, problem, options, b.compulsory_dram_bytes);

  // Compute roofline: MACs · cycles_per_mac / (PEs of every matrix unit · macs_per_cycle),
  // rounded up.
  const long long macs = checked_mul(checked_mul(s.m, s.n, {"MACs"}), s.k, {"MACs"});
  const long long slots = checked_mul(checked_mul(checked_mul(acc.rows(), acc.cols(), {"PEs"}),
                                                  acc.spec().chip.matrix_units, {"PEs"}),
                                      rate.macs_per_cycle, {"MAC lanes"});
  const long long work = checked_mul(macs, rate.cycles_per_mac, {"MAC cycles"});
  b.compute_cycles = work / slots + (work % slots != 0);

  b.dram_cycles = dram_cycles_floor(acc, problem, options, b.dram_bytes);
  b.cycles = std::max(b.compute_cycles, b.dram_cycles);
  schedule_independent(acc, problem, find_triple(problem), unlimited, b);
  return b;
}

BoundsSum& BoundsSum::operator+=(const BoundsSum& o) {
  dram_bytes += o.dram_bytes;
  compulsory_dram_bytes += o.compulsory_dram_bytes;
  cycles += o.cycles;
  compute_cycles += o.compute_cycles;
  dram_cycles += o.dram_cycles;
  schedule_independent_dram_bytes += o.schedule_independent_dram_bytes;
  // Layers of one report share the accelerator; keep the first capacity, unlimited if any is.
  if (capacity_bytes == 0 || o.capacity_bytes < 0) capacity_bytes = o.capacity_bytes;
  if (on_chip_bytes == 0 || o.on_chip_bytes < 0) on_chip_bytes = o.on_chip_bytes;
  return *this;
}

BoundsSum BoundsSum::times(const Integer& n) const {
  BoundsSum t = *this;
  t.dram_bytes *= n;
  t.compulsory_dram_bytes *= n;
  t.cycles *= n;
  t.compute_cycles *= n;
  t.dram_cycles *= n;
  t.schedule_independent_dram_bytes *= n;
  return t;
}

bool operator==(const BoundsSum& a, const BoundsSum& b) {
  return a.dram_bytes == b.dram_bytes && a.compulsory_dram_bytes == b.compulsory_dram_bytes &&
         a.cycles == b.cycles && a.compute_cycles == b.compute_cycles &&
         a.dram_cycles == b.dram_cycles && a.capacity_bytes == b.capacity_bytes &&
         a.schedule_independent_dram_bytes == b.schedule_independent_dram_bytes &&
         a.on_chip_bytes == b.on_chip_bytes;
}

namespace {

nlohmann::ordered_json integer_json(const Integer& v) {
  if (poly::fits_int64(v)) return poly::to_int64(v);
  return v.get_str();
}

// achieved / bound, none when the bound is 0.
std::optional<double> ratio(const Integer& achieved, const Integer& bound) {
  if (bound <= 0) return std::nullopt;
  return achieved.get_d() / bound.get_d();
}

}  // namespace

BoundsSum BoundsSum::of(const Bounds& b) {
  return {Integer(static_cast<long>(b.dram_bytes)),
          Integer(static_cast<long>(b.compulsory_dram_bytes)),
          Integer(static_cast<long>(b.cycles)),
          Integer(static_cast<long>(b.compute_cycles)),
          Integer(static_cast<long>(b.dram_cycles)),
          b.capacity_bytes,
          Integer(static_cast<long>(b.schedule_independent_dram_bytes)),
          b.on_chip_bytes};
}

const std::vector<BoundsField>& bounds_fields() {
  static const std::vector<BoundsField> fields{
      {"dram_bytes", "bytes",
       "least DRAM traffic of the modelled mapping classes (one level of tiles, os / ws / is "
       "folds) with the usable on-chip capacity (packed storage, scale and zero tensors "
       "included): reachable; no mapping tenet evaluates moves less"},
      {"compulsory_dram_bytes", "bytes", "every tensor read or written once"},
      {"cycles", "cycles", "max(compute_cycles, dram_cycles)"},
      {"compute_cycles", "cycles", "the MACs at the precision's peak rate on every PE"},
      {"dram_cycles", "cycles",
       "dram_bytes at the DRAM bandwidth (less what the buffer holds at the edges when edge "
       "transfers are off)"},
      {"capacity_bytes", "bytes",
       "on-chip capacity the bound assumes: the whole global buffer (any tensor's tile may be "
       "single-buffered); null: unlimited"},
      {"dram_bytes_ratio", "ratio", "achieved dram_bytes / bound dram_bytes (>= 1; null if 0)"},
      {"cycles_ratio", "ratio", "achieved cycles / bound cycles (>= 1; null if 0)"},
      {"schedule_independent_dram_bytes", "bytes",
       "lower bound of any schedule on any machine with on_chip_bytes of storage (Hong–Kung "
       "form 2MNK/sqrt(S) - 2S values, Smith et al. 2019, at the narrowest operand width; at "
       "least compulsory_dram_bytes; <= dram_bytes)"},
      {"on_chip_bytes", "bytes",
       "the storage the schedule-independent bound assumes: the whole global buffer (not "
       "halved) and every PE's registers; null: unlimited"},
  };
  return fields;
}

nlohmann::ordered_json bounds_json(const BoundsSum& b, const Integer& achieved_cycles,
                                   const Integer& achieved_dram_bytes) {
  using json = nlohmann::ordered_json;
  auto optional = [](std::optional<double> v) { return v ? json(*v) : json(nullptr); };
  return {{"dram_bytes", integer_json(b.dram_bytes)},
          {"compulsory_dram_bytes", integer_json(b.compulsory_dram_bytes)},
          {"cycles", integer_json(b.cycles)},
          {"compute_cycles", integer_json(b.compute_cycles)},
          {"dram_cycles", integer_json(b.dram_cycles)},
          {"capacity_bytes", b.capacity_bytes < 0 ? json(nullptr) : json(b.capacity_bytes)},
          {"dram_bytes_ratio", optional(ratio(achieved_dram_bytes, b.dram_bytes))},
          {"cycles_ratio", optional(ratio(achieved_cycles, b.cycles))},
          {"schedule_independent_dram_bytes", integer_json(b.schedule_independent_dram_bytes)},
          {"on_chip_bytes", b.on_chip_bytes < 0 ? json(nullptr) : json(b.on_chip_bytes)}};
}

std::vector<std::string> bounds_csv_values(const BoundsSum& b, const Integer& achieved_cycles,
                                           const Integer& achieved_dram_bytes) {
  std::vector<std::string> cells;
  const nlohmann::ordered_json values = bounds_json(b, achieved_cycles, achieved_dram_bytes);
  for (const auto& [key, value] : values.items())
    cells.push_back(value.is_null()     ? std::string()
                    : value.is_string() ? value.get<std::string>()
                                        : value.dump());
  return cells;
}

std::string bounds_line(const BoundsSum& b, const Integer& cycles, const Integer& dram_bytes) {
  auto times = [](std::optional<double> r) {
    return r ? fmt::format("{:.2f}x", *r) : std::string("n/a");
  };
  const std::string capacity = b.capacity_bytes < 0 ? std::string("unlimited on-chip capacity")
                                                    : fmt::format("{} B usable", b.capacity_bytes);
  const std::string on_chip = b.on_chip_bytes < 0 ? std::string("unlimited storage")
                                                  : fmt::format("{} B on chip", b.on_chip_bytes);
  return fmt::format(
      "bounds (modelled mappings, {}): DRAM >= {} bytes (achieved {}), cycles >= {} (achieved "
      "{}; compute {}, DRAM {}); any schedule ({}): DRAM >= {} bytes (achieved {})\n",
      capacity, b.dram_bytes.get_str(), times(ratio(dram_bytes, b.dram_bytes)), b.cycles.get_str(),
      times(ratio(cycles, b.cycles)), b.compute_cycles.get_str(), b.dram_cycles.get_str(), on_chip,
      b.schedule_independent_dram_bytes.get_str(),
      times(ratio(dram_bytes, b.schedule_independent_dram_bytes)));
}

}  // namespace tenet::hw
