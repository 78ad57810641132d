// The closed-form part of the TENET convention on hand-derived numbers.
#include "analysis/formulas.hpp"

#include <catch2/catch.hpp>
#include <limits>

#include "cases.hpp"

namespace {

using tenet::analysis::ComputeDelayConvention;
using tenet::analysis::Integer;
using tenet::analysis::TensorMetrics;
namespace d = tenet::analysis::detail;

TensorMetrics tensor(bool write, int bits, long total, long unique) {
  TensorMetrics t;
  t.kind = write ? tenet::workload::AccessKind::kWrite : tenet::workload::AccessKind::kRead;
  t.bits = bits;
  t.total_volume = total;
  t.unique_volume = unique;
  return t;
}

}  // namespace

TEST_CASE("compute delay: floor(MACs / ActivePE) or floor(MACs / floor(AvgActivePE))",
          "[analysis][formulas]") {
  // 100 MACs on 7 PEs: floor(100/7) = 14. AvgActivePE = 10/3 -> 3: floor(100/3) = 33.
  CHECK(d::compute_delay(100, 7, 10, 3, ComputeDelayConvention::kActivePes) == 14);
  CHECK(d::compute_delay(100, 7, 10, 3, ComputeDelayConvention::kAvgActivePes) == 33);
  // exact beyond 64 bits: 2^70 MACs on 3 PEs
  const Integer macs = Integer(1) << 70;
  CHECK(d::compute_delay(macs, 3, 1, 1, ComputeDelayConvention::kActivePes) ==
        Integer("393530540239137101141"));
}

TEST_CASE("transfer delay: floor(bits / bandwidth) + latency - 1", "[analysis][formulas]") {
  CHECK(d::transfer_delay(1000, 64, 16) == 30);  // 15 + 15
  CHECK(d::transfer_delay(63, 64, 1) == 0);
  CHECK(d::transfer_delay(0, 64, 5) == 4);
  CHECK(d::transfer_delay(Integer(1) << 80, 1 << 10, 1) == Integer(1) << 70);
}

TEST_CASE("ingress and egress bits use each tensor's own width", "[analysis][formulas]") {
  const std::vector<TensorMetrics> t{tensor(false, 4, 0, 10), tensor(false, 8, 0, 3),
                                     tensor(true, 32, 0, 2)};
  CHECK(d::unique_bits(t, tenet::workload::AccessKind::kRead) == 4 * 10 + 8 * 3);
  CHECK(d::unique_bits(t, tenet::workload::AccessKind::kWrite) == 64);
}

TEST_CASE("energy: MACs + sum of 1.68 x 2 x Total + 18.61 x 2 x Unique", "[analysis][formulas]") {
  // 10 + 1.68*2*(5+3) + 18.61*2*(2+1) = 10 + 26.88 + 111.66 = 148.54
  const std::vector<TensorMetrics> t{tensor(false, 16, 5, 2), tensor(true, 16, 3, 1)};
  CHECK(d::energy(10, t, {}) == Approx(148.54).epsilon(1e-12));
  CHECK(d::energy(10, t, {1.0, 2.0}) == Approx(10 + 16 + 12).epsilon(1e-12));
}

TEST_CASE("ratios: exact counts to doubles", "[analysis][formulas]") {
  CHECK(d::ratio(1, 3) == Approx(1.0 / 3.0).epsilon(1e-15));
  CHECK(d::ratio(0, 0) == 0);
  CHECK(d::ratio(5, 0) == std::numeric_limits<double>::infinity());
  CHECK(d::ratio(Integer(1) << 100, Integer(1) << 98) == 4.0);
}

TEST_CASE("a 2x2x2 GEMM on one PE, every metric derived by hand", "[analysis][formulas]") {
  // One PE, T[i,j,k]: 8 time stamps in lexicographic order, prev = the previous (i,j,k).
  // A[i,k] and B[k,j] change at every step: 8 unique each, no reuse. C[i,j] is held from k=0 to
  // k=1: unique 4, temporal reuse 4. No interconnect: no spatial reuse.
  // ingress = floor(16*(8+8)/64) + 1 - 1 = 4; egress = floor(16*4/64) = 1; compute = 8/1 = 8.
  // energy = 8 + 2*(1.68*2*8 + 18.61*2*8) + 1.68*2*8 + 18.61*2*4 = 833.04
  const cases::Case c = cases::gemm_case({2, 2, 2, 16, 16, 16}, cases::Flow::os, 1, 1);
  const auto r = tenet::analysis::analyze(c.workload, c.arch, c.mapping);
  CHECK(r.macs == 8);
  CHECK(r.time_stamps == 8);
  CHECK(r.active_pes == 1);
  CHECK(r.avg_active_pes == 1.0);
  REQUIRE(r.tensors.size() == 3);
  CHECK(r.tensors[0].unique_volume == 8);
  CHECK(r.tensors[1].unique_volume == 8);
  CHECK(r.tensors[2].unique_volume == 4);
  CHECK(r.tensors[2].temporal_reuse_volume == 4);
  CHECK(r.tensors[2].temporal_reuse == 0.5);
  CHECK(r.tensors[2].reuse_factor == 2.0);
  CHECK(r.tensors[0].spatial_reuse_volume == 0);
  CHECK(r.delay.ingress == 4);
  CHECK(r.delay.egress == 1);
  CHECK(r.delay.compute == 8);
  CHECK(r.delay.total == 8);
  CHECK(r.energy == Approx(833.04).epsilon(1e-12));
}
