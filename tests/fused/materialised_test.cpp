// Materialised attention scores (--scores materialised, docs/model.md#fused-kernels): S and P of
// every head whole, kept on chip while they fit the global buffer and spilled (counted) when not,
// their rows padded to global_buffer.row_elements; the softmax over whole rows; the heads' folds
// issued back to back (max(stream, preload) per fold, one fill and drain per stage).
#include "fused/materialised.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/kernel.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/hw/evaluate.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace fused_materialised_test {

using namespace tenet;

std::shared_ptr<const arch::Accelerator> tpu(long long row_elements = 128, long long units = 4) {
  arch::AcceleratorSpec s = arch::load_accelerator_preset("tpu-v6e").spec();
  s.global_buffer.row_elements = row_elements;
  s.chip.matrix_units = units;
  s.chip.materialised = {};  // every fold loads all R rows, no least time per head (the law here)
  return std::make_shared<const arch::Accelerator>(s);
}

eval::KernelRequest request(std::shared_ptr<const arch::Accelerator> acc, long long hq, long long s,
                            long long d = 32) {
  eval::KernelRequest q;
  q.kernel = fused::AttentionKernel{hq, hq, s, s, d, false, fused::ScoresPlace::kMaterialised};
  q.base.bits = {16, 16, 16};
  q.base.dataflow = mapping::Dataflow::kWeightStationary;
  q.base.accelerator = std::move(acc);
  return q;
}

const fused::TensorResult* tensor(const fused::KernelResult& r, const std::string& name) {
  for (const fused::TensorResult& t : r.tensors)
    if (t.name == name) return &t;
  return nullptr;
}

std::int64_t round_up(std::int64_t v, std::int64_t m) { return (v + m - 1) / m * m; }

TEST_CASE("materialised: scores on chip while every head's S and P fit, spilled when not",
          "[fused][materialised]") {
  // S = 328 keys: rows of 384 elements at 128 per buffer row; S fp32 + P bf16 = 6 bytes each.
  // 120 heads: 90.7 MB of the 128 MiB buffer; 192 heads: 145 MB.
  for (const auto& [hq, spilled] : {std::pair<long long, bool>{120, false}, {192, true}}) {
    const eval::KernelRequest q = request(tpu(), hq, 328);
    const fused::KernelResult r = eval::evaluate_kernel(q);
    INFO(hq << " heads");
    CHECK(r.blocking == fused::Blocking{328, 328});  // all queries of a head, whole rows
    CHECK(r.spilled == spilled);
    CHECK(r.placement == (spilled ? "spilled" : "on_chip"));
    const std::int64_t padded = hq * 328 * round_up(328, 128), scores = hq * 328 * 328;
    CHECK(fused::materialised_scores_bytes(std::get<fused::AttentionKernel>(q.kernel),
                                           *q.base.accelerator, 16) == padded * 6);
    // every score produced once, kept or spilled (the exact counts: no padding in them)
    for (const fused::IntermediateResult& i : r.intermediates) {
      CHECK(i.produced == scores);
      CHECK(i.on_chip + i.spilled == scores);
      CHECK(i.spilled == (spilled ? scores : 0));
    }
    const std::int64_t qkvo = 4 * hq * 328 * 32 * 2;  // bf16, each once
    if (spilled) {
      REQUIRE(tensor(r, "S"));
      REQUIRE(tensor(r, "P"));
      CHECK(tensor(r, "S")->dram_elements == 2 * scores);
      CHECK(tensor(r, "S")->dram_bytes == 2 * 2 * padded);  // written and read, padded rows
      CHECK(tensor(r, "P")->dram_bytes == 2 * 2 * padded);
      CHECK(r.dram_bytes == qkvo + 8 * padded);
    } else {
      CHECK(tensor(r, "S") == nullptr);
      CHECK(r.dram_bytes == qkvo);
    }
    CHECK(r.compulsory_dram_bytes == qkvo);
    // no time below a link
    const double bw = q.base.accelerator->spec().dram.bandwidth.bytes_per_cycle;
    CHECK(static_cast<double>(r.cycles) >= static_cast<double>(r.dram_bytes) / bw);
    CHECK(static_cast<double>(r.cycles) >= r.matrix_cycles);
    CHECK(static_cast<double>(r.cycles) >= r.vector_cycles);
  }
}

