#include "tenet/eval/traffic_curve.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <set>
#include <thread>

#include "tenet/error.hpp"
#include "tenet/eval/pipeline.hpp"
#include "tenet/hw/bounds.hpp"

namespace tenet::eval {

std::vector<long long> buffer_sizes(long long from, long long to, int points) {
  if (from < 1 || to < from || points < 1)
    throw InputError(error_code::kRange, "", "buffers",
                     "expected 1 <= FROM <= TO and POINTS >= 1, got " + std::to_string(from) +
                         ".." + std::to_string(to) + ":" + std::to_string(points));
  if (from == to || points == 1) return {from};
  std::set<long long> sizes;
  const double ratio = std::pow(static_cast<double>(to) / static_cast<double>(from),
                                1.0 / static_cast<double>(points - 1));
  for (int i = 0; i < points; ++i)
    sizes.insert(i == points - 1 ? to
                                 : std::llround(static_cast<double>(from) * std::pow(ratio, i)));
  return {sizes.begin(), sizes.end()};
}

namespace {

CurvePoint curve_point(const Request& base, const std::vector<llm::MatmulShape>& matmuls,
                       long long size, const CurveOptions& options) {
  Request r = base;
  r.accelerator =
      std::make_shared<const arch::Accelerator>(arch::with_buffer_bytes(*base.accelerator, size));
  r.tiling.reset();
  r.tiling_objective = hw::TilingObjective::kDramBytes;
  r.relation_centric = false;
  CurvePoint p;
  p.buffer_bytes = size;
  if (!options.bound_only) p.dram_bytes = poly::Integer(0);
  for (const llm::MatmulShape& m : matmuls) {
    r.matmul = m;
    const poly::Integer count(static_cast<long>(m.count));
    std::optional<Evaluation> best;
    mapping::Dataflow best_flow = options.dataflows.front();
    std::optional<InputError> failure;
    // The bound does not depend on the mapping: with bound_only one untiled evaluation.
    if (options.bound_only) r.tiling = mapping::Tiling{};
    for (mapping::Dataflow d : options.dataflows) {
      r.dataflow = d;
      try {
        Evaluation e = evaluate(r);
        if (!best || e.call_cost().dram_bytes < best->call_cost().dram_bytes) {
          best = std::move(e);
          best_flow = d;
        }
      } catch (const InputError& e) {
        if (!failure) failure = e;
      }
      if (options.bound_only && best) break;
    }
    if (!best)
      throw InputError(failure->code(), failure->file(),
                       failure->where().empty() ? "buffers" : failure->where(),
                       "with a " + std::to_string(size) + "-byte buffer: " + failure->message());
    const llm::LayerCost& cost = best->call_cost();
    const hw::BoundsSum& b = *cost.bounds;
    p.bound_dram_bytes += count * b.dram_bytes;
    p.compulsory_dram_bytes += count * b.compulsory_dram_bytes;
    p.schedule_independent_dram_bytes += count * b.schedule_independent_dram_bytes;
    if (!options.bound_only) {
      *p.dram_bytes += count * cost.dram_bytes;
      if (matmuls.size() == 1) {
        p.dataflow = mapping::to_string(best_flow);
        p.tiling = mapping::to_string(best->tiling());
      }
    }
  }
  return p;
}

}  // namespace

std::vector<CurvePoint> traffic_curve(const Request& base,
                                      const std::vector<llm::MatmulShape>& matmuls,
                                      const std::vector<long long>& buffers,
                                      const CurveOptions& options) {
  if (!base.accelerator) throw InternalError("traffic_curve: the request has no accelerator");
  if (base.timing != Timing::kSystolic)
    throw InputError(error_code::kUsage, "", "timing",
                     "the traffic curve uses the systolic timing model (the TENET delay: analyze)");
  if (options.dataflows.empty())
    throw InputError(error_code::kMissingField, "", "dataflows", "give at least one dataflow");
  // The sizes are independent: worker threads take them in turn (evaluate is thread-safe, isl
  // objects are per thread); the first error in size order is the one reported.
  const std::size_t n = buffers.size();
  std::vector<CurvePoint> curve(n);
  std::vector<std::exception_ptr> errors(n);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < n; i = next++) {
      try {
        curve[i] = curve_point(base, matmuls, buffers[i], options);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const unsigned threads = std::max(1u, std::min<unsigned>(options.threads, n));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return curve;
}

}  // namespace tenet::eval
