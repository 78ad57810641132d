#include "tenet/mapping/tiling.hpp"

#include <fmt/format.h>

#include <ostream>

#include "detail/exact.hpp"
#include "tenet/error.hpp"
#include "tenet/poly/context.hpp"

namespace tenet::mapping {
namespace {

const char* index_name(GemmDim d) { return d == GemmDim::kM ? "i" : d == GemmDim::kN ? "j" : "k"; }

long long dim_size(const GemmShape& s, GemmDim d) {
  return d == GemmDim::kM ? s.m : d == GemmDim::kN ? s.n : s.k;
}

void require_positive(long long value, const char* what) {
  if (value <= 0)
    throw InputError(error_code::kRange, "", "array",
                     fmt::format("expected {} > 0, got {}", what, value));
}

// Isl expressions of one dimension under a resolved tiling.
struct DimExpr {
  std::string tile;   // tile coordinate, floor(x/T)
  std::string local;  // index inside its tile, x mod T
};

DimExpr dim_expr(const Tiling& t, const GemmShape& s, GemmDim d) {
  const std::string x = index_name(d);
  const long long extent = t.extent(d);
  if (extent >= dim_size(s, d)) return {"0", x};
  return {fmt::format("floor({}/{})", x, extent), fmt::format("({} mod {})", x, extent)};
}

std::string tile_coords(const Tiling& t, const GemmShape& s, int levels) {
  std::string out;
  for (int p = 0; p < levels; ++p) out += (p ? ", " : "") + dim_expr(t, s, t.order[p]).tile;
  return out;
}

using ::tenet::detail::make_map;

}  // namespace

const char* to_string(GemmDim d) { return d == GemmDim::kM ? "m" : d == GemmDim::kN ? "n" : "k"; }

std::ostream& operator<<(std::ostream& os, const Tiling& t) { return os << to_string(t); }

std::string to_string(const Tiling& t) {
  std::string out = fmt::format("{}x{}x{}:{}{}{}", t.m, t.n, t.k, to_string(t.order[0]),
                                to_string(t.order[1]), to_string(t.order[2]));
  if (t.single) {
    out += ":single=";
    for (int b = 0; b < 3; ++b)
      if ((t.single >> b) & 1u) out += "abc"[b];
  }
  return out;
}

Tiling parse_tiling(const std::string& raw, const std::string& option) {
  std::string text;  // "W x K x C : ORDER" is accepted: blanks are dropped
  for (char ch : raw)
    if (ch != ' ' && ch != '\t') text += ch;
  auto fail = [&](const char* code, const std::string& why) -> Tiling {
    throw InputError(code, "", option,
                     "expected tile sizes MxNxK[:ORDER[:single=abc]] (e.g. 256x512x1024:mnk, "
                     "0 = whole dimension; single= the single-buffered tensors), got \"" +
                         text + "\"" + why);
  };
  const size_t colon = text.find(':');
  const std::string sizes = text.substr(0, colon);
  Tiling t;
  long long* fields[] = {&t.m, &t.n, &t.k};
  size_t start = 0;
  for (int f = 0; f < 3; ++f) {
    const size_t end = f < 2 ? sizes.find('x', start) : sizes.size();
    if (end == std::string::npos) return fail(error_code::kParse, "");
    const std::string part = sizes.substr(start, end - start);
    if (!part.empty() && part[0] == '-') return fail(error_code::kRange, ": sizes must be >= 0");
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
      return fail(error_code::kParse, "");
    if (part.size() > 18) return fail(error_code::kOverflow, ": a size does not fit 64 bits");
    *fields[f] = std::stoll(part);
    start = end + 1;
  }
  if (colon == std::string::npos) return t;
  std::string order = text.substr(colon + 1);
  const size_t second = order.find(':');
  if (second != std::string::npos) {
    const std::string buffering = order.substr(second + 1);
    order = order.substr(0, second);
    const std::string key = "single=";
    if (buffering.compare(0, key.size(), key) != 0 || buffering.size() == key.size())
      return fail(error_code::kParse, ": after ORDER, single= and a set of a, b, c");
    for (size_t p = key.size(); p < buffering.size(); ++p) {
      const size_t b = std::string("abc").find(buffering[p]);
      if (b == std::string::npos || ((t.single >> b) & 1u))
        return fail(error_code::kParse, ": single= takes each of a, b, c at most once");
      t.single |= 1u << b;
    }
  }
  if (order.size() != 3) return fail(error_code::kParse, ": ORDER is a permutation of mnk");
  bool seen[3] = {false, false, false};
  for (int p = 0; p < 3; ++p) {
    const size_t d = std::string("mnk").find(order[p]);
    if (d == std::string::npos || seen[d])
      return fail(error_code::kParse, ": ORDER is a permutation of mnk");
    seen[d] = true;
    t.order[p] = static_cast<GemmDim>(d);
  }
  return t;
}

Tiling resolve_tiling(const Tiling& tiling, const GemmShape& shape) {
  Tiling t = tiling;
  long long* fields[] = {&t.m, &t.n, &t.k};
  const long long sizes[] = {shape.m, shape.n, shape.k};
  for (int d = 0; d < 3; ++d) {
    if (*fields[d] < 0)
      throw InputError(error_code::kRange, "", "tile",
                       fmt::format("expected tile sizes >= 0, got {}", *fields[d]));
    if (*fields[d] == 0 || *fields[d] > sizes[d]) *fields[d] = sizes[d];
  }
  bool seen[3] = {false, false, false};
  for (GemmDim d : t.order) {
    if (seen[static_cast<int>(d)])
      throw InputError(error_code::kRange, "", "tile",
                       "the loop order must name each of m, n, k once");
    seen[static_cast<int>(d)] = true;
  }
  return t;
}

DataflowDims dataflow_dims(Dataflow dataflow) {
  switch (dataflow) {
    case Dataflow::kOutputStationary:
      return {GemmDim::kM, GemmDim::kN, GemmDim::kK};
    case Dataflow::kWeightStationary:
      return {GemmDim::kK, GemmDim::kN, GemmDim::kM};
    case Dataflow::kInputStationary:
      return {GemmDim::kK, GemmDim::kM, GemmDim::kN};
  }
  throw InternalError("dataflow_dims: unknown dataflow");
}

Mapping make_tiled_systolic_mapping(Dataflow dataflow, long long rows, long long cols,
                                    const GemmShape& shape, const Tiling& tiling) {
  require_positive(rows, "the number of PE rows");
  require_positive(cols, "the number of PE columns");
  const Tiling t = resolve_tiling(tiling, shape);
  const DataflowDims dims = dataflow_dims(dataflow);
  const DimExpr row = dim_expr(t, shape, dims.rows), col = dim_expr(t, shape, dims.cols),
                stream = dim_expr(t, shape, dims.stream);
  isl::map space = make_map(
      fmt::format("{{ S[i,j,k] -> PE[{} mod {}, {} mod {}] }}", row.local, rows, col.local, cols));
  isl::map time = make_map(fmt::format(
      "{{ S[i,j,k] -> T[{}, floor({}/{}), floor({}/{}), ({} mod {}) + ({} mod {}) + {}] }}",
      tile_coords(t, shape, 3), col.local, cols, row.local, rows, row.local, rows, col.local, cols,
      stream.local));
  return Mapping(std::string(to_string(dataflow)) + " tiled " + to_string(t), space, time);
}

isl::map make_fold_map(Dataflow dataflow, long long rows, long long cols, const GemmShape& shape,
                       const Tiling& tiling) {
  require_positive(rows, "the number of PE rows");
  require_positive(cols, "the number of PE columns");
  const Tiling t = resolve_tiling(tiling, shape);
  const DataflowDims dims = dataflow_dims(dataflow);
  const DimExpr row = dim_expr(t, shape, dims.rows), col = dim_expr(t, shape, dims.cols);
  return make_map(fmt::format("{{ S[i,j,k] -> F[{}, floor({}/{}), floor({}/{})] }}",
                              tile_coords(t, shape, 3), col.local, cols, row.local, rows));
}

isl::map make_tile_map(const GemmShape& shape, const Tiling& tiling, int levels) {
  if (levels < 0 || levels > 3) throw InternalError("make_tile_map: levels must be 0..3");
  const Tiling t = resolve_tiling(tiling, shape);
  return make_map(fmt::format("{{ S[i,j,k] -> Q[{}] }}", tile_coords(t, shape, levels)));
}

}  // namespace tenet::mapping
