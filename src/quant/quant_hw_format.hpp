// Presenting products (quantized or the identity scheme): JSON (keys in docs/quantization.md), a
// table for one scheme and the side-by-side comparison of several (`tenet compare --quant`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tenet/quant/quant_hw.hpp"

namespace tenet::quant {

// hw::to_json(result.hw) with the product's bound (compute | sram | dram | dequant), overlaid for
// a scheme with the quantization's view (the identity scheme has none): cycles.total (dequant unit
// included), cycles.dequant, busy_cycles.dequant,
// "quant" {scheme, mac_precision, effective_bits_per_weight, weight_bytes}, "dequant" {ops,
// cycles, elements, ops_per_element, placement}, "epilogue" {ops}, "rescale" {ops},
// "zero_sums" {ops}, "quantize" {activation_ops, output_ops}, "bytes" {dram, sram,
// register_file}, "dram_bytes", "energy_pj" with the full breakdown, and per tensor (scale and
// zero tensors as their own entries "B.scale", "B.zero", "A.scale", ...): bits (per value),
// storage_bits, elements, words, dram_bytes, sram_bytes, register_file_bytes, dram_waste_bytes,
// sram_waste_bytes.
nlohmann::json to_json(const ProductResult& result);
// The same keys written into an existing report (quantization values replace hardware ones).
void merge_into(nlohmann::json& report, const ProductResult& result);
// hw::array_use_note of the product's array under the product's bound ("" when none).
std::string array_use_note(const ProductResult& result);
// `precision_fallback`: null, or {"requested": multiplier type, "used": the MAC precision}.
nlohmann::json precision_fallback_json(const std::optional<PrecisionFallback>& fallback);
// The quantization's lines under hw::format_table(result.hw) ("" for the identity scheme).
std::string format_table(const ProductResult& result);

// A scheme of a comparison that could not be costed on the accelerator: its place in the list
// of schemes, its name and why (the error's message).
struct UncostedScheme {
  std::size_t position = 0;
  std::string scheme;
  std::string reason;
};

// One row per scheme: cycles, bound, bytes per level, energy, speed-up and energy ratio vs the
// first row, and `unsupported` (null). The `uncosted` schemes are rows at their positions with
// only `scheme` and `unsupported` (the reason); the table shows them as "unsupported: reason".
nlohmann::json comparison_json(const std::vector<ProductResult>& results,
                               const std::vector<UncostedScheme>& uncosted = {});
std::string format_comparison(const std::vector<ProductResult>& results,
                              const std::vector<UncostedScheme>& uncosted = {});

}  // namespace tenet::quant
