// `tenet search`: the best mapping (dataflow, tile sizes, loop order) of every matmul of a model,
// a log or one GEMM, under an objective, with the Pareto front. The work is in tenet::sweep.
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include "cli/llm_options.hpp"
#include "cli/option_rules.hpp"
#include "command/commands.hpp"
#include "mapping/shape_text.hpp"
#include "tenet/error.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::search_command {
namespace {

// Unset settings resolve in sweep::resolve_search (eval::Settings, eval/defaults.hpp).
struct SearchCliOptions {
  sweep::SearchSettings settings;
  std::string model, log, gemm;
  report::ModelPass pass;
  std::string dataflows, front = "exact", format = "table";
};

// "os,ws" -> {"os", "ws"}; "" -> {} (the default dataflows); an empty item stays (an error).
std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  if (list.empty()) return out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

void run(const SearchCliOptions& o) {
  command::SearchArgs args;
  args.settings = o.settings;
  warn_implausible_arch(o.settings.eval.arch);
  args.settings.dataflows = split_list(o.dataflows);
  args.settings.exact_front = o.front == "exact";
  args.source = matmul_source(o.gemm, o.model, o.log, o.pass);
  args.format = io::parse_report_format(o.format);
  std::cout << command::search(args);
}

void setup(CLI::App& sub) {
  auto o = std::make_shared<SearchCliOptions>();
  sub.add_option("--arch", o->settings.eval.arch,
                 "Accelerator preset or architecture file (default scalable-32x32)");
  sub.add_option("--quant", o->settings.eval.quant, "Quantization preset or file (default q0f16)");
  sub.add_option("--model", o->model,
                 "Hugging Face config.json, or a bundled model's name (e.g. llama-3-8b)");
  sub.add_option("--phase", o->pass.phase, "prefill (default) or decode")
      ->check(CLI::IsMember({"prefill", "decode"}));
  with_rule(sub.add_option("--batch", o->pass.batch, "Sequences (model) or GEMM batch (default 1)"),
            OptionRule::kPositive);
  with_rule(sub.add_option("--prompt", o->pass.prompt, "Prompt tokens (prefill)"),
            OptionRule::kPositive);
  with_rule(sub.add_option("--context", o->pass.context, "KV-cache tokens (decode)"),
            OptionRule::kPositive);
  sub.add_option("--log", o->log, "Workload log (text or JSON Lines)");
  sub.add_option("--gemm", o->gemm, "One GEMM M,N,K");
  sub.add_option("--objective", o->settings.objective,
                 "latency (default), energy, dram_bytes or edp");
  sub.add_option("--dataflows", o->dataflows,
                 "Dataflows to search (default: the accelerator's declared dataflow, else "
                 "os,ws,is)");
  sub.add_option("--front", o->front,
                 "exact: the whole Pareto front (default); winner: the auto tilings alone")
      ->check(CLI::IsMember({"exact", "winner"}));
  with_rule(sub.add_option("--dequant-rate", o->settings.eval.dequant_rate,
                           "Dequant unit elements/cycle (0 = default)"),
            OptionRule::kNonNegative);
  add_edge_transfers(sub, o->settings.eval.edge_transfers);
  sub.add_option("--format", o->format, "table (default) or json")
      ->check(CLI::IsMember({"table", "json"}));
  sub.callback([o] { run(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("search",
                       "Best mapping (dataflow, tiles, loop order) per matmul under an objective, "
                       "with the latency/energy Pareto front",
                       setup, 72);

}  // namespace tenet::cli::search_command
