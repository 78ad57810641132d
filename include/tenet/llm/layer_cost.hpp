// The boundary between the LLM workload side (which matmuls, how many times) and the hardware
// cost model (what one call costs on an accelerator with a dataflow and a quantization scheme).
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include "tenet/llm/matmul_shape.hpp"

namespace tenet::llm {

// The cost of ONE call of a matmul entry (all of its `batch` products), on one accelerator.
struct LayerCost {
  Integer cycles;          // clock cycles of the call
  std::string bound;       // what limits it: "compute", "sram", "dram", "dequant", ...
  double utilization = 0;  // fraction of PE-cycles doing useful MACs, 0..1
  Integer dram_bytes;      // bytes moved between DRAM and the global buffer (reads + writes)
  Integer sram_bytes;      // bytes of global-buffer (SRAM) accesses: array side + DRAM fills/drains
  double energy_pj = 0;    // energy of the call, picojoules

  friend bool operator==(const LayerCost& a, const LayerCost& b);
  friend bool operator!=(const LayerCost& a, const LayerCost& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const LayerCost& c);
};

// Evaluates one matmul entry (ignoring its count). Must be pure and thread-safe.
using LayerEvaluator = std::function<LayerCost(const MatmulShape&)>;

// What the CLI asks for (--arch, --array, --dataflow, --quant, --timing, --tile, --dequant-rate);
// empty / 0 = the cost model's default (docs/llm.md#the-evaluation-seam).
struct EvaluatorSpec {
  std::string arch;      // preset name or architecture JSON file
  std::string dataflow;  // "os" | "ws" | "is" | ...
  std::string quant;     // quantization preset name or JSON file
  std::string timing;    // timing model name
  std::string array;     // "RxC": overrides the accelerator's PE array shape
  std::string tile;      // buffer tiling "MxNxK[:order]" or "auto"
  // What "auto" tilings minimise: latency (empty = latency), energy, dram_bytes or edp.
  std::string tiling_objective;
  long long dequant_rate = 0;  // dequant unit elements/cycle (0 = scheme's, else the default)
  bool edge_transfers = false;  // hw::Options::edge_transfers
};

// A configured cost model: the evaluator and the clock that turns cycles into seconds.
struct CostModel {
  LayerEvaluator evaluate;
  double clock_hz = 0;      // > 0
  std::string description;  // one line for report headers, e.g. "32x32 ws, q4f16_1, 1 GHz"
};

// Builds the cost model for a spec. Defined by the hardware/quantization side of the library
// (src/llm/layer_evaluator.cpp). Throws InputError for a bad or unavailable spec.
CostModel make_layer_evaluator(const EvaluatorSpec& spec);

}  // namespace tenet::llm
