// The latency rule's first step over every candidate, for the cap's tests: the candidate better()
// ranks first among those within 2 % of the fastest (the window's choice X, before the cap).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "hw/search/ranking.hpp"

namespace tenet_test {

inline std::size_t window_choice(const std::vector<tenet::hw::search::Rank>& ranks) {
  using namespace tenet::hw;
  long long fastest = ranks.front().cycles;
  for (const search::Rank& x : ranks) fastest = std::min(fastest, x.cycles);
  std::size_t window = ranks.size();
  for (std::size_t i = 0; i < ranks.size(); ++i)
    if (search::near(ranks[i].cycles, fastest, 2) &&
        (window == ranks.size() ||
         search::better(TilingObjective::kLatency, ranks[i], ranks[window])))
      window = i;
  return window;
}

}  // namespace tenet_test
