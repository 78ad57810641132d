// The tiling search against brute force: every candidate of tiling_candidates() evaluated with
// evaluate_gemm; the chosen tiling must be optimal for each objective.
#include "tenet/hw/tiling_search.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "hw/model.hpp"
#include "hw/search/search_detail.hpp"
#include "hw/tiling_search_detail.hpp"
#include "random_cases.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/evaluate.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace hw_tiling_search_test {

using namespace tenet;
using namespace hwtest;

namespace {

struct Case {
  std::string name;
  Accelerator acc;
  hw::GemmProblem problem;
};

hw::GemmProblem quantized(const GemmShape& shape) {
  hw::GemmProblem p = hw::make_gemm_problem(shape, {16, 4, 32});
  p.operands.push_back({"sB", workload::OperandRole::kScale, 16, false, {0, 1, 8}});
  p.precision = workload::DataType::fp16();
  return p;
}

std::vector<Case> cases() {
  return {
      {"small buffer, slow DRAM", make_acc(4, 4, 2048, Bandwidth::of(8), Bandwidth::of(2), 20),
       hw::make_gemm_problem({37, 50, 29})},
      {"8x8, 8 KiB, DRAM 4 B/cycle",
       make_acc(8, 8, 8192, Bandwidth::infinite(), Bandwidth::of(4), 50),
       hw::make_gemm_problem({64, 96, 80})},
      {"4-bit weights with scales", make_acc(4, 8, 4096, Bandwidth::of(16), Bandwidth::of(3), 10),
       quantized({45, 70, 130})},
      {"packed MACs, everything fits",
       make_acc(8, 4, 1 << 20, Bandwidth::of(32), Bandwidth::of(8), 5, 2),
       hw::make_gemm_problem({33, 17, 100})},
      {"compute-bound, 16 KiB", make_acc(4, 4, 16384, Bandwidth::infinite(), Bandwidth::of(32), 10),
       hw::make_gemm_problem({64, 256, 256})},
  };
}

double edp(const hw::Result& r) { return r.energy_pj.total * static_cast<double>(r.cycles.total); }

}  // namespace

