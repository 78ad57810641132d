// What an accelerator file says about serving a whole generation request beyond the matmuls
// (docs/generate.md): the vector unit that runs the non-matmul operators, the DRAM capacity that
// holds the weights and the KV cache, and the chip-to-chip link of tensor and pipeline
// parallelism. Read from the file's "vector_unit", "dram/capacity_bytes" and "link".
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tenet::io {
class JsonFields;
}

namespace tenet::arch {

// The operator kinds of a request besides the matmuls (llm::VectorOpKind names them).
// "norm", "rotary", "softmax", "activation", "residual", "kv_append", "embedding", "logits",
// "routing", "scan" (the recurrence of Mamba / Gated DeltaNet layers: multiply-adds).
const std::vector<std::string>& vector_op_kinds();

// A SIMD unit beside the PE array: `lanes` lanes, each doing ops_per_lane_cycle.at(kind)
// elementary operations per cycle on an operator of that kind (transcendental-heavy kinds are
// slower), fed through its own SRAM port of sram_bytes_per_cycle.
struct VectorUnit {
  long long lanes = 0;
  std::map<std::string, double> ops_per_lane_cycle;  // every kind of vector_op_kinds()
  double sram_bytes_per_cycle = 0;
  bool declared = false;  // false: the default derived from the PE array (docs/generate.md)
  friend bool operator==(const VectorUnit& a, const VectorUnit& b) {
    return a.lanes == b.lanes && a.ops_per_lane_cycle == b.ops_per_lane_cycle &&
           a.sram_bytes_per_cycle == b.sram_bytes_per_cycle && a.declared == b.declared;
  }
};

// One chip-to-chip link per chip and direction (ring collectives): bandwidth in gigabits per
// second, latency per message in microseconds; `overlap`: collectives hide behind compute.
struct Link {
  double gbps = 0;
  double latency_us = 0;
  bool overlap = false;
  friend bool operator==(const Link& a, const Link& b) {
    return a.gbps == b.gbps && a.latency_us == b.latency_us && a.overlap == b.overlap;
  }
};

struct ServingSpec {
  std::optional<long long> capacity_bytes;  // dram/capacity_bytes; none: not stated
  std::optional<VectorUnit> vector_unit;    // none: default_vector_unit
  std::optional<Link> link;                 // none: the request must give one for tp/pp > 1
  friend bool operator==(const ServingSpec& a, const ServingSpec& b) {
    return a.capacity_bytes == b.capacity_bytes && a.vector_unit == b.vector_unit &&
           a.link == b.link;
  }
};

// The vector unit of a file without "vector_unit": one lane per PE-array column, one operation
// per lane and cycle for every kind except softmax, activation, logits and routing (their
// exponentials: 1/4 op per lane and cycle), an SRAM port as wide as the lanes times 4 bytes.
VectorUnit default_vector_unit(long long cols);

// Reads "vector_unit", "link" (members of `root`) and "capacity_bytes" (member of `dram`, may be
// absent); every problem is recorded on the readers' problem list with its JSON pointer.
ServingSpec read_serving(const io::JsonFields& root, const io::JsonFields* dram);
// The members to_json writes: "vector_unit" and "link" into `j`, "capacity_bytes" into j["dram"].
void serving_to_json(const ServingSpec& s, nlohmann::json& j);

}  // namespace tenet::arch
