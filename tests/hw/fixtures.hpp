// Test fixtures of the hardware model: accelerators built in code, and brute-force simulations
// (plain loops over every tile, fold and instance) that the closed forms are checked against.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/arch/accelerator_json.hpp"
#include "tenet/error.hpp"
#include "tenet/hw/gemm_problem.hpp"
#include "tenet/mapping/tiling.hpp"

namespace hwtest {

using tenet::arch::Accelerator;
using tenet::arch::AcceleratorSpec;
using tenet::arch::Bandwidth;
using tenet::mapping::Dataflow;
using tenet::mapping::GemmDim;
using tenet::mapping::GemmShape;
using tenet::mapping::Tiling;

// The error an accelerator file gives when parsed as "chip.json": "<file> <JSON pointer>
// <message>", or "no error".
inline std::string parse_error_of(const nlohmann::json& file) {
  try {
    tenet::arch::parse_accelerator(file, "chip.json");
  } catch (const tenet::InputError& e) {
    return e.file() + " " + e.where() + " " + e.message();
  }
  return "no error";
}

inline Accelerator make_acc(long long rows, long long cols, long long buffer_bytes = 1LL << 40,
                            Bandwidth sram = Bandwidth::infinite(),
                            Bandwidth dram = Bandwidth::infinite(), long long latency = 0,
                            long long pack = 1, long long slow = 1) {
  AcceleratorSpec s;
  s.name = "test";
  s.rows = rows;
  s.cols = cols;
  s.register_file_bytes = 16;
  s.precisions[tenet::workload::DataType::fp16()] = {pack, slow};
  s.global_buffer.bytes = buffer_bytes;
  s.global_buffer.bandwidth = sram;
  s.dram.bandwidth = dram;
  s.dram.latency_cycles = latency;
  return Accelerator(tenet::arch::with_energy_defaults(s));
}

using Key = std::array<long long, 3>;
using ElementSet = std::set<Key>;

inline long long size_of(const GemmShape& s, int d) { return d == 0 ? s.m : d == 1 ? s.n : s.k; }

// The element of operand `op` an instance (i, j, k) touches.
inline Key element(const tenet::hw::Operand& op, const Key& idx) {
  Key e{-1, -1, -1};
  for (int d = 0; d < 3; ++d)
    if (op.group[d] > 0) e[d] = idx[d] / op.group[d];
  return e;
}

struct Range {
  long long lo, hi;  // [lo, hi)
};

// One fold: its index box.
struct Fold {
  std::array<Range, 3> box;
};

// One buffer tile: its index box and its folds in execution order.
struct Tile {
  std::array<Range, 3> box;
  std::vector<Fold> folds;
};

// Tiles in loop order and, inside each, the folds (column folds outer, row folds inner), with
// the rows dimension cut every rows * row_lanes and the columns every cols.
inline std::vector<Tile> enumerate_tiles(Dataflow df, long long rows, long long cols,
                                         long long row_lanes, const GemmShape& shape,
                                         const Tiling& tiling_in) {
  const Tiling t = tenet::mapping::resolve_tiling(tiling_in, shape);
  const auto dims = tenet::mapping::dataflow_dims(df);
  const int r = static_cast<int>(dims.rows), c = static_cast<int>(dims.cols);
  std::array<long long, 3> ext{t.m, t.n, t.k};
  std::vector<Tile> tiles;
  const int o0 = static_cast<int>(t.order[0]), o1 = static_cast<int>(t.order[1]),
            o2 = static_cast<int>(t.order[2]);
  for (long long a = 0; a < size_of(shape, o0); a += ext[o0])
    for (long long b = 0; b < size_of(shape, o1); b += ext[o1])
      for (long long cc = 0; cc < size_of(shape, o2); cc += ext[o2]) {
        Tile tile;
        std::array<long long, 3> start{};
        start[o0] = a, start[o1] = b, start[o2] = cc;
        for (int d = 0; d < 3; ++d)
          tile.box[d] = {start[d], std::min(start[d] + ext[d], size_of(shape, d))};
        const long long rsplit = rows * row_lanes;
        for (long long cl = tile.box[c].lo; cl < tile.box[c].hi; cl += cols)
          for (long long rl = tile.box[r].lo; rl < tile.box[r].hi; rl += rsplit) {
            Fold f;
            f.box = tile.box;
            f.box[c] = {cl, std::min(cl + cols, tile.box[c].hi)};
            f.box[r] = {rl, std::min(rl + rsplit, tile.box[r].hi)};
            tile.folds.push_back(f);
          }
        tiles.push_back(tile);
      }
  return tiles;
}

inline ElementSet touched(const tenet::hw::Operand& op, const std::array<Range, 3>& box) {
  ElementSet s;
  for (long long i = box[0].lo; i < box[0].hi; ++i)
    for (long long j = box[1].lo; j < box[1].hi; ++j)
      for (long long k = box[2].lo; k < box[2].hi; ++k) s.insert(element(op, {i, j, k}));
  return s;
}

// Where the operand's tile starts: the tile's lower corner on the indices it depends on. A
// tensor's tile is (re)fetched whenever this changes.
inline Key tile_corner(const tenet::hw::Operand& op, const std::array<Range, 3>& box) {
  Key k{-1, -1, -1};
  for (int d = 0; d < 3; ++d)
    if (op.group[d] > 0) k[d] = box[d].lo;
  return k;
}

// Brute-force access counts of one operand.
struct BruteAccess {
  long long fold_accesses = 0;  // array side: sum over folds of distinct elements
  long long rmw_reads = 0;      // outputs: fold accesses of elements written before
  long long resident_reads = 0, resident_writes = 0;  // DRAM when the tile stays in the buffer
  long long unique = 0;
};

// `accumulate`: C = C + A·B, an output holds values before the GEMM: every fold reads what it
// updates, and every tile of it that is loaded reads its elements from DRAM, the first time too.
inline BruteAccess brute_access(const std::vector<Tile>& tiles, const tenet::hw::Operand& op,
                                bool accumulate = false) {
  BruteAccess out;
  ElementSet written, all, current, written_back;
  Key corner{};
  bool have_current = false;
  auto write_back = [&]() {
    out.resident_writes += static_cast<long long>(current.size());
    written_back.insert(current.begin(), current.end());
  };
  for (const Tile& tile : tiles) {
    const ElementSet in_tile = touched(op, tile.box);
    all.insert(in_tile.begin(), in_tile.end());
    if (!have_current || tile_corner(op, tile.box) != corner) {
      if (op.output && have_current) write_back();
      if (!op.output || accumulate)
        out.resident_reads += static_cast<long long>(in_tile.size());
      else
        for (const Key& e : in_tile) out.resident_reads += written_back.count(e);
      current = in_tile;
      corner = tile_corner(op, tile.box);
      have_current = true;
    }
    for (const Fold& f : tile.folds) {
      const ElementSet s = touched(op, f.box);
      out.fold_accesses += static_cast<long long>(s.size());
      if (op.output)
        for (const Key& e : s) {
          out.rmw_reads += accumulate ? 1 : static_cast<long long>(written.count(e));
          written.insert(e);
        }
    }
  }
  if (op.output && have_current) write_back();
  out.unique = static_cast<long long>(all.size());
  if (!op.output) out.resident_writes = 0;
  return out;
}

}  // namespace hwtest
