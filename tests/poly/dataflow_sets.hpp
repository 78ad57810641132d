// TENET-style GEMM dataflow sets for counting tests and benchmarks (built here from isl strings,
// independently of tenet::mapping, so the counting engine is tested on its own).
//
// For S[i,j,k] on an R x C systolic array (os / ws / is, as in tenet/mapping/systolic.hpp) it
// builds D, Theta(D), T_D, P_D, the wrapped access relations, the space-time data maps A^st, and
// the reuse/unique sets of the TENET default neighbourhood (one interconnect hop or the same PE,
// at the same or the lexicographically previous occupied time stamp).
#pragma once

#include <isl/cpp.h>
#include <isl/map.h>
#include <isl/set.h>

#include <string>
#include <vector>

namespace tenet_test {

struct NamedSet {
  std::string name;
  isl::set set;
};

inline std::string space_time_map(const std::string& dataflow, long r, long c) {
  const std::string R = std::to_string(r), C = std::to_string(c);
  if (dataflow == "ws")
    return "{ S[i,j,k] -> [PE[k mod " + R + ", j mod " + C + "] -> T[floor(j/" + C + "), floor(k/" +
           R + "), i + (j mod " + C + ") + (k mod " + R + ")]] }";
  if (dataflow == "is")
    return "{ S[i,j,k] -> [PE[k mod " + R + ", i mod " + C + "] -> T[floor(i/" + C + "), floor(k/" +
           R + "), j + (i mod " + C + ") + (k mod " + R + ")]] }";
  return "{ S[i,j,k] -> [PE[i mod " + R + ", j mod " + C + "] -> T[floor(i/" + R + "), floor(j/" +
         C + "), (i mod " + R + ") + (j mod " + C + ") + k]] }";
}

// Neighbour PEs: p itself and the PEs it takes data from in one hop.
inline std::string space_neighbours(long r, long c, bool include_self) {
  const std::string R = std::to_string(r), C = std::to_string(c);
  std::string s = "{ ";
  if (include_self) s += "PE[a,b] -> PE[a,b] : 0<=a<" + R + " and 0<=b<" + C + "; ";
  s += "PE[a,b] -> PE[a-1,b] : 0<a<" + R + " and 0<=b<" + C + "; PE[a,b] -> PE[a,b-1] : 0<=a<" + R +
       " and 0<b<" + C + " }";
  return s;
}

struct DataflowOptions {
  bool with_neighbourhood = true;  // prev-time lexmax neighbourhoods (expensive isl algebra)
};

inline std::vector<NamedSet> gemm_dataflow_sets(isl::ctx ctx, const std::string& dataflow, long m,
                                                long n, long k, long r, long c,
                                                const DataflowOptions& opt = {}) {
  std::vector<NamedSet> out;
  const std::string M = std::to_string(m), N = std::to_string(n), K = std::to_string(k);
  isl::set D(ctx, "{ S[i,j,k] : 0<=i<" + M + " and 0<=j<" + N + " and 0<=k<" + K + " }");
  isl::map theta = isl::map(ctx, space_time_map(dataflow, r, c)).intersect_domain(D);
  isl::set st = theta.range();
  isl::set td = st.unwrap().range();
  isl::set pd = st.unwrap().domain();
  out.push_back({"D", D});
  out.push_back({"Theta(D)", st});
  out.push_back({"T_D", td});
  out.push_back({"P_D", pd});
  out.push_back({"Theta", theta.wrap()});

  const char* accesses[3] = {"{ S[i,j,k] -> A[i,k] }", "{ S[i,j,k] -> B[k,j] }",
                             "{ S[i,j,k] -> C[i,j] }"};
  std::vector<isl::map> ast;
  for (const char* a : accesses) {
    isl::map access = isl::map(ctx, a).intersect_domain(D);
    out.push_back({std::string("access ") + a, access.wrap()});
    ast.push_back(theta.reverse().apply_range(access));
    out.push_back({std::string("A^st ") + a, ast.back().wrap()});
    out.push_back(
        {std::string("(T, data) ") + a,
         ast.back().apply_domain(isl::map(ctx, "{ [PE[a,b] -> T[x,y,z]] -> T[x,y,z] }")).wrap()});
  }
  if (!opt.with_neighbourhood) return out;

  isl::map prev = isl::manage(isl_set_lex_gt_set(td.copy(), td.copy())).lexmax();
  isl::map same_t = isl::manage(isl_set_identity(td.copy()));
  isl::map time_nb = same_t.unite(prev);
  isl::map nb = isl::map(ctx, space_neighbours(r, c, true)).product(time_nb);
  nb = nb.subtract(isl::manage(isl_set_identity(st.copy())));
  isl::map spatial = isl::map(ctx, space_neighbours(r, c, false)).product(time_nb);
  isl::map temporal = isl::map(ctx, "{ PE[a,b] -> PE[a,b] }").product(prev);
  for (std::size_t x = 0; x < ast.size(); ++x) {
    const std::string tag = std::string(" ") + "ABC"[x];
    isl::map from_nb = nb.apply_range(ast[x]);
    out.push_back({"unique" + tag, ast[x].subtract(from_nb).wrap()});
    out.push_back({"reuse" + tag, ast[x].intersect(from_nb).wrap()});
    out.push_back({"spatial reuse" + tag, ast[x].intersect(spatial.apply_range(ast[x])).wrap()});
    out.push_back({"temporal reuse" + tag, ast[x].intersect(temporal.apply_range(ast[x])).wrap()});
  }
  out.push_back({"prev", prev.wrap()});
  return out;
}

}  // namespace tenet_test
