// `tenet compare --quant q0f16,q4f16_1,...`: one GEMM on one accelerator under several
// quantization schemes, side by side (docs/quantization.md#tenet-compare).
#include <fmt/core.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include "cli/option_rules.hpp"
#include "tenet/arch/accelerator_presets.hpp"
#include "tenet/error.hpp"
#include "tenet/io/shape_text.hpp"
#include "tenet/llm/evaluate_layer.hpp"
#include "tenet/mapping/tiling.hpp"
#include "tenet/quant/quant_hw.hpp"
#include "tenet/quant/quant_hw_format.hpp"
#include "tenet/quant/quant_json.hpp"

namespace tenet::cli {
namespace {

struct CompareOptions {
  std::string quant, gemm, arch, array, dataflow = "ws", tile = "auto", format = "table", output;
  std::string tiling_objective;  // empty: latency
  long long dequant_rate = 0, dequant_ops_rate = 0;
  bool kv = false;
  bool edge_transfers = false;
  std::string kv_token_axis = "n";
};

quant::QuantHwOptions hw_options(const CompareOptions& o) {
  quant::QuantHwOptions q;
  q.dequant_elements_per_cycle = o.dequant_rate;
  q.dequant_ops_per_cycle = o.dequant_ops_rate;
  if (o.tile == "auto")
    q.choose_tiling = true;
  else
    q.tiling = mapping::parse_tiling(o.tile, "--tile");
  q.tiling_objective = llm::tiling_objective_for(o.tiling_objective, o.tile);
  q.hw.edge_transfers = o.edge_transfers;
  if (o.kv) {
    q.apply.b = quant::BOperand::kKvCache;
    if (o.kv_token_axis != "n" && o.kv_token_axis != "k")
      throw InputError(
          error_code::kUnknownName, "", "--kv-token-axis",
          "expected n (K cache in Q·Kᵀ) or k (V cache in P·V), got \"" + o.kv_token_axis + "\"");
    q.apply.kv_token_axis =
        o.kv_token_axis == "n" ? quant::KvTokenAxis::kN : quant::KvTokenAxis::kK;
  }
  return q;
}

void write(const std::string& text, const std::string& path) {
  if (path.empty()) {
    std::cout << text << std::flush;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw InputError(error_code::kIo, path, "--output", "cannot write the comparison");
}

void run_compare(const CompareOptions& o) {
  if (o.format != "table" && o.format != "json")
    throw InputError(error_code::kUnknownName, "", "--format",
                     "expected table or json, got \"" + o.format + "\"");
  const mapping::GemmShape shape =
      with_location("--gemm", [&] { return io::parse_gemm_shape(o.gemm); });
  if (shape.m <= 0 || shape.n <= 0 || shape.k <= 0)
    throw InputError(error_code::kRange, "", "--gemm",
                     "expected M, N, K > 0, got \"" + o.gemm + "\"");
  arch::Accelerator acc =
      with_location("--arch", [&] { return arch::load_accelerator_preset(o.arch); });
  if (!o.array.empty()) {
    const auto [rows, cols] = arch::parse_array_shape(o.array, "--array");
    acc = arch::with_array_shape(acc, rows, cols);
  }
  const mapping::Dataflow dataflow =
      with_location("--dataflow", [&] { return mapping::parse_dataflow(o.dataflow); });
  const quant::QuantHwOptions options = hw_options(o);
  std::vector<quant::QuantHwResult> results;
  for (const std::string& scheme : split_scheme_list(o.quant)) {
    const quant::QuantSpec spec = with_location("--quant", [&] { return quant::load_quant(scheme); });
    results.push_back(quant::evaluate_quant_gemm(acc, shape, spec, dataflow, options));
  }
  write(o.format == "json" ? quant::comparison_json(results).dump(2) + "\n"
                           : quant::format_comparison(results),
        o.output);
}

void setup_compare(CLI::App& sub) {
  auto o = std::make_shared<CompareOptions>();
  sub.add_option("--quant", o->quant, "comma-separated schemes: preset names or JSON files")
      ->required();
  sub.add_option("--gemm", o->gemm, "GEMM M,N,K (A is MxK activations, B is KxN weights)")
      ->required();
  sub.add_option("--arch", o->arch, "accelerator: preset name (configs/arch) or JSON file")
      ->required();
  sub.add_option("--array", o->array, "override the PE array shape, RxC");
  sub.add_option("--dataflow", o->dataflow, "os, ws (default) or is");
  sub.add_option("--tile", o->tile, "buffer tiling MxNxK[:order], or auto (default: chosen)");
  sub.add_option("--tiling-objective", o->tiling_objective,
                 "with --tile auto: what the chosen tiling minimises: latency (default), energy, "
                 "dram_bytes or edp");
  with_rule(sub.add_option("--dequant-rate", o->dequant_rate,
                           "dequant unit throughput, elements per cycle (overrides the scheme's)"),
            OptionRule::kNonNegative);
  sub.add_flag("--edge-transfers", o->edge_transfers, kEdgeTransfersHelp);
  with_rule(sub.add_option("--dequant-ops-rate", o->dequant_ops_rate,
                           "dequant unit throughput, ALU ops per cycle (overrides the scheme's)")
                ->excludes("--dequant-rate"),
            OptionRule::kNonNegative);
  sub.add_flag("--kv", o->kv, "B is a KV-cache tensor (uses the scheme's kv_cache operand)");
  sub.add_option("--kv-token-axis", o->kv_token_axis,
                 "with --kv: n (K cache in Q·Kᵀ, default) or k (V cache in P·V)");
  sub.add_option("--format", o->format, "table (default) or json");
  sub.add_option("--output", o->output, "write to this file instead of standard output");
  sub.callback([o] {
    if (o->dequant_rate < 0 || o->dequant_ops_rate < 0)
      throw InputError(error_code::kRange, "",
                       o->dequant_rate < 0 ? "--dequant-rate" : "--dequant-ops-rate",
                       "expected a throughput > 0");
    run_compare(*o);
  });
}

}  // namespace

TENET_REGISTER_COMMAND("compare",
                       "One GEMM under several quantization schemes side by side (cycles, bound, "
                       "bytes per level, energy, speed-up)",
                       setup_compare, 20);

}  // namespace tenet::cli
