// The shared options (cli/options.hpp): one registration, one description, one rule each.
#include "cli/options.hpp"

#include <fstream>
#include <iostream>

#include "cli/command.hpp"
#include "cli/option_rules.hpp"
#include "mapping/shape_text.hpp"
#include "tenet/error.hpp"

namespace tenet::cli {
namespace {

// --edge-transfers [on|off] (analyze, compare, model, log, bound, tir, generate:
// hw::Options::edge_transfers). Bare or "on": each matmul's first DRAM fill and last write-back
// are charged (the default); "off": SCALE-Sim's convention, both outside the counted cycles.
CLI::Option* add_edge_transfers(CLI::App& app, bool& target) {
  return app
      .add_option_function<std::string>(
          "--edge-transfers",
          [&target](const std::string& v) {
            if (v == "on" || v == "true" || v == "1")
              target = true;
            else if (v == "off" || v == "false" || v == "0")
              target = false;
            else
              throw CLI::ValidationError("--edge-transfers",
                                         "expected on or off, got \"" + v + "\"");
          },
          "systolic timing: charge each matmul's first DRAM fill and last write-back (on, the "
          "default) or leave both outside the counted cycles as SCALE-Sim does (off)")
      ->expected(0, 1)
      ->default_str("on")
      ->type_name("[on|off]");
}

}  // namespace

const std::initializer_list<Setting> kAllSettings = {Setting::kArch,
                                                     Setting::kArray,
                                                     Setting::kDataflow,
                                                     Setting::kQuant,
                                                     Setting::kTiming,
                                                     Setting::kTile,
                                                     Setting::kTilingObjective,
                                                     Setting::kDequantRate,
                                                     Setting::kDequantOpsRate,
                                                     Setting::kEdgeTransfers};

const std::initializer_list<PassOption> kAllPassOptions = {
    PassOption::kPhase, PassOption::kBatch,           PassOption::kPrompt, PassOption::kContext,
    PassOption::kQkv,   PassOption::kGateUp,          PassOption::kLmHead, PassOption::kAttention,
    PassOption::kMla,   PassOption::kAttentionKernel, PassOption::kRouting};

const std::initializer_list<PassOption> kPassLengths = {PassOption::kPhase, PassOption::kBatch,
                                                        PassOption::kPrompt, PassOption::kContext};

CLI::Option* add_setting(CLI::App& sub, eval::Settings& s, Setting which) {
  switch (which) {
    case Setting::kArch:
      return sub.add_option(
          "--arch", s.arch,
          "Accelerator: preset name (configs/arch) or architecture JSON file (default "
          "scalable-32x32)");
    case Setting::kArray:
      return sub.add_option("--array", s.array, "Override the accelerator's PE array shape, RxC");
    case Setting::kDataflow:
      return sub.add_option("--dataflow", s.dataflow,
                            "Dataflow: os, ws or is (default: the accelerator's, else os)");
    case Setting::kQuant:
      return sub.add_option(
          "--quant", s.quant,
          "Quantization scheme(s): preset name (configs/quant) or JSON file; a comma-separated "
          "list compares them side by side (default q0f16, or a log record's scheme)");
    case Setting::kTiming:
      return sub.add_option("--timing", s.timing,
                            "Timing model: systolic (the only one per layer)");
    case Setting::kTile:
      return sub.add_option("--tile", s.tile,
                            "Buffer tiling MxNxK[:ORDER] (0 = whole dimension) for every matmul, "
                            "or auto (default: chosen per matmul to fit the buffer)");
    case Setting::kTilingObjective:
      return sub.add_option("--tiling-objective", s.tiling_objective,
                            "With --tile auto: what each matmul's tiling minimises: latency "
                            "(default), energy, dram_bytes or edp");
    case Setting::kDequantRate:
      return with_rule(
          sub.add_option("--dequant-rate", s.dequant_rate,
                         "Dequant unit throughput, elements/cycle (default: the scheme's, else "
                         "one that keeps up with the array at the scheme's MAC rate: an element "
                         "per array column (is: row) per MAC a PE does per cycle)"),
          OptionRule::kNonNegative);
    case Setting::kDequantOpsRate:
      return with_rule(
          sub.add_option("--dequant-ops-rate", s.dequant_ops_rate,
                         "Dequant unit throughput, ALU ops/cycle (instead of --dequant-rate)"),
          OptionRule::kNonNegative);
    case Setting::kEdgeTransfers:
      return add_edge_transfers(sub, s.edge_transfers);
  }
  throw InternalError("add_setting: an unknown setting");
}

void add_settings(CLI::App& sub, eval::Settings& s, std::initializer_list<Setting> which,
                  const std::string& group) {
  for (Setting w : which) {
    CLI::Option* option = add_setting(sub, s, w);
    if (!group.empty()) option->group(group);
    if (w == Setting::kDequantOpsRate && sub.get_option_no_throw("--dequant-rate"))
      option->excludes("--dequant-rate");
  }
}

CLI::Option* add_pass_option(CLI::App& sub, report::ModelPass& p, PassOption which) {
  const auto one_of = [](std::vector<std::string> values) { return CLI::IsMember(values); };
  switch (which) {
    case PassOption::kPhase:
      return sub.add_option("--phase", p.phase, "prefill (default) or decode")
          ->check(one_of({"prefill", "decode"}));
    case PassOption::kBatch:
      return with_rule(
          sub.add_option("--batch", p.batch, "Sequences processed together (default 1)"),
          OptionRule::kPositive);
    case PassOption::kPrompt:
      return with_rule(sub.add_option("--prompt", p.prompt, "Prompt tokens per sequence (prefill)"),
                       OptionRule::kPositive);
    case PassOption::kContext:
      return with_rule(sub.add_option("--context", p.context,
                                      "Tokens in the KV cache attended by the new token (decode)"),
                       OptionRule::kPositive);
    case PassOption::kQkv:
      return sub.add_option("--qkv", p.qkv, "fused (default) or separate Q, K, V projections")
          ->check(one_of({"fused", "separate"}));
    case PassOption::kGateUp:
      return sub
          .add_option("--gate-up", p.gate_up, "fused (default) or separate gate and up projections")
          ->check(one_of({"fused", "separate"}));
    case PassOption::kLmHead:
      return sub
          .add_option("--lm-head", p.lm_head,
                      "Prefill logits of the last token (default) or of all")
          ->check(one_of({"last", "all"}));
    case PassOption::kAttention:
      return sub
          .add_option("--attention", p.attention,
                      "Prefill attention: causal (default; the tiles of a blocked kernel) or dense")
          ->check(one_of({"causal", "dense"}));
    case PassOption::kMla:
      return sub
          .add_option("--mla", p.mla,
                      "Multi-head latent attention path: naive or absorbed (default: naive in "
                      "prefill, absorbed in decode)")
          ->check(one_of({"naive", "absorbed"}));
    case PassOption::kAttentionKernel:
      return sub
          .add_option("--attention-kernel", p.attention_kernel,
                      "Attention as one fused kernel per layer (default: fused; scores on chip) or "
                      "as the two matmuls qk and pv (unfused; scores through DRAM)")
          ->check(one_of({"fused", "unfused"}));
    case PassOption::kRouting:
      return sub.add_option(
          "--routing", p.routing,
          "MoE routing: uniform (default) or a JSON file {\"tokens_per_expert\": [...]}");
  }
  throw InternalError("add_pass_option: an unknown option");
}

void add_pass_options(CLI::App& sub, report::ModelPass& p,
                      std::initializer_list<PassOption> which) {
  for (PassOption w : which) add_pass_option(sub, p, w);
}

CLI::Option* add_model_option(CLI::App& sub, std::string& model) {
  return sub.add_option("--model", model,
                        "Hugging Face config.json, or a bundled model's name (workloads/models: "
                        "e.g. llama-2-7b)");
}

CLI::Option* add_gemm_option(CLI::App& sub, std::string& gemm) {
  return sub.add_option("--gemm", gemm, "One GEMM M,N,K (A is MxK, B is KxN, C is MxN)");
}

CLI::Option* add_accumulate_flag(CLI::App& sub, bool& accumulate) {
  return sub.add_flag(
      "--accumulate", accumulate,
      "C = C + A·B: C is read (from DRAM, before its first update) as well as written");
}

CLI::Option* add_dataflows_option(CLI::App& sub, std::string& dataflows) {
  return sub.add_option(
      "--dataflows", dataflows,
      "Dataflows searched (default: the accelerator's declared dataflow, else os,ws,is)");
}

CLI::Option* add_output_option(CLI::App& sub, std::string& path) {
  return sub.add_option("--output", path,
                        "write the report to this file instead of standard output");
}

void write_output(const std::string& text, const std::string& path, const std::string& what) {
  if (path.empty()) {
    std::cout << text << std::flush;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw InputError(error_code::kIo, path, "--output", "cannot write " + what);
}

CLI::Option* add_format_option(CLI::App& sub, std::string& format, const std::string& description,
                               const std::vector<std::string>& formats) {
  CLI::Option* option = sub.add_option("--format", format, description);
  if (!formats.empty()) option->check(CLI::IsMember(formats));
  return option;
}

void add_listing_options(CLI::App& sub, command::ListingArgs& listing, std::string& format) {
  add_format_option(sub, format, "Output: table (default), json or csv", {"table", "json", "csv"});
  sub.add_flag("--shapes-only,--list", listing.shapes_only,
               "List the matmuls (shapes and counts) without evaluating their cost");
  sub.add_flag("--merge-shapes", listing.merge_shapes,
               "Merge entries with identical calls (names joined with '+')");
  add_settings(sub, listing.cost, kAllSettings);
}

std::array<std::int64_t, 3> gemm_of(const std::string& text) {
  const mapping::GemmShape g =
      with_location("--gemm", [&] { return mapping::parse_gemm_shape(text); });
  return {g.m, g.n, g.k};
}

io::ReportFormat format_of(const std::string& text) {
  return with_location("--format", [&] { return io::parse_report_format(text); });
}

command::MatmulSource matmul_source(const std::string& gemm, const std::string& model,
                                    const std::string& log, const report::ModelPass& pass) {
  command::MatmulSource source;
  if (!gemm.empty()) source.gemm = gemm_of(gemm);
  source.model = model;
  source.log = log;
  source.pass = pass;
  return source;
}

}  // namespace tenet::cli