TEST_CASE("tiling candidates are resolved, distinct and include the untiled run", "[hw][tiling]") {
  for (const Case& c : cases()) {
    INFO(c.name);
    for (Dataflow df :
         {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
      const std::vector<Tiling> all = hw::tiling_candidates(c.acc, c.problem, df);
      const std::set<std::string> distinct = [&] {
        std::set<std::string> s;
        for (const Tiling& t : all) s.insert(mapping::to_string(t));
        return s;
      }();
      CHECK(distinct.size() == all.size());
      CHECK(std::count(all.begin(), all.end(), mapping::resolve_tiling({}, c.problem.shape)) == 1);
      for (const Tiling& t : all) CHECK(mapping::resolve_tiling(t, c.problem.shape) == t);
      CHECK(all.size() > 6);
    }
  }
}

TEST_CASE("the chosen tiling is optimal over the candidates for every objective", "[hw][tiling]") {
  bool latency_beats_dram_choice = false;
  for (const Case& c : cases()) {
    for (Dataflow df :
         {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
      INFO(c.name << ", " << mapping::to_string(df));
      std::vector<hw::Result> brute;
      for (const Tiling& t : hw::tiling_candidates(c.acc, c.problem, df))
        brute.push_back(hw::evaluate_gemm(c.acc, c.problem, df, t));
      auto chosen = [&](hw::TilingObjective o) {
        return hw::evaluate_gemm(c.acc, c.problem, df,
                                 hw::choose_tiling(c.acc, c.problem, df, {}, {o}));
      };
      const hw::Result fast = chosen(hw::TilingObjective::kLatency);
      const hw::Result lean = chosen(hw::TilingObjective::kDramBytes);
      const hw::Result frugal = chosen(hw::TilingObjective::kEnergy);
      const hw::Result balanced = chosen(hw::TilingObjective::kEdp);
      CHECK(hw::choose_tiling(c.acc, c.problem, df) == fast.tiling);  // latency is the default
      long long fastest = brute.front().cycles.total;
      for (const hw::Result& r : brute) fastest = std::min(fastest, r.cycles.total);
      // latency: within 2 % of the fastest; of those, the fewest bytes, then the least energy —
      // unless that moves more than 1.5x the least traffic (lean) while lean is within 2 % of
      // it: then the fastest of the candidates moving at most 1.5x lean's bytes
      const bool capped =
          fast.dram_bytes * 2 <= lean.dram_bytes * 3 && fast.cycles.total * 100 > fastest * 102;
      if (!capped) CHECK(fast.cycles.total * 100 <= fastest * 102);
      CHECK((fast.dram_bytes * 2 <= lean.dram_bytes * 3 ||
             lean.cycles.total * 100 > fast.cycles.total * 102));
      for (const hw::Result& r : brute) {
        INFO(mapping::to_string(r.tiling));
        if (!capped && r.cycles.total * 100 <= fastest * 102) {
          CHECK(fast.dram_bytes <= r.dram_bytes);
          if (r.dram_bytes == fast.dram_bytes) CHECK(fast.energy_pj.total <= r.energy_pj.total);
        }
        if (capped && r.dram_bytes * 2 <= lean.dram_bytes * 3)
          CHECK(fast.cycles.total <= r.cycles.total);
        CHECK(lean.dram_bytes <= r.dram_bytes);
        if (r.dram_bytes == lean.dram_bytes) CHECK(lean.cycles.total <= r.cycles.total);
        CHECK(frugal.energy_pj.total <= r.energy_pj.total);
        CHECK(edp(balanced) <= edp(r));
      }
      if (fast.cycles.total < lean.cycles.total) latency_beats_dram_choice = true;
    }
  }
  // The objectives differ: somewhere the fewest-bytes tiling is slower.
  CHECK(latency_beats_dram_choice);
}

TEST_CASE("the least-traffic search equals brute force on random quantized problems",
          "[hw][tiling]") {
  // The dram_bytes search takes candidates in increasing order of a closed-form floor of their
  // DRAM bytes and stops when the floor passes the fewest bytes found: if the floor were ever
  // above a candidate's bytes, or the stop early, this would find a worse choice than evaluating
  // every candidate. Groups (scales, zero points, packed words), partitions, single or double
  // buffering, edge transfers (they change the cycles that break ties).
  std::mt19937 rng(1325);
  long long compared = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Accelerator acc = hwtest::random_acc(rng);
    const hw::GemmProblem p = hwtest::random_problem(rng);
    hw::Options options;
    options.edge_transfers = trial % 3 == 0;
    for (Dataflow df :
         {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
      INFO(p << " " << mapping::to_string(df) << " on " << acc);
      hw::TilingSearchStats stats;
      const Tiling chosen =
          hw::choose_tiling(acc, p, df, options, {hw::TilingObjective::kDramBytes, &stats});
      const hw::Result lean = hw::evaluate_gemm(acc, p, df, chosen, options);
      for (const Tiling& t : hw::tiling_candidates(acc, p, df)) {
        const hw::Result r = hw::evaluate_gemm(acc, p, df, t, options);
        INFO(mapping::to_string(t));
        REQUIRE(lean.dram_bytes <= r.dram_bytes);
        if (r.dram_bytes == lean.dram_bytes) REQUIRE(lean.cycles.total <= r.cycles.total);
        ++compared;
      }
      CHECK(stats.planned >= 1);
      CHECK(stats.planned <= stats.candidates);
    }
  }
  CHECK(compared > 100000);
}

TEST_CASE("tiling objectives print and parse", "[hw][tiling]") {
  for (hw::TilingObjective o : {hw::TilingObjective::kLatency, hw::TilingObjective::kEnergy,
                                hw::TilingObjective::kDramBytes, hw::TilingObjective::kEdp})
    CHECK(hw::parse_tiling_objective(hw::to_string(o)) == o);
  try {
    hw::parse_tiling_objective("speed", "--objective");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.code() == error_code::kUnknownName);
    CHECK(e.where() == "--objective");
    CHECK(e.message().find("dram_bytes") != std::string::npos);
  }
}

TEST_CASE("the latency objective is never slower than another objective's choice", "[hw][tiling]") {
  // One candidate space for every objective: the latency choice is within 2 % of the fastest
  // candidate, hence within 2 % of every other objective's choice — unless the rule's cap took
  // it (it moves at most 1.5x the least traffic, at most as slow as the least-traffic choice,
  // which is within 2 % of the window's choice: at most 4.04 % slower than the fastest); it is
  // exactly the fastest unless a near-tie moves fewer bytes. Random problems (groups, packed
  // words, partitions, single or double buffering, edge transfers), every dataflow.
  std::mt19937 rng(2111);
  long long exact = 0, compared = 0, beyond_window = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Accelerator acc = hwtest::random_acc(rng);
    const hw::GemmProblem p = hwtest::random_problem(rng);
    hw::Options options;
    options.edge_transfers = trial % 2 == 0;
    for (Dataflow df :
         {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
      INFO(p << " " << mapping::to_string(df) << " on " << acc);
      auto chosen = [&](hw::TilingObjective o) {
        return hw::evaluate_gemm(acc, p, df, hw::choose_tiling(acc, p, df, options, {o}), options);
      };
      const hw::Result fast = chosen(hw::TilingObjective::kLatency);
      const hw::Result lean = chosen(hw::TilingObjective::kDramBytes);
      // the cap: at most 1.5x the least traffic, or the least traffic > 2 % slower
      REQUIRE((fast.dram_bytes * 2 <= lean.dram_bytes * 3 ||
               lean.cycles.total * 100 > fast.cycles.total * 102));
      bool fastest = true;
      for (hw::TilingObjective o : {hw::TilingObjective::kDramBytes, hw::TilingObjective::kEnergy,
                                    hw::TilingObjective::kEdp}) {
        const hw::Result r = chosen(o);
        INFO(hw::to_string(o) << " " << mapping::to_string(r.tiling));
        REQUIRE(fast.cycles.total * 10000 <= r.cycles.total * 10404);
        if (fast.cycles.total * 100 > r.cycles.total * 102) {  // only the cap
          CHECK(fast.dram_bytes * 2 <= lean.dram_bytes * 3);
          CHECK(fast.cycles.total <= lean.cycles.total);
          ++beyond_window;
        }
        if (fast.cycles.total > r.cycles.total) {
          fastest = false;
          CHECK(fast.dram_bytes <= r.dram_bytes);  // it is slower only for fewer bytes
        }
        ++compared;
      }
      if (fastest) ++exact;
    }
  }
  CHECK(compared == 540);
  CHECK(exact > 90);  // mostly no near-tie trade at all
  WARN(beyond_window << " of " << compared
                     << " comparisons: the latency choice more than 2 % slower (the cap)");
}

TEST_CASE("capacity-boundary extents: exact where a tile's elements pass 2^56", "[hw][tiling]") {
  // The search counts a tile's bytes in 64 bits up to 2^56 elements and through 128 bits above
  // (detail::ceil_bytes): on tiles whose answer lies on either side of that threshold, or across
  // it, the answer (narrowed and bisected) is the largest extent whose footprints, as the model
  // counts them, fit (every extent up to it fitting: below the whole dimension fitting is
  // monotone).
  long long checked = 0, above = 0, below_threshold = 0;
  for (const long long buffer : {1LL << 40, 1LL << 52, 1LL << 61, (1LL << 62) - 12345}) {
    const Accelerator acc = make_acc(4, 4, buffer);
    for (const int shift : {20, 24, 26, 27, 28}) {
      hw::GemmProblem p = quantized({1LL << 31, (1LL << 31) + 7, (1LL << 31) + 3});
      const std::array<long long, 3> size{p.shape.m, p.shape.n, p.shape.k};
      for (int d = 0; d < 3; ++d) {
        std::array<long long, 3> tile{(1LL << shift) + 1, 1LL << shift, (1LL << shift) - 5};
        for (const unsigned single : {0u, 1u, 6u}) {
          const long long fast =
              hw::detail::largest_fitting_extent(acc, p, tile, d, single, -1, false);
          const long long bisected =
              hw::detail::largest_fitting_extent(acc, p, tile, d, single, -1, true);
          INFO("buffer " << buffer << " shift " << shift << " d " << d << " single " << single);
          REQUIRE(fast == bisected);
          const auto fits_at = [&](long long x) {
            std::array<long long, 3> t = tile;
            t[d] = x;
            Tiling tiling{t[0], t[1], t[2]};
            tiling.single = single;
            long long used = 0;
            for (const hw::Operand& op : p.operands) {
              const long long bytes = hw::detail::tile_footprint_bytes(
                  op, t, size, !tiling.single_buffered(hw::detail::buffered_tensor(op)));
              if (bytes > buffer - used) return false;
              used += bytes;
            }
            return true;
          };
          if (fast > 0) REQUIRE(fits_at(fast));
          if (fast < size[d]) REQUIRE_FALSE(fits_at(fast + 1));
          long long most = 0;  // the most elements of an operand's tile at the answer
          for (const hw::Operand& op : p.operands) {
            std::array<long long, 3> t = tile;
            t[d] = std::max(fast, 1LL);
            long long elements = 1;  // (at most 2^31 x 2^28 here)
            for (int e = 0; e < 3; ++e)
              if (op.group[e] > 0) elements *= hw::detail::max_distinct_groups(t[e], op.group[e]);
            most = std::max(most, elements);
          }
          (most > (1LL << 56) ? above : below_threshold) += 1;
          ++checked;
        }
      }
    }
  }
  CHECK(checked == 4 * 5 * 3 * 3);
  CHECK(above > 10);
  CHECK(below_threshold > 10);
}

TEST_CASE("capacity-boundary extents: the narrowed search equals bisection and a linear scan",
          "[hw][tiling]") {
  // The largest extent of one dimension with which every operand's tile fits, found by a range
  // narrowed from linear bounds of the footprints, against plain bisection and against checking
  // every extent: quantized operands (groups, packed words, zero points), mixed widths, shared or
  // partitioned buffers, single or double buffering (also per tensor), tiles taking both banks,
  // an upper limit (`below`) or none, larger buffers and dimensions than the search's tests.
  std::mt19937 rng(2121);
  long long compared = 0, scanned = 0, nonzero = 0, narrowed_range = 0;
  for (int trial = 0; trial < 400; ++trial) {
    AcceleratorSpec spec = hwtest::random_acc(rng).spec();
    spec.micro.tile_fits_one_bank = trial % 7 == 0;
    if (trial % 5 == 0) {  // larger buffers and sizes: long ranges to narrow
      spec.global_buffer.bytes = spec.global_buffer.bytes * 64;
      for (auto& [key, part] : spec.global_buffer.partitions) part.bytes *= 64;
    }
    const Accelerator acc(spec);
    hw::GemmProblem p = hwtest::random_problem(rng);
    if (trial % 5 == 0) {
      p.shape.m = p.shape.m * 37 + 5;
      p.shape.k = p.shape.k * 53 + 3;
    }
    const std::array<long long, 3> size{p.shape.m, p.shape.n, p.shape.k};
    std::uniform_int_distribution<int> dim(0, 2), bits(0, 7);
    for (int probe = 0; probe < 12; ++probe) {
      const int d = dim(rng);
      std::array<long long, 3> tile{};
      for (int e = 0; e < 3; ++e)
        tile[e] = std::uniform_int_distribution<long long>(1, size[e])(rng);
      const unsigned single = static_cast<unsigned>(bits(rng));
      const long long below =
          probe % 3 == 0 ? -1 : std::uniform_int_distribution<long long>(0, size[d])(rng);
      INFO(p << " on " << acc << " d " << d << " tile " << tile[0] << "x" << tile[1] << "x"
             << tile[2] << " single " << single << " below " << below);
      const long long fast =
          hw::detail::largest_fitting_extent(acc, p, tile, d, single, below, false);
      const long long bisected =
          hw::detail::largest_fitting_extent(acc, p, tile, d, single, below, true);
      REQUIRE(fast == bisected);
      const long long top = below >= 0 && below < size[d] ? below : size[d];
      ++compared;
      if (fast > 0) ++nonzero;
      if (fast > 1 && fast < top) ++narrowed_range;
      if (size[d] > 100) continue;
      // every extent checked: the largest that fits in [1, top], footprints as the model counts
      long long scan = 0;
      for (long long x = top; x >= 1 && scan == 0; --x) {
        std::array<long long, 3> t = tile;
        t[d] = x;
        Tiling tiling{t[0], t[1], t[2]};
        tiling.single = single;
        const hw::detail::Model m(acc, p, Dataflow::kOutputStationary, tiling, {});
        std::map<int, long long> used;
        for (const auto& x_op : m.operands()) used[x_op.partition] += x_op.footprint_bytes;
        bool fits = true;
        const auto& gb = spec.global_buffer;
        for (const auto& [part, bytes] : used) {
          long long cap = gb.bytes;
          if (!gb.partitions.empty()) cap = std::next(gb.partitions.begin(), part)->second.bytes;
          fits = fits && bytes <= cap;
        }
        if (fits) scan = x;
      }
      REQUIRE(fast == scan);
      ++scanned;
    }
  }
  CHECK(compared == 4800);
  CHECK(scanned > 3000);
  CHECK(nonzero > 1000);
  CHECK(narrowed_range > 500);
}

TEST_CASE("the latency search's per-extent compute cycles equal the model's", "[hw][tiling]") {
  // The search keeps each dimension's fold count and streamed cycles per tile extent (a table
  // per search, hashed by extent): every candidate, asked in enumeration order and then in
  // reverse (hits and misses of the table), against Model::compute_cycles.
  std::mt19937 rng(2122);
  long long compared = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const Accelerator acc = hwtest::random_acc(rng);
    const hw::GemmProblem p = hwtest::random_problem(rng);
    for (Dataflow df :
         {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary}) {
      std::vector<Tiling> all = hw::tiling_candidates(acc, p, df);
      all.push_back(Tiling{});  // every extent 0: the whole dimension
      std::vector<Tiling> reversed(all.rbegin(), all.rend());
      for (const std::vector<Tiling>* list : {&all, &reversed}) {
        const std::vector<long long> cycles = hw::detail::search_compute_cycles(acc, p, df, *list);
        for (size_t i = 0; i < list->size(); ++i) {
          INFO(p << " " << mapping::to_string(df) << " " << mapping::to_string((*list)[i]));
          REQUIRE(cycles[i] == hw::detail::Model(acc, p, df, (*list)[i], {}).compute_cycles());
          ++compared;
        }
      }
    }
  }
  CHECK(compared > 10000);
}

