// Workloads other than GEMM, written as TENET writes them: a 2-D convolution (non-injective
// TENET mapping, mesh interconnect), Jacobi stencils with union access relations.
#include "cases.hpp"

// A namespace of its own: the area is compiled in unity batches (tests/CMakeLists.txt).
namespace analysis_workloads_test {

namespace {

using brute::Tuple;
using tenet::workload::Access;
using tenet::workload::AccessKind;
using tenet::workload::OperandRole;

// TENET's mesh.p ({PE[i,j]->PE[i-1,j]; PE[i,j]->PE[i,j-1]; PE[i,j]->PE[i+1,j-1];
// PE[i,j]->PE[i-1,j-1]}, "i takes from the right-hand side"), written source -> destination.
tenet::arch::Architecture mesh(long long p) {
  return tenet::arch::Architecture(
      "mesh", cases::set_of(fmt::format("{{ PE[i,j] : 0 <= i < {0} and 0 <= j < {0} }}", p)),
      cases::map_of("{ PE[i,j] -> PE[i+1,j]; PE[i,j] -> PE[i,j+1]; PE[i,j] -> PE[i-1,j+1]; "
                    "PE[i,j] -> PE[i+1,j+1] }"),
      64, 16);
}

std::vector<std::pair<Tuple, Tuple>> mesh_links(long long p) {
  std::vector<std::pair<Tuple, Tuple>> links;
  for (long long i = 0; i < p; ++i)
    for (long long j = 0; j < p; ++j)
      for (const Tuple& d : {Tuple{1, 0}, Tuple{0, 1}, Tuple{-1, 1}, Tuple{1, 1}}) {
        const long long x = i + d[0], y = j + d[1];
        if (x >= 0 && x < p && y >= 0 && y < p) links.push_back({{i, j}, {x, y}});
      }
  return links;
}

// TENET data/runtime/statement/conv2d.s and mapping/2d/conv2d.m at small sizes.
cases::Case conv2d(long long K, long long C, long long OX, long long OY, long long p) {
  const std::string domain = fmt::format(
      "{{ S[k,c,ox,oy,rx,ry] : 0 <= k < {} and 0 <= c < {} and 0 <= ox < {} and 0 <= oy < {} and "
      "0 <= rx < 3 and 0 <= ry < 3 }}",
      K, C, OX, OY);
  tenet::workload::Workload w(
      "conv2d", cases::set_of(domain),
      {Access{"I", AccessKind::kRead, cases::map_of("{ S[k,c,ox,oy,rx,ry] -> I[c,ox+rx,oy+ry] }"),
              8, OperandRole::kActivation},
       Access{"W", AccessKind::kRead, cases::map_of("{ S[k,c,ox,oy,rx,ry] -> W[k,c,rx,ry] }"), 4,
              OperandRole::kWeight},
       Access{"O", AccessKind::kWrite, cases::map_of("{ S[k,c,ox,oy,rx,ry] -> O[k,ox,oy] }"), 16,
              OperandRole::kOutput}});
  tenet::mapping::Mapping m(
      "conv2d", cases::map_of(fmt::format("{{ S[k,c,ox,oy,rx,ry] -> PE[oy % {0}, ox % {0}] }}", p)),
      cases::map_of(
          fmt::format("{{ S[k,c,ox,oy,rx,ry] -> T[k, floor(oy/{0}), floor(ox/{0}), c] }}", p)));
  brute::Problem b;
  b.instances = cases::box({K, C, OX, OY, 3, 3});
  b.pe = [p](const Tuple& s) { return Tuple{s[3] % p, s[2] % p}; };
  b.time = [p](const Tuple& s) { return Tuple{s[0], s[3] / p, s[2] / p, s[1]}; };
  b.accesses = {{"I", false, 8,
                 [](const Tuple& s) {
                   return std::vector<Tuple>{{s[1], s[2] + s[4], s[3] + s[5]}};
                 }},
                {"W", false, 4,
                 [](const Tuple& s) {
                   return std::vector<Tuple>{{s[0], s[1], s[4], s[5]}};
                 }},
                {"O", true, 16, [](const Tuple& s) {
                   return std::vector<Tuple>{{s[0], s[2], s[3]}};
                 }}};
  b.links = mesh_links(p);
  b.latency = 16;
  return {"conv2d", w, mesh(p), m, b};
}

// TENET's jacobi2d.s: one read relation made of five pieces.
tenet::workload::Workload jacobi(long long n, long long m) {
  return tenet::workload::Workload(
      "jacobi2d", cases::set_of(fmt::format("{{ S[i,j] : 0 <= i < {} and 0 <= j < {} }}", n, m)),
      {Access{"A", AccessKind::kRead,
              cases::map_of("{ S[i,j] -> A[i,j]; S[i,j] -> A[i+1,j]; S[i,j] -> A[i-1,j]; "
                            "S[i,j] -> A[i,j-1]; S[i,j] -> A[i,j+1] }"),
              16, OperandRole::kActivation},
       Access{"B", AccessKind::kWrite, cases::map_of("{ S[i,j] -> B[i,j] }"), 16,
              OperandRole::kOutput}});
}

std::vector<brute::Access> jacobi_accesses() {
  return {{"A", false, 16,
           [](const Tuple& s) {
             const long long i = s[0], j = s[1];
             return std::vector<Tuple>{{i, j}, {i + 1, j}, {i - 1, j}, {i, j - 1}, {i, j + 1}};
           }},
          {"B", true, 16, [](const Tuple& s) {
             return std::vector<Tuple>{{s[0], s[1]}};
           }}};
}

// mapping/1d/jacobi.m on a 1-D systolic array (1d_sys.p: PE[i] -> PE[i+1]).
cases::Case jacobi_1d(long long n, long long m, long long p) {
  tenet::arch::Architecture arch("1d", cases::set_of(fmt::format("{{ PE[x] : 0 <= x < {} }}", p)),
                                 cases::map_of("{ PE[x] -> PE[x+1] }"), 64, 16);
  tenet::mapping::Mapping map("jacobi 1d",
                              cases::map_of(fmt::format("{{ S[i,j] -> PE[i % {}] }}", p)),
                              cases::map_of(fmt::format("{{ S[i,j] -> T[floor(i/{}), j] }}", p)));
  brute::Problem b;
  b.instances = cases::box({n, m});
  b.pe = [p](const Tuple& s) { return Tuple{s[0] % p}; };
  b.time = [p](const Tuple& s) { return Tuple{s[0] / p, s[1]}; };
  b.accesses = jacobi_accesses();
  for (long long x = 0; x + 1 < p; ++x) b.links.push_back({{x}, {x + 1}});
  b.latency = 16;
  return {"jacobi 1d", jacobi(n, m), arch, map, b};
}

// mapping/2d/jacobi.m (a whole tile at one time stamp) on a grid with links both ways.
cases::Case jacobi_2d(long long n, long long m, long long p) {
  tenet::mapping::Mapping map(
      "jacobi 2d", cases::map_of(fmt::format("{{ S[i,j] -> PE[i % {0}, j % {0}] }}", p)),
      cases::map_of(fmt::format("{{ S[i,j] -> T[floor(i/{0}), floor(j/{0})] }}", p)));
  brute::Problem b;
  b.instances = cases::box({n, m});
  b.pe = [p](const Tuple& s) { return Tuple{s[0] % p, s[1] % p}; };
  b.time = [p](const Tuple& s) { return Tuple{s[0] / p, s[1] / p}; };
  b.accesses = jacobi_accesses();
  b.links = cases::grid_links(p, p, true);
  return {"jacobi 2d", jacobi(n, m), cases::grid_arch(p, p, true), map, b};
}

void check_case(const cases::Case& c, const brute::Neighbourhood& nb) {
  INFO(c.label << ", hops " << nb.hops << ", same " << nb.same_time << ", prev " << nb.prev_time);
  const auto report =
      tenet::analysis::analyze(c.workload, c.arch, c.mapping, cases::options_for(nb));
  cases::check_report(report, brute::evaluate(c.problem, nb));
}

const brute::Neighbourhood kOptions[] = {
    {1, true, true}, {0, true, true}, {2, true, true}, {1, true, false}, {2, false, true}};

}  // namespace

TEST_CASE("2-D convolution with TENET's non-injective mapping on a mesh", "[analysis][workloads]") {
  for (const auto& nb : kOptions) check_case(conv2d(2, 2, 4, 5, 2), nb);
  check_case(conv2d(1, 3, 5, 3, 3), {});
}

TEST_CASE("1-D Jacobi stencil (a union access relation) on a 1-D systolic array",
          "[analysis][workloads]") {
  for (const auto& nb : kOptions) check_case(jacobi_1d(7, 5, 3), nb);
  check_case(jacobi_1d(4, 9, 4), {});
}

TEST_CASE("2-D Jacobi, one tile per time stamp, links both ways", "[analysis][workloads]") {
  for (const auto& nb : kOptions) check_case(jacobi_2d(5, 7, 3), nb);
  check_case(jacobi_2d(4, 4, 2), {3, true, false});
}

}  // namespace analysis_workloads_test
