// Buffer-level tiling of the GEMM S[i,j,k] (i < M, j < N, k < K) on top of the systolic array
// folds, as isl maps.
//
// A Tiling cuts M, N and K into tiles (the last tile of a dimension may be shorter) visited by
// three nested loops in `order` (outermost first). Inside a tile the array runs its folds as in
// systolic.hpp: the tile's row-dimension is cut into array-row folds, its column-dimension into
// array-column folds; column folds are the outer fold loop, row folds the inner one (SCALE-Sim's
// order), and the streamed dimension is not cut.
//
//   os: rows take i, columns take j, k streams     ws: rows take k, columns take j, i streams
//   is: rows take k, columns take i, j streams
//
// With tile extents (Tm, Tn, Tk) and tile coordinates qm = floor(i/Tm), ... the os maps are
//   space  S[i,j,k] -> PE[(i mod Tm) mod R, (j mod Tn) mod C]
//   time   S[i,j,k] -> T[q_order0, q_order1, q_order2, floor((j mod Tn)/C), floor((i mod Tm)/R),
//                        (i mod Tm) mod R + (j mod Tn) mod C + (k mod Tk)]
// and ws / is follow by substituting their row / column / streamed indices. An untiled GEMM
// (tiles = whole dimensions) gives the systolic.hpp maps up to the order of the fold coordinates.
#pragma once

#include <isl/cpp.h>

#include <array>
#include <iosfwd>
#include <string>

#include "tenet/mapping/mapping.hpp"
#include "tenet/mapping/systolic.hpp"

namespace tenet::mapping {

enum class GemmDim { kM = 0, kN = 1, kK = 2 };
const char* to_string(GemmDim d);  // "m", "n", "k"

// The GEMM tensors a global-buffer tile belongs to, for the per-operand buffering choice: A the
// input indexed by i (its scale / zero tensors too), B the other inputs, C the output.
enum class BufferedTensor { kA = 0, kB = 1, kC = 2 };

struct Tiling {
  long long m = 0, n = 0, k = 0;  // tile extents; 0 means the whole dimension
  std::array<GemmDim, 3> order{GemmDim::kM, GemmDim::kN, GemmDim::kK};  // outermost first
  // Bit t (BufferedTensor) set: tensor t's tiles are single-buffered in the global buffer (one
  // copy: its next tile loads, or its last tile drains, while the array waits). Clear: as the
  // buffer says (double-buffered buffers keep two copies of a changing tile and overlap the
  // transfer with compute).
  unsigned single = 0;

  long long extent(GemmDim d) const { return d == GemmDim::kM ? m : d == GemmDim::kN ? n : k; }
  bool single_buffered(BufferedTensor t) const { return (single >> static_cast<int>(t)) & 1u; }
  friend bool operator==(const Tiling& a, const Tiling& b) {
    return a.m == b.m && a.n == b.n && a.k == b.k && a.order == b.order && a.single == b.single;
  }
  friend bool operator!=(const Tiling& a, const Tiling& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const Tiling& t);
};

// "MxNxK" or "MxNxK:ORDER" (ORDER a permutation of "mnk", outermost first), e.g.
// "256x512x1024:nmk"; 0 keeps a dimension whole; then optionally ":single=T" with T a set of the
// letters a, b, c (the single-buffered tensors), e.g. "2048x2048x256:mnk:single=c". Throws
// InputError(parse | range, "", option).
Tiling parse_tiling(const std::string& text, const std::string& option = "tile");
// The parse_tiling form, e.g. "256x512x1024:mnk" (":single=..." only when some tensor is).
std::string to_string(const Tiling& t);

// Tile extents made concrete: 0 -> the whole dimension, larger than the dimension -> the
// dimension. Throws InputError(range, "", "tile") for a negative extent or a repeated loop.
Tiling resolve_tiling(const Tiling& tiling, const GemmShape& shape);

// Which GEMM dimensions go to the array rows, the array columns and the time stream.
struct DataflowDims {
  GemmDim rows, cols, stream;
};
DataflowDims dataflow_dims(Dataflow dataflow);

// The tiled space-time mapping above (tiles resolved against `shape`).
Mapping make_tiled_systolic_mapping(Dataflow dataflow, long long rows, long long cols,
                                    const GemmShape& shape, const Tiling& tiling);
// S[i,j,k] -> F[q_order0, q_order1, q_order2, column fold, row fold]: which fold an instance
// belongs to (the time map without its last, skewed coordinate).
isl::map make_fold_map(Dataflow dataflow, long long rows, long long cols, const GemmShape& shape,
                       const Tiling& tiling);
// S[i,j,k] -> Q[q_order0, ..., q_order(levels-1)]: the tile coordinates of the outermost
// `levels` loops (0..3).
isl::map make_tile_map(const GemmShape& shape, const Tiling& tiling, int levels = 3);

}  // namespace tenet::mapping