namespace {

// Calls f(rng, acc, problem, dataflow) on `trials` random accelerators and problems, each with
// every dataflow.
template <typename F>
void for_random_flows(unsigned seed, int trials, F f) {
  std::mt19937 rng(seed);
  for (int trial = 0; trial < trials; ++trial) {
    const Accelerator acc = hwtest::random_acc(rng);
    const hw::GemmProblem p = hwtest::random_problem(rng);
    for (Dataflow df :
         {Dataflow::kOutputStationary, Dataflow::kWeightStationary, Dataflow::kInputStationary})
      f(rng, acc, p, df);
  }
}

// A tile with each extent in [1, size].
std::array<long long, 3> random_tile(std::mt19937& rng, const std::array<long long, 3>& size) {
  std::array<long long, 3> tile{};
  for (int e = 0; e < 3; ++e) tile[e] = std::uniform_int_distribution<long long>(1, size[e])(rng);
  return tile;
}

}  // namespace

TEST_CASE("the bound of fitted extents is at least every buffering's largest fitting extent",
          "[hw][tiling]") {
  // The search skips a capacity-boundary pair when no tile up to this bound can be fast enough:
  // it must not be below the extent any buffering (Tiling::single, all eight) fits, found by
  // plain bisection; 0 only when none fits.
  std::mt19937 rng(2123);
  long long compared = 0, binding = 0, none = 0;
  for (int trial = 0; trial < 300; ++trial) {
    AcceleratorSpec spec = hwtest::random_acc(rng).spec();
    spec.micro.tile_fits_one_bank = trial % 7 == 0;
    const Accelerator acc(spec);
    const hw::GemmProblem p = hwtest::random_problem(rng);
    const std::array<long long, 3> size{p.shape.m, p.shape.n, p.shape.k};
    std::uniform_int_distribution<int> dim(0, 2);
    for (int probe = 0; probe < 10; ++probe) {
      const int d = dim(rng);
      const std::array<long long, 3> tile = random_tile(rng, size);
      const long long bound = hw::detail::fitting_extent_bound(acc, p, tile, d);
      INFO(p << " on " << acc << " d " << d << " tile " << tile[0] << "x" << tile[1] << "x"
             << tile[2] << " bound " << bound);
      long long most = 0;
      for (unsigned single = 0; single < 8; ++single)
        most =
            std::max(most, hw::detail::largest_fitting_extent(acc, p, tile, d, single, -1, true));
      REQUIRE(bound >= most);
      REQUIRE(bound <= size[d]);
      ++compared;
      if (bound < size[d] && bound > 0) ++binding;
      if (bound == 0) ++none;
    }
  }
  CHECK(compared == 3000);
  CHECK(binding > 500);  // the bound cuts the range often
  CHECK(none > 300);
}

