// CountReport: merging and a one-line summary for people.
#include <string>

#include "tenet/poly/count.hpp"

namespace tenet::poly {

void CountReport::add(const CountReport& o) {
  for (int i = 0; i < kStrategyCount; ++i) {
    uses[i] += o.uses[i];
    nodes[i] += o.nodes[i];
  }
  basic_sets += o.basic_sets;
  slices += o.slices;
  chambers += o.chambers;
  verify_failures += o.verify_failures;
  cache_hits += o.cache_hits;
  fallbacks += o.fallbacks;
  pieces.insert(pieces.end(), o.pieces.begin(), o.pieces.end());
}

std::string CountReport::summary() const {
  std::string s = std::to_string(basic_sets) + (basic_sets == 1 ? " basic set" : " basic sets");
  const char* sep = ": ";
  for (int i = 0; i < kStrategyCount; ++i) {
    if (!uses[i]) continue;
    s += sep + std::to_string(uses[i]) + " " + to_string(static_cast<Strategy>(i));
    sep = ", ";
  }
  if (slices) s += "; " + std::to_string(slices) + " slices";
  if (chambers) s += "; " + std::to_string(chambers) + " interpolated chambers";
  if (verify_failures)
    s += "; " + std::to_string(verify_failures) + " verification failures (enumerated)";
  if (cache_hits) s += "; " + std::to_string(cache_hits) + " memo hits";
  if (fallbacks) s += "; " + std::to_string(fallbacks) + " isl fallbacks";
  return s;
}

}  // namespace tenet::poly
