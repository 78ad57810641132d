// What one evaluation is asked to do: the workload source, the accelerator, the dataflow or an
// explicit mapping, the tiling or its objective, the quantization scheme and the options. Every
// command (analyze, compare, model, log, sweep, search, tir) builds Requests and hands them to
// eval::evaluate (pipeline.hpp); docs/architecture.md#the-pipeline.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <variant>

#include "tenet/analysis/tenet_metrics.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/eval/defaults.hpp"
#include "tenet/hw/evaluate.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/input/problem.hpp"
#include "tenet/llm/matmul_shape.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/mapping/tiling.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::eval {

// Which timing model costs the matmul: the systolic hardware model (cycles with stalls, traffic
// per level, energy) or TENET's delay only (the relation-centric metrics; no hardware model).
enum class Timing { kSystolic, kTenet };
const char* to_string(Timing t);  // "systolic", "tenet"

struct Request {
  // ---- 1. workload source --------------------------------------------------------------------
  // One matmul entry: a GEMM (--gemm: batch 1), a model layer, a log row or a TIR kernel. Its
  // `count` is not applied (an Evaluation is the cost of one call).
  llm::MatmulShape matmul;
  // Or a loaded problem (JSON spec, TENET .s/.p/.m files): a workload of any shape with its own
  // architecture and mapping, evaluated by the relation-centric analysis only.
  std::optional<input::Problem> problem;
  // Bits per element of A, B, C of an unquantized GEMM (no scheme).
  mapping::GemmBits bits;

  // ---- 2. accelerator ------------------------------------------------------------------------
  std::shared_ptr<const arch::Accelerator> accelerator;  // required for a matmul source
  // The PE array of the relation-centric analysis (TENET's view: PE domain, interconnect,
  // scratchpad bandwidth and latency). None: accelerator->architecture().
  std::optional<arch::Architecture> architecture;

  // ---- 3. mapping ----------------------------------------------------------------------------
  mapping::Dataflow dataflow = defaults::kDataflow;
  std::optional<mapping::Tiling> tiling;  // none: the tiling search chooses one
  hw::TilingObjective tiling_objective = defaults::kTilingObjective;
  Timing timing = Timing::kSystolic;

  // ---- 4. quantization -----------------------------------------------------------------------
  std::shared_ptr<const quant::QuantSpec> scheme;  // null: an unquantized GEMM with `bits`
  quant::DequantRate dequant_rate;  // overrides the scheme's (defaults::resolve_dequant_rate)

  // ---- 5. options ----------------------------------------------------------------------------
  hw::Options hw;  // edge transfers (defaults::kEdgeTransfers), idealisations
  // Also run the relation-centric analysis (TENET metrics) of the untiled systolic mapping.
  bool relation_centric = false;
  analysis::Options analysis;  // its settings (neighbourhood, compute-delay convention)

  // ---- identity, for memoization ---------------------------------------------------------------
  // Callers that memoize (the sweep) number their accelerators and schemes: equal ids mean equal
  // contents. hash() / same_evaluation() use the ids instead of comparing the objects, so they
  // require them: a request with an accelerator (a scheme) and no id is an InternalError there.
  std::optional<std::size_t> accelerator_id, scheme_id;
};

// A hash and an equality of everything an Evaluation depends on (accelerator and scheme by id):
// the sweep's memo key. Both come from one field table (src/eval/request.cpp) that names every
// member of Request and of the value types in it; a member added without a line there fails to
// compile (docs/architecture.md#the-memo-key). Not for problem sources or requests with their
// own relation-centric architecture (InternalError).
std::size_t hash(const Request& r);
bool same_evaluation(const Request& a, const Request& b);
struct RequestHash {
  std::size_t operator()(const Request& r) const { return hash(r); }
};
struct SameEvaluation {
  bool operator()(const Request& a, const Request& b) const { return same_evaluation(a, b); }
};

}  // namespace tenet::eval
