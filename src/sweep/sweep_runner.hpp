// Running a sweep: worker threads evaluate points, a reorder buffer hands the rows to the sink in
// point-index order (so the output is the same whatever the thread count), shards and resumed
// runs skip points, and run_sweep_to_file writes CSV / JSON Lines with resume support.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_set>

#include "sweep/point_evaluator.hpp"
#include "sweep/sweep_plan.hpp"
#include "sweep/sweep_point.hpp"

namespace tenet::sweep {

// Shard i of n (1-based): the points whose index % n == i - 1.
struct Shard {
  std::uint64_t index = 1, count = 1;
  bool contains(std::uint64_t point) const { return point % count == index - 1; }
  friend bool operator==(const Shard& a, const Shard& b) {
    return a.index == b.index && a.count == b.count;
  }
};
// "i/n" with 1 <= i <= n; else InputError(parse | range, "", option).
Shard parse_shard(const std::string& text, const std::string& option = "--shard");

struct Progress {
  std::uint64_t done = 0;     // points finished in this run
  std::uint64_t total = 0;    // points this run evaluates (shard, minus resumed ones)
  std::uint64_t skipped = 0;  // points already in the output (resume)
  double elapsed_seconds = 0;
  std::uint64_t layer_requests = 0, layer_evaluations = 0;
};

struct RunOptions {
  unsigned threads = 1;  // >= 1; each has its own isl context and PointEvaluator
  Shard shard;
  std::unordered_set<std::string> skip_ids;  // points already written (resume)
  std::optional<std::uint64_t> limit;  // stop after this many rows (tests: an interrupted run)
  bool memo = true;                    // false: every layer evaluated afresh
  // Called after each row is handed to the sink, from the thread that did it (one at a time).
  std::function<void(const Progress&)> progress;
};

struct RunSummary {
  std::uint64_t points = 0;    // points of the sweep
  std::uint64_t in_shard = 0;  // of them in this shard
  std::uint64_t skipped = 0;   // already present (resume)
  std::uint64_t written = 0;   // rows handed to the sink
  std::uint64_t errors = 0;    // of them with status "error"
  std::uint64_t layer_requests = 0, layer_evaluations = 0;
  std::uint64_t relation_requests = 0, relation_evaluations = 0;
  double seconds = 0;  // wall time
};

struct SweepRow {
  SweepPoint point;
  PointMetrics metrics;
};

// Evaluates the shard's points that are not in skip_ids and hands each row to `sink` in
// increasing point index, one call at a time. An exception from the sink or an InternalError
// stops the workers and is rethrown.
RunSummary run_sweep(const SweepPlan& plan, const RunOptions& options,
                     const std::function<void(const SweepRow&)>& sink);

struct FileRunOptions {
  RunOptions run;       // skip_ids is filled from the existing file when resuming
  bool resume = false;  // keep the rows already in `path` and add the missing ones
};

// Writes the rows to `path` (format from the extension, sweep_table.hpp), flushing as it goes.
// Without resume the file is replaced. With resume the existing file must have this sweep's
// columns (else InputError(usage)); a truncated last line is cut off, and rows are appended.
RunSummary run_sweep_to_file(const SweepPlan& plan, const std::string& path,
                             const FileRunOptions& options);

}  // namespace tenet::sweep
