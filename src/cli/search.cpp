// `tenet search`: the best mapping (dataflow, tile sizes, loop order) of every matmul of a model,
// a log or one GEMM, under an objective, with the Pareto front. The work is in tenet::sweep.
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "command/commands.hpp"
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
  args.format = format_of(o.format);
  std::cout << command::search(args);
}

void setup(CLI::App& sub) {
  auto o = std::make_shared<SearchCliOptions>();
  add_setting(sub, o->settings.eval, Setting::kArch);
  add_setting(sub, o->settings.eval, Setting::kQuant)
      ->description(
          "Quantization scheme: preset name (configs/quant) or JSON file (default q0f16)");
  add_model_option(sub, o->model);
  add_pass_options(sub, o->pass, kPassLengths);
  sub.get_option("--batch")->description("Sequences (model) or GEMM batch (default 1)");
  sub.add_option("--log", o->log, "Workload log (text or JSON Lines)");
  add_gemm_option(sub, o->gemm);
  sub.add_option("--objective", o->settings.objective,
                 "latency (default), energy, dram_bytes or edp");
  add_dataflows_option(sub, o->dataflows);
  sub.add_option("--front", o->front,
                 "exact: the whole Pareto front (default); winner: the auto tilings alone")
      ->check(CLI::IsMember({"exact", "winner"}));
  add_setting(sub, o->settings.eval, Setting::kDequantRate);
  add_setting(sub, o->settings.eval, Setting::kEdgeTransfers);
  add_format_option(sub, o->format, "table (default) or json", {"table", "json"});
  sub.callback([o] { run(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("search",
                       "Best mapping (dataflow, tiles, loop order) per matmul under an objective, "
                       "with the latency/energy Pareto front",
                       setup, 72);

}  // namespace tenet::cli::search_command
