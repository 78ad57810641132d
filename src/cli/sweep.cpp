// `tenet sweep`: evaluates every point of a sweep spec and writes one row per point (CSV or JSON
// Lines). The library (tenet::sweep) does the work; this file parses options and shows progress.
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "cli/command.hpp"
#include "cli/option_rules.hpp"
#include "sweep/progress_text.hpp"
#include "sweep/sweep_plan.hpp"
#include "sweep/sweep_runner.hpp"
#include "sweep/sweep_spec.hpp"
#include "tenet/error.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::sweep_command {
namespace {

struct SweepOptions {
  std::string spec, out, shard, progress = "auto";
  unsigned threads = 1;
  bool resume = false, no_memo = false;
  long long limit = -1;
};

int terminal_width() {
  winsize w{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 20) return w.ws_col;
  return 80;
}

// Redraws a bar on a terminal (at most 10 times a second), or prints a line every few seconds.
class ProgressPrinter {
 public:
  explicit ProgressPrinter(const std::string& mode) {
    bar_ = mode == "bar" || (mode == "auto" && isatty(STDERR_FILENO));
    enabled_ = mode != "none";
    width_ = terminal_width();
  }
  void operator()(const sweep::Progress& p) {
    if (!enabled_) return;
    const double now = p.elapsed_seconds;
    const bool last = p.done >= p.total;
    if (!last && now - last_ < (bar_ ? 0.1 : 5.0)) return;
    last_ = now;
    if (bar_)
      std::fprintf(stderr, "\r%s", sweep::format_progress_bar(p, width_ - 1).c_str());
    else
      std::fprintf(stderr, "%s\n", sweep::format_progress_line(p).c_str());
    std::fflush(stderr);
    drawn_ = true;
  }
  void done() {
    if (bar_ && drawn_) std::fprintf(stderr, "\n");
  }

 private:
  bool bar_ = false, enabled_ = true, drawn_ = false;
  int width_ = 80;
  double last_ = -1e9;
};

void run(const SweepOptions& o) {
  const sweep::SweepPlan plan = sweep::make_sweep_plan(sweep::load_sweep_spec(o.spec));
  sweep::FileRunOptions f;
  f.resume = o.resume;
  f.run.threads = o.threads;
  f.run.memo = !o.no_memo;
  if (!o.shard.empty()) f.run.shard = sweep::parse_shard(o.shard);
  if (o.limit >= 0) f.run.limit = static_cast<std::uint64_t>(o.limit);
  auto printer = std::make_shared<ProgressPrinter>(o.progress);
  f.run.progress = [printer](const sweep::Progress& p) { (*printer)(p); };
  const sweep::RunSummary s = sweep::run_sweep_to_file(plan, o.out, f);
  printer->done();
  std::fprintf(
      stderr, "%s\n",
      fmt::format("sweep: {} points, {} in shard {}, {} already present, {} written "
                  "({} with errors) to {}; {} layer evaluations for {} layer costs; "
                  "{:.3f} s",
                  s.points, s.in_shard,
                  f.run.shard.index == 1 && f.run.shard.count == 1 ? std::string("1/1") : o.shard,
                  s.skipped, s.written, s.errors, o.out, s.layer_evaluations, s.layer_requests,
                  s.seconds)
          .c_str());
}

void setup(CLI::App& sub) {
  auto o = std::make_shared<SweepOptions>();
  sub.add_option("--spec", o->spec, "Sweep spec (JSON, docs/sweep.md)")->required();
  sub.add_option("--out", o->out, "Results file: *.csv or *.jsonl")->required();
  sub.add_option("--threads", o->threads, "Worker threads (default 1)")
      ->check(CLI::Range(1u, 1024u));
  sub.add_flag("--resume", o->resume,
               "Keep the rows already in --out and evaluate only the missing points");
  with_rule(
      sub.add_option("--shard", o->shard, "Evaluate shard i of n: points with index % n == i-1"),
      OptionRule::kNonEmpty);
  sub.add_option("--limit", o->limit, "Stop after writing this many rows");
  sub.add_flag("--no-memo", o->no_memo, "Evaluate every layer afresh (no reuse of work)");
  sub.add_option("--progress", o->progress, "auto (bar on a terminal), bar, lines or none")
      ->check(CLI::IsMember({"auto", "bar", "lines", "none"}));
  sub.callback([o] { run(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("sweep", "Evaluate the Cartesian product of a sweep spec (CSV / JSON Lines)",
                       setup, 70);

}  // namespace tenet::cli::sweep_command
