// A whole generation request (docs/generate.md): the prefill of P prompt tokens, which yields the
// first token, then G − 1 decode steps over a context growing P+1 … P+G−1, at batch B; matmuls
// through the cost model (eval::evaluate), the non-matmul operators on the vector unit, the
// memory the request holds, and tensor / pipeline parallelism over a ring of chips.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tenet/arch/accelerator.hpp"
#include "tenet/llm/layer_cost.hpp"
#include "tenet/llm/model_config.hpp"
#include "tenet/llm/model_matmuls.hpp"
#include "tenet/quant/quant_spec.hpp"

namespace tenet::llm {

struct RequestOptions {
  std::int64_t prompt = 0;         // P: prompt tokens per sequence
  std::int64_t tokens = 0;         // G: tokens generated per sequence (the first by the prefill)
  std::int64_t batch = 1;          // B: sequences
  std::int64_t tp = 1;             // tensor-parallel chips (Megatron split)
  std::int64_t pp = 1;             // pipeline stages
  std::int64_t micro_batches = 0;  // 0: min(B, pp) with pp > 1, else 1
  // The link of the collectives: the request's (--link-gbps), else the accelerator's "link".
  std::optional<double> link_gbps;
  std::optional<double> link_latency_us;
  // Conventions of every pass (qkv, gate_up, attention, MLA path); phase, batch and lengths are
  // set per pass.
  GenerationOptions pass;
};

struct OpTotal {
  double seconds = 0;  // busy time of one chip over the request
  Integer dram_bytes;  // bytes between DRAM and that chip
};

struct RequestStep {
  std::int64_t context = 0;  // tokens the new token attends to (the KV cache after its append)
  double seconds = 0;
};

struct RequestMemory {
  Integer weights_bytes;     // every weight at the scheme (scales and zeros included)
  Integer kv_cache_bytes;    // B sequences of P+G tokens at the KV-cache format
  Integer state_bytes;       // B sequences' recurrent state of Mamba / Gated DeltaNet layers
  Integer activation_bytes;  // peak of live activations (estimate, docs/generate.md#memory)
  Integer total_bytes;       // the four above
  // One chip's: its tensor-parallel shard (replicated parts whole) ÷ pp, rounded up.
  Integer per_chip_bytes;                   // weights, KV cache, state and activations
  Integer per_chip_weights_bytes;           // its weights
  Integer per_chip_kv_cache_bytes;          // its KV cache (replicated KV heads whole)
  std::optional<long long> capacity_bytes;  // the accelerator's dram.capacity_bytes
  std::optional<bool> fits;                 // per_chip_bytes <= capacity_bytes
  std::optional<std::int64_t> max_batch;    // largest B that fits (0: not even the weights)
};

struct RequestParallel {
  std::int64_t tp = 1, pp = 1, micro_batches = 1;
  double bubble_fraction = 0;          // (pp − 1) / (micro_batches + pp − 1)
  Integer layer_collective_bytes;      // bytes one chip sends in the layers' all-reduces
  Integer embedding_collective_bytes;  // ... in the vocabulary-parallel embedding's all-reduces
  Integer logits_collective_bytes;     // ... in the all-gathers of the logits
  Integer pipeline_bytes;              // bytes one stage boundary passes on (activations)
  double collective_seconds = 0;       // time of the collectives and stage hand-offs
  std::optional<double> link_gbps, link_latency_us;
};

struct RequestReport {
  double ttft_seconds = 0;
  std::optional<double> tpot_seconds;  // mean of the steps; none when G = 1
  double e2e_seconds = 0;              // TTFT + Σ steps
  double tokens_per_second = 0;        // B·G / e2e
  std::vector<RequestStep> steps;
  RequestMemory memory;
  std::vector<std::pair<std::string, OpTotal>> ops;  // "matmul", then each vector kind present
  RequestParallel parallel;
};

// Throws InputError naming the request field (prompt, tokens, batch, tp, pp, micro_batches,
// link_gbps) for a bad option, or when tp/pp > 1 has no link.
RequestReport evaluate_request(const ModelConfig& model, const RequestOptions& options,
                               const CostModel& cost, const arch::Accelerator& accelerator,
                               const quant::QuantSpec& scheme);

// The model one tensor-parallel chip runs (src/llm/tensor_parallel.cpp, docs/generate.md): query
// heads, KV heads (replicated when fewer than tp), every layer's MLP width, each routed and shared
// expert's width (every chip holds every expert), Mamba / Gated DeltaNet heads and the
// vocabulary (rounded up) divided by `tp`; `shards` = tp. Norms, the router, MLA's latent
// projections and the indexer stay whole. InputError(range, "tp") naming the model, the layer
// kind and tp when a count cannot be split (nor, for KV heads and B/C groups, replicated) evenly.
ModelConfig tensor_parallel_shard(const ModelConfig& model, std::int64_t tp);

// Bytes of an N×K weight matrix stored in `w` (packed words, scales and zero points included).
Integer stored_weight_bytes(const quant::OperandSpec& w, std::int64_t n, std::int64_t k);

}  // namespace tenet::llm
