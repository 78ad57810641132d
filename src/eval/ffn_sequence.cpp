// An MLP too large to fuse, run as its matmuls one after another (eval/ffn_sequence.hpp; the rule:
// docs/model.md#fused-kernels).
#include "eval/ffn_sequence.hpp"

#include <algorithm>
#include <cmath>

#include "fused/counts.hpp"
#include "fused/model.hpp"
#include "hw/model.hpp"
#include "hw/vector_unit.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"

namespace tenet::eval::detail {
namespace {

std::int64_t to64(const poly::Integer& v) { return poly::to_int64(v); }

// The link's cycles for `bytes` at the DRAM bandwidth (no latency: they move inside a matmul's
// transfer windows); 0 when unlimited.
double seq_link_cycles(const arch::Accelerator& acc, const hw::Options& o, std::int64_t bytes) {
  const arch::Bandwidth& bw = acc.spec().dram.bandwidth;
  if (bytes <= 0 || bw.unlimited || o.unlimited_dram_bandwidth || !(bw.bytes_per_cycle > 0))
    return 0;
  return static_cast<double>(bytes) / bw.bytes_per_cycle;
}

// One matmul of the sequence as a stage of the result: the array's busy cycles, and its one
// "tile", the whole matmul, with the cycles of its call (DRAM included, no launch).
fused::StageResult matmul_stage(const std::string& name, const Evaluation& e) {
  const llm::LayerCost& c = e.call_cost();
  const hw::Result& h = e.hw();
  fused::StageResult s;
  s.name = name, s.unit = "matrix", s.macs = h.macs;
  s.cycles = static_cast<double>(h.busy.compute);
  s.sram_bytes = to64(c.sram_bytes);
  fused::TileCost t;
  t.shape = {h.shape.m, h.shape.n, h.shape.k};
  t.count = 1;
  t.cycles = to64(c.cycles);
  t.bound = c.bound;
  t.energy_pj = c.energy_pj;
  if (c.bounds) t.compute_floor_cycles = to64(c.bounds->compute_cycles);
  s.tiles.push_back(t);
  return s;
}

// The tensors' footprint the matmul's tiling holds on chip at once.
std::int64_t footprint_of(const Evaluation& e) {
  std::int64_t total = 0;
  for (const hw::TensorResult& t : e.hw().tensors) total += t.footprint_bytes;
  return total;
}

}  // namespace

int activation_bits(const Request& r) {
  return r.scheme ? r.scheme->activations.dtype.bits() : r.bits.a;
}

std::int64_t operand_bytes(const quant::ProductResult& p, char operand) {
  std::int64_t total = 0;
  if (!p.scheme.empty()) {
    for (const quant::TensorTraffic& t : p.traffic)
      if (!t.name.empty() && t.name[0] == operand) total += t.dram_bytes;
    return total;
  }
  for (const hw::TensorResult& t : p.hw.tensors)
    if (!t.name.empty() && t.name[0] == operand) total += t.dram_bytes;
  return total;
}

std::int64_t ffn_weight_bytes(const KernelRequest& request, const fused::FfnKernel& k) {
  // One token's matmuls as one tile, every operand on chip: each weight read once.
  const Evaluation up = evaluate(tile_request(request, "up", {1, k.w1_cols(), k.h}));
  const Evaluation down = evaluate(tile_request(request, "down", {1, k.h, k.i}));
  const std::int64_t biases =
      k.bias ? fused::bytes_of(k.w1_cols() + k.h, activation_bits(request.base)) : 0;
  return operand_bytes(up.product(), 'B') + operand_bytes(down.product(), 'B') + biases;
}

bool runs_as_matmuls(const KernelRequest& request) {
  const auto* k = std::get_if<fused::FfnKernel>(&request.kernel);
  if (!k || !request.base.accelerator) return false;
  const long long limit = request.base.accelerator->spec().chip.mlp_resident_bytes;
  return limit >= 0 && ffn_weight_bytes(request, *k) > limit;
}

Request ffn_matmul_request(const KernelRequest& request, const std::string& stage) {
  const fused::FfnKernel& k = std::get<fused::FfnKernel>(request.kernel);
  const bool up = stage == "up";
  if (!up && stage != "down")
    throw InternalError("eval::ffn_matmul_request: no MLP matmul " + stage);
  Request r =
      tile_request(request, stage,
                   up ? fused::TileShape{k.s, k.w1_cols(), k.h} : fused::TileShape{k.s, k.h, k.i});
  r.tiling.reset();            // the chip's auto tiling
  r.hw = request.base.hw;      // every hardware term the base request has
  r.hw.kernel_launch = false;  // the call pays it once
  return r;
}

fused::KernelResult evaluate_ffn_sequence(const KernelRequest& request) {
  const fused::FfnKernel& k = std::get<fused::FfnKernel>(request.kernel);
  if (request.relation_centric)
    throw InputError(error_code::kUsage, "", "relation-centric",
                     "this MLP runs as its two matmuls on the accelerator (its weights exceed "
                     "fusion.mlp_resident_bytes): count each with tenet analyze --gemm "
                     "--relation-centric");
  const arch::Accelerator& acc = *request.base.accelerator;
  const Evaluation up = evaluate(ffn_matmul_request(request, "up"));
  const Evaluation down = evaluate(ffn_matmul_request(request, "down"));
  const int act_bits = activation_bits(request.base);

  fused::KernelResult r;
  r.kernel = k;
  r.blocking = {k.s, 0, false};  // the whole sequence at once: no token blocks
  r.spilled = true;
  r.placement = "matmuls";
  r.footprint_bytes = std::max(footprint_of(up), footprint_of(down));
  r.capacity_bytes = arch::buffer_total(acc.spec().global_buffer);
  r.macs = up.hw().macs + down.hw().macs;

  // Tensors: what the two matmuls move (eval::evaluate's bytes), the biases at the activations'
  // format, read once.
  const quant::ProductResult &pu = up.product(), &pd = down.product();
  const std::int64_t w1 = k.w1_cols(), s = k.s;
  const std::int64_t b1 = k.bias ? fused::bytes_of(w1, act_bits) : 0;
  const std::int64_t b2 = k.bias ? fused::bytes_of(k.h, act_bits) : 0;
  auto elements = [](const Evaluation& e, char operand) {
    std::int64_t n = 0;
    for (const hw::TensorResult& t : e.hw().tensors)
      if (!t.name.empty() && t.name[0] == operand && t.name.size() == 1)
        n += t.dram_reads + t.dram_writes;
    return n;
  };
  r.tensors.push_back({"X", "input", elements(up, 'A'), operand_bytes(pu, 'A')});
  r.tensors.push_back({"W1", "input", elements(up, 'B'), operand_bytes(pu, 'B')});
  if (k.bias) r.tensors.push_back({"b1", "input", w1, b1});
  r.tensors.push_back({"W2", "input", elements(down, 'B'), operand_bytes(pd, 'B')});
  if (k.bias) r.tensors.push_back({"b2", "input", k.h, b2});
  r.tensors.push_back({"Y", "output", elements(down, 'C'), operand_bytes(pd, 'C')});
  r.tensors.push_back({"H1", "intermediate", elements(up, 'C'), operand_bytes(pu, 'C')});
  r.tensors.push_back({"A", "intermediate", elements(down, 'A'), operand_bytes(pd, 'A')});
  for (const fused::TensorResult& t : r.tensors) r.dram_bytes += t.dram_bytes;
  r.intermediates = {{"H1", s * w1, 0, s * w1}, {"A", s * k.i, 0, s * k.i}};

  // The vector unit's activation over the up matmul's output (and the bias adds).
  const fused::VectorCount v = fused::count_chain(k, {s, 0, false}, true).vector;
  const fused::VectorWork w = fused::vector_work(k, v, false, act_bits);
  fused::StageResult act;
  act.name = "activation", act.unit = "vector";
  act.ops = w.ops, act.sram_bytes = w.sram_bytes;
  act.cycles =
      hw::vector_op_cycles(acc, hw::vector_unit_of(acc), "activation", act.ops, act.sram_bytes, 0)
          .cycles;
  r.stages = {matmul_stage("up", up), matmul_stage("down", down), act};
  for (const fused::StageResult& st : r.stages) r.sram_bytes += st.sram_bytes;

  // The call: the up matmul (the activation beside it, or after it), the down matmul, the biases'
  // reads, the launch once.
  const double t_up = static_cast<double>(to64(up.call_cost().cycles));
  const double t_down = static_cast<double>(to64(down.call_cost().cycles));
  r.matrix_cycles = r.stages[0].cycles + r.stages[1].cycles;
  r.vector_cycles = act.cycles;
  const double bias_cycles = seq_link_cycles(acc, request.base.hw, b1 + b2);
  r.dram_cycles = static_cast<double>(up.hw().busy.dram + down.hw().busy.dram) + bias_cycles;
  r.launch_cycles = static_cast<double>(hw::detail::launch_cycles(acc.spec()));
  // The activation runs on the vector unit as the up matmul's output leaves the array: beside
  // it, not after it (the TPU v6e ffn_gated rows: overlapped 9/11 within 10 %, errors -3 to -10 %
  // from S = 512; serial 8/11, +8 to +11 % from S = 2048; docs/model.md#fused-kernels).
  const double first = std::max(t_up, act.cycles);
  r.cycles =
      static_cast<std::int64_t>(std::ceil(first + t_down + bias_cycles + r.launch_cycles - 1e-9));
  r.clock_hz = acc.spec().clock_mhz * 1e6;
  r.seconds = static_cast<double>(r.cycles) / r.clock_hz;
  // The bound of the stage that takes longest.
  r.bound = t_up >= t_down ? up.call_cost().bound : down.call_cost().bound;
  if (act.cycles > std::max(t_up, t_down)) r.bound = "vector";
  // Every input once, every output once: X, the weights, the biases, Y (not the intermediate).
  const Evaluation up_once = evaluate(tile_request(request, "up", {s, w1, k.h}));
  const Evaluation down_once = evaluate(tile_request(request, "down", {s, k.h, k.i}));
  r.compulsory_dram_bytes =
      operand_bytes(up_once.product(), 'A') + operand_bytes(up_once.product(), 'B') +
      operand_bytes(down_once.product(), 'B') + operand_bytes(down_once.product(), 'C') + b1 + b2;
  return r;
}

}  // namespace tenet::eval::detail
