// The lower bounds the latency search prunes with, and the search itself, on random problems:
// every bound is <= the cycles the full model gives, and the chosen tiling equals the best of
// all candidates evaluated one by one (cycles, then DRAM bytes, then fewer tiles, then the
// first candidate).
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <tuple>

#include "fixtures.hpp"
#include "hw/model.hpp"
#include "hw/search/search_detail.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"

using namespace tenet;
using namespace hwtest;

namespace {

// A problem with optional quantized B (packed words along k, group scales) and odd sizes; m is
// 1 in a quarter of them (decode), n or k in an eighth each (the search's dimensions of size 1).
hw::GemmProblem random_problem(std::mt19937& rng) {
  std::uniform_int_distribution<long long> size(1, 70), pick(0, 3), eighth(0, 7);
  const long long m = pick(rng) == 0 ? 1 : size(rng);
  const long long n = eighth(rng) == 0 ? 1 : size(rng);
  const long long k = eighth(rng) == 0 ? 1 : size(rng);
  const GemmShape shape{m, n, k};
  if (pick(rng) < 2) return hw::make_gemm_problem(shape);
  hw::GemmProblem p = hw::make_gemm_problem(shape, {16, 32, 16});
  const long long word = pick(rng) < 2 ? 8 : 4;
  p.operands[1].group = {0, 1, word};  // B as packed words of `word` values along k
  const long long g = std::uniform_int_distribution<long long>(2, 40)(rng);
  p.operands.push_back({"B.scale", workload::OperandRole::kScale, 16, false, {0, 1, g}});
  p.precision = workload::DataType::fp16();
  return p;
}

Accelerator random_acc(std::mt19937& rng) {
  std::uniform_int_distribution<long long> dim(2, 8), buffer(256, 16384), bw(1, 32), lat(0, 40);
  const Bandwidth sram = bw(rng) % 3 == 0 ? Bandwidth::infinite() : Bandwidth::of(2 * bw(rng));
  const Accelerator acc =
      make_acc(dim(rng), dim(rng), buffer(rng), sram, Bandwidth::of(bw(rng)), lat(rng));
  if (bw(rng) % 5 != 0) return acc;
  // one in five: a global buffer that is not double-buffered (every window stalls the array)
  AcceleratorSpec s = acc.spec();
  s.global_buffer.double_buffered = false;
  return Accelerator(s);
}

// Calls f(acc, problem, dataflow, candidates, label) on `trials` random cases.
template <typename F>
void for_random_cases(unsigned seed, int trials, F f) {
  std::mt19937 rng(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const Accelerator acc = random_acc(rng);
    const hw::GemmProblem p = random_problem(rng);
    for (Dataflow df :
         {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
      const std::string label = std::to_string(p.shape.m) + "x" + std::to_string(p.shape.n) + "x" +
                                std::to_string(p.shape.k) + " " + mapping::to_string(df);
      f(acc, p, df, hw::tiling_candidates(acc, p, df), label);
    }
  }
}

}  // namespace

TEST_CASE("tiling search bounds never exceed the modelled cycles", "[hw][tiling][bounds]") {
  long long checked = 0, tight_dram = 0, tight_sram = 0, tight_stall = 0, tight_stall_single = 0;
  for_random_cases(
      11, 60,
      [&](const Accelerator& acc, const hw::GemmProblem& p, Dataflow df,
          const std::vector<Tiling>& all, const std::string& label) {
        const hw::detail::Plan base =
            hw::detail::Model(acc, p, df, Tiling{}, {}, {true, false}).plan();
        for (const Tiling& t : all) {
          const hw::detail::Model m(acc, p, df, t, {});
          const long long cycles = m.timing().total;
          // the search's models, retiled from the untiled plan, are the same
          const hw::detail::Model retiled(acc, p, df, t, {}, {false, true, &base});
          REQUIRE(retiled.feasible() == m.feasible());
          REQUIRE(retiled.dram_bytes() == m.dram_bytes());
          REQUIRE(retiled.timing().total == cycles);
          REQUIRE(retiled.energy().total == m.energy().total);
          INFO(label << " " << mapping::to_string(t));
          REQUIRE(m.compute_cycles() <= cycles);
          REQUIRE(hw::search::dram_windows_floor(m) <= cycles);
          REQUIRE(hw::search::sram_cycles_floor(m) <= cycles);
          const long long stall = hw::search::stall_cycles_floor(m);
          REQUIRE(m.compute_cycles() + stall <= cycles);
          if (stall > 0 && hw::search::dram_windows_floor(m) < m.compute_cycles() + stall) {
            ++tight_stall;  // binding beyond the compute and DRAM bounds
            if (acc.spec().global_buffer.double_buffered) ++tight_stall_single;
          }
          hw::Options edges;
          edges.edge_transfers = true;
          const hw::detail::Model cold(acc, p, df, t, edges);
          REQUIRE(hw::search::cycles_floor(cold) <= cold.timing().total);
          ++checked;
          if (hw::search::dram_windows_floor(m) > m.compute_cycles()) ++tight_dram;
          if (hw::search::sram_cycles_floor(m) > m.compute_cycles()) ++tight_sram;
        }
      });
  CHECK(checked > 5000);
  // Each bound is the binding one on many candidates.
  CHECK(tight_dram > 100);
  CHECK(tight_sram > 100);
  // the stall bound: single-buffered tiles (Tiling::single) and buffers that are not
  // double-buffered
  CHECK(tight_stall > 100);
  CHECK(tight_stall_single > 20);
}

namespace {

// The latency objective's order as a score: near-ties of the fastest first (objective 0, then
// DRAM bytes, energy rank, cycles, tiles, index), the rest after (objective 1).
void latency_scores(const std::vector<hw::Result>& results,
                    std::vector<std::tuple<double, long long, long long, long long, size_t>>& out) {
  long long fastest = results.front().cycles.total;
  for (const hw::Result& r : results) fastest = std::min(fastest, r.cycles.total);
  std::vector<std::tuple<long long, double, long long, long long, size_t>> order;
  for (size_t i = 0; i < results.size(); ++i) {
    const hw::Result& r = results[i];
    const bool near =
        static_cast<__int128>(r.cycles.total) * 100 <= static_cast<__int128>(fastest) * 102;
    order.push_back({near ? r.dram_bytes : -1, r.energy_pj.total, r.cycles.total, r.tiles, i});
    if (!near) std::get<1>(order.back()) = 0;
  }
  out.clear();
  for (const auto& [bytes, energy, cycles, tiles, i] : order) {
    // rank of (bytes, energy) among the near-ties, so the tuple stays (double, 4 integers)
    long long rank = 0;
    for (const auto& o : order)
      if (std::get<0>(o) >= 0 && bytes >= 0 &&
          std::tie(std::get<0>(o), std::get<1>(o)) < std::tie(bytes, energy))
        ++rank;
    out.push_back({bytes >= 0 ? 0.0 : 1.0, bytes >= 0 ? rank : 0, cycles, tiles, i});
  }
}

// The latency rule's cap (docs/hardware.md, "The latency rule") after the window's choice
// `chosen`: L, the fewest DRAM bytes (then cycles, tiles, index); when `chosen` moves more than
// 1.5x L's bytes and L is within 2 % of its cycles, the candidate with the fewest cycles (then
// bytes, energy, tiles, index) among those moving at most 1.5x L's bytes. `capped` counts it.
size_t with_cap(const std::vector<hw::Result>& results, size_t chosen, long long& capped) {
  const auto key = [&](size_t i) {
    const hw::Result& r = results[i];
    return std::tuple(r.dram_bytes, r.cycles.total, r.tiles, i);
  };
  size_t least = 0;
  for (size_t i = 1; i < results.size(); ++i)
    if (key(i) < key(least)) least = i;
  const hw::Result& x = results[chosen];
  const hw::Result& l = results[least];
  if (l.cycles.total * 100 > x.cycles.total * 102 || x.dram_bytes * 2 <= l.dram_bytes * 3)
    return chosen;
  ++capped;
  const auto fast = [&](size_t i) {
    const hw::Result& r = results[i];
    return std::tuple(r.cycles.total, r.dram_bytes, r.energy_pj.total, r.tiles, i);
  };
  size_t best = least;
  for (size_t i = 0; i < results.size(); ++i)
    if (results[i].dram_bytes * 2 <= l.dram_bytes * 3 && fast(i) < fast(best)) best = i;
  return best;
}

}  // namespace

TEST_CASE("the latency, energy and EDP searches equal exhaustive evaluation on random problems",
          "[hw][tiling][bounds]") {
  long long pruned = 0, candidates = 0, capped = 0;
  for_random_cases(
      5, 80,
      [&](const Accelerator& acc, const hw::GemmProblem& p, Dataflow df,
          const std::vector<Tiling>& all, const std::string& label) {
        // Scores as documented: (objective, then cycles, DRAM bytes, tiles, enumeration index);
        // latency: the fastest, then within 2 % of it (DRAM bytes, energy, cycles, tiles, index),
        // as an objective value of 0 for the near-ties in that order and 1 for the rest.
        using Score = std::tuple<double, long long, long long, long long, size_t>;
        std::vector<Score> latency, energy, edp;
        std::vector<hw::Result> results;
        for (size_t i = 0; i < all.size(); ++i) {
          const hw::Result r = hw::evaluate_gemm(acc, p, df, all[i]);
          const long long c = r.cycles.total, b = r.dram_bytes, t = r.tiles;
          energy.push_back({r.energy_pj.total, c, b, t, i});
          edp.push_back({r.energy_pj.total * static_cast<double>(c), c, b, t, i});
          results.push_back(r);
        }
        latency_scores(results, latency);
        INFO(label);
        for (const auto& [objective, scores] : {std::pair{hw::TilingObjective::kLatency, &latency},
                                                std::pair{hw::TilingObjective::kEnergy, &energy},
                                                std::pair{hw::TilingObjective::kEdp, &edp}}) {
          INFO(hw::to_string(objective));
          size_t best = std::get<4>(*std::min_element(scores->begin(), scores->end()));
          if (objective == hw::TilingObjective::kLatency) best = with_cap(results, best, capped);
          hw::TilingSearchStats stats;
          hw::TilingSearchOptions options;
          options.objective = objective;
          options.stats = &stats;
          CHECK(hw::choose_tiling(acc, p, df, {}, options) == all[best]);
          // latency generates the space but what lies beyond the near-tie window of a first
          // timed candidate; the others generate all of it
          if (objective == hw::TilingObjective::kLatency)
            CHECK(stats.candidates <= static_cast<long long>(all.size()));
          else
            CHECK(stats.candidates == static_cast<long long>(all.size()));
          CHECK(stats.evaluated + stats.pruned == stats.candidates);
          CHECK(stats.evaluated >= 1);
          pruned += stats.pruned, candidates += stats.candidates;
        }
        // With edge transfers (a different cost, the same search) under latency.
        hw::Options edges;
        edges.edge_transfers = true;
        std::vector<hw::Result> cold;
        for (size_t i = 0; i < all.size(); ++i)
          cold.push_back(hw::evaluate_gemm(acc, p, df, all[i], edges));
        std::vector<Score> cold_scores;
        latency_scores(cold, cold_scores);
        const size_t cold_best = with_cap(
            cold, std::get<4>(*std::min_element(cold_scores.begin(), cold_scores.end())), capped);
        CHECK(hw::choose_tiling(acc, p, df, edges) == all[cold_best]);
      });
  CHECK(pruned * 2 > candidates);  // most candidates are never timed
  WARN("the latency rule's cap changed the window's choice on " << capped << " searches");
}

namespace {

// An accelerator of for_random_cases with random microarchitecture terms (docs/hardware.md §3b):
// double-buffered accumulators or not, per-tile and per-run overheads, a DMA engine with bursts,
// beats, outstanding bursts, channels, a throttle and a command setup, DRAM layouts and packed
// placement, C read at every tile start, padding (also only for aligned stream tiles), a feeder
// word with its stall, SRAM-resident roles, tiles that fit one bank.
Accelerator with_random_micro(const Accelerator& acc, std::mt19937& rng) {
  std::uniform_int_distribution<long long> cycles(0, 60), pick(0, 3);
  AcceleratorSpec s = acc.spec();
  arch::Microarch& u = s.micro;
  u.accumulator_double_buffered = pick(rng) != 0;
  u.drain_cycles = cycles(rng);
  u.drain_cycles_reload = u.drain_cycles + cycles(rng) / 3;
  u.tile_fill_drain_cycles = pick(rng) == 0 ? -1 : cycles(rng);
  u.min_tile_cycles = 2 * cycles(rng);
  u.tile_overhead_cycles = cycles(rng);
  u.run_overhead_cycles = 1 + cycles(rng) / 2;
  u.dma.enabled = pick(rng) != 0;
  u.dma.command_cycles = cycles(rng) / 4;
  const long long bursts[] = {0, 32, 128, 512};
  u.dma.max_burst_bytes = bursts[pick(rng)];
  const long long beats[] = {1, 2, 8, 16};
  u.dma.beat_bytes = beats[pick(rng)];
  u.dma.outstanding_bursts = pick(rng) % 3;
  u.dma.burst_latency_cycles = cycles(rng) / 10;
  u.dma.separate_channels = pick(rng) < 2;
  if (pick(rng) == 0) u.dma.throttle_bytes = 64, u.dma.throttle_gap_cycles = 1 + cycles(rng) / 10;
  const char* dims[] = {"m", "n", "k", ""};
  u.layouts["activation"] = {dims[pick(rng)], pick(rng) == 0};
  u.layouts["weight"] = {dims[pick(rng)], pick(rng) == 0};
  u.layouts["output"] = {dims[pick(rng)], false};
  u.accumulate_from_dram = pick(rng) < 2;
  u.pad_to_array = pick(rng) < 2;
  u.pad_stream_multiple = 1 + pick(rng) % 2 * 3;
  u.feeder_word = pick(rng) == 0 ? 1 : 4;
  u.unaligned_factor = 1 + static_cast<double>(pick(rng)) / 2;
  // issue 37: the general feeder path's stall, unpadded off-word stream tiles, the command setup
  // beside a run's transfer, packed DRAM placement
  u.unaligned_stall_cycles = static_cast<double>(pick(rng)) / 2;
  u.pad_stream_aligned_tiles_only = pick(rng) < 2;
  u.dma.command_setup_cycles = pick(rng) == 0 ? cycles(rng) : 0;
  u.packed_placement = pick(rng) < 2;
  for (const char* role : {"activation", "weight", "output"})
    if (pick(rng) < 2) u.sram_resident.push_back(role);
  u.tile_fits_one_bank = pick(rng) < 2;
  return Accelerator(s);
}

}  // namespace

TEST_CASE("with microarchitecture terms, the bounds hold and the searches equal brute force",
          "[hw][tiling][bounds][micro]") {
  // The latency search's floors with the microarchitecture active: a group's compute cycles (the
  // run overhead and every tile's busy time and overhead), the DRAM channel time of the traffic
  // floor (half of it with separate read / write channels), the model's cycle bound; groups whose
  // SRAM-resident operands do not fit are infeasible. Each must stay a lower bound: the chosen
  // tiling equals the best feasible candidate evaluated one by one.
  std::mt19937 rng(2323);
  long long checked = 0, infeasible = 0, searched = 0, capped = 0;
  for_random_cases(
      23, 45,
      [&](const Accelerator& plain, const hw::GemmProblem& p, Dataflow df,
          const std::vector<Tiling>&, const std::string& label) {
        const Accelerator acc = with_random_micro(plain, rng);
        REQUIRE(acc.spec().micro.active());
        // the candidates of this accelerator (its buffer and residency rules shape them)
        const std::vector<Tiling> all = hw::tiling_candidates(acc, p, df);
        hw::Options options;
        options.edge_transfers = checked % 2 == 0;
        std::vector<hw::Result> results;
        std::vector<Tiling> feasible;
        const hw::detail::Model whole(acc, p, df, Tiling{}, options);
        for (const Tiling& t : all) {
          const hw::detail::Model m(acc, p, df, t, options);
          INFO(label << " " << mapping::to_string(t) << " on " << acc);
          // the search's plan of the candidate (retiled from the untiled one) is the model's
          const hw::detail::Model retiled(acc, p, df, t, options, {false, true, &whole.plan()});
          REQUIRE(retiled.plan().shape == m.plan().shape);
          REQUIRE(retiled.feasible() == m.feasible());
          if (m.feasible()) REQUIRE(retiled.timing().total == m.timing().total);
          if (m.feasible()) REQUIRE(retiled.dram_bytes() == m.dram_bytes());
          if (!m.feasible()) {
            CHECK_THROWS_AS(m.result(), InputError);
            ++infeasible;
            continue;
          }
          const hw::Result r = m.result();
          const long long cycles = r.cycles.total;
          REQUIRE(m.compute_cycles() == r.cycles.compute);
          REQUIRE(m.compute_cycles() <= cycles);
          REQUIRE(hw::search::cycles_floor(m) <= cycles);
          REQUIRE(r.cycles.total >= r.cycles.compute);
          ++checked;
          results.push_back(r);
          feasible.push_back(t);
        }
        if (results.empty()) return;
        std::vector<std::tuple<double, long long, long long, long long, size_t>> latency;
        latency_scores(results, latency);
        const size_t best = with_cap(
            results, std::get<4>(*std::min_element(latency.begin(), latency.end())), capped);
        INFO(label << " on " << acc);
        CHECK(hw::choose_tiling(acc, p, df, options) == feasible[best]);
        const Tiling lean_tiling =
            hw::choose_tiling(acc, p, df, options, {hw::TilingObjective::kDramBytes});
        const hw::Result lean = hw::evaluate_gemm(acc, p, df, lean_tiling, options);
        for (const hw::Result& r : results) {
          INFO("lean " << mapping::to_string(lean_tiling) << " vs "
                       << mapping::to_string(r.tiling));
          CHECK(lean.dram_bytes <= r.dram_bytes);
          if (r.dram_bytes == lean.dram_bytes) CHECK(lean.cycles.total <= r.cycles.total);
        }
        ++searched;
      });
  CHECK(checked > 3000);
  CHECK(infeasible > 100);
  CHECK(searched > 60);
  WARN("the latency rule's cap changed the window's choice on " << capped << " searches");
}

TEST_CASE("with separate DMA read and write channels, the DRAM bounds stay below the cycles",
          "[hw][tiling][bounds][micro]") {
  // Reads and writes in balance on a slow channel: every tile reads its A and B tiles (k short)
  // and writes back the previous C tile, at the same time; the window is the longer of the two,
  // about half the bytes' time, which the bounds must not exceed.
  AcceleratorSpec s = make_acc(4, 4, 1LL << 30, Bandwidth::infinite(), Bandwidth::of(1), 0).spec();
  s.micro.dma.enabled = true;
  s.micro.dma.separate_channels = true;
  s.micro.run_overhead_cycles = 1;
  const Accelerator acc(s);
  const hw::GemmProblem p = hw::make_gemm_problem({64, 64, 4});
  for (const Tiling& t : {Tiling{8, 8, 4}, Tiling{16, 16, 4}, Tiling{8, 64, 4}}) {
    const hw::detail::Model m(acc, p, Dataflow::kOutputStationary, t, {});
    const long long cycles = m.timing().total;
    INFO(mapping::to_string(t) << ": " << cycles << " cycles, DRAM bound "
                               << hw::search::dram_windows_floor(m));
    CHECK(hw::search::dram_windows_floor(m) <= cycles);
    CHECK(hw::search::cycles_floor(m) <= cycles);
    CHECK(hw::search::dram_cycles_floor(m, p, static_cast<double>(m.dram_bytes())) <= cycles);
    CHECK(hw::search::dram_windows_floor(m) * 3 > cycles);  // DRAM-bound: the bound is not idle
  }
}
