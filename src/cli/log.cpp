// `tenet log`: the matmul calls captured while a model ran (tenet_hook JSONL or the seed's text
// lines), aggregated, with their cost on an accelerator (or only their shapes with --shapes-only).
#include <fmt/core.h>

#include <cstdio>
#include <memory>

#include "cli/command.hpp"
#include "cli/llm_options.hpp"
#include "report/llm_report.hpp"
#include "tenet/input/workload_log.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::log_command {
namespace {

struct LogOptions {
  std::string input;
  std::string log_format = "auto";
  std::string tir;
  bool lenient = false;
  std::int64_t tokens = 0;
  ReportOptions report;
};

void warn_skipped(const input::WorkloadLog& log) {
  if (log.skipped == 0) return;
  std::string lines;
  for (std::int64_t n : log.skipped_lines) lines += (lines.empty() ? "" : ", ") + std::to_string(n);
  if (log.skipped > static_cast<std::int64_t>(log.skipped_lines.size())) lines += ", ...";
  fmt::print(stderr, "tenet: warning: skipped {} malformed line(s) of {} (lines {}); first: {}\n",
             log.skipped, log.file, lines, log.first_skip_reason);
}

void run_log(const LogOptions& o) {
  input::LogReadOptions read;
  read.format = input::parse_log_format(o.log_format);
  read.lenient = o.lenient;
  const input::WorkloadLog log = input::read_workload_log_file(o.input, read);
  warn_skipped(log);
  if (!o.report.shapes_only) warn_implausible_arch(o.report.cost.arch);
  report::LlmReportOptions costing;
  costing.shapes_only = o.report.shapes_only;
  costing.cost = o.report.cost;
  report::LogWorkload w = report::prepare_log(log, o.tir, costing);
  for (const std::string& text : w.warnings) fmt::print(stderr, "tenet: warning: {}\n", text);
  if (o.tokens > 0) w.context.tokens = o.tokens;
  report::LlmReportOptions options;
  options.shapes_only = o.report.shapes_only;
  options.merge_shapes = o.report.merge_shapes;
  options.cost = costing.cost;
  options.vector_kernels = log.vector_kernels;
  fmt::print("{}", report::render_llm_report(w.shapes, w.context, options,
                                             io::parse_report_format(o.report.format)));
}

void setup_log(CLI::App& sub) {
  auto o = std::make_shared<LogOptions>();
  sub.add_option("--input", o->input,
                 "Workload log: JSON Lines (tenet_hook) or `kernel: b, M, N, K` lines")
      ->required();
  sub.add_option("--log-format", o->log_format, "auto (default: per line), text or jsonl")
      ->check(CLI::IsMember({"auto", "text", "jsonl"}));
  sub.add_option("--tir", o->tir,
                 "TVMScript dump of the same model (debug-phase3.py): each call takes its "
                 "kernel's structure");
  sub.add_flag("--lenient", o->lenient,
               "Skip malformed lines (counted and reported) instead of failing");
  sub.add_option("--tokens", o->tokens, "Tokens the logged run produced, for tokens/s")
      ->check(CLI::PositiveNumber);
  add_report_options(sub, o->report);
  sub.callback([o] { run_log(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("log", "Matmul calls of a workload log (aggregated), and their cost",
                       setup_log, 41);

}  // namespace tenet::cli::log_command
