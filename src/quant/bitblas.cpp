#include "tenet/quant/bitblas.hpp"

#include <fmt/format.h>

#include "json_fields.hpp"
#include "tenet/error.hpp"

namespace tenet::quant {
namespace {

using detail::Fields;
using nlohmann::json;

long long positive(const Fields& f, const json& v, const std::string& where, const char* what) {
  const long long value = f.as_integer(v, where);
  if (value <= 0)
    throw InputError(error_code::kRange, f.file(), where,
                     fmt::format("expected {} > 0, got {}", what, value));
  return value;
}

std::vector<long long> parse_m(const Fields& f) {
  const json& m = f.at("M");
  if (!m.is_array()) return {positive(f, m, f.where("M"), "M")};
  if (m.empty())
    throw InputError(error_code::kRange, f.file(), f.where("M"), "expected at least one M");
  std::vector<long long> values;
  for (std::size_t i = 0; i < m.size(); ++i)
    values.push_back(positive(f, m[i], f.where("M") + "/" + std::to_string(i), "M"));
  return values;
}

DataType dtype_field(const Fields& f, const char* key) {
  return parse_data_type(f.string(key), f.file(), f.where(key));
}

// The stored weight type from bit + source_format.
DataType weight_type(const Fields& f, int bit) {
  const std::string format = f.has("source_format") ? f.string("source_format") : "uint";
  try {
    if (format == "uint") return DataType::unsigned_int(bit);
    if (format == "int") return DataType::signed_int(bit);
    if (format == "fp" && bit == 4) return DataType::floating(2, 1);
    if (format == "fp" && bit == 8) return DataType::fp8_e4m3();
    if (format == "nf" && bit == 4) return DataType::nf4();
  } catch (const InputError& e) {
    throw e.located(f.file(), f.where("bit"));
  }
  if (format == "fp" || format == "nf")
    throw InputError(error_code::kRange, f.file(), f.where("bit"),
                     fmt::format("source_format \"{}\" supports bit {}, got {}", format,
                                 format == "fp" ? "4 (e2m1) or 8 (e4m3)" : "4", bit));
  throw InputError(
      error_code::kUnknownName, f.file(), f.where("source_format"),
      fmt::format("unknown source_format \"{}\", expected one of uint, int, fp, nf", format));
}

PackAxis packing_axis(const Fields& f) {
  const std::string layout = f.has("layout") ? f.string("layout") : "nt";
  if (layout == "nt") return PackAxis::kK;  // B stored N×K: contiguous along K
  if (layout == "nn") return PackAxis::kN;  // B stored K×N: contiguous along N
  throw InputError(error_code::kUnknownName, f.file(), f.where("layout"),
                   fmt::format("unknown layout \"{}\", expected one of nt, nn", layout));
}

std::optional<Packing> packing_for(const Fields& f, const DataType& weights) {
  const DataType storage = dtype_field(f, "storage_dtype");
  if (!storage.is_integer())
    throw InputError(error_code::kRange, f.file(), f.where("storage_dtype"),
                     "expected an integer storage type (int8, uint32, ...)");
  if (storage.bits() < weights.bits())
    throw InputError(
        error_code::kRange, f.file(), f.where("storage_dtype"),
        fmt::format("{} cannot hold {}-bit values", to_string(storage), weights.bits()));
  if (storage.bits() == weights.bits()) return std::nullopt;
  return Packing{storage.bits(), storage.bits() / weights.bits(), packing_axis(f), false};
}

ScaleLevel scale_level(const Fields& f, const DataType& in, const DataType& weights) {
  ScaleLevel level;
  const long long group = f.has("group_size") ? f.integer("group_size") : -1;
  if (group == -1) {
    level.granularity = Granularity::kPerChannel;
  } else if (group <= 0) {
    throw InputError(error_code::kRange, f.file(), f.where("group_size"),
                     fmt::format("expected group_size > 0 or -1 (per channel), got {}", group));
  } else {
    level.granularity = Granularity::kGroup;
    level.group_size = group;
  }
  level.dtype = in;
  if (!f.boolean("with_zeros", false)) return level;
  const std::string mode = f.has("zeros_type") ? f.string("zeros_type") : "original";
  if (mode == "original")
    level.zero_mode = ZeroMode::kOriginal;
  else if (mode == "rescale")
    level.zero_mode = ZeroMode::kRescale;
  else if (mode == "quantized")
    level.zero_mode = ZeroMode::kQuantized;
  else
    throw InputError(error_code::kUnknownName, f.file(), f.where("zeros_type"),
                     fmt::format("unknown zeros_type \"{}\", expected one of original, rescale, "
                                 "quantized",
                                 mode));
  level.zero =
      level.zero_mode == ZeroMode::kQuantized ? DataType::unsigned_int(weights.bits()) : in;
  return level;
}

void quantize_weights(const Fields& f, QuantSpec& spec) {
  const long long bit = f.integer("bit");
  if (bit <= 0 || bit > 32)
    throw InputError(error_code::kRange, f.file(), f.where("bit"),
                     fmt::format("expected bit in [1, 32], got {}", bit));
  spec.weights.dtype = weight_type(f, static_cast<int>(bit));
  spec.weights.packing = packing_for(f, spec.weights.dtype);
  const bool scaling = f.boolean("with_scaling", false);
  if (!scaling && f.boolean("with_zeros", false))
    throw InputError(error_code::kRange, f.file(), f.where("with_zeros"),
                     "with_zeros needs with_scaling: true");
  if (scaling)
    spec.weights.scales.push_back(scale_level(f, spec.activations.dtype, spec.weights.dtype));
  spec.dequant.placement = DequantPlacement::kSramToArray;
}

void reject_quant_only_keys(const Fields& f) {
  for (const char* key :
       {"storage_dtype", "source_format", "with_scaling", "with_zeros", "group_size", "zeros_type"})
    if (f.has(key))
      throw InputError(error_code::kRange, f.file(), f.where(key),
                       fmt::format("\"{}\" needs \"bit\" (quantized weights)", key));
}

}  // namespace

std::vector<mapping::GemmShape> BitblasMatmul::shapes() const {
  std::vector<mapping::GemmShape> out;
  for (long long mm : m) out.push_back(mapping::GemmShape{mm, n, k});
  return out;
}

namespace {

// Reads the matmul and its quantization (the first wrong field stops it).
void read_matmul(const Fields& f, BitblasMatmul& out) {
  out.m = parse_m(f);
  out.n = positive(f, f.at("N"), f.where("N"), "N");
  out.k = positive(f, f.at("K"), f.where("K"), "K");
  for (const char* key : {"with_bias", "fast_decoding", "propagate_a", "propagate_b"})
    f.boolean(key, false);  // type-checked, no effect on the cost
  QuantSpec& spec = out.spec;
  spec.name = f.optional_string("name").value_or("bitblas");
  spec.source = f.optional_string("source").value_or("BitBLAS matmul config");
  spec.activations.dtype = dtype_field(f, "in_dtype");
  spec.output.dtype = f.has("out_dtype") ? dtype_field(f, "out_dtype") : spec.activations.dtype;
  spec.accumulator = f.has("accum_dtype") ? dtype_field(f, "accum_dtype") : spec.activations.dtype;
  spec.weights.dtype = spec.activations.dtype;
  packing_axis(f);  // validates layout
  if (f.has("bit"))
    quantize_weights(f, spec);
  else
    reject_quant_only_keys(f);
}

}  // namespace

bool is_bitblas_config(const json& document) {
  return document.is_object() && document.contains("N") && document.contains("K");
}

BitblasMatmul parse_bitblas(const json& document, const std::string& file) {
  io::JsonProblems problems(file);
  const Fields f(document, problems, "");
  f.allow_only({"M",
                "N",
                "K",
                "in_dtype",
                "out_dtype",
                "accum_dtype",
                "layout",
                "bit",
                "storage_dtype",
                "source_format",
                "with_scaling",
                "with_zeros",
                "group_size",
                "zeros_type",
                "with_bias",
                "fast_decoding",
                "propagate_a",
                "propagate_b",
                "name",
                "source"});
  BitblasMatmul out;
  f.collect([&] { read_matmul(f, out); });
  problems.throw_if_any();
  validate(out.spec, file);
  return out;
}

}  // namespace tenet::quant
