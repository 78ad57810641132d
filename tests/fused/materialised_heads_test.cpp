// Materialised attention as a chip's compiler runs it (the accelerator's
// "fusion": {"materialised_attention"}: arch::MaterialisedAttentionSpec;
// docs/model.md#fused-kernels): held tiles that load only the rows they fill, and a least time per
// query head beside the units.
#include <catch2/catch.hpp>
#include <cmath>

#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/eval/pipeline.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace fused_materialised_heads_test {

using namespace tenet;

std::shared_ptr<const arch::Accelerator> tpu(bool filled, double head_ns, bool db = true,
                                             long long units = 4) {
  arch::AcceleratorSpec s = arch::load_accelerator_preset("tpu-v6e").spec();
  s.chip.materialised.load_filled_rows = filled;
  s.chip.materialised.head_ns = head_ns;
  s.stationary_double_buffered = db;
  s.chip.matrix_units = units;
  return std::make_shared<const arch::Accelerator>(s);
}

eval::KernelRequest request(std::shared_ptr<const arch::Accelerator> acc, long long hq, long long s,
                            long long d, bool causal = false,
                            fused::ScoresPlace scores = fused::ScoresPlace::kMaterialised) {
  eval::KernelRequest q;
  q.kernel = fused::AttentionKernel{hq, hq, s, s, d, causal, scores};
  q.base.bits = {16, 16, 16};
  q.base.dataflow = mapping::Dataflow::kWeightStationary;
  q.base.accelerator = std::move(acc);
  return q;
}

// Σ over a tile's folds with the held operand (K x N, weight-stationary: K on the rows) loaded
// through the rows it fills: R for each full fold of K, the rest for the last; every fold streams
// M rows. The faster of the two orientations (bf16: either input may be held).
double filled_folds(long long m, long long n, long long k, long long r, long long c, bool db) {
  auto one = [&](long long rows_m, long long cols_n) {
    const long long row_folds = (k + r - 1) / r, col_folds = (cols_n + c - 1) / c;
    double sum = 0;
    for (long long f = 0; f < row_folds; ++f) {
      const long long load = std::min(r, k - f * r);
      sum += static_cast<double>(db ? std::max(rows_m, load) : rows_m + load);
    }
    return sum * static_cast<double>(col_folds);
  };
  return std::min(one(m, n), one(n, m));
}

TEST_CASE("materialised heads: a held tile loads the rows it fills", "[fused][materialised]") {
  for (bool db : {true, false})
    for (long long units : {1, 4})
      for (const auto& [s, d] :
           {std::pair<long long, long long>{32, 32}, {128, 32}, {328, 32}, {328, 64}, {40, 300}}) {
        const auto acc = tpu(true, 0, db, units);
        const eval::KernelRequest q = request(acc, 24, s, d);
        const fused::KernelResult r = eval::evaluate_kernel(q);
        INFO("S = " << s << ", D = " << d << ", units " << units << ", double-buffered " << db);
        const long long rows = acc->rows(), cols = acc->cols();
        for (const fused::StageResult& st : r.stages) {
          if (st.unit != "matrix") continue;
          double work = 0;  // every tile of the stage (Q·Kᵀ: S x keys x D; P·V: S x D x keys)
          for (const fused::TileCost& t : st.tiles)
            work += static_cast<double>(t.count) *
                    filled_folds(t.shape[0], t.shape[1], t.shape[2], rows, cols, db);
          const double expected =
              static_cast<double>(rows + cols - 2) + std::ceil(work / static_cast<double>(units));
          CHECK(
              st.cycles ==
              Approx(std::max(expected, static_cast<double>(st.sram_bytes) /
                                            acc->spec().global_buffer.bandwidth.bytes_per_cycle)));
          // never below the MACs at the units' peak (bf16: one MAC per PE and cycle)
          CHECK(st.cycles * static_cast<double>(units * rows * cols) >=
                static_cast<double>(st.macs));
        }
        // The law off: every fold loads all R rows, never faster (the same blocking).
        const fused::KernelResult off =
            eval::evaluate_kernel(request(tpu(false, 0, db, units), 24, s, d));
        if (off.blocking == r.blocking) {
          CHECK(off.matrix_cycles >= r.matrix_cycles);
          CHECK(off.dram_bytes == r.dram_bytes);
        }
      }
}

