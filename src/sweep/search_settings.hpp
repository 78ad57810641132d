// `tenet search` as one call: its settings as text (the CLI's options, the Python keywords),
// resolved through eval::Settings and eval/defaults.hpp (no default typed twice), and the search
// of each matmul. Errors name fields (arch, quant, objective, dataflows, dequant_rate); the CLI
// maps them to its options.
#pragma once

#include <string>
#include <vector>

#include "sweep/mapping_search.hpp"
#include "tenet/eval/settings.hpp"
#include "tenet/llm/matmul_shape.hpp"

namespace tenet::sweep {

struct SearchSettings {
  // arch (empty: defaults::kAccelerator), array, quant (empty: defaults::kScheme; a search always
  // has a scheme), dequant_rate, or already-loaded accelerator / scheme. The other fields
  // (dataflow, tile, tiling_objective, timing) are chosen by the search and must stay empty;
  // dequant_ops_rate is not offered.
  eval::Settings eval;
  std::string objective;               // empty: defaults::kTilingObjective
  std::vector<std::string> dataflows;  // empty: defaults::search_dataflows(accelerator)
  bool exact_front = true;             // false: only the winner is exact ("winner" front)
};

// The one request the settings resolve to (eval::make_request: accelerator, scheme, dequant rate,
// edge transfers, ...; each matmul goes into its `matmul`) and the search's options.
struct ResolvedSearch {
  eval::Request request;
  SearchOptions options;
};
ResolvedSearch resolve_search(const SearchSettings& settings);

// search_layer of every matmul (the resolved request with that matmul), in order.
std::vector<LayerSearch> search_layers(const SearchSettings& settings,
                                       const std::vector<llm::MatmulShape>& matmuls);

}  // namespace tenet::sweep
