// The sweep spec: which architectures, dataflows, tilings, quantization schemes and workloads a
// sweep crosses (format: docs/sweep.md, schema: docs/schema/sweep.schema.json).
//
// This is the parsed document only: names and numbers as written, ranges expanded, every value
// with the JSON pointer it came from so that later steps (loading presets, models, logs) can
// name the field that fails. Loading happens in make_sweep_plan (sweep_plan.hpp).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/hw/tiling_search.hpp"
#include "tenet/llm/matmul_shape.hpp"

namespace tenet::sweep {

// A value of an axis with the JSON pointer it was read from.
template <class T>
struct AxisValue {
  T value{};
  std::string pointer;
  friend bool operator==(const AxisValue& a, const AxisValue& b) {
    return a.value == b.value && a.pointer == b.pointer;
  }
};
template <class T>
using Axis = std::vector<AxisValue<T>>;

// Architecture axes. `presets` is never empty; an empty optional axis keeps the preset's value.
struct ArchAxes {
  Axis<std::string> presets;                     // preset names or architecture files
  Axis<std::pair<long long, long long>> arrays;  // PE array rows x cols
  Axis<long long> buffer_bytes;                  // total global-buffer capacity
  Axis<arch::Bandwidth> sram_bandwidth;          // total array-side SRAM bandwidth
  Axis<arch::Bandwidth> dram_bandwidth;
  Axis<long long> dram_latency;  // cycles
  Axis<double> clock_mhz;
  Axis<long long> dequant_rate;  // dequant unit elements/cycle, 0 = default
  Axis<bool> edge_transfers;     // hw::Options::edge_transfers (default true)
  friend bool operator==(const ArchAxes& a, const ArchAxes& b);
};

// A buffer tiling choice: "auto" (hw::choose_tiling per matmul) or an explicit tiling text.
struct TilingChoice {
  bool automatic = true;
  std::string text = "auto";  // "auto" or mapping::parse_tiling's form
  friend bool operator==(const TilingChoice& a, const TilingChoice& b) {
    return a.automatic == b.automatic && a.text == b.text;
  }
};

// "total": one sweep point per workload instance (costs summed over its matmuls);
// "each": one point per distinct matmul entry of the instance.
enum class LayerRows { kTotal, kEach };

struct ModelWorkloadSpec {
  AxisValue<std::string> file;  // Hugging Face config.json
  Axis<llm::Phase> phases;      // prefill and/or decode
  Axis<std::int64_t> batches;   // default {1}
  Axis<std::int64_t> prompts;   // prefill lengths (required with prefill)
  Axis<std::int64_t> contexts;  // decode lengths (required with decode)
  bool fused_qkv = true, fused_gate_up = true, lm_head_all = false;
  LayerRows layers = LayerRows::kTotal;
};

struct LogWorkloadSpec {
  AxisValue<std::string> file;  // workload log (text or JSON Lines)
  bool lenient = false;
  LayerRows layers = LayerRows::kTotal;
};

struct GemmWorkloadSpec {
  std::string name;  // default "gemm"
  std::string pointer;
  Axis<std::int64_t> m, n, k, batches;
  workload::OperandRole b_operand = workload::OperandRole::kWeight;
  bool accumulate = false;  // C = C + A·B (llm::MatmulShape::accumulate)
};

// A whole generation request of a model (llm::evaluate_request, docs/generate.md): one point per
// batch × prompt × tokens × tp × pp.
struct RequestWorkloadSpec {
  AxisValue<std::string> file;            // Hugging Face config.json
  Axis<std::int64_t> prompts;             // P (required)
  Axis<std::int64_t> tokens;              // G (required)
  Axis<std::int64_t> batches;             // default {1}
  Axis<std::int64_t> tps;                 // tensor-parallel chips, default {1}
  Axis<std::int64_t> pps;                 // pipeline stages, default {1}
  std::optional<double> link_gbps;        // else the accelerator file's "link"
  std::optional<double> link_latency_us;  // else the file's, else 1 us
  bool fused_qkv = true, fused_gate_up = true;
};

struct WorkloadSpec {
  enum class Kind { kModel, kLog, kGemm, kRequest } kind = Kind::kGemm;
  std::string pointer;  // "/workloads/<i>"
  ModelWorkloadSpec model;
  LogWorkloadSpec log;
  GemmWorkloadSpec gemm;
  RequestWorkloadSpec request;
};

struct SweepSpec {
  std::string file;  // where it was read from ("" for a document given in code)
  std::string name;
  ArchAxes arch;
  Axis<std::string> dataflows;  // "os" | "ws" | "is"
  Axis<TilingChoice> tilings;   // default {auto}
  // What the "auto" tilings minimise (one for the whole sweep; explicit tilings ignore it).
  hw::TilingObjective tiling_objective = hw::TilingObjective::kLatency;
  Axis<std::string> quant;  // preset names or files; default {"q0f16"}
  std::vector<WorkloadSpec> workloads;
  bool relation_centric = false;  // add the TENET relation-centric metrics to each row
};

// Largest number of values one range may expand to.
inline constexpr std::int64_t kMaxAxisValues = 1000000;

// Validates the document (unknown keys, types, empty axes, ranges with step 0 or no values,
// values out of range, unknown dataflows / phases) and expands ranges. Throws InputError naming
// `file` and the JSON pointer of the first bad field (further errors appended to its message).
SweepSpec parse_sweep_spec(const nlohmann::json& document, const std::string& file = "");
// Reads the file strictly (duplicate keys are errors) and parses it.
SweepSpec load_sweep_spec(const std::string& path);

}  // namespace tenet::sweep
