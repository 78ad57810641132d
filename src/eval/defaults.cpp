#include "tenet/eval/defaults.hpp"

namespace tenet::eval::defaults {

mapping::Dataflow default_dataflow(const arch::Accelerator& acc) {
  const std::string& declared = acc.spec().dataflow;
  return declared.empty() ? kDataflow : mapping::parse_dataflow(declared);
}

std::vector<mapping::Dataflow> search_dataflows(const arch::Accelerator& acc) {
  if (!acc.spec().dataflow.empty()) return {default_dataflow(acc)};
  return {kSearchDataflows.begin(), kSearchDataflows.end()};
}

long long dequant_elements_per_cycle(const arch::Accelerator& acc, mapping::Dataflow dataflow) {
  return dataflow == mapping::Dataflow::kInputStationary ? acc.rows() : acc.cols();
}

quant::DequantRate resolve_dequant_rate(const quant::DequantRate& requested,
                                        const quant::QuantSpec& scheme,
                                        const arch::Accelerator& acc, mapping::Dataflow dataflow) {
  if (requested.given()) return requested;
  const quant::DequantRate from_scheme{scheme.dequant.elements_per_cycle,
                                       scheme.dequant.ops_per_cycle};
  if (from_scheme.given()) return from_scheme;
  return {dequant_elements_per_cycle(acc, dataflow), 0};
}

}  // namespace tenet::eval::defaults
