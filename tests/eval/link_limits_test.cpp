// No reported time is below what a link allows (issue 21): with default options every matmul and
// every pass total takes at least its DRAM bytes / DRAM bandwidth and its MACs / peak MAC rate,
// and the `bounds` object's cycles at least its own DRAM bytes / bandwidth (half of them with a
// DMA engine's separate read and write channels, each of that bandwidth). Checked on random
// problems over every accelerator preset and many schemes, and on every bundled model x preset x
// scheme x phase x dataflow (TENET_LINK_LIMITS_FULL=1: the whole grid, ~5 min; by default each
// model x phase x preset with one (scheme, dataflow) pair in rotation, so every scheme and every
// dataflow meets every preset).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "llm/model_report.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"

using namespace tenet;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> arch_presets() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator("configs/arch"))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

double dram_bytes_per_cycle(const arch::Accelerator& acc) {
  const arch::Bandwidth& bw = acc.spec().dram.bandwidth;
  return bw.unlimited ? 0 : bw.bytes_per_cycle;
}

// The fastest MAC rate of the whole chip (every matrix unit) at any of its precisions, MACs per
// cycle.
double peak_macs_per_cycle(const arch::Accelerator& acc) {
  double best = 0;
  for (const auto& [type, rate] : acc.spec().precisions)
    best = std::max(
        best, static_cast<double>(rate.macs_per_cycle) / static_cast<double>(rate.cycles_per_mac));
  return best * static_cast<double>(acc.rows()) * static_cast<double>(acc.cols()) *
         static_cast<double>(acc.spec().chip.matrix_units);
}

// ⌈bytes / bandwidth⌉ with the model's rounding margin (0 with an unlimited link).
double link_cycles(double bytes, double per_cycle) {
  if (per_cycle <= 0) return 0;
  return std::ceil(bytes / per_cycle - 1e-9);
}

// The link floor of a `bounds` object's own DRAM bytes: every byte at the bandwidth, or with a
// DMA engine's separate read and write channels (each of the bandwidth; the SAURIA presets) at
// least half of them on one channel.
double bound_link_cycles(double bytes, const arch::Accelerator& acc) {
  const arch::Microarch& u = acc.spec().micro;
  const bool separate = u.active() && u.dma.enabled && u.dma.separate_channels;
  return link_cycles(separate ? bytes / 2 : bytes, dram_bytes_per_cycle(acc));
}

// What one product's MACs need at the precision's peak rate on every PE of every matrix unit.
double mac_cycles(const hw::Result& h, const arch::Accelerator& acc) {
  const double lanes = static_cast<double>(h.rows) * static_cast<double>(h.cols) *
                       static_cast<double>(h.macs_per_cycle) *
                       static_cast<double>(acc.spec().chip.matrix_units);
  return std::ceil(static_cast<double>(h.macs) * static_cast<double>(h.cycles_per_mac) / lanes -
                   1e-9);
}

void check_call(const eval::Evaluation& e, const arch::Accelerator& acc, long long batch) {
  const double bw = dram_bytes_per_cycle(acc);
  const double cycles = e.call_cost().cycles.get_d();
  CHECK(cycles >= link_cycles(e.call_cost().dram_bytes.get_d(), bw));
  CHECK(cycles >= static_cast<double>(batch) * mac_cycles(e.hw(), acc));
  REQUIRE(e.call_cost().bounds);
  const hw::BoundsSum& b = *e.call_cost().bounds;
  CHECK(b.cycles.get_d() >= bound_link_cycles(b.dram_bytes.get_d(), acc));
  CHECK(b.cycles <= e.call_cost().cycles);
  CHECK(b.dram_bytes <= e.call_cost().dram_bytes);
  CHECK(b.schedule_independent_dram_bytes <= b.dram_bytes);
  CHECK(b.schedule_independent_dram_bytes >= b.compulsory_dram_bytes);
}

}  // namespace

