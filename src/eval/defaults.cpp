#include "tenet/eval/defaults.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tenet/error.hpp"

namespace tenet::eval::defaults {

mapping::Dataflow default_dataflow(const arch::Accelerator& acc) {
  const std::string& declared = acc.spec().dataflow;
  return declared.empty() ? kDataflow : mapping::parse_dataflow(declared);
}

std::vector<mapping::Dataflow> search_dataflows(const arch::Accelerator& acc) {
  if (!acc.spec().dataflow.empty()) return {default_dataflow(acc)};
  return {kSearchDataflows.begin(), kSearchDataflows.end()};
}

long long dequant_elements_per_cycle(const arch::Accelerator& acc, mapping::Dataflow dataflow,
                                     const workload::DataType& precision) {
  const long long lanes = dataflow == mapping::Dataflow::kInputStationary ? acc.rows() : acc.cols();
  // (a slower precision, cycles_per_mac > 1, keeps the full rate: a stationary operand (ws, is)
  // still shifts in at one element per lane and cycle)
  // every matrix unit has its own edge to feed (docs/hardware.md#a-chip-several-matrix-units)
  return std::max(1LL,
                  acc.spec().chip.matrix_units * lanes * acc.mac_rate(precision).macs_per_cycle);
}

quant::DequantRate resolve_dequant_rate(const quant::DequantRate& requested,
                                        const quant::QuantSpec& scheme,
                                        const arch::Accelerator& acc, mapping::Dataflow dataflow,
                                        const workload::DataType& precision) {
  if (requested.given()) return requested;
  const quant::DequantRate from_scheme{scheme.dequant.elements_per_cycle,
                                       scheme.dequant.ops_per_cycle};
  if (from_scheme.given()) return from_scheme;
  return {dequant_elements_per_cycle(acc, dataflow, precision), 0};
}

namespace {

std::string rate_text(const quant::DequantRate& r) {
  return r.elements_per_cycle > 0 ? fmt::format("{} elements/cycle", r.elements_per_cycle)
                                  : fmt::format("{} ops/cycle", r.ops_per_cycle);
}

}  // namespace

std::string describe_dequant_rate(const quant::DequantRate& requested,
                                  const quant::QuantSpec& scheme, const arch::Accelerator& acc,
                                  mapping::Dataflow dataflow) {
  // the weights' unit, else (a KV-cache scheme) the KV cache's
  const quant::OperandSpec* b = quant::dequantizes(scheme, scheme.weights) ? &scheme.weights
                                : scheme.kv_cache && quant::dequantizes(scheme, *scheme.kv_cache)
                                    ? &*scheme.kv_cache
                                    : nullptr;
  if (!b) return "";
  if (requested.given()) return "dequant unit " + rate_text(requested) + " (requested)";
  const quant::DequantRate from_scheme{scheme.dequant.elements_per_cycle,
                                       scheme.dequant.ops_per_cycle};
  if (from_scheme.given())
    return "dequant unit " + rate_text(from_scheme) + " (the scheme's dequant.throughput)";
  workload::DataType precision;
  try {
    precision = acc.mac_precision_for(quant::mac_precision(scheme, *b).multiplier());
  } catch (const InputError&) {
    return "";  // the evaluation reports the missing precision
  }
  const arch::MacRate& rate = acc.mac_rate(precision);
  const bool is = dataflow == mapping::Dataflow::kInputStationary;
  const long long units = acc.spec().chip.matrix_units;
  std::string why =
      fmt::format("{}{} {} x {} {} MAC{} per PE per cycle",
                  units > 1 ? fmt::format("{} matrix units x ", units) : "",
                  is ? acc.rows() : acc.cols(), is ? "rows" : "columns", rate.macs_per_cycle,
                  workload::to_string(precision), rate.macs_per_cycle == 1 ? "" : "s");
  return fmt::format("dequant unit {} elements/cycle (default: keeps up with the array: {})",
                     dequant_elements_per_cycle(acc, dataflow, precision), why);
}

}  // namespace tenet::eval::defaults
