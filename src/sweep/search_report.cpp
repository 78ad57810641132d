#include "sweep/search_report.hpp"

#include <fmt/format.h>

#include "hw/bounds_format.hpp"
#include "llm/model_report.hpp"
#include "tenet/poly/count.hpp"

namespace tenet::sweep {
namespace {

using ojson = nlohmann::ordered_json;

ojson integer(const poly::Integer& v) {
  if (poly::fits_int64(v)) return static_cast<std::int64_t>(v.get_si());
  return v.get_str();
}

ojson candidate_json(const EvaluatedCandidate& e) {
  ojson j = {{"dataflow", mapping::to_string(e.candidate.dataflow)},
             {"tiling", mapping::to_string(e.candidate.tiling)},
             {"built_in", e.built_in},
             {"fits", e.fits},
             {"cycles", integer(e.cost.cycles)},
             {"seconds", e.seconds},
             {"energy_pj", e.cost.energy_pj},
             {"dram_bytes", integer(e.cost.dram_bytes)},
             {"utilization", e.cost.utilization},
             {"bound", e.cost.bound},
             {"objective", e.objective}};
  if (e.cost.bounds)
    j["bounds"] = hw::bounds_json(*e.cost.bounds, e.cost.cycles, e.cost.dram_bytes);
  return j;
}

std::string counts_text(const SearchCounts& c) {
  return fmt::format(
      "{} candidates: {} evaluated, {} pruned ({} on the closed-form bound, {} on "
      "the hardware-model bound), {} do not fit the buffer, {} failed",
      c.candidates, c.evaluated, c.pruned(), c.pruned_l0, c.pruned_l1, c.too_big, c.failed);
}

std::string point_text(const EvaluatedCandidate& e) {
  return fmt::format("{:<28} {:>14} cycles  {:>14.6g} pJ", describe(e.candidate),
                     e.cost.cycles.get_str(), e.cost.energy_pj);
}

}  // namespace

std::string describe(const Candidate& c) {
  return std::string(mapping::to_string(c.dataflow)) + " " + mapping::to_string(c.tiling);
}

ojson search_json(const std::vector<LayerSearch>& layers) {
  ojson out = ojson::array();
  for (const LayerSearch& l : layers) {
    ojson j = {{"name", l.shape.name},
               {"batch", l.shape.batch},
               {"M", l.shape.m},
               {"N", l.shape.n},
               {"K", l.shape.k},
               {"count", l.shape.count},
               {"objective", hw::to_string(l.objective)}};
    j["best"] = l.best ? candidate_json(*l.best) : ojson();
    // (the winner is a built-in mapping, the auto tiling of its dataflow: kept for readers of
    // the earlier format, where a searched mapping could differ from it)
    j["best_built_in"] = j["best"];
    j["improvement"] = l.best ? ojson(1.0) : ojson();
    j["front"] = ojson::array();
    for (const EvaluatedCandidate& e : l.front) j["front"].push_back(candidate_json(e));
    j["counts"] = {{"candidates", l.counts.candidates}, {"evaluated", l.counts.evaluated},
                   {"pruned", l.counts.pruned()},       {"pruned_l0", l.counts.pruned_l0},
                   {"pruned_l1", l.counts.pruned_l1},   {"too_big", l.counts.too_big},
                   {"failed", l.counts.failed}};
    if (!l.error.empty()) j["error"] = l.error;
    out.push_back(std::move(j));
  }
  return out;
}

std::string format_search_table(const std::vector<LayerSearch>& layers, bool show_front) {
  std::string out;
  SearchCounts total;
  for (const LayerSearch& l : layers) {
    out += fmt::format("{} (batch {}, M {}, N {}, K {}, x{}), objective {}\n", l.shape.name,
                       l.shape.batch, l.shape.m, l.shape.n, l.shape.k, l.shape.count,
                       hw::to_string(l.objective));
    if (!l.best) {
      out += "  no mapping could be evaluated: " + l.error + "\n";
    } else {
      out += "  best           " + point_text(*l.best) + "  (auto tiling)\n";
    }
    out += "  " + counts_text(l.counts) + "\n";
    if (show_front && !l.front.empty()) {
      out += fmt::format("  Pareto front (latency vs energy), {} points:\n", l.front.size());
      for (const EvaluatedCandidate& e : l.front)
        out += "    " + point_text(e) + (e.built_in ? "  (built-in)" : "") + "\n";
    }
    total.candidates += l.counts.candidates, total.evaluated += l.counts.evaluated;
    total.pruned_l0 += l.counts.pruned_l0, total.pruned_l1 += l.counts.pruned_l1;
    total.too_big += l.counts.too_big, total.failed += l.counts.failed;
  }
  out += "total: " + counts_text(total) + "\n";
  return out;
}

}  // namespace tenet::sweep
