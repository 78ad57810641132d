// Least DRAM traffic against global-buffer size (the "ski slope" of Orojenesis, ISCA 2024): per
// buffer size, the bounds (hw::compute_bounds: the modelled mapping classes' least traffic and
// the schedule-independent lower bound) and the least traffic
// of the model's mappings (the tiling search under the dram_bytes objective, best dataflow), for
// one matmul or a whole model's matmul list. Every point goes through eval::evaluate.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tenet/eval/request.hpp"
#include "tenet/llm/matmul_shape.hpp"
#include "tenet/poly/count.hpp"

namespace tenet::eval {

struct CurvePoint {
  long long buffer_bytes = 0;      // the global buffer's capacity
  poly::Integer bound_dram_bytes;  // least traffic of the modelled mapping classes (Σ count x call)
  poly::Integer compulsory_dram_bytes;
  poly::Integer schedule_independent_dram_bytes;  // lower bound of any schedule (Hong–Kung form)
  // The model's least-traffic mappings (none with bound_only): Σ over the matmuls of the least
  // DRAM bytes over the dataflows; for one matmul also its dataflow and tiling.
  std::optional<poly::Integer> dram_bytes;
  std::string dataflow, tiling;
};

struct CurveOptions {
  std::vector<mapping::Dataflow> dataflows{defaults::kSearchDataflows.begin(),
                                           defaults::kSearchDataflows.end()};
  bool bound_only = false;  // only the analytic bound (no mapping search)
  // Worker threads over the buffer sizes (the result does not depend on it).
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
};

// `points` sizes from `from` to `to` bytes, geometrically spaced and rounded to bytes (distinct;
// InputError(range, "buffers") unless 1 <= from <= to and points >= 1; one point when from == to).
std::vector<long long> buffer_sizes(long long from, long long to, int points);

// The curve of `matmuls` (count applied) on the request's accelerator with each buffer size; the
// request's scheme, edge-transfer option and dequant rate apply; its tiling and objective do not.
// A matmul no dataflow can run with a buffer size is InputError naming the size.
std::vector<CurvePoint> traffic_curve(const Request& base,
                                      const std::vector<llm::MatmulShape>& matmuls,
                                      const std::vector<long long>& buffers,
                                      const CurveOptions& options = {});

}  // namespace tenet::eval
