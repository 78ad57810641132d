#include "sweep/search_settings.hpp"

#include "tenet/error.hpp"
#include "tenet/eval/defaults.hpp"
#include "tenet/mapping/systolic.hpp"

namespace tenet::sweep {

ResolvedSearch resolve_search(const SearchSettings& s) {
  for (const auto& [value, field] :
       {std::pair{&s.eval.dataflow, "dataflow"}, std::pair{&s.eval.tile, "tile"},
        std::pair{&s.eval.tiling_objective, "tiling_objective"},
        std::pair{&s.eval.timing, "timing"}})
    if (!value->empty())
      throw InputError(error_code::kUsage, "", field,
                       "the search chooses the mapping; give its objective and dataflows instead");
  if (s.eval.dequant_ops_rate != 0)
    throw InputError(error_code::kUsage, "", "dequant_ops_rate",
                     "the search takes the dequant unit's throughput in elements per cycle "
                     "(dequant_rate)");
  eval::Settings settings = s.eval;
  if (settings.quant.empty() && !settings.scheme) settings.quant = eval::defaults::kScheme;
  ResolvedSearch r{eval::make_request(settings), SearchOptions{}};
  if (!s.objective.empty())
    r.options.objective = hw::parse_tiling_objective(s.objective, "objective");
  r.options.dataflows = eval::defaults::search_dataflows(*r.request.accelerator);
  if (!s.dataflows.empty()) {
    r.options.dataflows.clear();
    for (const std::string& d : s.dataflows)
      r.options.dataflows.push_back(
          with_location("dataflows", [&] { return mapping::parse_dataflow(d); }));
  }
  r.options.exact_front = s.exact_front;
  return r;
}

std::vector<LayerSearch> search_layers(const SearchSettings& settings,
                                       const std::vector<llm::MatmulShape>& matmuls) {
  const ResolvedSearch r = resolve_search(settings);
  std::vector<LayerSearch> out;
  out.reserve(matmuls.size());
  eval::Request request = r.request;
  for (const llm::MatmulShape& m : matmuls) {
    request.matmul = m;
    out.push_back(search_layer(request, r.options));
  }
  return out;
}

}  // namespace tenet::sweep
