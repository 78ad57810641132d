// Tensorized matmul blocks: MMA / WMMA / dot-product intrinsics (recognize.hpp;
// docs/tir.md#scheduled-kernels).
#include <fmt/core.h>

#include <cmath>
#include <cstdio>

#include "tir/expr_util.hpp"
#include "tir/recognize.hpp"
#include "tir/trace.hpp"

namespace tenet::tir::detail {
namespace {

// The call of a tensor intrinsic in block `index` or the blocks nested in it ("" for none):
// `T.tvm_mma_sync`, `T.ptx_mma`, `T.mma_sync`, or the callee an extern call names.
std::string callee_of(const Expr& c) {
  if (c.text == "T.attr" || c.text == "T.evaluate" || c.text == "T.sblock_attr" ||
      c.text == "T.block_attr" || c.text == "T.launch_thread")
    return "";
  if (c.text == "T.call_extern" || c.text == "T.call_pure_extern" ||
      c.text == "T.call_llvm_pure_intrin" || c.text == "T.call_llvm_intrin") {
    for (const Expr& a : c.args)
      if (a.kind == Expr::Kind::kString && a.text != "handle" && a.text.rfind("float", 0) != 0 &&
          a.text.rfind("int", 0) != 0 && a.text.rfind("uint", 0) != 0)
        return a.text;
    return "";
  }
  return c.text;
}

// A call to an intrinsic inside a stored value (`C[T.Ramp(0, 1, 16)] = T.call_llvm_pure_intrin(
// ..., "llvm.x86.avx512.vpdpbusd.512", ...)`).
std::string intrinsic_in(const Expr& e) {
  if (e.kind == Expr::Kind::kCall &&
      (e.text == "T.call_llvm_pure_intrin" || e.text == "T.call_llvm_intrin" ||
       e.text == "T.call_extern" || e.text == "T.call_pure_extern"))
    return callee_of(e);
  for (const Expr& a : e.args) {
    std::string c = intrinsic_in(a);
    if (!c.empty()) return c;
  }
  return "";
}

// The call of a tensor intrinsic in block `index` or the blocks nested in it ("" for none):
// `T.tvm_mma_sync`, `T.ptx_mma`, `T.mma_sync`, or the callee an extern call names; `shape` gets
// an MMA shape string's tile (`"m16n8k16"` → m 16, n 8, k 16).
std::string intrinsic_call(const PrimFunc& f, std::size_t index,
                           std::map<std::string, std::int64_t>& shape) {
  const int depth = f.blocks[index].depth;
  for (std::size_t i = index; i < f.blocks.size(); ++i) {
    if (i > index && f.blocks[i].depth <= depth) break;
    for (const Expr& c : f.blocks[i].calls) {
      const std::string name = callee_of(c);
      if (name.empty()) continue;
      for (const Expr& a : c.args) {
        if (a.kind != Expr::Kind::kString || a.text.size() < 6 || a.text[0] != 'm') continue;
        long long m = 0, n = 0, k = 0;
        char tail = 0;
        if (std::sscanf(a.text.c_str(), "m%lldn%lldk%lld%c", &m, &n, &k, &tail) == 3 && m > 0 &&
            n > 0 && k > 0)
          shape = {{"m", m}, {"n", n}, {"k", k}};
      }
      return name;
    }
    for (const Store& st : f.blocks[i].stores) {
      const std::string name = intrinsic_in(st.value);
      if (!name.empty()) return name;
    }
  }
  return "";
}

}  // namespace

// A tensorized block (`T.tensorize`, MMA/WMMA, a dot-product intrinsic): no store, its
// T.reads name the accumulator and two operand tiles, its T.writes the accumulator. The tile
// widths of the regions (`v_i_o * 16:v_i_o * 16 + 16`) multiply the block variables' extents.
std::optional<MatmulKernel> recognize_intrinsic(const PrimFunc& f, std::size_t index) {
  const Block& b = f.blocks[index];
  if (!b.writes_given || !b.reads_given || b.writes.size() != 1) return std::nullopt;
  std::map<std::string, std::int64_t> shape;
  const std::string call = intrinsic_call(f, index, shape);
  if (call.empty()) return std::nullopt;
  const BufferAccess& c = b.writes[0];
  std::vector<const BufferAccess*> operands;
  bool reads_c = false;
  for (const BufferAccess& r : b.reads) {
    if (r.buffer == c.buffer) {
      reads_c = true;
    } else {
      operands.push_back(&r);
    }
  }
  if (operands.size() != 2) return std::nullopt;
  std::map<std::string, std::int64_t> tile;
  auto widen = [&](const BufferAccess& a) {
    for (std::size_t i = 0; i < a.indices.size() && i < a.widths.size(); ++i) {
      if (a.widths[i] < 2) continue;
      std::set<std::string> names;
      detail::names_in(a.indices[i], names);
      for (const IterVar& v : b.iters)
        if (names.count(v.name)) tile[v.name] = std::max(tile[v.name], a.widths[i]);
    }
  };
  widen(c);
  for (const BufferAccess* o : operands) widen(*o);
  // A warp-level layout (`C_warp[v0_o, v1_o, 0:32, 0:8]`): the dimensions without a block
  // variable hold one tile; their element counts are M·N (C), M·K (A) and N·K (B).
  auto tile_elems = [&](const BufferAccess& a) {
    std::int64_t p = 1;
    for (std::size_t i = 0; i < a.indices.size() && i < a.widths.size(); ++i) {
      std::set<std::string> names;
      detail::names_in(a.indices[i], names);
      bool var = false;
      for (const IterVar& v : b.iters) var = var || names.count(v.name) > 0;
      if (!var && a.widths[i] > 0) p *= a.widths[i];
    }
    return p;
  };
  const std::int64_t pc = tile_elems(c), pa = tile_elems(*operands[0]),
                     pb = tile_elems(*operands[1]);
  auto exact_root = [](std::int64_t num, std::int64_t den) -> std::int64_t {
    if (den < 1 || num % den != 0) return 0;
    const std::int64_t q = num / den;
    const auto r = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(q))));
    return r * r == q ? r : 0;
  };
  if (pc > 1 && pa > 1 && pb > 1 && pa < (1 << 20) && pb < (1 << 20) && pc < (1 << 20)) {
    const std::int64_t tm = exact_root(pa * pc, pb), tn = exact_root(pb * pc, pa),
                       tk = exact_root(pa * pb, pc);
    if (tm > 0 && tn > 0 && tk > 0) shape = {{"m", tm}, {"n", tn}, {"k", tk}};
  }
  auto load = [](const BufferAccess& a) {
    Expr e;
    e.kind = Expr::Kind::kLoad;
    e.text = a.buffer;
    e.args = a.indices;
    e.line = a.line;
    return e;
  };
  // The update the intrinsic performs, spelled as a scalar block: C = C + A * B.
  Expr x = load(*operands[0]), y = load(*operands[1]), acc = load(c);
  Block synthetic = b;
  Store st;
  st.buffer = c.buffer;
  st.indices = c.indices;
  st.line = c.line;
  st.value.kind = Expr::Kind::kBinary;
  st.value.text = "+";
  Expr prod;
  prod.kind = Expr::Kind::kBinary;
  prod.text = "*";
  prod.args = {x, y};
  st.value.args = {acc, prod};
  synthetic.stores = {st};
  const Expr& p = synthetic.stores[0].value.args[1];
  Update u;
  u.x = &p.args[0];
  u.y = &p.args[1];
  MatmulKernel k = recognize(f, index, synthetic, u, tile, shape);
  k.intrinsic = call;
  bool transposed = false;
  staged_origin(f, k.b_buffer, index, &transposed);
  if (transposed) k.layout = k.layout == llm::Layout::kNT ? llm::Layout::kNN : llm::Layout::kNT;
  if (!reads_c)
    k.approximations.push_back(fmt::format(
        "line {}: the intrinsic block does not read its accumulator (an overwrite)", b.line));
  return k;
}

}  // namespace tenet::tir::detail
