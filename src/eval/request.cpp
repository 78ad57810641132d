#include "tenet/eval/request.hpp"

#include <array>
#include <cstdint>
#include <functional>

namespace tenet::eval {
namespace {

std::size_t mix(std::size_t h, std::uint64_t v) {
  return h ^ (std::hash<std::uint64_t>{}(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

// Every field an Evaluation of a matmul request depends on, as integers (accelerator and scheme
// by id; the relation-centric architecture and analysis settings are not part of the key).
std::array<std::uint64_t, 26> key_of(const Request& r) {
  const llm::MatmulShape& s = r.matmul;
  const mapping::Tiling t = r.tiling.value_or(mapping::Tiling{});
  return {std::uint64_t(r.accelerator_id),
          std::uint64_t(r.scheme_id),
          std::uint64_t(r.scheme ? 1 : 0),
          std::uint64_t(s.batch),
          std::uint64_t(s.m),
          std::uint64_t(s.n),
          std::uint64_t(s.k),
          std::uint64_t(s.layout),
          std::uint64_t(s.b_operand),
          std::uint64_t(s.weights_quantized ? int(*s.weights_quantized) + 1 : 0),
          std::uint64_t(s.epilogue_ops),
          std::uint64_t(r.bits.a),
          std::uint64_t(r.bits.b),
          std::uint64_t(r.bits.c),
          std::uint64_t(r.dataflow),
          std::uint64_t(r.tiling ? 1 : 0),
          std::uint64_t(t.m),
          std::uint64_t(t.n),
          std::uint64_t(t.k),
          std::uint64_t(t.order[0]) * 9 + std::uint64_t(t.order[1]) * 3 +
              std::uint64_t(t.order[2]) + std::uint64_t(t.single) * 27,
          std::uint64_t(r.tiling_objective),
          std::uint64_t(r.timing),
          std::uint64_t(r.dequant_rate.elements_per_cycle),
          std::uint64_t(r.dequant_rate.ops_per_cycle),
          std::uint64_t(r.hw.unlimited_sram_bandwidth) |
              std::uint64_t(r.hw.unlimited_dram_bandwidth) << 1 |
              std::uint64_t(r.hw.unlimited_buffer) << 2 | std::uint64_t(r.hw.edge_transfers) << 3,
          std::uint64_t(r.relation_centric ? 1 : 0)};
}

}  // namespace

const char* to_string(Timing t) { return t == Timing::kTenet ? "tenet" : "systolic"; }

std::size_t hash(const Request& r) {
  std::size_t h = 0;
  for (std::uint64_t v : key_of(r)) h = mix(h, v);
  return h;
}

bool same_evaluation(const Request& a, const Request& b) { return key_of(a) == key_of(b); }

}  // namespace tenet::eval