TEST_CASE("no matmul is faster than its DRAM link or its MAC rate (random problems)",
          "[eval][limits]") {
  const std::vector<std::string> presets = arch_presets();
  REQUIRE(presets.size() >= 8);
  const char* const schemes[] = {"q0f16",   "q4f16_1",        "smoothquant_w8a8", "q0f32",
                                 "q3f16_1", "awq_w4a16_g128", "e4m3_e4m3_f16",    "kv_int8",
                                 "w4a8",    "q4f16_autoawq"};
  std::mt19937_64 rng(2111);
  auto pick = [&](long long lo, long long hi) {
    return std::uniform_int_distribution<long long>(lo, hi)(rng);
  };
  int evaluated = 0, refused = 0;
  for (int trial = 0; trial < 240; ++trial) {
    eval::Settings s;
    s.arch = presets[pick(0, static_cast<long long>(presets.size()) - 1)];
    s.quant = schemes[pick(0, 9)];
    s.dataflow = trial % 4 == 3
                     ? ""
                     : std::string(mapping::to_string(static_cast<mapping::Dataflow>(pick(0, 2))));
    eval::Request r = eval::make_request(s);
    const auto size = [&] {
      const long long k = pick(0, 3);
      return k == 0 ? pick(1, 4) : k == 1 ? pick(1, 200) : pick(1, 6000);
    };
    r.matmul.name = "gemm";
    r.matmul.m = size(), r.matmul.n = size(), r.matmul.k = size();
    r.matmul.batch = pick(1, 3);
    INFO(trial << ": " << s.arch << " " << s.quant << " " << mapping::to_string(r.dataflow) << " "
               << r.matmul.m << "x" << r.matmul.n << "x" << r.matmul.k << " batch "
               << r.matmul.batch);
    try {
      const eval::Evaluation e = eval::evaluate(r);
      check_call(e, *r.accelerator, r.matmul.batch);
      ++evaluated;
    } catch (const InputError& err) {
      ++refused;  // a scheme the accelerator cannot run (no such MAC precision), or too large
    }
  }
  CHECK(evaluated >= 150);
}

TEST_CASE(
    "no model pass is faster than its DRAM link (every bundled model, preset, scheme, "
    "phase and dataflow, default options)",
    "[eval][limits]") {
  std::vector<fs::path> models;
  for (const auto& e : fs::directory_iterator("workloads/models"))
    if (e.path().extension() == ".json") models.push_back(e.path());
  std::sort(models.begin(), models.end());
  REQUIRE(models.size() >= 20);
  const std::vector<std::string> presets = arch_presets();
  const char* full_env = std::getenv("TENET_LINK_LIMITS_FULL");
  const bool full = full_env && std::string(full_env) == "1";
  long long passes = 0, combination = 0;
  // Without TENET_LINK_LIMITS_FULL=1 each (model, phase) runs on every fourth preset, the offset
  // turning with the model, and each (model, phase, preset) on one (scheme, dataflow) pair in
  // turn: every model, phase, preset, scheme and dataflow is checked, in CI time.
  std::size_t model_index = 0;
  for (const fs::path& path : models) {
    ++model_index;
    const llm::ModelConfig config = llm::load_model_config(path.string());
    for (const llm::Phase phase : {llm::Phase::kPrefill, llm::Phase::kDecode}) {
      llm::GenerationOptions g;
      g.phase = phase;
      g.batch = 2;
      g.prompt = 96;
      g.context = 200;
      const std::vector<llm::MatmulShape> shapes = llm::generate_matmuls(config, g);
      for (std::size_t p = 0; p < presets.size(); ++p) {
        const std::string& preset = presets[p];
        if (!full && (p + model_index + static_cast<std::size_t>(phase)) % 4 != 0) continue;
        ++combination;  // each (model, phase, preset) gets the next (scheme, dataflow) pair
        for (int q = 0; q < 3; ++q) {
          const char* scheme = q == 0 ? "q0f16" : q == 1 ? "q4f16_1" : "smoothquant_w8a8";
          for (int f = 0; f < 3; ++f) {
            const char* flow = f == 0 ? "os" : f == 1 ? "ws" : "is";
            if (!full && (combination % 3 != q || combination / 3 % 3 != f)) continue;
            eval::Settings s;
            s.arch = preset, s.quant = scheme, s.dataflow = flow;
            INFO(path.filename().string()
                 << " " << llm::to_string(phase) << " " << preset << " " << scheme << " " << flow);
            llm::ModelReport report;
            try {
              report = llm::build_model_report(shapes, eval::make_cost_model(s), {});
            } catch (const InputError&) {
              continue;  // the accelerator cannot run the scheme
            }
            const eval::Request base = eval::make_request(s);
            const double bw = dram_bytes_per_cycle(*base.accelerator);
            const double peak = peak_macs_per_cycle(*base.accelerator);
            const llm::ReportTotals& t = report.totals;
            CHECK(t.cycles.get_d() >= link_cycles(t.dram_bytes.get_d(), bw));
            CHECK(t.cycles.get_d() >= std::ceil(t.macs.get_d() / peak - 1e-9));
            for (const llm::LayerReport& l : report.layers) {
              CHECK(l.per_call.cycles.get_d() >= link_cycles(l.per_call.dram_bytes.get_d(), bw));
              CHECK(l.per_call.cycles.get_d() >=
                    std::ceil(static_cast<double>(l.shape.batch) * l.shape.m * l.shape.n *
                                  l.shape.k / peak -
                              1e-9));
              REQUIRE(l.per_call.bounds);
              CHECK(l.per_call.bounds->cycles.get_d() >=
                    bound_link_cycles(l.per_call.bounds->dram_bytes.get_d(), *base.accelerator));
            }
            REQUIRE(t.bounds);
            CHECK(t.bounds->cycles <= t.cycles);
            ++passes;
          }
        }
      }
    }
  }
  CHECK(passes >= (full ? 1000 : 200));
}