TEST_CASE("the capacity boundary of a list of pairs is the whole walk's for those pairs",
          "[hw][tiling]") {
  // The latency cap searches again only the pairs of extents the run deferred
  // (CandidateSpace::boundary with `only`): the groups, in order, must be those of the whole walk
  // whose keep_pair takes exactly those pairs, with and without the twins left out; random
  // problems (also with a dimension of size 1, decode's m: fitted pair by pair there),
  // accelerators and dataflows, about half of the pairs taken (by a hash of the pair).
  long long compared = 0, groups = 0;
  std::mt19937 pick(2125);
  for_random_flows(
      2126, 60,
      [&](std::mt19937& rng, const Accelerator& acc, const hw::GemmProblem& problem, Dataflow df) {
        hw::GemmProblem p = problem;
        if (rng() % 3 == 0) p.shape.m = 1;
        const unsigned salt = static_cast<unsigned>(pick());
        const auto taken = [&](int d, std::array<long long, 3> tile) {
          tile[d] = 0;
          const unsigned long long h =
              (static_cast<unsigned long long>(tile[0]) * 0x9E3779B97F4A7C15ULL) ^
              (static_cast<unsigned long long>(tile[1]) * 0xC2B2AE3D27D4EB4FULL) ^
              (static_cast<unsigned long long>(tile[2] + d) * 0x165667B19E3779F9ULL) ^ salt;
          return (h >> 40) % 2 == 0;
        };
        for (const bool twins : {false, true}) {
          std::vector<std::array<long long, 4>> pairs;
          std::vector<hw::search::Group> walk, listed;
          hw::search::CandidateSpace space(acc, p, df, {});
          space.grid(walk);
          const size_t grid = walk.size();
          space.boundary(
              walk,
              [&](int d, const std::array<long long, 3>& tile, long long) {
                if (!taken(d, tile)) return false;
                pairs.push_back(
                    {d, d == 0 ? 0 : tile[0], d == 1 ? 0 : tile[1], d == 2 ? 0 : tile[2]});
                return true;
              },
              [](const hw::search::Group&) { return true; }, twins);
          std::sort(pairs.begin(), pairs.end());
          pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
          hw::search::CandidateSpace again(acc, p, df, {});
          again.grid(listed);
          again.boundary(
              listed, [](int, const std::array<long long, 3>&, long long) { return true; },
              [](const hw::search::Group&) { return true; }, twins, &pairs);
          INFO(p << " " << mapping::to_string(df) << " twins " << twins);
          REQUIRE(listed.size() == walk.size());
          for (size_t g = grid; g < walk.size(); ++g) {
            const hw::search::Group& a = walk[g];
            const hw::search::Group& b = listed[g];
            REQUIRE(std::tie(a.m, a.n, a.k, a.single, a.mask, a.first) ==
                    std::tie(b.m, b.n, b.k, b.single, b.mask, b.first));
          }
          ++compared;
          groups += static_cast<long long>(walk.size() - grid);
        }
      });
  CHECK(compared == 360);
  CHECK(groups > 5000);
}

