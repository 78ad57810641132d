// Test problems written twice: as isl strings for the library and as plain formulas for the
// brute-force reference (brute_force.hpp), plus the comparison of a Report with a brute::Result.
#pragma once

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "brute_force.hpp"
#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/poly/context.hpp"

namespace cases {

using tenet::analysis::Report;
using tenet::workload::AccessKind;
using tenet::workload::OperandRole;

inline isl::set set_of(const std::string& text) {
  return isl::set(tenet::poly::thread_context().get(), text);
}
inline isl::map map_of(const std::string& text) {
  return isl::map(tenet::poly::thread_context().get(), text);
}

// Both views of one problem.
struct Case {
  std::string label;
  tenet::workload::Workload workload;
  tenet::arch::Architecture arch;
  tenet::mapping::Mapping mapping;
  brute::Problem problem;
};

enum class Flow { os, ws, is };
inline const char* name_of(Flow f) { return f == Flow::os ? "os" : f == Flow::ws ? "ws" : "is"; }

struct Gemm {
  long long m, n, k;
  int a_bits = 8, b_bits = 4, c_bits = 32;
};

inline tenet::workload::Workload gemm_workload(const Gemm& g) {
  return tenet::workload::Workload(
      "gemm",
      set_of(fmt::format("{{ S[i,j,k] : 0 <= i < {} and 0 <= j < {} and 0 <= k < {} }}", g.m, g.n,
                         g.k)),
      {{"A", AccessKind::kRead, map_of("{ S[i,j,k] -> A[i,k] }"), g.a_bits,
        OperandRole::kActivation},
       {"B", AccessKind::kRead, map_of("{ S[i,j,k] -> B[k,j] }"), g.b_bits, OperandRole::kWeight},
       {"C", AccessKind::kWrite, map_of("{ S[i,j,k] -> C[i,j] }"), g.c_bits,
        OperandRole::kOutput}});
}

inline std::vector<brute::Tuple> box(const std::vector<long long>& extents) {
  std::vector<brute::Tuple> out{{}};
  for (long long e : extents) {
    std::vector<brute::Tuple> next;
    for (const auto& t : out)
      for (long long v = 0; v < e; ++v) {
        brute::Tuple u = t;
        u.push_back(v);
        next.push_back(u);
      }
    out = next;
  }
  return out;
}

// Systolic links of an R×C array, data flowing to increasing indices.
inline std::vector<std::pair<brute::Tuple, brute::Tuple>> grid_links(long long rows, long long cols,
                                                                     bool both_ways = false) {
  std::vector<std::pair<brute::Tuple, brute::Tuple>> links;
  for (long long x = 0; x < rows; ++x)
    for (long long y = 0; y < cols; ++y) {
      if (x + 1 < rows) links.push_back({{x, y}, {x + 1, y}});
      if (y + 1 < cols) links.push_back({{x, y}, {x, y + 1}});
      if (both_ways && x + 1 < rows) links.push_back({{x + 1, y}, {x, y}});
      if (both_ways && y + 1 < cols) links.push_back({{x, y + 1}, {x, y}});
    }
  return links;
}

inline tenet::arch::Architecture grid_arch(long long rows, long long cols, bool both_ways = false,
                                           long long bandwidth = 64, long long latency = 1) {
  std::string links = "{ PE[x,y] -> PE[x+1,y]; PE[x,y] -> PE[x,y+1]";
  if (both_ways) links += "; PE[x,y] -> PE[x-1,y]; PE[x,y] -> PE[x,y-1]";
  links += " }";
  return tenet::arch::Architecture(
      "grid", set_of(fmt::format("{{ PE[x,y] : 0 <= x < {} and 0 <= y < {} }}", rows, cols)),
      map_of(links), bandwidth, latency);
}

// The systolic dataflows of the GEMM generator, written out here independently:
//   os: PE[i%R, j%C], T[i/R, j/C, i%R + j%C + k]
//   ws: PE[k%R, j%C], T[j/C, k/R, i + j%C + k%R]
//   is: PE[k%R, i%C], T[i/C, k/R, j + i%C + k%R]
inline tenet::mapping::Mapping gemm_mapping(Flow f, long long R, long long C) {
  std::string space, time;
  switch (f) {
    case Flow::os:
      space = fmt::format("{{ S[i,j,k] -> PE[i mod {0}, j mod {1}] }}", R, C);
      time = fmt::format(
          "{{ S[i,j,k] -> T[floor(i/{0}), floor(j/{1}), (i mod {0}) + (j mod {1}) + k] }}", R, C);
      break;
    case Flow::ws:
      space = fmt::format("{{ S[i,j,k] -> PE[k mod {0}, j mod {1}] }}", R, C);
      time = fmt::format(
          "{{ S[i,j,k] -> T[floor(j/{1}), floor(k/{0}), i + (j mod {1}) + (k mod {0})] }}", R, C);
      break;
    case Flow::is:
      space = fmt::format("{{ S[i,j,k] -> PE[k mod {0}, i mod {1}] }}", R, C);
      time = fmt::format(
          "{{ S[i,j,k] -> T[floor(i/{1}), floor(k/{0}), j + (i mod {1}) + (k mod {0})] }}", R, C);
      break;
  }
  return tenet::mapping::Mapping(name_of(f), map_of(space), map_of(time));
}

inline brute::Problem gemm_problem(const Gemm& g, Flow f, long long R, long long C) {
  brute::Problem p;
  p.instances = box({g.m, g.n, g.k});
  p.pe = [f, R, C](const brute::Tuple& s) -> brute::Tuple {
    const long long i = s[0], j = s[1], k = s[2];
    if (f == Flow::os) return {i % R, j % C};
    if (f == Flow::ws) return {k % R, j % C};
    return {k % R, i % C};
  };
  p.time = [f, R, C](const brute::Tuple& s) -> brute::Tuple {
    const long long i = s[0], j = s[1], k = s[2];
    if (f == Flow::os) return {i / R, j / C, i % R + j % C + k};
    if (f == Flow::ws) return {j / C, k / R, i + j % C + k % R};
    return {i / C, k / R, j + i % C + k % R};
  };
  p.accesses = {{"A", false, g.a_bits,
                 [](const brute::Tuple& s) {
                   return std::vector<brute::Tuple>{{s[0], s[2]}};
                 }},
                {"B", false, g.b_bits,
                 [](const brute::Tuple& s) {
                   return std::vector<brute::Tuple>{{s[2], s[1]}};
                 }},
                {"C", true, g.c_bits, [](const brute::Tuple& s) {
                   return std::vector<brute::Tuple>{{s[0], s[1]}};
                 }}};
  p.links = grid_links(R, C);
  return p;
}

inline Case gemm_case(const Gemm& g, Flow f, long long R, long long C) {
  return Case{fmt::format("gemm {}x{}x{} {} on {}x{}", g.m, g.n, g.k, name_of(f), R, C),
              gemm_workload(g), grid_arch(R, C), gemm_mapping(f, R, C), gemm_problem(g, f, R, C)};
}

inline tenet::analysis::Options options_for(const brute::Neighbourhood& nb) {
  tenet::analysis::Options o;
  o.neighbourhood.hops = nb.hops;
  o.neighbourhood.same_time = nb.same_time;
  o.neighbourhood.prev_time = nb.prev_time;
  return o;
}

inline tenet::analysis::Integer big(long long v) {
  return tenet::analysis::Integer(static_cast<long>(v));
}

// Every metric of the report against the brute-force evaluation.
inline void check_report(const Report& r, const brute::Result& e, bool avg_convention = false) {
  CHECK(r.multiplicity.instances == big(e.instances));
  CHECK(r.multiplicity.space_time_points == big(e.space_time_points));
  CHECK(r.multiplicity.injective == (e.instances == e.space_time_points));
  CHECK(r.multiplicity.average == Approx(double(e.instances) / double(e.space_time_points)));
  CHECK(r.macs == big(e.macs));
  CHECK(r.time_stamps == big(e.time_stamps));
  CHECK(r.active_pes == big(e.active_pes));
  CHECK(r.avg_active_pes == Approx(double(e.space_time_points) / double(e.time_stamps)));
  CHECK(r.delay.compute == big(avg_convention ? e.compute_delay_avg : e.compute_delay));
  CHECK(r.delay.ingress == big(e.ingress));
  CHECK(r.delay.egress == big(e.egress));
  const long long compute = avg_convention ? e.compute_delay_avg : e.compute_delay;
  CHECK(r.delay.total == big(std::max({compute, e.ingress, e.egress})));
  CHECK(r.energy == Approx(e.energy).epsilon(1e-12));
  REQUIRE(r.tensors.size() == e.tensors.size());
  for (std::size_t i = 0; i < e.tensors.size(); ++i) {
    const auto& t = r.tensors[i];
    const auto& x = e.tensors[i];
    INFO("tensor " << x.tensor);
    CHECK(t.name == x.tensor);
    CHECK((t.kind == AccessKind::kWrite) == x.write);
    CHECK(t.total_volume == big(x.total));
    CHECK(t.space_time_volume == big(x.space_time));
    CHECK(t.unique_volume == big(x.unique));
    CHECK(t.temporal_reuse_volume == big(x.temporal_reuse));
    CHECK(t.spatial_reuse_volume == big(x.spatial_reuse));
    if (x.unique > 0) CHECK(t.reuse_factor == Approx(double(x.total) / double(x.unique)));
    CHECK(t.temporal_reuse == Approx(double(x.temporal_reuse) / double(e.instances)));
    CHECK(t.spatial_reuse == Approx(double(x.spatial_reuse) / double(e.instances)));
  }
}

}  // namespace cases
