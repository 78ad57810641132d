// `tenet kernel --attention HQ,HKV,Q,KV,D | --ffn S,H,I`: one fused kernel on one accelerator
// (docs/cli.md#tenet-kernel): options -> command::KernelArgs -> command::kernel.
#include "command/kernel.hpp"

#include <fmt/core.h>

#include <iostream>
#include <memory>
#include <vector>

#include "cli/command.hpp"
#include "tenet/error.hpp"

// The command's own namespace: src/cli is compiled in unity batches (CMakeLists.txt).
namespace tenet::cli::kernel_command {
namespace {

struct KernelOptions {
  std::string ffn, attention, activation, scores, format = "table";
  bool bias = false, causal = false, relation_centric = false;
  std::optional<std::int64_t> window;
  eval::Settings settings;
};

// "a,b,c" -> `count` integers; InputError(range, option) naming what was expected.
std::vector<std::int64_t> sizes(const std::string& text, std::size_t count, const char* option,
                                const char* names) {
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size())
      throw InputError(error_code::kRange, "", option,
                       fmt::format("expected {} integers {}, got \"{}\"", count, names, text));
    out.push_back(v);
    start = comma + 1;
  }
  if (out.size() != count)
    throw InputError(error_code::kRange, "", option,
                     fmt::format("expected {} integers {}, got \"{}\"", count, names, text));
  return out;
}

void run_kernel(const KernelOptions& o) {
  command::KernelArgs args;
  if (!o.ffn.empty()) {
    const auto v = sizes(o.ffn, 3, "--ffn", "S,H,I");
    args.ffn = std::array<std::int64_t, 3>{v[0], v[1], v[2]};
  }
  if (!o.attention.empty()) {
    const auto v = sizes(o.attention, 5, "--attention", "HQ,HKV,Q,KV,D");
    args.attention = std::array<std::int64_t, 5>{v[0], v[1], v[2], v[3], v[4]};
  }
  args.activation = o.activation;
  args.bias = o.bias;
  args.causal = o.causal;
  args.window = o.window;
  args.scores = o.scores;
  args.relation_centric = o.relation_centric;
  args.settings = o.settings;
  warn_implausible_arch(o.settings.arch);
  args.format = with_location("--format", [&] { return io::parse_report_format(o.format); });
  std::cout << command::kernel(args) << std::flush;
}

void setup_kernel(CLI::App& sub) {
  auto o = std::make_shared<KernelOptions>();
  sub.add_option("--ffn", o->ffn, "an MLP kernel: S,H,I (tokens, hidden, intermediate)");
  sub.add_option("--activation", o->activation,
                 "with --ffn: silu_gated (X·[W_gate|W_up], SiLU(gate)·up, ·W_down) or gelu");
  sub.add_flag("--bias", o->bias, "with --ffn: bias vectors after both matmuls");
  sub.add_option("--attention", o->attention,
                 "an attention kernel: HQ,HKV,Q,KV,D (query heads, KV heads, queries, keys, head "
                 "dim)");
  sub.add_flag("--causal", o->causal,
               "with --attention: causal mask; the queries are the last Q of KV positions");
  sub.add_option("--window", o->window,
                 "with --attention --causal: a sliding window, query i sees the W keys up to "
                 "KV - Q + i");
  sub.add_option("--scores", o->scores,
                 "with --attention: chip (default: the chip's own; causal on chip, non-causal as "
                 "the accelerator's fusion.non_causal_attention says), on_chip (online softmax), "
                 "dram (S and P through DRAM) or materialised (S and P of every head whole: on "
                 "chip while they fit, spilled when not)");
  sub.add_flag("--relation-centric", o->relation_centric,
               "also count the chosen blocking from the chain's isl relations (checked against "
               "the closed forms; JSON relation_counts)");
  eval::Settings& s = o->settings;
  sub.add_option("--arch", s.arch,
                 "Accelerator: preset name or architecture JSON file (default scalable-32x32)");
  sub.add_option("--array", s.array, "Override the accelerator's PE array shape, RxC");
  sub.add_option("--dataflow", s.dataflow,
                 "Dataflow: os, ws or is (default: the accelerator's, else os)");
  sub.add_option("--quant", s.quant,
                 "Quantization scheme: preset name or JSON file (default q0f16); weights for "
                 "--ffn, the KV cache for --attention");
  sub.add_option("--dequant-rate", s.dequant_rate, "Dequant unit throughput, elements/cycle");
  sub.add_option("--dequant-ops-rate", s.dequant_ops_rate,
                 "Dequant unit throughput, ALU ops/cycle (instead of --dequant-rate)")
      ->excludes("--dequant-rate");
  sub.add_option("--format", o->format, "table (default), json or csv");
  sub.callback([o] { run_kernel(*o); });
}

}  // namespace

TENET_REGISTER_COMMAND("kernel",
                       "One fused kernel (attention or MLP) on one accelerator: blocking, time, "
                       "bytes per level and tensor, intermediates on chip or spilled",
                       setup_kernel, 25);

}  // namespace tenet::cli::kernel_command