TEST_CASE("the compute floor up to an extent is at most every such tile's compute cycles",
          "[hw][tiling]") {
  // Search::compute_floor_upto bounds the compute cycles of every tile whose extent of d is at
  // most `upto` (the others fixed): against Model::compute_cycles at every such extent (sizes up
  // to 90), on random problems, accelerators and dataflows.
  long long compared = 0, beyond_whole = 0;
  for_random_flows(
      2124, 120,
      [&](std::mt19937& rng, const Accelerator& acc, const hw::GemmProblem& p, Dataflow df) {
        const std::array<long long, 3> size{p.shape.m, p.shape.n, p.shape.k};
        std::uniform_int_distribution<int> dim(0, 2);
        for (int probe = 0; probe < 4; ++probe) {
          const int d = dim(rng);
          const std::array<long long, 3> tile = random_tile(rng, size);
          const long long upto = std::uniform_int_distribution<long long>(1, size[d])(rng);
          const long long floor = hw::detail::search_compute_floor_upto(acc, p, df, tile, d, upto);
          std::array<long long, 3> whole = tile;
          whole[d] = size[d];
          if (floor > hw::detail::Model(acc, p, df, Tiling{whole[0], whole[1], whole[2]}, {})
                          .compute_cycles())
            ++beyond_whole;
          for (long long x = 1; x <= upto; ++x) {
            std::array<long long, 3> t = tile;
            t[d] = x;
            INFO(p << " " << mapping::to_string(df) << " d " << d << " upto " << upto << " tile "
                   << t[0] << "x" << t[1] << "x" << t[2]);
            REQUIRE(floor <=
                    hw::detail::Model(acc, p, df, Tiling{t[0], t[1], t[2]}, {}).compute_cycles());
            ++compared;
          }
        }
      });
  CHECK(compared > 20000);
  CHECK(beyond_whole > 300);  // tighter than the whole dimension's cycles
}

