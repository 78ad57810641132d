// Random GEMM problems and accelerators for property tests of the hardware model: odd sizes,
// mixed widths, quantized operands (scales, zero points, packed words), shared or partitioned
// buffers, single- or double-buffered.
#pragma once

#include <cmath>
#include <random>

#include "fixtures.hpp"
#include "tenet/hw/gemm_problem.hpp"

namespace hwtest {

using tenet::workload::OperandRole;

// fp16, mixed widths, W8A8 with per-token / per-channel scales, or W4 packed in words along k
// with group scales and zero points; odd sizes and M = 1.
inline tenet::hw::GemmProblem random_problem(std::mt19937& rng) {
  std::uniform_int_distribution<long long> size(1, 90), pick(0, 4);
  const GemmShape shape{pick(rng) == 0 ? 1 : size(rng), size(rng), size(rng)};
  switch (pick(rng)) {
    case 0:
      return tenet::hw::make_gemm_problem(shape);
    case 1: {
      std::uniform_int_distribution<int> bits(1, 32);
      tenet::hw::GemmProblem p =
          tenet::hw::make_gemm_problem(shape, {bits(rng), bits(rng), bits(rng)});
      p.precision =
          tenet::workload::DataType::fp16();  // the MAC precision is given, whatever the widths
      return p;
    }
    case 2: {
      tenet::hw::GemmProblem p = tenet::hw::make_gemm_problem(shape, {8, 8, 32});
      p.precision = tenet::workload::DataType::fp16();
      p.operands.push_back({"A.scale", OperandRole::kScale, 16, false, {1, 0, 0}});
      p.operands.push_back({"B.scale", OperandRole::kScale, 16, false, {0, 1, 0}});
      return p;
    }
    default: {
      tenet::hw::GemmProblem p = tenet::hw::make_gemm_problem(shape, {16, 32, 16});
      const long long word = pick(rng) < 2 ? 8 : 4;
      p.operands[1].group = {0, 1, word};  // B as packed words of `word` values along k
      const long long g = std::uniform_int_distribution<long long>(2, 40)(rng);
      p.operands.push_back({"B.scale", OperandRole::kScale, 16, false, {0, 1, g}});
      if (pick(rng) < 2) p.operands.push_back({"B.zero", OperandRole::kZero, 4, false, {0, 1, g}});
      p.precision = tenet::workload::DataType::fp16();
      return p;
    }
  }
}

// Shared or partitioned buffers from a few hundred bytes up, single- or double-buffered,
// precision-scalable PEs, finite or ideal bandwidths.
inline Accelerator random_acc(std::mt19937& rng) {
  std::uniform_int_distribution<long long> dim(1, 8), bw(1, 32), lat(0, 40), pick(0, 3);
  std::uniform_real_distribution<double> log_bytes(std::log(64.0), std::log(40000.0));
  const auto buffer = [&](std::mt19937& r) { return std::llround(std::exp(log_bytes(r))); };
  const Bandwidth sram = pick(rng) == 0 ? Bandwidth::infinite() : Bandwidth::of(2 * bw(rng));
  const Bandwidth dram = pick(rng) == 0 ? Bandwidth::infinite() : Bandwidth::of(bw(rng) / 4.0);
  const long long rate = pick(rng);  // 0: two MACs per cycle, 1: one MAC every 2 cycles
  // one draw per statement: the order of a call's arguments is unspecified (compilers differ)
  const long long rows = dim(rng), cols = dim(rng);
  const long long bytes = buffer(rng);
  const long long latency = lat(rng);
  AcceleratorSpec s =
      make_acc(rows, cols, bytes, sram, dram, latency, rate == 0 ? 2 : 1, rate == 1 ? 2 : 1).spec();
  s.global_buffer.double_buffered = pick(rng) != 0;
  if (pick(rng) == 0) {
    s.global_buffer.bytes = 0;
    s.global_buffer.partitions["ifmap"] = {buffer(rng), sram, {"activation", "scale", "other"}};
    s.global_buffer.partitions["filter"] = {buffer(rng), sram, {"weight", "zero"}};
    s.global_buffer.partitions["ofmap"] = {buffer(rng), sram, {"output"}};
  }
  return Accelerator(s);
}

}  // namespace hwtest
