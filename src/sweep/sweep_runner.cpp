#include "sweep/sweep_runner.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include "sweep/sweep_table.hpp"
#include "tenet/error.hpp"

namespace tenet::sweep {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The run's shared state: the next slot to claim, the reorder buffer, the sink's progress.
// Slot s of the run is point shard.index - 1 + s * shard.count.
class Run {
 public:
  Run(const SweepPlan& plan, const RunOptions& options,
      const std::function<void(const SweepRow&)>& sink)
      : plan_(plan), options_(options), sink_(sink), start_(Clock::now()) {
    const Shard& s = options.shard;
    slots_ = plan.size() > s.index - 1 ? (plan.size() - (s.index - 1) + s.count - 1) / s.count : 0;
    summary_.points = plan.size();
    summary_.in_shard = slots_;
    progress_.total = slots_ - std::min<std::uint64_t>(slots_, options.skip_ids.size());
    window_ = 256 * std::max(1u, options.threads);
  }

  void work(SweepMemo* memo) {
    PointEvaluator evaluator(plan_, memo);
    try {
      for (;;) {
        const std::uint64_t slot = next_slot_.fetch_add(1);
        if (slot >= slots_ || !wait_for_room(slot)) break;
        const std::uint64_t index = options_.shard.index - 1 + slot * options_.shard.count;
        std::optional<SweepRow> row;
        SweepPoint point = make_point(plan_, index);
        if (!options_.skip_ids.count(point.id)) {
          const EvaluatorStats before = evaluator.stats();
          PointMetrics metrics = evaluator.evaluate(point);
          requests_ += evaluator.stats().layer_requests - before.layer_requests;
          evaluations_ += evaluator.stats().layer_evaluations - before.layer_evaluations;
          row = SweepRow{std::move(point), std::move(metrics)};
        }
        deliver(slot, std::move(row));
      }
    } catch (...) {
      fail(std::current_exception());
    }
    std::lock_guard<std::mutex> lock(mutex_);
    const EvaluatorStats& s = evaluator.stats();
    summary_.layer_requests += s.layer_requests;
    summary_.layer_evaluations += s.layer_evaluations;
    summary_.relation_requests += s.relation_requests;
    summary_.relation_evaluations += s.relation_evaluations;
  }

  RunSummary finish() {
    if (error_) std::rethrow_exception(error_);
    summary_.seconds = seconds_since(start_);
    return summary_;
  }

 private:
  // Waits while the slot is too far ahead of the writer; false when the run stops.
  bool wait_for_room(std::uint64_t slot) {
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [&] { return stop_ || slot < next_write_ + window_; });
    return !stop_;
  }

  // Puts the slot's row (or nothing, for a skipped point) into the reorder buffer and hands
  // every row that is next in order to the sink.
  void deliver(std::uint64_t slot, std::optional<SweepRow> row) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_) return;
    pending_.emplace(slot, std::move(row));
    for (auto it = pending_.begin(); it != pending_.end() && it->first == next_write_;
         it = pending_.erase(it)) {
      ++next_write_;
      if (!it->second) {
        ++summary_.skipped;
        continue;
      }
      sink_(*it->second);
      ++summary_.written;
      if (it->second->metrics.status != "ok") ++summary_.errors;
      report_progress();
      if (options_.limit && summary_.written >= *options_.limit) {
        stop_ = true;
        break;
      }
    }
    room_.notify_all();
  }

  void report_progress() {
    if (!options_.progress) return;
    progress_.done = summary_.written;
    progress_.skipped = summary_.skipped;
    progress_.elapsed_seconds = seconds_since(start_);
    progress_.layer_requests = requests_.load();
    progress_.layer_evaluations = evaluations_.load();
    options_.progress(progress_);
  }

  void fail(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = e;
    stop_ = true;
    room_.notify_all();
  }

  const SweepPlan& plan_;
  const RunOptions& options_;
  const std::function<void(const SweepRow&)>& sink_;
  const Clock::time_point start_;
  std::uint64_t slots_ = 0, window_ = 0;
  std::atomic<std::uint64_t> next_slot_{0};

  std::mutex mutex_;
  std::condition_variable room_;
  bool stop_ = false;
  std::exception_ptr error_;
  std::uint64_t next_write_ = 0;
  std::map<std::uint64_t, std::optional<SweepRow>> pending_;
  std::atomic<std::uint64_t> requests_{0}, evaluations_{0};
  RunSummary summary_;
  Progress progress_;
};

std::uint64_t parse_count(const std::string& text, const std::string& whole,
                          const std::string& option) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    if (!text.empty() && text[0] != '-' && text[0] != '+') v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw InputError(error_code::kParse, "", option,
                     "expected a shard \"i/n\" (e.g. 2/8), got \"" + whole + "\"");
  return v;
}

// " (No space left on device)" for the current errno, "" when it is 0.
std::string errno_text() {
  return errno ? " (" + std::generic_category().message(errno) + ")" : std::string();
}