TEST_CASE("the loose traffic floor bounds the DRAM bytes of every loop order and buffering",
          "[hw][tiling]") {
  // The latency search orders its groups by a loose DRAM-byte floor in which the operands whose
  // tile alone does not fit are streamed: never above the bytes the model gives any candidate of
  // the group (every loop order), on random problems, accelerators, dataflows and bufferings.
  long long compared = 0, exact = 0;
  for_random_flows(
      2125, 25, [&](std::mt19937&, const Accelerator& acc, const hw::GemmProblem& p, Dataflow df) {
        for (Tiling t : hw::tiling_candidates(acc, p, df)) {
          for (unsigned single : {0u, 1u, 2u, 4u}) {
            t.single = single;
            const double floor = hw::detail::search_loose_floor(acc, p, df, t);
            const hw::detail::Model m(acc, p, df, t, {});
            if (!m.feasible()) continue;
            INFO(p << " on " << acc << " " << mapping::to_string(df) << " "
                   << mapping::to_string(t));
            REQUIRE(floor <= static_cast<double>(m.dram_bytes()));
            ++compared;
            if (floor >= static_cast<double>(m.dram_bytes()) * (1 - 1e-6)) ++exact;
          }
        }
      });
  CHECK(compared > 200000);
  CHECK(exact > 20000);  // reached by the model on many candidates
}

