// The boundary between the LLM workload side (which matmuls, how many times) and the hardware
// cost model (what one call costs on an accelerator with a dataflow and a quantization scheme).
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tenet/hw/bounds.hpp"
#include "tenet/hw/result.hpp"
#include "tenet/llm/matmul_shape.hpp"
#include "tenet/quant/quant_hw.hpp"

namespace tenet::llm {

// The cost of ONE call of a matmul entry (all of its `batch` products), on one accelerator.
struct LayerCost {
  Integer cycles;          // clock cycles of the call
  std::string bound;       // what limits it: "compute", "sram", "dram", "dequant", ...
  double utilization = 0;  // fraction of PE-cycles doing useful MACs, 0..1
  Integer dram_bytes;      // bytes moved between DRAM and the global buffer (reads + writes)
  Integer sram_bytes;      // bytes of global-buffer (SRAM) accesses: array side + DRAM fills/drains
  double energy_pj = 0;    // energy of the call, picojoules
  // The physical limits of the call (hw::compute_bounds of one product x batch; systolic timing).
  std::optional<hw::BoundsSum> bounds;
  // For a pass whose accelerator prefetches across matmuls (arch::Dram::prefetch_across_matmuls):
  // the call's exposed first DRAM fill, which the previous call may hide, and the cycles of its
  // last product with the DRAM link idle, which the next call's fill may use.
  Integer prefetchable_cycles;
  Integer link_idle_cycles;
  std::string scheme;  // the quantization scheme the call was costed with (empty: none)
  // Set when the call's MACs are not of its own precision (docs/hardware.md#precisions).
  std::optional<quant::PrecisionFallback> precision_fallback;
  // How the call's folds occupy the PE array (array_rows x array_cols PEs; systolic timing), and
  // hw::array_use_note under `bound`: why a compute-bound call runs at a low utilization when the
  // mapping under-uses the array ("compute, 1 of 32 rows busy: M = 1"; empty otherwise).
  std::optional<hw::ArrayUse> array_use;
  long long array_rows = 0, array_cols = 0;
  std::string array_note;

  friend bool operator==(const LayerCost& a, const LayerCost& b);
  friend bool operator!=(const LayerCost& a, const LayerCost& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const LayerCost& c);
};

// Evaluates one matmul entry (ignoring its count). Must be pure and thread-safe. Built by
// eval::make_cost_model (eval/settings.hpp) over the evaluation pipeline.
using LayerEvaluator = std::function<LayerCost(const MatmulShape&)>;

// A configured cost model: the evaluator and the clock that turns cycles into seconds.
struct CostModel {
  LayerEvaluator evaluate;
  double clock_hz = 0;      // > 0
  std::string description;  // one line for report headers, e.g. "32x32 ws, q4f16_1, 1 GHz"
  // Consecutive calls of a pass overlap: a call's first DRAM fill loads in the previous call's
  // idle link cycles (ReportTotals::prefetch_hidden_cycles).
  bool prefetch_across_matmuls = false;
  // Values of the accelerator outside the plausible ranges (a unit slip, most likely:
  // docs/hardware.md#plausible-values); the reports carry them as `warnings`.
  std::vector<std::string> warnings;
};

}  // namespace tenet::llm