// An exclusive lock on the output file for the whole run (flock: released when the process
// ends, however it ends), taken before the file is truncated or read for --resume, so a second
// sweep writing the same --out fails at once instead of interleaving or clobbering rows.
class OutputLock {
 public:
  explicit OutputLock(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ < 0) fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0)
      throw InputError(error_code::kIo, path, "out",
                       "cannot open the output for writing" + errno_text());
    // A file system without locks (ENOLCK, EOPNOTSUPP) runs unlocked; only a held lock fails.
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
      ::close(fd_);
      throw InputError(error_code::kIo, path, "out",
                       "another process (a sweep with the same output?) is writing this file; "
                       "wait for it to finish or write to another file");
    }
  }
  ~OutputLock() { ::close(fd_); }
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;
};

// Appends rows to a FILE*, flushing at most a few times per second (and at the end). A failed
// write (full disk, file size limit, I/O error) is InputError(io) naming the file and the reason;
// the rows before it stay in the file, so a later --resume continues from there.
class TableWriter {
 public:
  TableWriter(const std::string& path, bool append) : path_(path) {
    errno = 0;
    file_ = std::fopen(path.c_str(), append ? "ab" : "wb");
    if (!file_)
      throw InputError(error_code::kIo, path, "out",
                       "cannot open the output for writing" + errno_text());
  }
  ~TableWriter() {
    if (file_) std::fclose(file_);
  }
  void write(const std::string& text) {
    errno = 0;
    if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) fail();
    if (seconds_since(last_flush_) > 0.25) flush();
  }
  void close() {
    flush();
    errno = 0;
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (closed != 0) fail();
  }

 private:
  [[noreturn]] void fail() const {
    throw InputError(error_code::kIo, path_, "out",
                     "cannot write the output" + errno_text() +
                         "; the rows written so far are kept: free space and run the sweep again "
                         "resuming from them (the resume setting)");
  }
  void flush() {
    errno = 0;
    if (std::fflush(file_) != 0) fail();
    last_flush_ = Clock::now();
  }
  std::string path_;
  std::FILE* file_ = nullptr;
  Clock::time_point last_flush_ = Clock::now();
};

}  // namespace

Shard parse_shard(const std::string& text, const std::string& option) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos)
    throw InputError(error_code::kParse, "", option,
                     "expected a shard \"i/n\" (e.g. 2/8), got \"" + text + "\"");
  Shard s{parse_count(text.substr(0, slash), text, option),
          parse_count(text.substr(slash + 1), text, option)};
  if (s.count < 1 || s.index < 1 || s.index > s.count)
    throw InputError(error_code::kRange, "", option,
                     "expected 1 <= i <= n in \"i/n\", got \"" + text + "\"");
  return s;
}

RunSummary run_sweep(const SweepPlan& plan, const RunOptions& options,
                     const std::function<void(const SweepRow&)>& sink) {
  if (options.threads < 1)
    throw InputError(error_code::kRange, "", "threads", "expected >= 1 thread");
  if (options.shard.count < 1 || options.shard.index < 1 ||
      options.shard.index > options.shard.count)
    throw InputError(error_code::kRange, "", "shard", "expected 1 <= i <= n");
  std::unique_ptr<SweepMemo> memo = options.memo ? std::make_unique<SweepMemo>() : nullptr;
  Run run(plan, options, sink);
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < options.threads; ++t)
    workers.emplace_back([&run, &memo] { run.work(memo.get()); });
  for (std::thread& w : workers) w.join();
  return run.finish();
}

RunSummary run_sweep_to_file(const SweepPlan& plan, const std::string& path,
                             const FileRunOptions& options) {
  const TableFormat format = table_format_of(path);
  const std::vector<std::string> columns =
      sweep_columns(plan.spec().relation_centric, plan.has_requests());
  RunOptions run = options.run;
  bool append = false, header = true;
  const OutputLock lock(path);
  if (options.resume) {
    const StoredTable existing = read_table(path, format);
    if (!existing.columns.empty() && existing.columns != columns)
      throw InputError(error_code::kUsage, path, "resume",
                       "the existing output has other columns than this sweep writes (another "
                       "spec?); write to a new file");
    for (const StoredRow& r : existing.rows) run.skip_ids.insert(r.id);
    if (std::filesystem::exists(path)) {
      std::filesystem::resize_file(path, existing.complete_bytes);  // drop a truncated line
      append = true;
      header = existing.complete_bytes == 0 && format == TableFormat::kCsv;
    }
  }
  TableWriter out(path, append);
  if (header) out.write(format_header(columns, format));
  const bool rc = plan.spec().relation_centric;
  const RunSummary summary = run_sweep(plan, run, [&](const SweepRow& row) {
    out.write(
        format_row(make_row(row.point, row.metrics, rc, plan.has_requests()), columns, format));
  });
  out.close();
  return summary;
}

}  // namespace tenet::sweep