TEST_CASE("the pair floor bounds the DRAM bytes of every tile up to its extent", "[hw][tiling]") {
  // The cap skips a pair of extents of the capacity boundary when this floor is not below the
  // bytes it must beat: never above the bytes the model gives any tile with the pair's two
  // extents and the third up to `upto`, in any loop order and buffering, on random problems,
  // accelerators and dataflows.
  long long compared = 0, tight = 0;
  for_random_flows(
      2126, 40,
      [&](std::mt19937& rng, const Accelerator& acc, const hw::GemmProblem& p, Dataflow df) {
        const std::array<long long, 3> size{p.shape.m, p.shape.n, p.shape.k};
        std::uniform_int_distribution<int> dim(0, 2);
        for (int probe = 0; probe < 2; ++probe) {
          const int d = dim(rng);
          const std::array<long long, 3> tile = random_tile(rng, size);
          const long long upto = std::uniform_int_distribution<long long>(1, size[d])(rng);
          const double floor = hw::detail::search_pair_floor(acc, p, df, tile, d, upto);
          double least = -1;
          for (long long x = 1; x <= upto; ++x)
            for (const auto& order : hw::search::kOrders)
              for (unsigned single : {0u, 1u, 2u, 4u}) {
                std::array<long long, 3> e = tile;
                e[d] = x;
                const Tiling t{e[0], e[1], e[2], order, single};
                const hw::detail::Model m(acc, p, df, t, {});
                if (!m.feasible()) continue;
                const double bytes = static_cast<double>(m.dram_bytes());
                INFO(p << " on " << acc << " " << mapping::to_string(df) << " "
                       << mapping::to_string(t) << " d " << d << " upto " << upto);
                REQUIRE(floor <= bytes);
                ++compared;
                if (least < 0 || bytes < least) least = bytes;
              }
          if (least >= 0 && floor >= least * 0.9) ++tight;
        }
      });
  CHECK(compared > 50000);
  CHECK(tight > 40);  // often close to the least such tile's bytes
}

}  // namespace hw_tiling_search_test