TEST_CASE("materialised: row_elements 1 pads nothing", "[fused][materialised]") {
  // 192 heads unpadded: 124 MB of S and P fit the 128 MiB buffer; 300 heads do not.
  CHECK(eval::evaluate_kernel(request(tpu(1), 192, 328)).placement == "on_chip");
  const fused::KernelResult r = eval::evaluate_kernel(request(tpu(1), 300, 328));
  CHECK(r.placement == "spilled");
  REQUIRE(tensor(r, "S"));
  CHECK(tensor(r, "S")->dram_bytes == 2 * 2 * 300 * 328 * 328);
  CHECK(fused::padded_row(*tpu(1), 328) == 328);
  CHECK(fused::padded_row(*tpu(128), 328) == 384);
  CHECK(fused::padded_row(*tpu(128), 256) == 256);
  CHECK(fused::padded_row_bytes(*tpu(128), 656, 328) == 768);  // one bf16 row of 328 keys
}

TEST_CASE("materialised: the softmax over whole rows, five operations per score",
          "[fused][materialised]") {
  const fused::KernelResult r = eval::evaluate_kernel(request(tpu(), 48, 128));
  const fused::StageResult& softmax = r.stages.back();
  CHECK(softmax.unit == "vector");
  CHECK(softmax.ops == 5 * 48 * 128 * 128);
  CHECK(softmax.sram_bytes == 2 * 2 * 48 * 128 * 128);  // S read and P written, bf16
}

// The stage time recomputed from eval::evaluate of each tile in the orientation whose folds
// stream faster (bf16: either input held in the array): the back-to-back law of
// docs/model.md#fused-kernels — one fill and drain (R + C - 2), then each fold max(stream, load of
// the held tile through the array's R rows) (stream + load without double-buffered stationary
// operands), dealt over the units; never below the array-side SRAM port's time.
double expected_back_to_back(const eval::KernelRequest& q, const fused::StageResult& s,
                             double& per_tile_sum) {
  const arch::Accelerator& acc = *q.base.accelerator;
  const long long units = acc.spec().chip.matrix_units;
  const bool db = acc.spec().stationary_double_buffered;
  auto stream = [&](const eval::Evaluation& v) {
    const hw::Result& h = v.product().hw;
    const double st = static_cast<double>(h.array_use.stream_cycles),
                 load = static_cast<double>(acc.rows());
    return static_cast<double>(h.folds) * (db ? std::max(st, load) : st + load);
  };
  double work = 0;
  per_tile_sum = 0;
  for (const fused::TileCost& t : s.tiles) {
    const eval::Evaluation e = eval::evaluate(eval::tile_request(q, s.name, t.shape));
    double w = stream(e);
    if (t.shape[0] != t.shape[1])
      w = std::min(w, stream(eval::evaluate(
                          eval::tile_request(q, s.name, {t.shape[1], t.shape[0], t.shape[2]}))));
    work += static_cast<double>(t.count) * w;
    per_tile_sum += static_cast<double>(t.count * t.cycles);
  }
  double cycles = static_cast<double>(acc.rows() + acc.cols() - 2) +
                  std::ceil(work / static_cast<double>(units));
  const arch::Bandwidth& port = acc.spec().global_buffer.bandwidth;
  if (!port.unlimited && port.bytes_per_cycle > 0)
    cycles = std::max(cycles, static_cast<double>(s.sram_bytes) / port.bytes_per_cycle);
  return cycles;
}

TEST_CASE("materialised: the heads' folds issue back to back over the matrix units",
          "[fused][materialised]") {
  for (bool db : {true, false})
    for (long long units : {1, 4})
      for (long long s : {32, 328}) {
        arch::AcceleratorSpec spec = tpu(128, units)->spec();
        spec.stationary_double_buffered = db;
        const eval::KernelRequest q =
            request(std::make_shared<const arch::Accelerator>(spec), 48, s);
        const fused::KernelResult r = eval::evaluate_kernel(q);
        const arch::Accelerator& acc = *q.base.accelerator;
        INFO(units << " units, S = " << s << ", double-buffered " << db);
        for (const fused::StageResult& st : r.stages) {
          if (st.unit != "matrix") continue;
          double per_tile = 0;
          CHECK(st.cycles == Approx(expected_back_to_back(q, st, per_tile)));
          // never below the MACs at the units' peak (bf16: one MAC per PE and cycle)
          CHECK(st.cycles * static_cast<double>(units * acc.rows() * acc.cols()) >=
                static_cast<double>(st.macs));
        }
      }
}

