#include "hw/isl_counts.hpp"

#include <fmt/format.h>

#include "tenet/poly/context.hpp"

namespace tenet::hw {
namespace {

// { S[i,j,k] -> X[...] } with floor(index / g) per indexed dimension.
isl::map access_map(const Operand& op) {
  const char* names[] = {"i", "j", "k"};
  std::string coords;
  for (int d = 0; d < 3; ++d) {
    const long long g = op.group[d];
    if (g == 0) continue;
    coords += coords.empty() ? "" : ", ";
    coords += g == 1 ? std::string(names[d]) : fmt::format("floor({}/{})", names[d], g);
  }
  return isl::map(poly::thread_context().get(), fmt::format("{{ S[i,j,k] -> X[{}] }}", coords));
}

isl::set domain(const mapping::GemmShape& s) {
  return isl::set(
      poly::thread_context().get(),
      fmt::format("{{ S[i,j,k] : 0 <= i < {} and 0 <= j < {} and 0 <= k < {} }}", s.m, s.n, s.k));
}

// |{ (image point, element) }| for a map S -> image.
poly::Integer count_pairs(const isl::map& image, const isl::set& dom, const isl::map& access) {
  return poly::count(image.intersect_domain(dom).reverse().apply_range(access));
}

}  // namespace

IslAccessCounts count_accesses_isl(mapping::Dataflow dataflow, long long rows, long long cols,
                                   const mapping::GemmShape& shape, const mapping::Tiling& tiling,
                                   const Operand& operand) {
  const mapping::Tiling t = mapping::resolve_tiling(tiling, shape);
  const isl::set dom = domain(shape);
  const isl::map access = access_map(operand);
  const long long sizes[] = {shape.m, shape.n, shape.k};
  int levels = 0;  // loops down to the innermost one over an index of the operand with > 1 tile
  for (int p = 0; p < 3; ++p) {
    const int d = static_cast<int>(t.order[p]);
    const long long tiles = (sizes[d] + t.extent(t.order[p]) - 1) / t.extent(t.order[p]);
    if (operand.group[d] > 0 && tiles > 1) levels = p + 1;
  }
  IslAccessCounts out;
  out.sram = count_pairs(mapping::make_fold_map(dataflow, rows, cols, shape, t), dom, access);
  out.dram_resident = count_pairs(mapping::make_tile_map(shape, t, levels), dom, access);
  out.unique = poly::count(access.intersect_domain(dom).range());
  return out;
}

}  // namespace tenet::hw
