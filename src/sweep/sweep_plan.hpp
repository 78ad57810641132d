// A sweep made concrete: every preset, quantization scheme, model and log loaded, every workload
// instance expanded into its matmul list, and the points of the Cartesian product addressed by
// their index in the canonical order (docs/sweep.md#points):
//
//   workload instance (outermost), quant, arch preset, array, global-buffer bytes,
//   SRAM bandwidth, DRAM bandwidth, DRAM latency, clock, dequant rate, dataflow, tiling (innermost)
//
// Points are decoded from their index on demand (mixed radix), so a sweep of millions of points
// holds no list of them. make_sweep_plan does all loading and checking, so that a bad spec fails
// before any evaluation starts.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sweep/sweep_spec.hpp"
#include "tenet/arch/accelerator.hpp"
#include "tenet/llm/generation.hpp"
#include "tenet/llm/matmul_shape.hpp"
#include "tenet/mapping/systolic.hpp"
#include "tenet/mapping/tiling.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::sweep {

// The parameters of one architecture point (after the axes are applied to the preset).
struct ArchVariant {
  std::string preset;  // as written in the spec
  long long rows = 0, cols = 0;
  long long buffer_bytes = 0;      // total global-buffer capacity (all partitions)
  arch::Bandwidth sram_bandwidth;  // total array-side bandwidth (unlimited if any port is)
  arch::Bandwidth dram_bandwidth;
  long long dram_latency = 0;  // cycles
  double clock_mhz = 0;
  long long dequant_rate = 0;  // dequant unit elements/cycle; 0 = the default rule
  bool edge_transfers = true;  // hw::Options::edge_transfers
  friend bool operator==(const ArchVariant& a, const ArchVariant& b);
};

// One workload of the sweep: a model at one phase, batch and length (all its matmuls, or one of
// them), a log, one GEMM shape, or a whole generation request (kind "request": `request_model`
// and `request` set, `matmuls` empty; evaluated by llm::evaluate_request).
struct WorkloadInstance {
  std::string workload;  // model / log file as written, or the GEMM's name
  std::string kind;      // "model", "log", "gemm"
  llm::Phase phase = llm::Phase::kUnspecified;
  std::int64_t batch = 1;
  std::optional<std::int64_t> seq_len;    // prompt (prefill) or context (decode) tokens
  std::string layer;                      // the matmul's name for per-layer rows, else ""
  std::optional<std::int64_t> tokens;     // tokens processed (prefill) or produced (decode)
  std::vector<llm::MatmulShape> matmuls;  // aggregated, with counts
  std::shared_ptr<const llm::ModelConfig> request_model;  // requests only
  llm::RequestOptions request;                            // requests: P, G, B, tp, pp, link
};

struct QuantChoice {
  std::string name;  // as written in the spec
  quant::QuantSpec spec;
};

struct TilingValue {
  bool automatic = true;
  mapping::Tiling tiling;
  hw::TilingObjective objective = hw::TilingObjective::kLatency;  // of an automatic tiling
  // "auto" (objective latency), "auto:<objective>" (another objective) or "MxNxK:order"
  std::string text;
};

// Where a point sits on each axis.
struct PointCoords {
  std::size_t workload = 0, quant = 0, arch = 0, dataflow = 0, tiling = 0;
};

class SweepPlan {
 public:
  const SweepSpec& spec() const { return spec_; }
  std::uint64_t size() const { return size_; }  // number of points
  PointCoords coords(std::uint64_t index) const;

  const std::vector<WorkloadInstance>& workloads() const { return workloads_; }
  // Whether a workload is a generation request: the table then has the request columns.
  bool has_requests() const { return has_requests_; }
  const std::vector<QuantChoice>& quants() const { return quants_; }
  const std::vector<mapping::Dataflow>& dataflows() const { return dataflows_; }
  const std::vector<TilingValue>& tilings() const { return tilings_; }
  std::size_t arch_count() const { return arch_count_; }
  ArchVariant arch_variant(std::size_t arch_index) const;
  // The accelerator of an architecture point (validated when the plan was made).
  arch::AcceleratorSpec accelerator_spec(std::size_t arch_index) const;
  // The architecture point with the same costs in cycles and energy: the clock does not change
  // them, so arch points that differ only in their clock share one (the memo key uses it).
  std::size_t evaluation_arch(std::size_t arch_index) const;

  friend SweepPlan make_sweep_plan(const SweepSpec& spec);

 private:
  SweepSpec spec_;
  std::vector<arch::AcceleratorSpec> presets_;
  std::vector<std::size_t> arch_radix_;  // sizes of the arch axes, preset first
  std::size_t arch_count_ = 0;
  std::vector<WorkloadInstance> workloads_;
  std::vector<QuantChoice> quants_;
  std::vector<mapping::Dataflow> dataflows_;
  std::vector<TilingValue> tilings_;
  std::uint64_t size_ = 0;
  bool has_requests_ = false;
};

// Loads presets, schemes, models and logs, expands the workloads and checks every axis value
// against every preset (a too-large array, a buffer or bandwidth the preset cannot take...).
// Throws InputError naming the spec file and the JSON pointer of the offending value;
// InputError(range) if the sweep has more than 2^63 points.
SweepPlan make_sweep_plan(const SweepSpec& spec);

}  // namespace tenet::sweep