TEST_CASE("materialised: the accelerator file's row_elements is read and checked",
          "[fused][materialised][arch]") {
  nlohmann::json j = arch::to_json(*tpu());
  CHECK(j["global_buffer"]["row_elements"] == 128);
  CHECK(arch::parse_accelerator(j).spec().global_buffer.row_elements == 128);
  j["global_buffer"]["row_elements"] = 0;
  try {
    arch::parse_accelerator(j, "x.json");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.where() == "/global_buffer/row_elements");
  }
  // a file without the key pads nothing (every other preset)
  CHECK(arch::load_accelerator_preset("scalable-32x32").spec().global_buffer.row_elements == 1);
  CHECK(!arch::to_json(arch::load_accelerator_preset("scalable-32x32"))["global_buffer"].contains(
      "row_elements"));
}

TEST_CASE("materialised: the CLI's --scores names it", "[fused][materialised]") {
  CHECK(fused::parse_scores_place("materialised") == fused::ScoresPlace::kMaterialised);
  CHECK(std::string(fused::to_string(fused::ScoresPlace::kMaterialised)) == "materialised");
  CHECK_THROWS_AS(fused::parse_scores_place("materialized"), InputError);
}

// The chip's own place (the default): causal attention on chip, non-causal as the accelerator's
// fusion.non_causal_attention says — tpu-v6e materialised, every other preset on chip.
TEST_CASE("materialised: the chip's own scores place resolves per accelerator",
          "[fused][materialised][arch]") {
  const auto v6e = tpu();
  CHECK(v6e->spec().chip.non_causal_scores == "materialised");
  const auto scalable =
      std::make_shared<const arch::Accelerator>(arch::load_accelerator_preset("scalable-32x32"));
  CHECK(scalable->spec().chip.non_causal_scores == "on_chip");
  CHECK(!arch::to_json(*scalable).contains("fusion"));
  for (bool causal : {false, true})
    for (const auto& acc : {v6e, scalable}) {
      eval::KernelRequest chip = request(acc, 12, 200, 64);
      auto& k = std::get<fused::AttentionKernel>(chip.kernel);
      k.causal = causal, k.scores = fused::ScoresPlace::kChip;
      const bool materialised = !causal && acc == v6e;
      eval::KernelRequest named = chip;
      std::get<fused::AttentionKernel>(named.kernel).scores =
          materialised ? fused::ScoresPlace::kMaterialised : fused::ScoresPlace::kOnChip;
      const fused::KernelResult a = eval::evaluate_kernel(chip), b = eval::evaluate_kernel(named);
      INFO(acc->name() << (causal ? " causal" : " non-causal"));
      CHECK(std::get<fused::AttentionKernel>(a.kernel).scores ==
            std::get<fused::AttentionKernel>(named.kernel).scores);
      CHECK(a.cycles == b.cycles);
      CHECK(a.dram_bytes == b.dram_bytes);
    }
  // the key is read, written back and checked
  nlohmann::json j = arch::to_json(*v6e);
  CHECK(j["fusion"]["non_causal_attention"] == "materialised");
  CHECK(arch::parse_accelerator(j).spec().chip.non_causal_scores == "materialised");
  j["fusion"]["non_causal_attention"] = "materialized";
  try {
    arch::parse_accelerator(j, "x.json");
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.where() == "/fusion/non_causal_attention");
    CHECK(std::string(e.what()).find("x.json") != std::string::npos);
  }
  CHECK(fused::parse_scores_place("chip") == fused::ScoresPlace::kChip);
  CHECK(std::string(fused::to_string(fused::ScoresPlace::kChip)) == "chip");
}

}  // namespace fused_materialised_test
