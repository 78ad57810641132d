// TensorIR blocks as relations (docs/tir.md#relations): a block's iteration domain with the
// symbolic sizes as isl parameters, its accesses as quasi-affine maps (floor division and modulo
// by constants), and a recognised matmul as a workload::Workload for the exact engine.
#pragma once

#include <string>
#include <vector>

#include "tenet/tir/matmul.hpp"
#include "tenet/workload/workload.hpp"

namespace tenet::tir {

struct AccessRelation {
  std::string buffer;
  workload::AccessKind kind = workload::AccessKind::kRead;
  std::string relation;       // isl map text { S[...] -> buffer[...] }
  bool approximated = false;  // a non-affine index: the dimension spans the buffer's extent
  std::string reason;         // why, with the line
};

struct BlockRelations {
  std::string
      domain;  // isl set text, e.g. "[seq_len] -> { S[v_i0, v_i1] : 0 <= v_i0 < 1 and ... }"
  std::vector<AccessRelation> accesses;  // T.reads, then T.writes (derived from the body if absent)
};

// The relations of one block, symbolic sizes left as parameters (or fixed by `values`).
// Throws InputError(parse) naming `line N` for an unknown call or name in an index.
BlockRelations block_relations(const PrimFunc& f, const Block& block,
                               const SymbolValues* values = nullptr);

struct KernelWorkload {
  workload::Workload workload;
  std::vector<std::string> approximations;  // over-approximated accesses, with lines
};

// The bound matmul as a workload: statement S[batch.., m.., n.., k..] over the block's
// variables; reads A (activation) and — with `trace_storage` and a dequantize chain — the stored
// weight (packed access such as w[n, floor(k/8)]), its scale and zero point composed through the
// producer blocks, else B; writes C (output). Bits from the dtypes.
KernelWorkload kernel_workload(const Module& module, const BoundKernel& kernel,
                               bool trace_storage = true);

}  // namespace tenet::tir
