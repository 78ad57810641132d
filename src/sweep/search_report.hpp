// `tenet search` output: per layer the winner, the best built-in mapping, the Pareto front and the
// candidate counts, as a table for people or JSON (units in docs/sweep.md#tenet-search).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sweep/mapping_search.hpp"

namespace tenet::sweep {

// "ws 512x1024x4096:nmk"
std::string describe(const Candidate& c);

nlohmann::ordered_json search_json(const std::vector<LayerSearch>& layers);
// One block per layer: the winner vs the best built-in, the counts, then the front.
std::string format_search_table(const std::vector<LayerSearch>& layers, bool show_front);

}  // namespace tenet::sweep