TEST_CASE("materialised heads: every query head takes at least head_ns, beside the units",
          "[fused][materialised]") {
  const double head_ns = 40;
  for (long long hq : {12, 192, 768})
    for (long long s : {32, 328}) {
      const fused::KernelResult with =
          eval::evaluate_kernel(request(tpu(true, head_ns), hq, s, 32));
      const fused::KernelResult without = eval::evaluate_kernel(request(tpu(true, 0), hq, s, 32));
      INFO(hq << " heads, S = " << s);
      const double clock = 1750e6, heads = head_ns * 1e-9 * clock * static_cast<double>(hq);
      CHECK(with.head_cycles == Approx(heads));
      CHECK(without.head_cycles == 0);
      // the floor only replaces the busy time when it is longer than the units' and the link's
      const double busy = std::max(without.matrix_cycles, without.vector_cycles);
      const double exposed = with.exposed_cycles, launch = with.launch_cycles;
      const double expected =
          std::ceil(std::max(with.dram_cycles, std::max(busy, heads) + exposed) + launch);
      CHECK(static_cast<double>(with.cycles) == Approx(expected));
      CHECK(with.cycles >= without.cycles);
      if (heads > std::max({busy, with.dram_cycles})) {
        CHECK(with.bound == "heads");
      } else {
        CHECK(with.bound == without.bound);
      }
      CHECK(with.dram_bytes == without.dram_bytes);
    }
  // S = 32, D = 32 on four 256 x 256 units: the folds (32 rows each) take 16 cycles a head, the
  // softmax 5: the 68.6-cycle floor of 40 ns binds.
  CHECK(eval::evaluate_kernel(request(tpu(true, head_ns), 192, 32, 32)).bound == "heads");
}

TEST_CASE("materialised heads: other kernels and other accelerators do not take the keys",
          "[fused][materialised][arch]") {
  // Causal attention (the chip's attention kernel) and on-chip scores ignore the keys.
  for (const auto& [causal, scores] :
       {std::pair<bool, fused::ScoresPlace>{true, fused::ScoresPlace::kOnChip},
        {false, fused::ScoresPlace::kOnChip},
        {false, fused::ScoresPlace::kDram}}) {
    const fused::KernelResult a =
        eval::evaluate_kernel(request(tpu(true, 500), 32, 256, 64, causal, scores));
    const fused::KernelResult b =
        eval::evaluate_kernel(request(tpu(false, 0), 32, 256, 64, causal, scores));
    CHECK(a.cycles == b.cycles);
    CHECK(a.head_cycles == 0);
  }
  // No other preset has the key; it is written back and read again; bad values name the field.
  for (const char* name : {"scalable-32x32", "tpu-v1"}) {
    const arch::Accelerator acc = arch::load_accelerator_preset(name);
    CHECK(!acc.spec().chip.materialised.active());
    CHECK(!arch::to_json(acc).contains("fusion"));
  }
  nlohmann::json j = arch::to_json(*tpu(true, 39.5));
  CHECK(j["fusion"]["materialised_attention"]["load_filled_rows"] == true);
  CHECK(j["fusion"]["materialised_attention"]["head_ns"] == 39.5);
  CHECK(arch::parse_accelerator(j).spec().chip.materialised ==
        tpu(true, 39.5)->spec().chip.materialised);
  for (const auto& [key, value] : {std::pair<const char*, nlohmann::json>{"head_ns", -1},
                                   {"head_ns", "fast"},
                                   {"load_filled_rows", 1},
                                   {"rows", true}}) {
    nlohmann::json bad = j;
    bad["fusion"]["materialised_attention"][key] = value;
    INFO(key << " = " << value.dump());
    try {
      arch::parse_accelerator(bad, "x.json");
      FAIL("expected an error");
    } catch (const InputError& e) {
      CHECK(e.where() == std::string("/fusion/materialised_attention/") + key);
      CHECK(std::string(e.what()).find("x.json") != std::string::npos);
    }
  }
}

}  // namespace fused_materialised_heads_test
